"""What one seat may see of a hand (OBS-1, D32), as a typed value.

The wire form (spec/PROTOCOL.md, ``observe``) is made from it by
:func:`reference_engine.wire.observation_json`.

>>> from reference_engine.hand import Hand
>>> seen = Hand.from_seed(dealer=0, seed=1).observation(2)
>>> seen.phase, seen.hand_sizes, seen.dreamer_card == seen.hand.mask.bit_length() - 1
(<Phase.CALLING: 'calling'>, (12, 12, 1, 12), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .actions import DISCARD, Action, LegalActions
from .cards import Cards
from .hand import Hand, Phase
from .scoring import HandResult


class Seen(NamedTuple):
    """One action of the hand's history as the observing seat sees it.

    ``action`` is ``None`` for another seat's discard, which is face down
    (PLAY-5): only its ``size`` (how many cards) shows. (A named tuple: an observation
    is made at every step of a fuzz campaign, and a tuple is made five times
    faster than a frozen dataclass.)
    """

    seat: int
    action: Action | None
    size: int


@dataclass(frozen=True, slots=True)
class Observation:
    """What ``seat`` may see now. Two states that differ only in cards hidden
    from ``seat`` give equal observations."""

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    dreamer: int
    privileged: int | None
    hand: Cards
    hand_sizes: tuple[int, int, int, int]
    dreamer_card: int | None
    """The Dreamer's card (an index) when ``seat`` is the Dreamer or the hand was won; else hidden."""
    history: tuple[Seen, ...]
    tricks: tuple[int, int, int, int]
    elders: Cards
    legal: LegalActions | None
    """The legal actions, for the seat to act only."""
    result: HandResult | None


def observe(hand: Hand, seat: int) -> Observation:
    """What ``seat`` (0-3) may see of ``hand`` now (OBS-1, D32)."""
    history = tuple(
        Seen(who, None if verb == DISCARD and who != seat else action, mask.bit_count())
        for who, action in hand.history
        for verb, mask in (action,)
    )
    show_dreamer = seat == hand.dreamer or (hand.result is not None and hand.result.winner is not None)
    sizes = [hand.hands[s].bit_count() if s != hand.dreamer else 1 for s in range(4)]
    return Observation(
        seat=seat,
        phase=hand.phase,
        to_act=hand.to_act,
        dealer=hand.dealer,
        dreamer=hand.dreamer,
        privileged=hand.privileged,
        hand=hand.hand_of(seat),
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        dreamer_card=hand.dreamer_card if show_dreamer else None,
        history=history,
        tricks=(hand.tricks[0], hand.tricks[1], hand.tricks[2], hand.tricks[3]),
        elders=Cards(hand.elders),
        legal=hand.legal_actions() if seat == hand.to_act else None,
        result=hand.result,
    )
