"""The `observe` expectation compares only the fields it names (OBS-1)."""

from __future__ import annotations

from conformance.compare import check_expectations

OBSERVATION = {
    "seat": 0, "hand": "Sup3 Gon6", "hand_sizes": [2, 2, 1, 2], "dreamer_card": None,
    "history": [{"seat": 3, "action": "discard", "count": 3}], "tricks": [0, 3, 0, 0],
    "elders": "Sup1 Sin1 WanSin Sup9 Gon9 Zok9 Sin9",
}


def test_matching_fields_pass_in_any_card_order_and_spelling() -> None:
    expect = {"observe": [{"seat": 0, "hand": "g6 sup3", "history": [{"seat": 3, "action": "discard", "count": 3}]}]}
    assert check_expectations(expect, {}, {0: OBSERVATION}) == []


def test_a_leaked_discard_is_reported_with_both_sides() -> None:
    leaked = dict(OBSERVATION, history=[{"seat": 3, "action": "discard Sin1 Sin2 Sin3"}])
    expect = {"observe": [{"seat": 0, "history": [{"seat": 3, "action": "discard", "count": 3}]}]}
    [mismatch] = check_expectations(expect, {}, {0: leaked})
    assert mismatch.key == "observe.0"
    assert any("discard Sin1 Sin2 Sin3" in line for line in mismatch.diff)


def test_a_visible_dreamer_card_fails_an_expected_null() -> None:
    expect = {"observe": [{"seat": 0, "dreamer_card": None}]}
    [mismatch] = check_expectations(expect, {}, {0: dict(OBSERVATION, dreamer_card="Gon8")})
    assert "Gon8" in " ".join(mismatch.diff)


def test_a_missing_observation_is_a_mismatch() -> None:
    [mismatch] = check_expectations({"observe": [{"seat": 2, "tricks": [0, 0, 0, 0]}]}, {}, {})
    assert mismatch.key == "observe.2"
