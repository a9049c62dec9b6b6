"""The tensors' layouts, declared once: an ordered table of named pieces (issue 28 §3).

As OpenSpiel's ``KuhnPokerObserver`` declares its ``pieces``, each layout is
a list of :class:`Piece` (name, shape, what it holds), in the order of the
tensor. Everything else is derived from it: each piece's offset and size,
the tensors' sizes, the order of the bytes :class:`hakka_rl.encoding.EncodedHand`
joins, the observer's named views (``HakkaObserver.dict``), and the tables
of docs/rl.rst and of :mod:`hakka_rl.encoding` (``tests/rl/test_layout.py``
holds them in step). A new field is one row here and its update in the encoder.

>>> OBSERVATION["round_cards"]
Piece(name='round_cards', shape=(4, 37), offset=222)
>>> INFORMATION_STATE["observation"].size == OBSERVATION.size
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import prod
from typing import Any, Final

import numpy.typing as npt

__all__ = ["HISTORY_SLOT", "INFORMATION_STATE", "MAX_HISTORY", "OBSERVATION", "Layout", "Piece"]

MAX_HISTORY: Final = 53
"""History slots: 3 Calling actions (CALL-3), 1 Five Tigers answer (TIG-1), 36 plays or discards (each takes a
card at least from the 36 the active seats hold), 12 claim answers (one a round) and 1 claim."""


@dataclass(frozen=True)
class Piece:
    """One named piece of a tensor: its shape (its size is their product) and its offset in the tensor."""

    name: str
    shape: tuple[int, ...]
    offset: int = 0

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def end(self) -> int:
        return self.offset + self.size

    def __repr__(self) -> str:
        return f"Piece(name={self.name!r}, shape={self.shape}, offset={self.offset})"


class Layout:
    """An ordered table of pieces, each placed right after the one before (offsets derived, never typed)."""

    def __init__(self, name: str, pieces: list[tuple[str, tuple[int, ...], str]]) -> None:
        self.name = name
        placed: list[Piece] = []
        self.content: dict[str, str] = {}
        offset = 0
        for piece_name, shape, content in pieces:
            piece = Piece(piece_name, shape, offset)
            placed.append(piece)
            self.content[piece_name] = content
            offset = piece.end
        self.pieces: tuple[Piece, ...] = tuple(placed)
        self.size: int = offset
        self._by_name = {piece.name: piece for piece in placed}
        if len(self._by_name) != len(placed):
            raise ValueError(f"layout {name}: a piece's name is given twice")

    def __getitem__(self, name: str) -> Piece:
        return self._by_name[name]

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def views(self, tensor: npt.NDArray[Any]) -> dict[str, npt.NDArray[Any]]:
        """A view of ``tensor`` for each piece, by name, in its shape (they write through to the tensor)."""
        if tensor.shape != (self.size,):
            raise ValueError(f"layout {self.name}: a tensor of {self.size} values, not of shape {tensor.shape}")
        return {p.name: tensor[p.offset:p.end].reshape(p.shape) for p in self.pieces}

    def rows(self) -> list[tuple[int, int, str]]:
        """``(offset, size, content)`` of each piece: the rows of the layout's table in the docs."""
        return [(p.offset, p.size, self.content[p.name]) for p in self.pieces]


CARDS: Final = 37
SEATS: Final = 4
OBSERVATION: Final = Layout("observation", [
    ("hand", (CARDS,), "the observer's cards now (the Dreamer: its one card)"),
    ("picked", (CARDS,), "the cards picked so far in the observer's partial discard"),
    ("played", (CARDS,), "every card played face up so far in the hand"),
    ("own_discards", (CARDS,), "the observer's own face-down discards so far"),
    ("elders", (CARDS,), "the Elders now (ELD-1, ELD-2)"),
    ("dreamer_card", (CARDS,), "the Dreamer's card, when the observer may see it (OBS-1)"),
    ("round_cards", (SEATS, CARDS), "the current round's face-up plays, 37 cards per relative seat"),
    ("round_discards", (SEATS,), "the current round's face-down discards: cards per relative seat"),
    ("phase", (5,), "the phase, one-hot: calling, tigers, playing, claim, ended"),
    ("to_act", (SEATS,), "the seat to act, one-hot by relative seat (none: all 0)"),
    ("dealer", (SEATS,), "the Dealer, one-hot by relative seat (the Dreamer sits opposite)"),
    ("privileged", (SEATS,), "the Privileged Player, one-hot by relative seat (none: all 0)"),
    ("caller", (SEATS,), "the seat that called, one-hot by relative seat (none: all 0)"),
    ("leader", (SEATS,), "the leader of the round in play, one-hot (phase playing only)"),
    ("hand_sizes", (SEATS,), "cards in hand, per relative seat (counts; the Dreamer 1)"),
    ("tricks", (SEATS,), "tricks won, per relative seat (counts)"),
    ("picks_left", (1,), "picks still to make in the observer's partial discard (count)"),
])
"""The observation tensor, piece by piece."""

HISTORY_SLOT: Final = Layout("history slot", [
    ("seat", (SEATS,), "the acting seat, one-hot by relative seat"),
    ("verb", (8,), "the verb, one-hot in the engine's order call pass play discard claim continue tigers decline"),
    ("cards", (CARDS,), "the cards (empty for another seat's face-down discard, PLAY-5)"),
    ("count", (1,), "the number of cards (a count)"),
])
"""One slot of the information state's history (all 0 while unused)."""

INFORMATION_STATE: Final = Layout("information state", [
    ("observation", (OBSERVATION.size,), "the observation tensor above"),
    ("dealt", (CARDS,), "the observer's dealt hand (the Dreamer: its one card)"),
    ("history", (MAX_HISTORY, HISTORY_SLOT.size), f"the hand's actions in order, ``MAX_HISTORY`` = {MAX_HISTORY} "
                                                  f"slots of {HISTORY_SLOT.size}"),
])
"""The information-state tensor: the observation tensor followed by what perfect recall adds."""


def table(layout: Layout) -> str:
    """The layout as a reStructuredText table of offset, size and content (the form of docs/rl.rst's)."""
    rule = "=========  ====  " + "=" * 61
    lines = [rule, f"{'offset':<9}  {'size':<4}  content", rule]
    lines += [f"{offset:<9}  {size:<4}  {content}" for offset, size, content in layout.rows()]
    return "\n".join([*lines, rule])

