"""Invariants of a hand, checked after every step of random play (Hypothesis).

- the 37 cards are conserved across hands, face-up plays, discards and the Dreamer's card;
- exactly one seat acts until the hand ends (``to_act is None`` iff ended), never the Dreamer;
- each round gives its winner exactly the size of the winning pattern (PLAY-6), which he played
  face up; tricks total ≤ 36 and a seat's tricks ≤ the cards it played face up;
- Elders only grow during a hand (ELD-2);
- a refused action changes nothing; ``copy()`` is independent;
- the result's deltas sum to zero (SCORE-7); replaying the same deal and actions gives the same
  result and state.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from reference_engine import Action, Cards, HakkaError, Hand, IllegalActionError, Profile
from reference_engine.cards import FULL_DECK
from reference_engine.profile import every_option_profile

from .support import RNG_SEEDS, choose, play_settings, snapshot

PROFILES = every_option_profile()


class HandInvariants:
    """Follows one hand action by action and checks every invariant."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.start = hand.copy()
        self.elders = hand.elders
        self.face_up = [0, 0, 0, 0]
        self.round: list[tuple[int, Action]] = []
        self.tricks_expected = [0, 0, 0, 0]
        self.actions: list[tuple[int, Action]] = []
        self.check()

    def check(self) -> None:
        hand = self.hand
        # 37 cards conserved: hands, played, discarded and the Dreamer's card are a partition
        parts = [hand.hands[s] for s in range(4)] + [hand.played, hand.discarded, 1 << hand.dreamer_card]
        union = 0
        for part in parts:
            assert union & part == 0, "a card is in two places"
            union |= part
        assert union == FULL_DECK
        assert sum(len(Cards(p)) for p in parts) == 37
        assert hand.hands[hand.dreamer] == 0
        # one seat to act until the end, never the Dreamer
        assert (hand.to_act is None) == (hand.phase == "ended") == (hand.result is not None)
        if hand.to_act is not None:
            assert hand.to_act in hand.active_seats and hand.to_act != hand.dreamer
            assert hand.legal_actions(), "a seat to act with no legal action"
        else:
            assert not hand.legal_actions()
        # tricks
        assert hand.tricks == self.tricks_expected
        assert hand.tricks[hand.dreamer] == 0
        assert sum(hand.tricks) <= 36
        for s in range(4):
            assert hand.tricks[s] <= self.face_up[s]
        # Elders only grow
        assert hand.elders & self.elders == self.elders
        self.elders = hand.elders
        if hand.result is not None:
            assert sum(hand.result.deltas) == 0
            assert hand.result.deltas[hand.dreamer] >= 0

    def apply(self, seat: int, action: Action) -> None:
        hand = self.hand
        assert action in hand.legal_actions()
        hand.apply(seat, action)
        self.actions.append((seat, action))
        if action.verb in ("play", "discard"):
            if action.verb == "play":
                self.face_up[seat] += len(action.cards)
            self.round.append((seat, action))
            if len(self.round) == 3:
                size = len(self.round[0][1].cards)
                assert all(len(a.cards) == size for _s, a in self.round)  # PLAY-3, PLAY-4
                gained = [hand.tricks[s] - self.tricks_expected[s] for s in range(4)]
                winners = [s for s in range(4) if gained[s]]
                assert len(winners) == 1 and gained[winners[0]] == size  # PLAY-6
                assert any(s == winners[0] and a.verb == "play" for s, a in self.round)
                self.tricks_expected[winners[0]] += size
                self.round = []
        self.check()

    def check_replay(self) -> None:
        replay = self.start.copy()
        for seat, action in self.actions:
            replay.apply(seat, action)
        assert snapshot(replay) == snapshot(self.hand)
        assert replay.result == self.hand.result


@play_settings(60)
@given(
    profile=st.sampled_from(PROFILES),
    seed=st.integers(0, 2**64 - 1),
    dealer=st.integers(0, 3),
    rng_seed=RNG_SEEDS,
    call_bias=st.sampled_from([0.2, 0.7, 0.95]),
)
def test_invariants_over_random_hands(profile: Profile, seed: int, dealer: int, rng_seed: int, call_bias: float) -> None:
    rng = random.Random(rng_seed)
    inv = HandInvariants(Hand.from_seed(dealer, seed, profile))
    while inv.hand.to_act is not None:
        seat = inv.hand.to_act
        inv.apply(seat, choose(inv.hand, rng, call_bias))
    inv.check_replay()


class HandMachine(RuleBasedStateMachine):
    """Random legal actions, refused illegal ones and copies, one hand per run."""

    def __init__(self) -> None:
        super().__init__()
        self.inv: HandInvariants | None = None

    @initialize(profile=st.sampled_from(PROFILES), seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3))
    def deal(self, profile: Profile, seed: int, dealer: int) -> None:
        self.inv = HandInvariants(Hand.from_seed(dealer, seed, profile))

    def running(self) -> bool:
        return self.inv is not None and self.inv.hand.to_act is not None

    @precondition(running)
    @rule(pick=st.integers(0, 10**6), steps=st.integers(1, 8))
    def act(self, pick: int, steps: int) -> None:
        """Up to ``steps`` random legal actions (calls three times as often as passes)."""
        assert self.inv is not None
        rng = random.Random(pick)
        for _ in range(steps):
            hand = self.inv.hand
            seat = hand.to_act
            if seat is None:
                return
            legal = hand.legal_actions()
            if hand.phase == "calling":
                action = Action("call" if rng.random() < 0.75 else "pass")
            else:
                options = list(legal.actions)
                if legal.discard is not None:
                    pool = list(Cards(legal.discard.allowed))
                    options.append(Action("discard", Cards.of(rng.sample(pool, legal.discard.count)).mask))
                action = rng.choice(options)
            self.inv.apply(seat, action)

    @precondition(lambda self: self.inv is not None)
    @rule(seat=st.integers(0, 3), verb=st.sampled_from(["play", "discard", "call", "pass", "claim", "continue"]),
          cards=st.sets(st.integers(0, 36), min_size=1, max_size=5))
    def try_anything(self, seat: int, verb: str, cards: set[int]) -> None:
        """Any action at all: applied if listed as legal, otherwise refused with no change."""
        assert self.inv is not None
        hand = self.inv.hand
        mask = sum(1 << i for i in cards) if verb in ("play", "discard") else 0
        action = Action(verb, mask)
        if hand.to_act == seat and action in hand.legal_actions():
            self.inv.apply(seat, action)
            return
        before = snapshot(hand)
        try:
            hand.apply(seat, action)
        except IllegalActionError as exc:
            assert exc.rule, "every refusal names a rule"
        except HakkaError as exc:  # pragma: no cover - any other error kind is wrong here
            raise AssertionError(f"{type(exc).__name__} for a well-formed action: {exc}") from exc
        else:
            raise AssertionError(f"seat {seat} {action} was applied but was not listed as legal")
        assert snapshot(hand) == before

    @precondition(running)
    @rule(pick=st.integers(0, 10**6))
    def copy_is_independent(self, pick: int) -> None:
        assert self.inv is not None
        hand = self.inv.hand
        before = snapshot(hand)
        other = hand.copy()
        assert snapshot(other) == before
        seat = other.to_act
        assert seat is not None
        listed = list(other.legal_actions())
        other.apply(seat, listed[pick % len(listed)])
        assert snapshot(hand) == before

    @invariant()
    def holds(self) -> None:
        if self.inv is not None:
            self.inv.check()

    def teardown(self) -> None:
        if self.inv is not None:
            self.inv.check_replay()


HandMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_hand_state_machine = HandMachine.TestCase
