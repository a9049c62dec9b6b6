"""reference_engine.patterns: Runs, Sets, Singles and which beats which (PAT-1..7, ELD-3, ELD-6)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_engine import Cards, Profile, beats, classify
from reference_engine.patterns import INITIAL_ELDERS

from . import oracle as O
from .support import ALL_NAMES

ANY_SUIT = Profile.from_options({"D7": "any-suit"})
ONES_LOWEST = Profile.from_options({"D16": "lowest"})
WAN_SIN_IN_SET = Profile.from_options({"D17": "yes"})


def c(text: str) -> Cards:
    return Cards.parse(text)


def test_initial_elders() -> None:  # ELD-1
    assert Cards(INITIAL_ELDERS) == c("Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin")


@pytest.mark.parametrize(
    "cards, kind",
    [
        ("Sup3 Sup4 Sup5", "run"), ("Gon7 Gon8 Gon9", "run"), ("Sin1 Sin2 Sin3", "run"),
        ("Zok1 Zok2 Zok3 Zok4 Zok5 Zok6 Zok7 Zok8 Zok9", "run"),  # PAT-1: up to 9 cards
        ("Sup5 Gon5 Zok5", "set"), ("Sup9 Gon9 Zok9 Sin9", "set"), ("Sup1 Gon1 Sin1", "set"),  # PAT-3
        ("Sup1", "single"), ("WanSin", "single"), ("Gon9", "single"),  # PAT-5
        ("Sup3 Sup4", "none"), ("Sup3 Gon3", "none"),  # PAT-7: two cards
        ("Sup3 Sup4 Sup6", "none"),  # gap
        ("Sup3 Sup4 Gon5", "none"),  # mixed suits
        ("Sup3 Gon3 Zok4", "none"),
        ("Sup1 Sup2 WanSin", "none"),  # D18: never in a Run
        ("Sup1 Gon1 WanSin", "none"),  # D17 no
        ("Sup1 Gon1 Zok1 WanSin", "none"),
        ("Sup8 Sup9 Sup1", "none"),  # no wrap-around
    ],
)
def test_classify_default(cards: str, kind: str) -> None:
    assert classify(c(cards)) == kind


def test_wan_sin_in_a_set_of_ones_only_under_d17_yes() -> None:  # D17
    assert classify(c("Sup1 Gon1 WanSin"), WAN_SIN_IN_SET) == "set"
    assert classify(c("Sup1 Gon1 Zok1 Sin1 WanSin"), WAN_SIN_IN_SET) == "set"
    assert classify(c("Sup2 Gon2 WanSin"), WAN_SIN_IN_SET) == "none"
    assert classify(c("Sup1 Sup2 WanSin"), WAN_SIN_IN_SET) == "none"  # D18 still


@pytest.mark.parametrize("profile", [Profile(), WAN_SIN_IN_SET], ids=["default", "D17=yes"])
def test_classify_matches_oracle_on_every_set_of_up_to_3_cards(profile: Profile) -> None:
    options = profile.options()
    for k in (1, 2, 3):
        for combo in combinations(ALL_NAMES, k):
            p = O.pattern_of({O.card_from_name(n) for n in combo}, options)
            expected = "none" if p is None else p.kind
            assert classify(c(" ".join(combo)), profile) == expected, combo


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(ALL_NAMES), min_size=3, max_size=9), st.booleans())
def test_classify_matches_oracle_on_larger_sets(names: set[str], d17: bool) -> None:
    profile = WAN_SIN_IN_SET if d17 else Profile()
    p = O.pattern_of({O.card_from_name(n) for n in names}, profile.options())
    assert classify(c(" ".join(names)), profile) == ("none" if p is None else p.kind)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(("Sup", "Gon", "Zok", "Sin")), st.integers(1, 7), st.integers(3, 9))
def test_every_run_is_a_run(suit: str, low: int, length: int) -> None:
    top = min(9, low + length - 1)
    if top - low + 1 < 3:
        return
    assert classify(c(" ".join(f"{suit}{n}" for n in range(low, top + 1)))) == "run"


# ------------------------------------------------------------------ comparisons


@pytest.mark.parametrize(
    "challenger, current, expected",
    [
        # PAT-2, D15: suit first, then top
        ("Sup1 Sup2 Sup3", "Gon7 Gon8 Gon9", True),
        ("Gon7 Gon8 Gon9", "Sup1 Sup2 Sup3", False),
        ("Gon4 Gon5 Gon6", "Gon3 Gon4 Gon5", True),
        ("Gon3 Gon4 Gon5", "Gon4 Gon5 Gon6", False),
        ("Sin7 Sin8 Sin9", "Zok1 Zok2 Zok3", False),
        ("Sup2 Sup3 Sup4 Sup5", "Sup1 Sup2 Sup3", False),  # PLAY-3: size differs
        # PAT-4, D16 below-nines: 2 < ... < 8 < 1 < 9
        ("Sup3 Gon3 Zok3", "Sup2 Gon2 Zok2", True),
        ("Sup2 Gon2 Zok2", "Sup3 Gon3 Zok3", False),
        ("Sup1 Gon1 Zok1", "Sup8 Gon8 Zok8", True),
        ("Sup8 Gon8 Zok8", "Sup1 Gon1 Zok1", False),
        ("Sup9 Gon9 Zok9", "Sup1 Gon1 Zok1", True),
        ("Sup1 Gon1 Zok1", "Sup9 Gon9 Zok9", False),
        ("Sup5 Gon5 Zok5 Sin5", "Sup4 Gon4 Zok4", False),  # size differs
        # Singles, D7 same-suit
        ("Sup8", "Sup7", True),
        ("Sup6", "Sup7", False),
        ("Gon8", "Sup7", False),
        ("Sup8", "Sup9", False),  # ELD-3: Sup9 is an Elder
        ("Sup9", "Sup1", False),  # ELD-3: a led Sup1 wins
        ("Gon9", "Gon1", True),  # Gon1 is no initial Elder
        ("Sin9", "Sin1", False),
        ("Sup1", "Sup8", False),  # number 1 never beats
        # kinds differ
        ("Sup3 Sup4 Sup5", "Sup5 Gon5 Zok5", False),
        ("Sup5 Gon5 Zok5", "Sup3 Sup4 Sup5", False),
        ("Sup3 Sup4", "Gon3 Gon4", False),  # not patterns
    ],
)
def test_beats_default(challenger: str, current: str, expected: bool) -> None:
    assert beats(c(challenger), c(current)) is expected


def test_any_suit_singles() -> None:  # D7 any-suit
    assert beats(c("Gon8"), c("Sup7"), profile=ANY_SUIT)
    assert not beats(c("Gon7"), c("Sup7"), profile=ANY_SUIT)
    assert not beats(c("Gon8"), c("Sup9"), profile=ANY_SUIT)  # ELD-3
    assert not beats(c("WanSin"), c("Gon1"), profile=ANY_SUIT)  # ELD-6


def test_elder_singles_depend_on_the_elder_set() -> None:  # ELD-2, ELD-3, D20
    # Sup8 became an Elder (Sup9 gone): unbeatable
    elders = Cards(INITIAL_ELDERS) | c("Sup8")
    assert not beats(c("Sup9"), c("Sup8"), elders=elders)
    assert beats(c("Sup9"), c("Sup8"))  # not an Elder: Sup9 beats it
    # Sup1 is unbeatable only because it is an Elder: given as a non-Elder, Sup9 beats it
    assert beats(c("Sup9"), c("Sup1"), elders=Cards())
    # ELD-6: Sup1, Sin1, Wan Sin never beat, Elders or not
    assert not beats(c("Sin1"), c("Sin1"), elders=Cards())
    assert not beats(c("Sup1"), c("Gon1"), elders=Cards(), profile=ANY_SUIT)


def test_set_of_ones_lowest() -> None:  # D16 lowest
    ones = c("Sup1 Gon1 Zok1")
    assert beats(c("Sup9 Gon9 Zok9"), ones, profile=ONES_LOWEST)
    assert not beats(c("Sup8 Gon8 Zok8"), ones, profile=ONES_LOWEST)
    assert not beats(c("Sup2 Gon2 Zok2"), ones, profile=ONES_LOWEST)
    assert not beats(ones, c("Sup2 Gon2 Zok2"), profile=ONES_LOWEST)


def test_sets_of_ones_with_wan_sin() -> None:  # D17 yes
    assert beats(c("Sup9 Gon9 Zok9"), c("Sup1 Gon1 WanSin"), profile=WAN_SIN_IN_SET)
    assert beats(c("Sup1 Gon1 WanSin"), c("Sup8 Gon8 Zok8"), profile=WAN_SIN_IN_SET)


PAIR_PROFILES = [Profile(), ANY_SUIT, ONES_LOWEST, WAN_SIN_IN_SET]


@st.composite
def same_shape_pair(draw: st.DrawFn) -> tuple[frozenset[str], frozenset[str]]:
    """Two disjoint card sets of one size, biased towards real patterns."""
    size = draw(st.sampled_from([1, 1, 3, 3, 4, 5]))
    kind = draw(st.sampled_from(["run", "set", "any"]))

    def one() -> frozenset[str]:
        if kind == "run" and size <= 9:
            suit = draw(st.sampled_from(("Sup", "Gon", "Zok", "Sin")))
            low = draw(st.integers(1, 10 - size))
            return frozenset(f"{suit}{n}" for n in range(low, low + size))
        if kind == "set" and size <= 4:
            number = draw(st.integers(1, 9))
            pool = [f"{s}{number}" for s in ("Sup", "Gon", "Zok", "Sin")] + (["WanSin"] if number == 1 else [])
            return frozenset(draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)))
        return frozenset(draw(st.lists(st.sampled_from(ALL_NAMES), min_size=size, max_size=size, unique=True)))

    return one(), one()


@settings(max_examples=400, deadline=None)
@given(same_shape_pair(), st.sampled_from(PAIR_PROFILES), st.sets(st.sampled_from(ALL_NAMES)))
def test_beats_matches_oracle(pair: tuple[frozenset[str], frozenset[str]], profile: Profile, elders: set[str]) -> None:
    challenger, current = pair
    current_elder = any(n in elders for n in current) if len(current) == 1 else False
    expected = O.beats(
        {O.card_from_name(n) for n in challenger},
        {O.card_from_name(n) for n in current},
        current_elder,
        profile.options(),
    )
    got = beats(c(" ".join(challenger)), c(" ".join(current)), elders=c(" ".join(elders)), profile=profile)
    assert got is expected
