"""Observations (OBS-1, D32): a seat sees only what the rules let it see.

Two states that differ only in cards hidden from a seat give that seat the same
observation; a difference in the seat's own hand shows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from reference_engine import Action, Cards, Hand, IllegalActionError, Profile
from reference_engine.profile import every_option_profile
from reference_engine.wire import observation_json

from .support import RNG_SEEDS, play_out, play_settings

# Under D19 face-up-and-discards the Elder set reflects face-down discards by design
# (decisions.yaml), so which cards were discarded is public there: left out.
PROFILES = [p for p in every_option_profile() if p.elder_promotion == "face-up"]


def observed(hand: Hand, seat: int) -> dict[str, Any]:
    """The observation in its wire form (the engine returns a typed Observation)."""
    return observation_json(hand.observation(seat))


def seen(hand: Hand, seat: int) -> dict[str, Any]:
    obs = observed(hand, seat)
    if hand.result is not None:
        # when the hand ends the Dreamer's card and the scoring (which depends on the
        # winner's dealt hand) become public: compare the rest
        obs = {k: v for k, v in obs.items() if k not in ("result", "dreamer_card")}
    return obs


def compare_worlds(
    a: Hand, b: Hand, actions_a: list[tuple[int, Action]], actions_b: list[tuple[int, Action]], seat: int
) -> int:
    """Replay both worlds side by side; the seat's observations must agree while the public
    course of the hand is the same. Returns the number of states compared."""
    compared = 0
    assert seen(a, seat) == seen(b, seat)
    compared += 1
    for (sa, xa), (sb, xb) in zip(actions_a, actions_b, strict=True):
        a.apply(sa, xa)
        try:
            b.apply(sb, xb)
        except IllegalActionError:
            return compared  # the hidden difference changed what that other seat may do
        if (a.phase, a.to_act) != (b.phase, b.to_act):
            # only claim eligibility (Elders in the winner's hidden hand) or a Five Tigers holding
            # (D24 declared: the holder is asked, in public) may part the worlds
            assert {a.phase, b.phase} & {"claim", "ended", "tigers"}, (a.phase, b.phase)
            return compared
        assert seen(a, seat) == seen(b, seat), f"seat {seat} tells the worlds apart after {sa} {xa}"
        compared += 1
    return compared


@play_settings(60)
@given(
    profile=st.sampled_from(PROFILES),
    seed=st.integers(0, 2**64 - 1),
    dealer=st.integers(0, 3),
    rng_seed=RNG_SEEDS,
    pick=st.integers(0, 10**6),
)
def test_swapping_unseen_cards_between_two_other_seats_is_invisible(
    profile: Profile, seed: int, dealer: int, rng_seed: int, pick: int
) -> None:
    rng = random.Random(rng_seed)
    start = Hand.from_seed(dealer, seed, profile)
    played = start.copy()
    actions = play_out(played, rng)
    face_up = 0
    for _seat, action in actions:
        if action.verb == "play":
            face_up |= action.mask
    r = random.Random(pick)
    observer = r.randrange(4)
    others = [s for s in range(4) if s != observer]
    sa, sb = r.sample(others, 2)
    unseen_a = [c for c in Cards(start.dealt[sa] & ~face_up)]
    unseen_b = [c for c in Cards(start.dealt[sb] & ~face_up)]
    assume(unseen_a and unseen_b)
    ca, cb = r.choice(unseen_a), r.choice(unseen_b)
    dealt = list(start.dealt)
    dealt[sa] = dealt[sa] ^ ca.bit ^ cb.bit
    dealt[sb] = dealt[sb] ^ ca.bit ^ cb.bit
    other = Hand.deal(dealer, dealt, profile)

    def swapped(seat: int, action: Action) -> Action:
        if action.verb != "discard" or seat not in (sa, sb):
            return action
        mine, theirs = (ca, cb) if seat == sa else (cb, ca)
        if action.mask & mine.bit:  # that seat now holds the other card: it discards that one
            return Action("discard", action.mask ^ mine.bit ^ theirs.bit)
        return action

    alt_actions = [(s, swapped(s, a)) for s, a in actions]
    assert compare_worlds(start.copy(), other, actions, alt_actions, observer) >= 1


@play_settings(60)
@given(
    profile=st.sampled_from(PROFILES),
    seed=st.integers(0, 2**64 - 1),
    dealer=st.integers(0, 3),
    rng_seed=RNG_SEEDS,
    pick=st.integers(0, 10**6),
)
def test_which_cards_another_seat_discarded_is_invisible(
    profile: Profile, seed: int, dealer: int, rng_seed: int, pick: int
) -> None:
    rng = random.Random(rng_seed)
    start = Hand.from_seed(dealer, seed, profile)
    played = start.copy()
    actions = play_out(played, rng)
    r = random.Random(pick)
    discards = [i for i, (_s, a) in enumerate(actions) if a.verb == "discard"]
    assume(discards)
    i = r.choice(discards)
    seat, original = actions[i]
    # the same seat discards other cards from what it held then
    before = start.copy()
    for s, a in actions[:i]:
        before.apply(s, a)
    option = before.legal_actions().discard
    assert option is not None
    alternatives = [a for a in option.expand() if a != original]
    assume(alternatives)
    changed = r.choice(alternatives)
    alt_actions = list(actions)
    alt_actions[i] = (seat, changed)
    # later discards of that seat that name a card it no longer holds take the card it kept instead
    kept = Cards(original.mask & ~changed.mask)
    gone = Cards(changed.mask & ~original.mask)
    swap = dict(zip([c.bit for c in gone], [c.bit for c in kept], strict=True))
    for j in range(i + 1, len(actions)):
        s, a = actions[j]
        if s == seat and a.verb == "discard" and a.mask & changed.mask:
            mask = a.mask
            for g, k in swap.items():
                if mask & g:
                    mask = mask ^ g ^ k
            alt_actions[j] = (s, Action("discard", mask))
    for observer in range(4):
        if observer == seat:
            continue
        n = compare_worlds(start.copy(), start.copy(), actions, alt_actions, observer)
        assert n >= i + 2, "the worlds must agree at least right after the changed discard"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_own_hand_difference_shows(seed: int) -> None:
    start = Hand.from_seed(seed % 4, seed)
    for observer in range(4):
        other_seat = (observer + 1) % 4
        mine = next(iter(Cards(start.dealt[observer])))
        theirs = next(iter(Cards(start.dealt[other_seat])))
        dealt = list(start.dealt)
        dealt[observer] ^= mine.bit ^ theirs.bit
        dealt[other_seat] ^= mine.bit ^ theirs.bit
        other = Hand.deal(start.dealer, dealt)
        assert observed(start, observer) != observed(other, observer)
        assert observed(start, observer)["hand"] != observed(other, observer)["hand"]


def test_observation_contents() -> None:
    hand = Hand.from_seed(0, 21)
    hand.apply(0, "call")
    lead = next(a for a in hand.legal_actions() if len(a.cards) == 1)
    hand.apply(0, lead)
    obs = observed(hand, 1)
    assert obs["hand"] == str(hand.hand_of(1))
    assert obs["hand_sizes"] == [11, 12, 1, 12]
    assert obs["dreamer_card"] is None
    assert observed(hand, 2)["dreamer_card"] == str(hand.hand_of(2))
    assert obs["history"] == [{"seat": 0, "action": "call"}, {"seat": 0, "action": str(lead)}]
    assert obs["legal"] is not None and observed(hand, 3)["legal"] is None
    for s in (0, 3):
        assert str(hand.hand_of(s)) != obs["hand"]
        # no other seat's hand appears anywhere in seat 1's observation
        for card in Cards(hand.hands[s]):
            assert str(card) not in obs["hand"]


def test_discards_show_only_seat_and_count() -> None:
    hand = Hand.from_seed(0, 8)
    rng = random.Random(8)
    hand.apply(0, "call")
    while hand.to_act is not None and not any(a.verb == "discard" for _s, a in hand.history):
        hand.apply(hand.to_act, rng.choice(list(hand.legal_actions())))
    discards = [(s, a) for s, a in hand.history if a.verb == "discard"]
    assert discards, "seed 8 should produce a discard"
    seat, action = discards[0]
    for observer in range(4):
        entries = [e for e in observed(hand, observer)["history"] if e["seat"] == seat and "discard" in e["action"]]
        if observer == seat:
            assert entries[0]["action"] == str(action)
        else:
            assert entries[0] == {"seat": seat, "action": "discard", "count": len(action.cards)}


def test_dreamer_card_revealed_only_after_a_win() -> None:
    rng = random.Random(0)
    seen_win = seen_nowin = False
    for seed in range(40):
        hand = Hand.from_seed(seed % 4, seed)
        play_out(hand, rng)
        assert hand.result is not None
        shown = observed(hand, hand.dealer)["dreamer_card"]
        if hand.result.winner is not None:
            seen_win = True
            assert shown == str(hand.hand_of(hand.dreamer))
        else:
            seen_nowin = True
            assert shown is None
    assert seen_win and seen_nowin
