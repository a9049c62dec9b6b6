"""Expectation comparison: sets, multisets, discard options, subsets, readable diffs."""

from __future__ import annotations

import pytest

from conformance.compare import check_expectations, state_diff
from conformance.notation import NotationError, card, cards, normalize_action

STATE = {
    "phase": "playing", "to_act": 1, "privileged": None,
    "legal": {"actions": ["play Sup8", "play Sup3 Sup4 Sup5"], "discard": {"count": 2, "from": "Gon1 Gon2 Zok3"}},
    "elders": "Sup9 Gon9", "tricks": [3, 0, 0, 0],
    "hands": ["Sup1 Sup2", "Gon1 Gon2 Zok3", "Sin9", ""],
    "result": None, "game": None,
}


def keys(expect):
    return [m.key for m in check_expectations(expect, STATE)]


def test_notation_accepts_short_forms_and_case():
    assert cards("s3 SUP4 g7 z9 n1 w WanSin") == ["Sup3", "Sup4", "Gon7", "Zok9", "Sin1", "WanSin", "WanSin"]
    assert normalize_action("PLAY sup5 s3 S4") == "play Sup3 Sup4 Sup5"
    assert normalize_action("shout") == "shout"
    with pytest.raises(NotationError):
        card("Sup0")


def test_matching_expectations_give_no_mismatch():
    assert keys({"phase": "playing", "to_act": 1, "privileged": None, "tricks": [3, 0, 0, 0],
                 "legal": {"actions": ["play s5 s4 s3", "play Sup8"], "discard": {"count": 2, "from": "Zok3 Gon2 Gon1"}},
                 "legal_includes": ["discard Gon1 Zok3"], "legal_excludes": ["discard Gon1 Gon1", "discard Sin9 Gon1", "pass"],
                 "elders": "Gon9 Sup9", "elders_include": ["Sup9"], "elders_exclude": "Sup8",
                 "hands": {"0": "Sup2 Sup1", "3": ""}}) == []


def test_discard_option_compared_by_count_and_set():
    [m] = check_expectations({"legal": {"actions": ["play Sup8", "play Sup3 Sup4 Sup5"],
                                        "discard": {"count": 3, "from": "Gon1 Gon2"}}}, STATE)
    assert m.key == "legal"
    assert "discard expected: {count: 3, from: Gon1 Gon2}" in m.diff
    assert "discard from extra:   Zok3" in m.diff


def test_discard_option_absent_means_null():
    [m] = check_expectations({"legal": {"actions": ["play Sup8", "play Sup3 Sup4 Sup5"]}}, STATE)
    assert "discard actual:   {count: 2, from: Gon1 Gon2 Zok3}" in m.diff


def test_legal_excludes_and_elders_membership():
    ms = check_expectations({"legal_excludes": ["play Sup8"], "elders_include": "Sup8 Sup9"}, STATE)
    assert [m.key for m in ms] == ["legal_excludes", "elders_include"]
    assert ms[0].diff[0] == "legal but expected not legal: play Sup8"
    assert ms[1].diff[0] == "not Elders but expected to be: Sup8"


def test_result_subset_and_types():
    assert keys({"result": {"end": "void"}}) == ["result"]
    state = dict(STATE, result={"end": "void", "winner": None, "counts": False, "deltas": [0, 0, 0, 0]})
    assert check_expectations({"result": {"end": "void", "counts": False}}, state) == []
    [m] = check_expectations({"result": {"counts": 0, "deltas": [1, -1, 0, 0]}}, state)
    assert m.diff == ("counts: expected 0, actual false", "deltas: expected [1, -1, 0, 0], actual [0, 0, 0, 0]")


def test_game_subset_reports_fields_the_engine_lacks():
    state = dict(STATE, game={"hand": 4, "deals": 5, "scores": [1, -1, 0, 0], "results": []})
    [m] = check_expectations({"game": {"hands_played": 4, "scores": [1, -1, 0, 0]}}, state)
    assert m.diff == ("hands_played: expected 4, absent from the engine's game",)


def test_state_diff_lists_changed_fields():
    after = dict(STATE, to_act=3)
    assert state_diff(STATE, after) == ["to_act: before 1", "        after  3"]
