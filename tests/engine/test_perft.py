"""reference_engine.perft: counts of legal action sequences, against the oracle's own counts."""

from __future__ import annotations

import copy
from math import comb

import pytest

from reference_engine import Hand, Profile, perft, perft_counts

from . import oracle as O
from .support import oracle_for, snapshot


def oracle_perft(orc: O.OracleHand, depth: int) -> int:
    """Perft by the oracle: each concrete discard counts separately."""
    if depth == 0:
        return 1
    if orc.phase == "ended":
        return 0
    verbs, plays, discard = orc.legal()
    seat = orc.to_act
    assert seat is not None
    if depth == 1:
        return len(verbs) + len(plays) + (comb(len(discard[1]), discard[0]) if discard else 0)
    total = 0
    children: list[tuple[str, frozenset[O.Card]]] = [(v, frozenset()) for v in sorted(verbs)]
    children += [("play", p) for p in plays]
    if discard is not None:
        from itertools import combinations

        children += [("discard", frozenset(c)) for c in combinations(sorted(discard[1], key=O.canonical_key), discard[0])]
    for verb, cards in children:
        child = copy.deepcopy(orc)
        child.apply(seat, verb, cards)
        total += oracle_perft(child, depth - 1)
    return total


def test_doctest_value() -> None:
    assert perft(Hand.from_seed(dealer=0, seed=3), 1) == 2


@pytest.mark.parametrize("seed", [3, 17, 2024])
@pytest.mark.parametrize("profile", [Profile(), Profile.from_options({"D12": "may-discard", "D8": "followers-too"})],
                         ids=["default", "may-discard,followers-too"])
def test_perft_from_the_deal_matches_the_oracle(seed: int, profile: Profile) -> None:
    hand = Hand.from_seed(seed % 4, seed, profile)
    before = snapshot(hand)
    counts = perft_counts(hand, 3)
    assert snapshot(hand) == before, "perft must not change the state it counts from"
    orc = oracle_for(hand)
    assert counts == [oracle_perft(orc, d) for d in (1, 2, 3)]
    assert counts[0] == 2


@pytest.mark.parametrize("seed", [5, 6])
def test_perft_mid_round_matches_the_oracle(seed: int) -> None:
    hand = Hand.from_seed(0, seed)
    hand.apply(0, "call")
    lead = min(hand.legal_actions(), key=lambda a: (len(a.cards), a.sort_key()))
    hand.apply(0, lead)
    orc = oracle_for(hand)
    orc.apply(0, "call")
    orc.apply(0, "play", frozenset(O.card_from_name(str(c)) for c in lead.cards))
    assert perft_counts(hand, 2) == [oracle_perft(orc, 1), oracle_perft(orc, 2)]


def test_perft_is_the_sum_over_children() -> None:
    hand = Hand.from_seed(1, 9)
    hand.apply(1, "call")
    total = 0
    for action in hand.legal_actions():
        child = hand.copy()
        child.apply(1, action)
        total += perft(child, 1)
    assert perft(hand, 2) == total


def test_perft_edges() -> None:
    hand = Hand.from_seed(0, 1)
    assert perft(hand, 0) == 1
    for seat in (0, 1, 3):
        hand.apply(seat, "pass")
    assert hand.phase == "ended"
    assert perft(hand, 0) == 1
    assert perft(hand, 1) == perft(hand, 3) == 0
    fresh = Hand.from_seed(0, 1)
    assert perft_counts(fresh, 3) == [perft(fresh, d) for d in (1, 2, 3)]
    # after two passes, "pass" ends the hand (void): no sequence of 2 goes through it
    passed = fresh.copy()
    for seat in (0, 1):
        passed.apply(seat, "pass")
    assert perft(passed, 1) == 2 and perft(passed, 2) == perft_after_call(passed)


def perft_after_call(hand: Hand) -> int:
    child = hand.copy()
    child.apply(3, "call")
    return perft(child, 1)  # the "pass" branch ended: no sequence of length 2 through it
