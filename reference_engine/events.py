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

The kinds live by concern: the base in :mod:`~reference_engine.event_base`,
calling, playing and the ends in :mod:`~reference_engine.play_events`, the
claim and the Five Tigers (one shape: "seat may X / seat X / seat declines")
in :mod:`~reference_engine.offers`. This module names them all, makes the
events that repeat once, and reads the text back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .cards import parse_mask
from .errors import MalformedError
from .event_base import Event, SeatEvent
from .offers import (
    ClaimDeclined,
    ClaimMade,
    ClaimOffered,
    Declined,
    Offered,
    Taken,
    TigersDeclined,
    TigersOffered,
    TigersShown,
)
from .patterns import Kind
from .play_events import (
    Called,
    Discarded,
    EldersPromoted,
    GameEnded,
    HandDealt,
    HandEnded,
    Passed,
    Played,
    RoundWon,
)
from .scoring import HandResult

__all__ = [
    "Called", "ClaimDeclined", "ClaimMade", "ClaimOffered", "Declined", "Discarded", "EldersPromoted", "Event",
    "GameEnded", "HandDealt", "HandEnded", "Offered", "Passed", "Played", "RoundWon", "SeatEvent", "Taken",
    "TigersDeclined", "TigersOffered", "TigersShown", "parse_event",
]


def _bad(text: str, why: str) -> MalformedError:
    return MalformedError(f"not an event ({why}): {text!r}")


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


_PROMOTED: dict[int, EldersPromoted] = {}


def elders_promoted(seat: int, mask: int) -> EldersPromoted:
    """The event of the cards of ``mask`` becoming Elders through ``seat``'s move (cached: promotions repeat)."""
    key = mask << 2 | seat
    event = _PROMOTED.get(key)
    if event is None:
        if len(_PROMOTED) >= _CACHE_LIMIT:
            _PROMOTED.clear()
        event = _PROMOTED[key] = EldersPromoted(seat, mask)
    return event


def round_won(seat: int, tricks: int) -> RoundWon:
    """The event of ``seat`` winning a round and ``tricks`` tricks (made once for up to 9)."""
    return _ROUNDS_WON[seat][tricks] if 0 <= tricks < 10 else RoundWon(seat, tricks)


# ------------------------------------------------------------------ reading the text back


def parse_event(text: object) -> Event:
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
