"""reference_engine.actions: action notation and the compact legal-action form."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_engine import Action, Cards, DiscardOption, LegalActions, MalformedError

from .support import ALL_NAMES

BARE = ["call", "pass", "claim", "continue", "tigers", "decline"]


@pytest.mark.parametrize("verb", BARE)
def test_bare_verbs_round_trip(verb: str) -> None:
    action = Action.parse(verb)
    assert action.verb == verb and action.mask == 0
    assert str(action) == verb
    assert Action.parse(str(action)) == action
    assert eval(repr(action)) == action
    assert Action.parse(verb.upper()) == action


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["play", "discard"]), st.sets(st.sampled_from(ALL_NAMES), min_size=1, max_size=12))
def test_card_actions_round_trip(verb: str, names: set[str]) -> None:
    action = Action.parse(f"{verb} {' '.join(names)}")
    assert action.verb == verb
    assert action.cards == Cards.parse(" ".join(names))
    assert str(action) == f"{verb} {action.cards}"  # canonical card order
    assert Action.parse(str(action)) == action
    assert eval(repr(action)) == action
    assert hash(Action.parse(str(action))) == hash(action)


def test_parse_normalises_case_order_and_short_forms() -> None:
    assert str(Action.parse("PLAY gon5 G3 gon4")) == "play Gon3 Gon4 Gon5"
    assert str(Action.parse("  discard  W   n1 ")) == "discard Sin1 WanSin"


@pytest.mark.parametrize(
    "text, named",
    [
        ("", "''"),
        ("   ", "'   '"),
        ("jump", "jump"),
        ("play", "play"),
        ("discard", "discard"),
        ("play Sup3 Sup3", "Sup3"),
        ("play Sup3 Sop4", "Sop4"),
        ("call Sup3", "call Sup3"),
        ("pass now", "pass now"),
        ("claim 6", "claim 6"),
    ],
)
def test_malformed_actions_name_the_input(text: str, named: str) -> None:
    for _again in range(2):  # a refused text is refused every time (parse keeps only what it read)
        with pytest.raises(MalformedError) as info:
            Action.parse(text)
        assert named in str(info.value)
        assert info.value.kind == "malformed"


def test_parse_gives_each_text_its_own_action_every_time() -> None:
    """Parsed actions are kept by their text: the same text, the same action; another spelling, its own."""
    texts = ["play Sup3", "PLAY sup3", "play Sup4", "discard Sup3", "play  Sup3 ", "call", "CALL", "pass"]
    first = [Action.parse(t) for t in texts]
    assert [str(a) for a in first] == ["play Sup3", "play Sup3", "play Sup4", "discard Sup3", "play Sup3",
                                       "call", "call", "pass"]
    assert [Action.parse(t) for t in texts] == first


class _Text(str):
    """A subclass of str (which may compare or hash as it likes: parse does not keep it)."""


def test_parse_reads_a_str_subclass_as_its_text() -> None:
    assert Action.parse(_Text("play Gon2")) == Action.parse("play Gon2")


def test_sort_key_orders_by_verb_then_size_then_cards() -> None:
    actions = [Action.parse(t) for t in ["play Sup3 Sup4 Sup5", "discard Sup1", "play Gon2", "pass", "play Sup2", "call"]]
    ordered = sorted(actions, key=Action.sort_key)
    assert [str(a) for a in ordered] == ["call", "pass", "play Sup2", "play Gon2", "play Sup3 Sup4 Sup5", "discard Sup1"]


def test_discard_option_allows_exactly_count_cards_of_its_pool() -> None:
    pool = Cards.parse("Sup1 Sup2 Gon3 Zok4 WanSin")
    option = DiscardOption(2, pool.mask)
    assert option.allows(Cards.parse("Sup1 WanSin").mask)
    assert not option.allows(Cards.parse("Sup1").mask)
    assert not option.allows(Cards.parse("Sup1 Sup2 Gon3").mask)
    assert not option.allows(Cards.parse("Sup1 Sin9").mask)
    expanded = list(option.expand())
    assert len(expanded) == option.size() == comb(5, 2)
    assert len(set(expanded)) == len(expanded)
    assert all(a.verb == "discard" and option.allows(a.mask) for a in expanded)
    assert expanded == sorted(expanded, key=Action.sort_key)


def test_legal_actions_contains_len_iter_bool() -> None:
    concrete = (Action.parse("play Sup5"), Action.parse("play Sup6"))
    legal = LegalActions(concrete, DiscardOption(1, Cards.parse("Gon1 Gon2 Gon3").mask))
    assert Action.parse("play Sup5") in legal
    assert Action.parse("discard Gon2") in legal
    assert Action.parse("discard Sup5") not in legal
    assert Action.parse("discard Gon1 Gon2") not in legal
    assert Action.parse("play Gon1") not in legal
    assert "play Sup5" not in legal  # only Action objects
    assert len(legal) == 5
    assert {str(a) for a in legal} == {"play Sup5", "play Sup6", "discard Gon1", "discard Gon2", "discard Gon3"}
    assert legal and not LegalActions(())
    assert [str(a) for a in legal.sorted()] == ["play Sup5", "play Sup6"]
    assert "discard any 1 of Gon1 Gon2 Gon3" in repr(legal)


def test_discard_option_size_counts_the_924_of_a_six_card_discard() -> None:
    option = DiscardOption(6, Cards.parse(" ".join(ALL_NAMES[:12])).mask)
    assert option.size() == 924 == len(LegalActions((), option))
