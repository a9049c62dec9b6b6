"""The round in play: who led, what was played, and the pattern to beat (PLAY-2..6, D13).

A :class:`Round` is one value the :class:`~reference_engine.hand.Hand` keeps
in :attr:`~reference_engine.hand.Hand.round` and replaces when the next round
starts. Its ``plays`` are the round's play and discard events (full truth:
:meth:`Hand.observation <reference_engine.hand.Hand.observation>` shows a seat
what it may see of them).

>>> from reference_engine.hand import Hand
>>> hand = Hand.from_seed(dealer=0, seed=1)
>>> _ = hand.apply(0, "call")
>>> hand.round
Round(leader=0, plays=[])
"""

from __future__ import annotations

from typing import Final

from ._mypyc import mypyc_attr
from .events import Discarded, Played
from .patterns import Kind

_FIELDS: Final = ("leader", "plays", "kind", "lead_mask", "lead_rank", "lead_elder",
                  "best_seat", "best_mask", "best_rank", "best_elder")


@mypyc_attr(serializable=True)  # compiled: pickled and copied with the hand that holds it (setup.py)
class Round:
    """The round in play: its ``leader``, its ``plays`` in order and the best pattern so far.

    ``lead_*`` describe the pattern led, ``best_*`` the best pattern so far
    (the one that wins the round if nothing beats it, PLAY-6); ``kind`` is the
    kind led (:attr:`Kind.NONE` before the lead). ``*_elder``: the pattern was
    an Elder Single when played (ELD-3, D20). A hand changes its round only
    through :meth:`lead` and :meth:`beat`.
    """

    __slots__ = _FIELDS

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.plays: list[Played | Discarded] = []
        self.kind = Kind.NONE
        self.lead_mask = self.lead_rank = 0
        self.lead_elder = False
        self.best_seat = leader
        self.best_mask = self.best_rank = 0
        self.best_elder = False

    def lead(self, seat: int, mask: int, kind: Kind, rank: int, elder: bool) -> None:
        """``seat`` leads ``mask``, a pattern of ``kind`` and ``rank`` (PLAY-2)."""
        self.kind = kind
        self.lead_mask = self.best_mask = mask
        self.lead_rank = self.best_rank = rank
        self.lead_elder = self.best_elder = elder
        self.best_seat = seat

    def beat(self, seat: int, mask: int, rank: int, elder: bool) -> None:
        """``seat``'s play ``mask`` is the best pattern so far (PLAY-3)."""
        self.best_mask, self.best_rank, self.best_elder, self.best_seat = mask, rank, elder, seat

    @property
    def acted(self) -> int:
        """How many seats have played or discarded in this round (3 end it, PLAY-6)."""
        return len(self.plays)

    def copy(self) -> Round:
        other = Round(self.leader)
        other.plays = list(self.plays)
        other.kind, other.lead_mask, other.lead_rank, other.lead_elder = (
            self.kind, self.lead_mask, self.lead_rank, self.lead_elder)
        other.best_seat, other.best_mask, other.best_rank, other.best_elder = (
            self.best_seat, self.best_mask, self.best_rank, self.best_elder)
        return other

    def __eq__(self, other: object) -> bool:  # by value (and so unhashable: a round changes)
        if not isinstance(other, Round):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _FIELDS)  # (compiled, a class has no __slots__)

    def __repr__(self) -> str:
        return f"Round(leader={self.leader}, plays={[str(p) for p in self.plays]})"
