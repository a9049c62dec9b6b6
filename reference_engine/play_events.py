"""The events of calling and playing, and of a hand's and a game's end (:mod:`reference_engine.events`
is the public face; the claim and the Five Tigers are :mod:`reference_engine.offers`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .actions import CALL, PASS, Action, discard_action, play_action
from .cards import Cards, mask_text
from .errors import MalformedError
from .event_base import Event, SeatEvent, check_cards, check_count, check_seat
from .patterns import Kind
from .scoring import HandResult

__all__ = ["Called", "Discarded", "EldersPromoted", "GameEnded", "HandDealt", "HandEnded", "Passed", "Played",
           "RoundWon", "hidden_discard"]

END_KINDS: Final = ("claim", "five-tigers", "played-out", "void")
_CALL: Final = Action(CALL)
_PASS: Final = Action(PASS)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# ------------------------------------------------------------------ Calling (CALL-1..6)


@dataclass(frozen=True, slots=True, repr=False)
class Called(SeatEvent):
    """``seat`` calls (CALL-1); ``privileged``: it becomes the Privileged Player (CALL-4, D30)."""

    privileged: bool = False

    @property
    def action(self) -> Action:
        return _CALL

    def __str__(self) -> str:
        return f"{self.seat} call (privileged)" if self.privileged else f"{self.seat} call"


@dataclass(frozen=True, slots=True, repr=False)
class Passed(SeatEvent):
    """``seat`` passes (CALL-3)."""

    @property
    def action(self) -> Action:
        return _PASS

    def __str__(self) -> str:
        return f"{self.seat} pass"


# ------------------------------------------------------------------ Playing (PLAY-2..8)


@dataclass(frozen=True, slots=True, repr=False)
class Played(SeatEvent):
    """``seat`` plays the cards of ``mask`` face up, a pattern of ``kind`` (PLAY-2, PLAY-3)."""

    mask: int
    kind: Kind

    def _check(self) -> None:
        check_cards(self.mask, "cards")
        if not isinstance(self.kind, Kind) or self.kind == Kind.NONE:
            raise MalformedError(f"a play is a run, a set or a single, not {self.kind!r}", rule="PAT-7")
        if (self.kind == Kind.SINGLE) != (self.mask.bit_count() == 1) or self.mask.bit_count() == 2:
            raise MalformedError(f"{mask_text(self.mask)} cannot be a {self.kind.value}: a Single is one card, "
                                 "a Run or a Set three or more", rule="PAT-7")

    @property
    def cards(self) -> Cards:
        return Cards(self.mask)

    @property
    def action(self) -> Action:
        return play_action(self.mask)

    def __str__(self) -> str:
        return f"{self.seat} play {mask_text(self.mask)} ({self.kind.value})"


@dataclass(frozen=True, slots=True, repr=False)
class Discarded(SeatEvent):
    """``seat`` discards ``count`` cards face down (PLAY-4, PLAY-5).

    ``mask`` holds the cards; it is 0 in the event as another seat sees it
    (:meth:`seen_by`), where only the count shows (OBS-1, D32).
    """

    count: int
    mask: int = 0

    def _check(self) -> None:
        check_count(self.count, "discard count")
        if self.mask:
            check_cards(self.mask, "cards")
            if self.mask.bit_count() != self.count:
                raise MalformedError(f"a discard of {mask_text(self.mask)} holds {self.mask.bit_count()} cards, "
                                     f"not {self.count}")

    @property
    def hidden(self) -> bool:
        """Are the cards hidden (the discard as another seat sees it)?"""
        return not self.mask

    @property
    def cards(self) -> Cards | None:
        """The cards discarded, or ``None`` when hidden."""
        return Cards(self.mask) if self.mask else None

    @property
    def action(self) -> Action | None:
        return discard_action(self.mask) if self.mask else None

    def seen_by(self, seat: int) -> Discarded:
        if seat == self.seat or not self.mask:
            return self
        return hidden_discard(self.seat, self.count)

    def __str__(self) -> str:
        if self.mask:
            return f"{self.seat} discard {mask_text(self.mask)}"
        return f"{self.seat} discard ({self.count} face down)"


_HIDDEN: dict[tuple[int, int], Discarded] = {}


def hidden_discard(seat: int, count: int) -> Discarded:
    """The event of ``seat``'s discard of ``count`` cards as the other seats see it (cached)."""
    event = _HIDDEN.get((seat, count))
    if event is None:
        event = _HIDDEN[seat, count] = Discarded(seat, count)
    return event


@dataclass(frozen=True, slots=True, repr=False)
class RoundWon(SeatEvent):
    """``seat`` wins the round and ``tricks`` tricks, one per card of its pattern (PLAY-6)."""

    tricks: int

    def _check(self) -> None:
        check_count(self.tricks, "tricks", least=0)

    def __str__(self) -> str:
        return f"{self.seat} wins {_plural(self.tricks, 'trick')}"


@dataclass(frozen=True, slots=True, repr=False)
class EldersPromoted(SeatEvent):
    """The cards of ``mask`` became Elders through ``seat``'s play (ELD-2; a discard too under D19)."""

    mask: int

    def _check(self) -> None:
        check_cards(self.mask, "promoted cards")

    @property
    def cards(self) -> Cards:
        return Cards(self.mask)

    def __str__(self) -> str:
        return f"{self.seat} promotes {mask_text(self.mask)} to {'Elder' if self.mask.bit_count() == 1 else 'Elders'}"


# ------------------------------------------------------------------ the end of a hand, and a game (about no seat)


@dataclass(frozen=True, slots=True, repr=False)
class HandEnded(Event):
    """The hand is over, with ``result`` (CALL-6, PLAY-8, CLAIM-2, TIG-1; spec/README.md "Hand results")."""

    seat: None = field(default=None, init=False, compare=False)
    result: HandResult

    def __post_init__(self) -> None:
        problem = _result_problem(self.result)
        if problem:
            raise MalformedError(f"a hand's end holds a hand result: {problem}")

    def __str__(self) -> str:
        r = self.result
        facts = []
        if r.winner is not None:
            facts.append(f"winner {r.winner}")
        if r.tricks is not None:
            facts.append(f"tricks {r.tricks}")
        if r.dreamer_count is not None:
            facts.append(f"dreamer count {r.dreamer_count}")
        facts.append("deltas " + " ".join(str(d) for d in r.deltas))
        facts.append(f"next dealer {r.next_dealer}")
        facts.append("counts" if r.counts else "does not count")
        return f"hand ends ({r.end}): " + ", ".join(facts)


def _result_problem(result: object) -> str | None:
    if not isinstance(result, HandResult):
        return f"not {result!r}"
    if result.end not in END_KINDS:
        return f"end is one of {', '.join(END_KINDS)}, not {result.end!r}"
    for name in ("winner", "next_dealer"):
        value = getattr(result, name)
        if value is not None and (not isinstance(value, int) or not 0 <= value < 4):
            return f"{name} is a seat 0-3, not {value!r}"
    if len(result.deltas) != 4:
        return f"deltas are 4 integers, not {result.deltas!r}"
    return None


@dataclass(frozen=True, slots=True, repr=False)
class HandDealt(Event):
    """In a game, the next hand is dealt: deal number ``deal`` (1 is the first), by ``dealer`` (GAME-1, D31)."""

    seat: None = field(default=None, init=False, compare=False)
    deal: int
    dealer: int

    def __post_init__(self) -> None:
        check_count(self.deal, "deal number", least=2)
        check_seat(self.dealer, "dealer")

    def __str__(self) -> str:
        return f"deal {self.deal}: dealer {self.dealer}"


@dataclass(frozen=True, slots=True, repr=False)
class GameEnded(Event):
    """The game's 4th counting hand ended (GAME-1, D31); ``scores`` are every seat's totals."""

    seat: None = field(default=None, init=False, compare=False)
    scores: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        if not isinstance(self.scores, tuple) or len(self.scores) != 4 or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in self.scores):
            raise MalformedError(f"a game's end holds 4 integer scores, not {self.scores!r}")

    def __str__(self) -> str:
        return "game over: scores " + " ".join(str(s) for s in self.scores)
