"""Scoring: the table, the Dreamer's count and who pays whom (SCORE-1..7).

>>> [table_value(t) for t in range(5, 13)]
[0, 1, 2, 4, 8, 16, 32, 128]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ._mypyc import mypyc_attr
from .cards import NUMBER_MASKS, WAN_SIN, WAN_SIN_BIT, number_of
from .profile import Profile

SCORE_TABLE: Final = {6: 1, 7: 2, 8: 4, 9: 8, 10: 16, 11: 32, 12: 128}
"""SCORE-1: tricks → points. 12 tricks score 128, not 64, in every language of the source."""


def table_value(tricks: int) -> int:
    """Points for a count of tricks; below 6 nothing (SCORE-1, SCORE-2)."""
    return SCORE_TABLE.get(tricks, 0)


@mypyc_attr(native_class=False)  # a plain frozen dataclass in both builds: it pickles (setup.py); one a hand
@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each seat scored (spec/README.md, "Hand results")."""

    end: str
    """``claim``, ``five-tigers``, ``played-out`` or ``void``."""
    winner: int | None
    tricks: int | None
    dreamer_count: int | None
    deltas: tuple[int, int, int, int]
    next_dealer: int
    counts: bool
    """Whether this deal counts toward the game's 4 hands (D5, D23, D31)."""

    @classmethod
    def void(cls, next_dealer: int, profile: Profile) -> HandResult:
        """CALL-6: nobody called."""
        return cls("void", None, None, None, (0, 0, 0, 0), next_dealer, profile.game_length == "deals")

    @classmethod
    def played_out(cls, next_dealer: int, profile: Profile) -> HandResult:
        """PLAY-8, D23: the cards ran out with no claim."""
        counts = profile.no_claim == "no-score" or profile.game_length == "deals"
        return cls("played-out", None, None, None, (0, 0, 0, 0), next_dealer, counts)


def number_matches(dreamer_card: int, winning_hand: int, wan_sin_is_one: bool) -> int:
    """SCORE-4, D27: cards of ``winning_hand`` with the number of the Dreamer's card."""
    if dreamer_card == WAN_SIN and not wan_sin_is_one:
        return 0
    number = number_of(dreamer_card)
    same = NUMBER_MASKS[number]
    if number == 1 and wan_sin_is_one:
        same |= WAN_SIN_BIT
    return (winning_hand & same).bit_count()


def dreamer_count(dreamer_card: int, winning_hand: int, profile: Profile) -> int:
    """SCORE-4, D25, D26, D27: the Dreamer wakes with 5 tricks, +1 per matching card."""
    matches = number_matches(dreamer_card, winning_hand, profile.dreamer_wan_sin == "number-one")
    return matches + (5 if profile.dreamer_count == "five-plus-matches" else 0)


@mypyc_attr(native_class=False)  # as HandResult
@dataclass(frozen=True, slots=True)
class Win:
    """The facts a won hand is scored from (SCORE-3..7)."""

    end: str
    """``claim`` or ``five-tigers``."""
    winner: int
    tricks: int
    """The count the winner scores (CLAIM-1, D22; 8 for the Five Tigers, TIG-1)."""
    dealer: int
    privileged: int | None
    dreamer_card: int
    winning_hand: int
    """The cards matched against the Dreamer's card (SCORE-4, D26)."""
    next_dealer: int

    @property
    def dreamer(self) -> int:
        return (self.dealer + 2) % 4

    @property
    def losers(self) -> list[int]:
        """The active seats other than the winner."""
        d = self.dealer
        return [s for s in (d, (d + 1) % 4, (d + 3) % 4) if s != self.winner]


Payment = tuple[int, int, int]
"""``(payer, payee, amount)``."""


def payments(win: Win, profile: Profile, *, value: int, dreamer_value: int, penalty: bool) -> list[Payment]:
    """Who pays whom for a won hand (SCORE-3, SCORE-5, SCORE-6, D28, D29, D34).

    ``value`` is the table value of the winner's count, ``dreamer_value`` that
    of the Dreamer's, ``penalty`` whether a Privileged Player who did not win
    pays for the others (SCORE-6).
    """
    tigers_alone = win.end == "five-tigers" and profile.tigers_scoring == "winner-only"
    if tigers_alone:  # D34
        dreamer_value, penalty = 0, False
    privileged = win.privileged
    out: list[Payment] = []
    for loser in win.losers:  # SCORE-3; SCORE-6: a losing PP pays for the other loser too
        out.append((privileged if penalty and privileged is not None else loser, win.winner, value))
    payers = win.losers + ([win.winner] if profile.dreamer_payers == "all-three" else [])  # SCORE-5, D28
    for payer in payers:
        if penalty and privileged is not None and payer in win.losers and profile.privileged_penalty == "all-shares":
            payer = privileged  # D29
        out.append((payer, win.dreamer, dreamer_value))
    return out


def settle(win: Win, dreamer_count: int, paid: list[Payment]) -> HandResult:
    """The result of a won hand from its payments (SCORE-7: they sum to zero)."""
    deltas = [0, 0, 0, 0]
    for payer, payee, amount in paid:
        deltas[payer] -= amount
        deltas[payee] += amount
    assert sum(deltas) == 0  # SCORE-7
    return HandResult(win.end, win.winner, win.tricks, dreamer_count,
                      (deltas[0], deltas[1], deltas[2], deltas[3]), win.next_dealer, True)
