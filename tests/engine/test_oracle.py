"""The engine against the independent brute-force oracle (tests/engine/oracle.py).

At every step of random hands, every subset of the acting seat's hand is asked
both ``play S`` and ``discard S``: the engine's ``LegalActions`` (``in`` and
iteration) must agree exactly with the oracle, which decides from the rules'
text alone. Phases, turns, Elders, tricks and results are compared too.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from reference_engine import Action, Cards, Hand, IllegalActionError, Profile
from reference_engine.profile import every_option_profile

from . import oracle as O
from .support import RNG_SEEDS, choose, oracle_for, play_settings, random_profile, snapshot, to_mask, to_oracle_cards

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
DEALERS = st.integers(min_value=0, max_value=3)


def compare_legal(hand: Hand, orc: O.OracleHand, rng: random.Random) -> None:
    """The engine's legal actions equal the oracle's, subset by subset."""
    legal = hand.legal_actions()
    verbs, plays, discard = orc.legal()
    if orc.phase != "playing":
        assert {str(a) for a in legal} == verbs
        assert legal.discard is None
        return
    seat = hand.to_act
    assert seat is not None
    play_set = {to_mask(p) for p in plays}
    # the discard option, compared in its compact form too
    if discard is None:
        assert legal.discard is None, f"engine offers {legal.discard}, oracle none"
    else:
        assert legal.discard is not None, f"oracle offers a discard of {discard[0]} from {O.names(discard[1])}"
        assert legal.discard.count == discard[0]
        assert legal.discard.allowed == to_mask(discard[1])
    # every subset, through `in`
    held = sorted(orc.hands[seat], key=O.canonical_key)
    assert to_mask(held) == hand.hands[seat]
    bits = [to_mask([c]) for c in held]
    wrong: list[str] = []
    discard_masks: set[int] = set()
    for k in range(0, len(bits) + 1):
        for combo in combinations(bits, k):
            mask = sum(combo)
            want_play = mask in play_set
            want_discard = discard is not None and k == discard[0] and mask & ~to_mask(discard[1]) == 0
            if want_discard:
                discard_masks.add(mask)
            if mask and (Action("play", mask) in legal) != want_play:
                wrong.append(f"play {Cards(mask)}: engine {not want_play}, oracle {want_play}")
            if mask and (Action("discard", mask) in legal) != want_discard:
                wrong.append(f"discard {Cards(mask)}: engine {not want_discard}, oracle {want_discard}")
            if len(wrong) > 5:
                break
    for verb in ("call", "pass", "claim", "continue", "tigers", "decline"):
        if Action(verb) in legal:
            wrong.append(f"{verb} is legal while playing")
    assert not wrong, "\n".join(wrong)
    # iteration lists exactly the same concrete actions
    listed = list(legal)
    assert len(listed) == len(set(listed)) == len(legal)
    expected = {Action("play", m) for m in play_set} | {Action("discard", m) for m in discard_masks}
    assert set(listed) == expected


def check_applies(hand: Hand, rng: random.Random) -> None:
    """A sample of listed actions applies on a copy; unlisted ones are refused and change nothing."""
    seat = hand.to_act
    assert seat is not None
    legal = hand.legal_actions()
    listed = list(legal)
    for action in rng.sample(listed, min(4, len(listed))):
        child = hand.copy()
        child.apply(seat, action)  # must not raise
        assert child.history[-1] == (seat, action)
    if hand.phase != "playing":
        return
    held = list(Cards(hand.hands[seat]))
    before = snapshot(hand)
    for _ in range(6):
        k = rng.randint(1, len(held))
        mask = Cards.of(rng.sample(held, k)).mask
        for verb in ("play", "discard"):
            action = Action(verb, mask)
            if action in legal:
                continue
            with pytest.raises(IllegalActionError):
                hand.apply(seat, action)
    assert snapshot(hand) == before


def run_against_oracle(hand: Hand, rng: random.Random, call_bias: float = 0.8, orc: O.OracleHand | None = None) -> int:
    """Play ``hand`` to its end with random legal actions, checking the oracle at every step."""
    if orc is None:
        orc = oracle_for(hand)
    steps = 0
    while True:
        assert hand.phase == orc.phase, (hand.phase, orc.phase, [str(a) for _s, a in hand.history])
        assert hand.to_act == orc.to_act
        assert hand.tricks == orc.tricks
        assert to_oracle_cards(hand.elders) == orc.elders()
        assert hand.privileged == orc.pp
        if hand.to_act is None:
            break
        compare_legal(hand, orc, rng)
        if steps % 3 == 0:
            check_applies(hand, rng)
        seat = hand.to_act
        action = choose(hand, rng, call_bias)
        hand.apply(seat, action)
        orc.apply(seat, action.verb, to_oracle_cards(action.mask))
        steps += 1
    result, expected = hand.result, orc.result
    assert result is not None and expected is not None
    assert result.end == expected.end
    assert result.winner == expected.winner
    assert result.tricks == expected.tricks
    if not (result.end == "five-tigers" and hand.profile.tigers_scoring == "winner-only"):
        assert result.dreamer_count == expected.dreamer_count
    assert list(result.deltas) == expected.deltas, (result, expected)
    assert result.next_dealer == expected.next_dealer
    assert result.counts == expected.counts
    return steps


PROFILES = every_option_profile()


@pytest.mark.parametrize("profile", PROFILES, ids=[",".join(f"{k}={v}" for k, v in p.changed().items()) or "default" for p in PROFILES])
@play_settings(3)
@given(seed=SEEDS, dealer=DEALERS, rng_seed=RNG_SEEDS)
def test_engine_matches_oracle_under_every_option(profile: Profile, seed: int, dealer: int, rng_seed: int) -> None:
    run_against_oracle(Hand.from_seed(dealer, seed, profile), random.Random(rng_seed))


@play_settings(25)
@given(seed=SEEDS, dealer=DEALERS, rng_seed=RNG_SEEDS, call_bias=st.sampled_from([0.3, 0.8]))
def test_engine_matches_oracle_default_profile(seed: int, dealer: int, rng_seed: int, call_bias: float) -> None:
    run_against_oracle(Hand.from_seed(dealer, seed, Profile()), random.Random(rng_seed), call_bias)


# Derandomized: combinations are many, and a run must not pass or fail by luck.
@play_settings(25, derandomize=True)
@given(seed=SEEDS, dealer=DEALERS, rng_seed=RNG_SEEDS, call_bias=st.sampled_from([0.3, 0.8]))
def test_engine_matches_oracle_under_random_option_combinations(seed: int, dealer: int, rng_seed: int, call_bias: float) -> None:
    rng = random.Random(rng_seed)
    profile = random_profile(rng)
    note(f"options: {profile.changed()}")
    run_against_oracle(Hand.from_seed(dealer, seed, profile), rng, call_bias)


@play_settings(10)
@given(seed=SEEDS, dealer=DEALERS, rng_seed=RNG_SEEDS)
def test_engine_matches_oracle_with_a_privileged_player(seed: int, dealer: int, rng_seed: int) -> None:
    """The Dealer passes and the next seat calls, so there is a PP (ELD-5, SCORE-6)."""
    hand = Hand.from_seed(dealer, seed, Profile())
    orc = oracle_for(hand)
    for seat, verb in ((dealer, "pass"), ((dealer + 1) % 4, "call")):
        hand.apply(seat, verb)
        orc.apply(seat, verb)
    assert hand.privileged == orc.pp == (dealer + 1) % 4
    run_against_oracle(hand, random.Random(rng_seed), orc=orc)


def test_oracle_self_check_lead_single_rules() -> None:
    """The oracle itself, on the rule text's own cases (so a wrong oracle cannot pass silently)."""
    f = O.card_from_name
    hand = {f("Sup9"), f("Sup3"), f("Gon2"), f("WanSin")}
    elders = O.elders_given(set())
    assert O.leadable_singles(hand, False, elders, {}) == {f("Sup3")}  # ELD-4
    assert O.leadable_singles(hand, True, elders, {}) == {f("Sup3"), f("Sup9"), f("WanSin")}  # ELD-5
    only_elders = {f("Sup9"), f("Gon9"), f("Gon3")}
    assert O.leadable_singles(only_elders, False, elders, {}) == {f("Sup9")}  # D10 top-suit-elder
    assert O.leadable_singles(only_elders, False, elders, {"D10": "any-elder"}) == {f("Sup9"), f("Gon9")}
    assert O.pattern_of({f("Sup1"), f("Gon1"), f("WanSin")}, {}) is None  # D17 no
    assert O.pattern_of({f("Sup1"), f("Gon1"), f("WanSin")}, {"D17": "yes"}) is not None
    assert O.beats({f("Sin9"), f("Gon9"), f("Zok9")}, {f("Sup1"), f("Gon1"), f("Zok1")}, False, {})
    assert not O.beats({f("Sin8"), f("Gon8"), f("Zok8")}, {f("Sup1"), f("Gon1"), f("Zok1")}, False, {})
