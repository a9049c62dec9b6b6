"""What a move did: small frozen events, each with a text form that round-trips.

:meth:`Hand.apply <reference_engine.hand.Hand.apply>` returns the events an
action caused, in order, and appends them to the hand's log
(:attr:`Hand.events <reference_engine.hand.Hand.events>`);
:meth:`Game.apply <reference_engine.game.Game.apply>` adds the next deal and
the end of the game. The first event of every move is the action itself (a
call, a pass, a play, ...); the others are what the rules made of it (a round
won, Elders promoted, a claim offered, the hand ended).

Every event has a canonical text (``str``) that :func:`parse_event` reads back,
and a repr that evaluates. An action's event reads as the notation writes the
action, ``seat action`` (spec/PROTOCOL.md, "Events", gives the grammar):

>>> event = parse_event("1 play gon5 gon3 gon4 (run)")
>>> event
Event.parse('1 play Gon3 Gon4 Gon5 (run)')
>>> event.seat, event.cards, event.kind, str(event.action)
(1, Cards.parse('Gon3 Gon4 Gon5'), <Kind.RUN: 'run'>, 'play Gon3 Gon4 Gon5')
>>> parse_event(str(event)) == event
True

A face-down discard names its cards only to the seat that made it (PLAY-5,
OBS-1, D32); every other seat sees its count:

>>> discard = parse_event("3 discard Sup2 Gon4")
>>> discard.seen_by(3) is discard, str(discard.seen_by(0))
(True, '3 discard (2 face down)')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from .actions import CALL, CLAIM, CONTINUE, DECLINE, PASS, TIGERS, Action, discard_action, play_action
from .cards import FULL_DECK, Cards, mask_text, parse_mask
from .errors import MalformedError
from .patterns import Kind
from .scoring import HandResult

__all__ = [
    "Called", "ClaimDeclined", "ClaimMade", "ClaimOffered", "Discarded", "EldersPromoted", "Event", "GameEnded",
    "HandDealt", "HandEnded", "Passed", "Played", "RoundWon", "TigersDeclined", "TigersOffered", "TigersShown",
    "parse_event",
]

END_KINDS: Final = ("claim", "five-tigers", "played-out", "void")
_CALL: Final = Action(CALL)
_PASS: Final = Action(PASS)
_CLAIM: Final = Action(CLAIM)
_CONTINUE: Final = Action(CONTINUE)
_TIGERS: Final = Action(TIGERS)
_DECLINE: Final = Action(DECLINE)


def _bad(text: str, why: str) -> MalformedError:
    return MalformedError(f"not an event ({why}): {text!r}")


def _check_seat(seat: object, what: str = "seat") -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        raise MalformedError(f"an event's {what} is a seat 0-3, not {seat!r}", rule="GAME-5")


def _check_count(value: object, what: str, least: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise MalformedError(f"an event's {what} is an integer of at least {least}, not {value!r}")


def _check_cards(mask: object, what: str) -> None:
    if not isinstance(mask, int) or isinstance(mask, bool) or not 0 < mask <= FULL_DECK:
        raise MalformedError(f"an event's {what} is a non-empty set of cards of the 37-card deck, not {mask!r}",
                             rule="CARDS-1")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class Event:
    """One thing a move caused. Frozen and hashable; ``parse_event(str(e)) == e``.

    ``seat`` is the seat it is about (``None`` for the hand's end, a deal and
    the game's end); ``action`` is the action that made it when it is the
    move's own event (``None`` for what the rules made of a move, and for a
    discard whose cards are hidden).
    """

    __slots__ = ()
    seat: int | None

    @property
    def action(self) -> Action | None:
        return None

    def seen_by(self, seat: int) -> Event:
        """This event as ``seat`` may see it (OBS-1, D32): itself, but for another seat's discard."""
        return self

    @classmethod
    def parse(cls, text: str) -> Event:
        """The event whose canonical text is ``text`` (see :func:`parse_event`)."""
        return parse_event(text)

    def __repr__(self) -> str:
        return f"Event.parse({str(self)!r})"


# ------------------------------------------------------------------ Calling (CALL-1..6)


@dataclass(frozen=True, slots=True, repr=False)
class Called(Event):
    """``seat`` calls (CALL-1); ``privileged``: it becomes the Privileged Player (CALL-4, D30)."""

    seat: int
    privileged: bool = False

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    @property
    def action(self) -> Action:
        return _CALL

    def __str__(self) -> str:
        return f"{self.seat} call (privileged)" if self.privileged else f"{self.seat} call"


@dataclass(frozen=True, slots=True, repr=False)
class Passed(Event):
    """``seat`` passes (CALL-3)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    @property
    def action(self) -> Action:
        return _PASS

    def __str__(self) -> str:
        return f"{self.seat} pass"


# ------------------------------------------------------------------ Playing (PLAY-2..8)


@dataclass(frozen=True, slots=True, repr=False)
class Played(Event):
    """``seat`` plays the cards of ``mask`` face up, a pattern of ``kind`` (PLAY-2, PLAY-3)."""

    seat: int
    mask: int
    kind: Kind

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_cards(self.mask, "cards")
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
class Discarded(Event):
    """``seat`` discards ``count`` cards face down (PLAY-4, PLAY-5).

    ``mask`` holds the cards; it is 0 in the event as another seat sees it
    (:meth:`seen_by`), where only the count shows (OBS-1, D32).
    """

    seat: int
    count: int
    mask: int = 0

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_count(self.count, "discard count")
        if self.mask:
            _check_cards(self.mask, "cards")
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
class RoundWon(Event):
    """``seat`` wins the round and ``tricks`` tricks, one per card of its pattern (PLAY-6)."""

    seat: int
    tricks: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_count(self.tricks, "tricks", least=0)

    def __str__(self) -> str:
        return f"{self.seat} wins {_plural(self.tricks, 'trick')}"


@dataclass(frozen=True, slots=True, repr=False)
class EldersPromoted(Event):
    """The cards of ``mask`` became Elders through ``seat``'s play (ELD-2; a discard too under D19)."""

    seat: int
    mask: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_cards(self.mask, "promoted cards")

    @property
    def cards(self) -> Cards:
        return Cards(self.mask)

    def __str__(self) -> str:
        return f"{self.seat} promotes {mask_text(self.mask)} to {'Elder' if self.mask.bit_count() == 1 else 'Elders'}"


# ------------------------------------------------------------------ claims (CLAIM-1, D21) and the Five Tigers (TIG-1, D24)


@dataclass(frozen=True, slots=True, repr=False)
class ClaimOffered(Event):
    """``seat`` won a round with a claim count of 6 or more and may claim (CLAIM-1, D21 optional)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def __str__(self) -> str:
        return f"{self.seat} may claim"


@dataclass(frozen=True, slots=True, repr=False)
class ClaimMade(Event):
    """``seat`` claims (CLAIM-1); ``automatic``: by the rule, with no action (D21 automatic)."""

    seat: int
    automatic: bool = False

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    @property
    def action(self) -> Action | None:
        return None if self.automatic else _CLAIM

    def __str__(self) -> str:
        return f"{self.seat} claim (automatic)" if self.automatic else f"{self.seat} claim"


@dataclass(frozen=True, slots=True, repr=False)
class ClaimDeclined(Event):
    """``seat`` could claim and plays on (CLAIM-1, D21)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    @property
    def action(self) -> Action:
        return _CONTINUE

    def __str__(self) -> str:
        return f"{self.seat} continue"


@dataclass(frozen=True, slots=True, repr=False)
class TigersOffered(Event):
    """``seat`` holds the Five Tigers and may show them (TIG-1, D24 declared)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def __str__(self) -> str:
        return f"{self.seat} may show the Five Tigers"


@dataclass(frozen=True, slots=True, repr=False)
class TigersShown(Event):
    """``seat`` shows the Five Tigers and wins (TIG-1); ``automatic``: by the rule (D24 automatic)."""

    seat: int
    automatic: bool = False

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    @property
    def action(self) -> Action | None:
        return None if self.automatic else _TIGERS

    def __str__(self) -> str:
        return f"{self.seat} tigers (automatic)" if self.automatic else f"{self.seat} tigers"


@dataclass(frozen=True, slots=True, repr=False)
class TigersDeclined(Event):
    """``seat`` keeps the Five Tigers hidden and the hand is played (TIG-1, D24 declared)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    @property
    def action(self) -> Action:
        return _DECLINE

    def __str__(self) -> str:
        return f"{self.seat} decline"


# ------------------------------------------------------------------ the end of a hand, and a game


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
        parts = [f"hand ends ({r.end})"]
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
        return parts[0] + ": " + ", ".join(facts)


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
        _check_count(self.deal, "deal number", least=2)
        _check_seat(self.dealer, "dealer")

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


# ------------------------------------------------------------------ the events a hand makes, made once
# A hand makes an event at every action: those that repeat are built once (a frozen dataclass costs
# half a microsecond to build, a lookup a twentieth of that).

CALLED: Final = tuple(Called(seat) for seat in range(4))
CALLED_PRIVILEGED: Final = tuple(Called(seat, True) for seat in range(4))
PASSED: Final = tuple(Passed(seat) for seat in range(4))
CLAIM_OFFERED: Final = tuple(ClaimOffered(seat) for seat in range(4))
CLAIMED: Final = tuple(ClaimMade(seat) for seat in range(4))
CLAIMED_AUTOMATICALLY: Final = tuple(ClaimMade(seat, True) for seat in range(4))
CLAIM_DECLINED: Final = tuple(ClaimDeclined(seat) for seat in range(4))
TIGERS_OFFERED: Final = tuple(TigersOffered(seat) for seat in range(4))
TIGERS_SHOWN: Final = tuple(TigersShown(seat) for seat in range(4))
TIGERS_SHOWN_AUTOMATICALLY: Final = tuple(TigersShown(seat, True) for seat in range(4))
TIGERS_DECLINED: Final = tuple(TigersDeclined(seat) for seat in range(4))
_ROUNDS_WON: Final = tuple(tuple(RoundWon(seat, tricks) for tricks in range(10)) for seat in range(4))

_CACHE_LIMIT: Final = 1 << 15
PLAYED_EVENTS: dict[int, Played] = {}
"""``mask << 2 | seat`` → the event of that play (with the kind it was last played as): :func:`played`'s cache."""
_DISCARDED: dict[int, Discarded] = {}


def played(seat: int, mask: int, kind: Kind) -> Played:
    """The event of ``seat`` playing ``mask`` as a pattern of ``kind`` (cached)."""
    key = mask << 2 | seat
    event = PLAYED_EVENTS.get(key)
    if event is None or event.kind is not kind:
        if len(PLAYED_EVENTS) >= _CACHE_LIMIT:
            PLAYED_EVENTS.clear()
        event = PLAYED_EVENTS[key] = Played(seat, mask, kind)
    return event


def discarded(seat: int, mask: int) -> Discarded:
    """The event of ``seat`` discarding ``mask`` face down (cached)."""
    key = mask << 2 | seat
    event = _DISCARDED.get(key)
    if event is None:
        if len(_DISCARDED) >= _CACHE_LIMIT:
            _DISCARDED.clear()
        event = _DISCARDED[key] = Discarded(seat, mask.bit_count(), mask)
    return event


def round_won(seat: int, tricks: int) -> RoundWon:
    """The event of ``seat`` winning a round and ``tricks`` tricks (made once for up to 9)."""
    return _ROUNDS_WON[seat][tricks] if 0 <= tricks < 10 else RoundWon(seat, tricks)


# ------------------------------------------------------------------ reading the text back


def parse_event(text: str) -> Event:
    """The event whose text is ``text``; :class:`MalformedError` if it is none.

    Card names and their order are free (``gon5 G3 Gon4``); the rest is read
    as :func:`str` writes it.
    """
    if not isinstance(text, str):
        raise MalformedError(f"an event is text, not {text!r}")
    words = text.split()
    if not words:
        raise _bad(text, "empty")
    try:
        if words[0] in ("0", "1", "2", "3"):
            return _parse_seat_event(int(words[0]), words[1:], text)
        if words[0] == "hand":
            return _parse_end(text)
        if words[0] == "deal":
            return _parse_deal(words, text)
        if words[:3] == ["game", "over:", "scores"] and len(words) == 7:
            return GameEnded((_int(words[3]), _int(words[4]), _int(words[5]), _int(words[6])))
    except MalformedError as exc:
        if exc.message.startswith("not an event"):
            raise
        raise _bad(text, exc.message) from None
    raise _bad(text, "it starts with neither a seat 0-3 nor 'hand', 'deal' or 'game over'")


_FIXED: Final[dict[str, Callable[[int], Event]]] = {
    "pass": Passed, "continue": ClaimDeclined, "decline": TigersDeclined,
}
_WITH_AUTOMATIC: Final[dict[str, type[ClaimMade] | type[TigersShown]]] = {"claim": ClaimMade, "tigers": TigersShown}
_KINDS: Final = {f"({k.value})": k for k in (Kind.RUN, Kind.SET, Kind.SINGLE)}


def _parse_seat_event(seat: int, words: list[str], text: str) -> Event:
    rest = " ".join(words[1:])
    verb = words[0] if words else ""
    if verb in _FIXED and not rest:
        return _FIXED[verb](seat)
    if verb == "call" and rest in ("", "(privileged)"):
        return Called(seat, bool(rest))
    if verb in _WITH_AUTOMATIC and rest in ("", "(automatic)"):
        return _WITH_AUTOMATIC[verb](seat, bool(rest))
    if verb == "play" and len(words) >= 3 and words[-1] in _KINDS:
        return Played(seat, parse_mask(words[1:-1]), _KINDS[words[-1]])
    if verb == "discard" and len(words) == 4 and words[1].startswith("(") and words[2:] == ["face", "down)"]:
        return Discarded(seat, _int(words[1][1:]))
    if verb == "discard" and len(words) >= 2:
        mask = parse_mask(words[1:])
        return Discarded(seat, mask.bit_count(), mask)
    if verb == "wins" and len(words) == 3 and words[2] in ("trick", "tricks"):
        return RoundWon(seat, _int(words[1]))
    if verb == "promotes" and len(words) >= 4 and words[-2] == "to" and words[-1] in ("Elder", "Elders"):
        return EldersPromoted(seat, parse_mask(words[1:-2]))
    if rest == "claim" and verb == "may":
        return ClaimOffered(seat)
    if verb == "may" and rest == "show the Five Tigers":
        return TigersOffered(seat)
    raise _bad(text, "no event of a seat reads so")


def _parse_deal(words: list[str], text: str) -> HandDealt:
    if len(words) != 4 or not words[1].endswith(":") or words[2] != "dealer":
        raise _bad(text, "a deal reads 'deal N: dealer S'")
    dealer = _int(words[3])
    return HandDealt(_int(words[1][:-1]), dealer)


def _parse_end(text: str) -> HandEnded:
    head, found, tail = text.strip().partition(": ")
    words = head.split()
    if not found or len(words) != 3 or words[:2] != ["hand", "ends"] or not (
            words[2].startswith("(") and words[2].endswith(")")):
        raise _bad(text, "a hand's end reads 'hand ends (END): facts, ...'")
    end = words[2][1:-1]
    facts: dict[str, str] = {}
    for part in tail.split(","):
        part = part.strip()
        for name in ("winner", "tricks", "dreamer count", "deltas", "next dealer"):
            if part.startswith(name + " "):
                facts[name] = part[len(name) + 1:]
                break
        else:
            if part not in ("counts", "does not count"):
                raise _bad(text, f"unknown fact {part!r}")
            facts["counts"] = part
    if "deltas" not in facts or "next dealer" not in facts or "counts" not in facts:
        raise _bad(text, "a hand's end names its deltas, next dealer and whether it counts")
    deltas = [_int(d) for d in facts["deltas"].split()]
    if len(deltas) != 4:
        raise _bad(text, "deltas are 4 integers")
    result = HandResult(
        end, _opt_int(facts.get("winner")), _opt_int(facts.get("tricks")), _opt_int(facts.get("dreamer count")),
        (deltas[0], deltas[1], deltas[2], deltas[3]), _int(facts["next dealer"]), facts["counts"] == "counts")
    return HandEnded(result)


def _int(word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise MalformedError(f"{word!r} is not an integer") from None


def _opt_int(word: str | None) -> int | None:
    return None if word is None else _int(word)
