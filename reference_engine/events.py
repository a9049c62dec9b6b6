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

import re
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

    The grammar is the protocol's ``event`` schema (spec/PROTOCOL.md, "Events";
    ``common.schema.json``): words separated by one space, printable ASCII,
    integers in decimal without sign, leading zero or separator (a delta or a
    score may be negative), each fact of a hand's end once and in its place,
    and only the events that can happen (a round won with 1 to 9 tricks, a
    claim's or the Five Tigers' end with its winner, a void or played-out end
    with none and no score). Card names and their order are free
    (``gon5 G3 Gon4``), as the notation reads them; :func:`str` writes them
    canonically.
    """
    if not isinstance(text, str):
        raise MalformedError(f"an event is text, not {text!r}")
    if not text:
        raise _bad(text, "empty")
    if not _WORDS.fullmatch(text):
        raise _bad(text, "words are printable ASCII separated by one space, with no space before or after")
    words = text.split(" ")
    try:
        if words[0] in ("0", "1", "2", "3"):
            return _parse_seat_event(int(words[0]), words[1:], text)
        if words[0] == "hand":
            return _parse_end(text)
        if words[0] == "deal":
            return _parse_deal(words, text)
        if words[0] == "game":
            return _parse_game_over(text)
    except MalformedError as exc:
        if exc.message.startswith("not an event"):
            raise
        raise _bad(text, exc.message) from None
    raise _bad(text, "it starts with neither a seat 0-3 nor 'hand', 'deal' or 'game over'")


_WORDS: Final = re.compile(r"[!-~]+(?: [!-~]+)*")
_COUNT: Final = r"(?:0|[1-9][0-9]*)"
_SIGNED: Final = r"(?:0|-?[1-9][0-9]*)"
_WIN_END: Final = re.compile(
    rf"hand ends \((claim|five-tigers)\): winner ([0-3]), tricks ({_COUNT}), dreamer count ({_COUNT}), "
    rf"deltas ({_SIGNED}) ({_SIGNED}) ({_SIGNED}) ({_SIGNED}), next dealer ([0-3]), (counts|does not count)")
_NO_WIN_END: Final = re.compile(r"hand ends \((played-out|void)\): deltas 0 0 0 0, next dealer ([0-3]), (counts|does not count)")
_DEAL: Final = re.compile(r"deal ([2-9]|[1-9][0-9]+): dealer ([0-3])")
_GAME_OVER: Final = re.compile(rf"game over: scores ({_SIGNED}) ({_SIGNED}) ({_SIGNED}) ({_SIGNED})")
_FIXED: Final[dict[str, Callable[[int], Event]]] = {
    "pass": Passed, "continue": ClaimDeclined, "decline": TigersDeclined,
}
_WITH_AUTOMATIC: Final[dict[str, type[ClaimMade] | type[TigersShown]]] = {"claim": ClaimMade, "tigers": TigersShown}
_KINDS: Final = {f"({k.value})": k for k in (Kind.RUN, Kind.SET, Kind.SINGLE)}
_ROUND_TRICKS: Final = {"1": "trick", **{str(n): "tricks" for n in range(2, 10)}}
"""A round is won with one trick per card of its pattern: 1 to 9 (PLAY-6)."""


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
    if verb == "discard" and len(words) == 4 and words[2:] == ["face", "down)"]:
        if not re.fullmatch(r"\([1-9]", words[1]):
            raise _bad(text, "a discard face down shows 1 to 9 cards, as '(N face down)'")
        return Discarded(seat, int(words[1][1:]))
    if verb == "discard" and len(words) >= 2:
        mask = parse_mask(words[1:])
        return Discarded(seat, mask.bit_count(), mask)
    if verb == "wins" and len(words) == 3 and words[2] in ("trick", "tricks"):
        if _ROUND_TRICKS.get(words[1]) != words[2]:
            raise _bad(text, "a round is won with '1 trick' or 'N tricks', N from 2 to 9 (PLAY-6)")
        return RoundWon(seat, int(words[1]))
    if verb == "promotes" and len(words) >= 4 and words[-2] == "to" and words[-1] in ("Elder", "Elders"):
        mask = parse_mask(words[1:-2])
        if (mask.bit_count() == 1) != (words[-1] == "Elder"):
            raise _bad(text, "one card is promoted 'to Elder', more 'to Elders'")
        return EldersPromoted(seat, mask)
    if rest == "claim" and verb == "may":
        return ClaimOffered(seat)
    if verb == "may" and rest == "show the Five Tigers":
        return TigersOffered(seat)
    raise _bad(text, "no event of a seat reads so")


def _parse_deal(words: list[str], text: str) -> HandDealt:
    found = _DEAL.fullmatch(text)
    if found is None:
        raise _bad(text, "a next deal reads 'deal N: dealer S', N from 2 (the first deal has no event)")
    return HandDealt(int(found[1]), int(found[2]))


def _parse_game_over(text: str) -> GameEnded:
    found = _GAME_OVER.fullmatch(text)
    if found is None:
        raise _bad(text, "the game's end reads 'game over: scores N N N N'")
    return GameEnded((int(found[1]), int(found[2]), int(found[3]), int(found[4])))


def _parse_end(text: str) -> HandEnded:
    won = _WIN_END.fullmatch(text)
    if won is not None:
        end, winner, tricks, dreamer = won[1], int(won[2]), int(won[3]), int(won[4])
        deltas = (int(won[5]), int(won[6]), int(won[7]), int(won[8]))
        return HandEnded(HandResult(end, winner, tricks, dreamer, deltas, int(won[9]), won[10] == "counts"))
    none = _NO_WIN_END.fullmatch(text)
    if none is not None:
        return HandEnded(HandResult(none[1], None, None, None, (0, 0, 0, 0), int(none[2]), none[3] == "counts"))
    raise _bad(text, "a hand's end reads 'hand ends (claim|five-tigers): winner S, tricks N, dreamer count N, "
                     "deltas N N N N, next dealer S, counts|does not count', or 'hand ends (played-out|void): "
                     "deltas 0 0 0 0, next dealer S, ...': each fact once, in this order")
