"""The legal ids of a hand's seat to act, as one integer bit mask (issue 18).

Bit ``i`` of a *legal-id mask* is set when id ``i`` (:mod:`hakka_rl.actions`)
is legal now. An integer is the cheapest exact form there is: a discard's
first picks are the option's card mask shifted by ``PICK_BASE`` (one
operation, not a loop), a legality check is one shift, and the mask is a
cheap dictionary key for the ids' list and the environments' 0/1 arrays.

>>> from reference_engine import Hand
>>> hand = Hand.from_seed(dealer=0, seed=7)
>>> bin(legal_bits_of(hand)), ids_of_bits(legal_bits_of(hand))
('0b11', [0, 1])
"""

from __future__ import annotations

from typing import Final

from reference_engine import Hand, LegalActions, Phase
from reference_engine.cards import indices

from .actions import PICK_BASE, PLAY_ID, VERB_ID, EncodingError, next_picks

__all__ = ["PendingDiscard", "ids_of_bits", "legal_bits_of", "legal_ids_of"]

_PLAY_BIT: Final = {mask: 1 << i for mask, i in PLAY_ID.items()}
_VERB_BIT: Final = {verb: 1 << i for verb, i in VERB_ID.items()}
_PLAYING: Final = Phase.PLAYING


class PendingDiscard:
    """A discard in progress above the engine: ``count`` cards of ``allowed``, ``picked`` so far."""

    __slots__ = ("allowed", "count", "picked")

    def __init__(self, allowed: int, count: int, picked: int = 0) -> None:
        self.allowed, self.count, self.picked = allowed, count, picked

    @property
    def left(self) -> int:
        return self.count - self.picked.bit_count()

    def next_picks(self) -> int:
        return next_picks(self.allowed, self.count, self.picked)

    def __repr__(self) -> str:
        return f"PendingDiscard(allowed={self.allowed:#x}, count={self.count}, picked={self.picked:#x})"


def legal_bits_of(hand: Hand, pending: PendingDiscard | None = None) -> int:
    """The legal ids of the seat to act as a legal-id mask (a partial discard allows its next picks only)."""
    if pending is not None and pending.picked:
        return pending.next_picks() << PICK_BASE
    legal = hand.legal_actions()
    known = _CONSTANT_BITS.get(id(legal))
    if known is not None and known[0] is legal:  # the same object, kept alive here: its id is not reused
        return known[1]
    bits = 0
    play_bit, verb_bit = _PLAY_BIT, _VERB_BIT
    try:
        for action in legal.actions:
            mask = action.mask
            bits |= play_bit[mask] if mask else verb_bit[action.verb]
    except KeyError:
        raise _unknown(hand, legal) from None
    option = legal.discard
    if option is not None:  # the first picks: the option's cards that leave enough above them
        bits |= next_picks(option.allowed, option.count, 0) << PICK_BASE
    if hand.phase is not _PLAYING and len(_CONSTANT_BITS) < 64:
        _CONSTANT_BITS[id(legal)] = (legal, bits)
    return bits


_CONSTANT_BITS: dict[int, tuple[LegalActions, int]] = {}
"""The legal-id masks of the engine's legal actions outside phase playing (call or pass, claim or continue,
tigers or decline: the same few objects at every such step), by the object's id; the object is kept with them."""


def _unknown(hand: Hand, legal: LegalActions) -> EncodingError:
    action = next(a for a in legal.actions if (PLAY_ID.get(a.mask) if a.mask else VERB_ID.get(a.verb)) is None)
    return EncodingError(f"the engine allows {action}, which the action table has no id for "
                         f"(hakka_rl.actions): seat {hand.to_act}, {hand.notation()}")


def ids_of_bits(bits: int) -> list[int]:
    """The ids of a legal-id mask, ascending (a new list)."""
    found = _IDS.get(bits)
    if found is None:
        found = tuple(indices(bits))  # the engine's walk of a mask's set bits, lowest first (any mask, not only cards)
        if len(_IDS) >= 1 << 14:
            _IDS.clear()
        _IDS[bits] = found
    return list(found)


_IDS: dict[int, tuple[int, ...]] = {}


def legal_ids_of(hand: Hand, pending: PendingDiscard | None = None) -> list[int]:
    """The legal ids of the seat to act, ascending (a partial discard allows its next picks only)."""
    return ids_of_bits(legal_bits_of(hand, pending))
