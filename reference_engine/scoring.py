"""Scoring: the table, the Dreamer's count and who pays whom (SCORE-1..7).

>>> [table_value(t) for t in range(5, 13)]
[0, 1, 2, 4, 8, 16, 32, 128]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import NUMBER_MASKS, WAN_SIN, WAN_SIN_BIT, number_of
from .profile import Profile

SCORE_TABLE: Final = {6: 1, 7: 2, 8: 4, 9: 8, 10: 16, 11: 32, 12: 128}
"""SCORE-1: tricks → points. 12 tricks score 128, not 64, in every language of the source."""


def table_value(tricks: int) -> int:
    """Points for a count of tricks; below 6 nothing (SCORE-1, SCORE-2)."""
    return SCORE_TABLE.get(tricks, 0)


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

    def to_json(self) -> dict[str, object]:
        return {
            "end": self.end,
            "winner": self.winner,
            "tricks": self.tricks,
            "dreamer_count": self.dreamer_count,
            "deltas": list(self.deltas),
            "next_dealer": self.next_dealer,
            "counts": self.counts,
        }


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


def score_claim(
    *,
    end: str,
    winner: int,
    tricks: int,
    dealer: int,
    privileged: int | None,
    dreamer_card: int,
    winning_hand: int,
    next_dealer: int,
    profile: Profile,
) -> HandResult:
    """Score a hand won by a claim or by the Five Tigers (SCORE-3..7, D28, D29, D34)."""
    dreamer = (dealer + 2) % 4
    losers = [s for s in (dealer, (dealer + 1) % 4, (dealer + 3) % 4) if s != winner]
    tigers_alone = end == "five-tigers" and profile.tigers_scoring == "winner-only"
    value = table_value(tricks)
    count = dreamer_count(dreamer_card, winning_hand, profile)
    dreamer_value = 0 if tigers_alone else table_value(count)
    # SCORE-6: a PP who does not win pays for himself and for the other loser.
    penalty = privileged is not None and privileged != winner and not tigers_alone
    deltas = [0, 0, 0, 0]

    def pay(payer: int, payee: int, amount: int) -> None:
        deltas[payer] -= amount
        deltas[payee] += amount

    for loser in losers:  # SCORE-3
        pay(privileged if penalty and privileged is not None else loser, winner, value)
    payers = losers + ([winner] if profile.dreamer_payers == "all-three" else [])  # SCORE-5, D28
    for payer in payers:
        if penalty and privileged is not None and payer in losers and profile.privileged_penalty == "all-shares":
            payer = privileged  # D29
        pay(payer, dreamer, dreamer_value)
    assert sum(deltas) == 0  # SCORE-7
    return HandResult(end, winner, tricks, count, (deltas[0], deltas[1], deltas[2], deltas[3]), next_dealer, True)
