"""Runs, Sets and Singles: what they are and which beats which (PAT-1..7, ELD-3, ELD-6).

Works on card masks (see :mod:`reference_engine.cards`). Which pattern beats
which is asked through :class:`~reference_engine.rules.Rules` (``classify``
and ``beats`` there take :class:`~reference_engine.cards.Cards`).

>>> from reference_engine.cards import parse_mask
>>> tables_for(Profile()).classify(parse_mask("Gon3 Gon4 Gon5"))
(<Kind.RUN: 'run'>, 37)
"""

from __future__ import annotations

from enum import StrEnum
from itertools import combinations
from typing import Final

from .cards import (
    NUMBER_MASKS,
    SUIT_MASKS,
    WAN_SIN_BIT,
    card_index,
    indices,
    number_of,
    suit_of,
)
from .profile import Profile


class Kind(StrEnum):
    """What a set of cards is as a pattern (PAT-1, PAT-3, PAT-5, PAT-7); the value is its wire name."""

    NONE = "none"
    RUN = "run"
    SET = "set"
    SINGLE = "single"


NONE: Final = Kind.NONE
RUN: Final = Kind.RUN
SET: Final = Kind.SET
SINGLE: Final = Kind.SINGLE

SUP1: Final = card_index(0, 1)
SIN1: Final = card_index(3, 1)
NEVER_BEAT_SINGLES: Final = (1 << SUP1) | (1 << SIN1) | WAN_SIN_BIT
"""ELD-6: Sup1, Sin1 and Wan Sin cannot beat other Singles."""
INITIAL_ELDERS: Final = NEVER_BEAT_SINGLES | sum(1 << card_index(s, 9) for s in range(4))
"""ELD-1: the four 9s, Sup1, Sin1 and Wan Sin."""


def _runs_in(bits: int) -> tuple[tuple[int, int, int], ...]:
    """Every run (mask within the 9-bit suit slice, length, top number) in ``bits``."""
    runs = []
    for low in range(1, 8):
        for top in range(low + 2, 10):
            run = ((1 << (top - low + 1)) - 1) << (low - 1)
            if bits & run == run:
                runs.append((run, top - low + 1, top))
    return tuple(runs)


RUNS_IN: Final = tuple(_runs_in(b) for b in range(512))
"""``RUNS_IN[suit slice]``: the runs it contains (PAT-1)."""


def _set_subsets(bits: int) -> tuple[int, ...]:
    cards = [1 << i for i in indices(bits)]
    return tuple(sum(c) for k in range(3, len(cards) + 1) for c in combinations(cards, k))


def run_rank(suit: int, top: int) -> int:
    """PAT-2, D15: suit first (Sup highest), then the top number."""
    return (3 - suit) * 16 + top


def set_rank(number: int, profile: Profile) -> int:
    """PAT-4, D16: by number; a Set of 1s sits just below the 9s, or lowest."""
    if number == 9:
        return 10
    if number == 1:
        return 9 if profile.set_of_ones == "below-nines" else 0
    return number


class PatternTables:
    """Tables that depend on the profile, built once per profile."""

    __slots__ = ("profile", "set_masks", "sets_in", "single_beaters")

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        ones = NUMBER_MASKS[1] | (WAN_SIN_BIT if profile.wan_sin_in_set == "yes" else 0)
        # set_masks[n]: every card that may take part in a Set of n (PAT-3, D17).
        self.set_masks = tuple(ones if n == 1 else NUMBER_MASKS[n] for n in range(10))
        self.sets_in: dict[int, tuple[int, ...]] = {}
        for n in range(1, 10):
            full = self.set_masks[n]
            sub = full
            while True:
                self.sets_in[sub] = _set_subsets(sub)
                if sub == 0:
                    break
                sub = (sub - 1) & full
        # single_beaters[w]: the cards that beat a non-Elder Single w (PAT-6, D7, ELD-6).
        beaters = []
        for w in range(37):
            mask = 0
            for c in range(37):
                if (1 << c) & NEVER_BEAT_SINGLES or c == w:
                    continue
                if number_of(c) <= number_of(w):
                    continue
                if profile.single_beats == "any-suit" or suit_of(c) == suit_of(w):
                    mask |= 1 << c
            beaters.append(mask)
        self.single_beaters = tuple(beaters)

    def __reduce__(self) -> tuple[object, tuple[Profile]]:
        """Pickled as its profile: unpickled, it is the cached tables of that profile again."""
        return (tables_for, (self.profile,))

    def classify(self, mask: int) -> tuple[Kind, int]:
        """``(kind, rank)`` of a card mask; rank orders patterns of one kind."""
        size = mask.bit_count()
        if size == 1:
            return SINGLE, 0
        if size < 3:
            return NONE, 0
        if not mask & WAN_SIN_BIT:  # D18: Wan Sin is never in a Run
            low = (mask & -mask).bit_length() - 1
            suit = low // 9
            if mask & SUIT_MASKS[suit] == mask:
                bits = mask >> (9 * suit)
                shifted = bits >> (low - 9 * suit)
                if shifted & (shifted + 1) == 0:
                    return RUN, run_rank(suit, bits.bit_length())
        low_index = (mask & -mask).bit_length() - 1
        number = number_of(low_index)
        if mask & ~self.set_masks[number] == 0:
            return SET, set_rank(number, self.profile)
        return NONE, 0

    def set_beats(self, challenger_rank: int, current_rank: int) -> bool:
        """PAT-4, D16: a Set of 1s is beaten only by a Set of 9s."""
        if self.profile.set_of_ones == "lowest" and current_rank == 0:
            return challenger_rank == 10
        return challenger_rank > current_rank

    def rank_beats(self, kind: Kind, challenger_rank: int, current_rank: int) -> bool:
        """Does a Run or Set of ``challenger_rank`` beat one of ``current_rank`` (PAT-2, PAT-4)?"""
        if kind == RUN:
            return challenger_rank > current_rank
        return self.set_beats(challenger_rank, current_rank)

    def runs_in_hand(self, hand: int) -> list[int]:
        """Every Run in ``hand`` (PAT-1)."""
        runs = []
        for suit in range(4):
            bits = (hand >> (9 * suit)) & 0x1FF
            if bits:
                for run, _length, _top in RUNS_IN[bits]:
                    runs.append(run << (9 * suit))
        return runs

    def sets_in_hand(self, hand: int) -> list[int]:
        """Every Set in ``hand`` (PAT-3, D17)."""
        sets: list[int] = []
        for n in range(1, 10):
            bits = hand & self.set_masks[n]
            if bits.bit_count() >= 3:
                sets.extend(self.sets_in[bits])
        return sets


_TABLES: dict[Profile, PatternTables] = {}


def tables_for(profile: Profile) -> PatternTables:
    """The (cached) pattern tables of a profile."""
    tables = _TABLES.get(profile)
    if tables is None:
        tables = _TABLES[profile] = PatternTables(profile)
    return tables
