"""Compiled code compares events by value, as the pure build does (issue 17).

Compiled with mypyc, ``a != b`` between two values whose static type is one
native class with no ``__eq__`` of its own (``Event``) is an identity test:
mypyc cannot see the ``__eq__`` that ``@dataclass`` gives each kind of event.
``reference_engine.sampling`` compared a replayed event with the seat's view
that way, so, compiled, a hand's end (a new ``HandEnded`` in every replay)
never matched, and the real state itself was called inconsistent. These run on
whichever build is imported (``.ci/run`` runs tests/builds on the compiled wheel).
"""

from __future__ import annotations

import random

import pytest

from reference_engine import Hand
from reference_engine.play_events import HandEnded
from reference_engine.sampling import Resampler


def _ended(seed: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand.from_seed(seed % 4, seed)
    while hand.result is None:
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions())))
    return hand


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_the_real_state_of_an_ended_hand_is_consistent_with_each_seats_view(seed: int, seat: int) -> None:
    hand = _ended(seed)
    end = hand.events[-1]
    seen = hand.observation(seat).events
    assert seen is not None
    # the case at stake: the view's hand end is equal to the replay's, not the same object
    assert isinstance(end, HandEnded) and seen[-1] == end and seen[-1] is not HandEnded(end.result)
    sampler = Resampler.of_hand(hand, seat)
    assert sampler.replay(sampler.cards) is not None, "the real state replays as consistent with its own view"


def test_the_chain_starts_from_the_real_state_of_an_ended_hand() -> None:
    hand = _ended(0)
    sampler = Resampler.of_hand(hand, 1, tries=0, steps=20)
    world = sampler.sample(random.Random(0))  # compiled, without the fix: the chain's start assertion failed
    assert sampler.fallbacks == 1
    assert world.observation(1) == hand.observation(1)
