"""The shape every event shares (:mod:`reference_engine.events` is the public face).

:class:`Event` is the base; :class:`SeatEvent` is an event about one seat (a
call, a play, a claim, ...). The events of the hand's and the game's end are
about no seat; their ``seat`` is ``None``.

Why the base declares no ``seat``: a compiled (mypyc) class cannot narrow a
field of its base (``int | None`` to ``int``), and a reader is better served
by a precise type: ``isinstance(event, SeatEvent)`` tells an ``int`` seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import Action
from .cards import COMPILED, FULL_DECK
from .dealing import is_seat
from .errors import MalformedError

__all__ = ["Event", "SeatEvent"]

_INTS: Final = frozenset({"seat", "mask", "count", "tricks", "deal", "dealer"})
"""The fields of the events that are an ``int`` (a seat, a card mask, a count)."""


def check_seat(seat: object, what: str = "seat") -> None:
    if not is_seat(seat):  # GAME-5, as for a setup's seats (dealing.check_seat), but an event's error
        raise MalformedError(f"an event's {what} is a seat 0-3, not {seat!r}", rule="GAME-5")


def check_count(value: object, what: str, least: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise MalformedError(f"an event's {what} is an integer of at least {least}, not {value!r}")


def check_cards(mask: object, what: str) -> None:
    if not isinstance(mask, int) or isinstance(mask, bool) or not 0 < mask <= FULL_DECK:
        raise MalformedError(f"an event's {what} is a non-empty set of cards of the 37-card deck, not {mask!r}",
                             rule="CARDS-1")


def _refuse(name: str, value: object) -> None:
    if name == "seat":
        check_seat(value)
    raise MalformedError(f"an event's {name} is an integer, not {value!r}")


class Event:
    """One thing a move caused. Frozen and hashable; ``parse_event(str(e)) == e``.

    ``seat`` is the seat it is about: an ``int`` on a :class:`SeatEvent`,
    ``None`` on the hand's end, a deal and the game's end. ``action`` is the
    action that made it when it is the move's own event (``None`` for what the
    rules made of a move, and for a discard whose cards are hidden).
    """

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Event:
        # Compiled, a field annotated ``int`` refuses a str with a bare TypeError and takes ``True``
        # as 1 before ``__post_init__`` can see it (setup.py): its type is checked here, in the words
        # of the pure build's checks (which refuse the same values in ``__post_init__``).
        if COMPILED:
            names: tuple[str, ...] | None = None
            for i, value in enumerate(args):
                if type(value) is not int:  # (a plain loop: events are made at every discard)
                    if names is None:
                        names = getattr(cls, "__match_args__", ())
                    if i < len(names) and names[i] in _INTS:
                        _refuse(names[i], value)
            for name, value in kwargs.items():
                if name in _INTS and type(value) is not int:
                    _refuse(name, value)
        return super().__new__(cls)

    @property
    def action(self) -> Action | None:
        return None

    def seen_by(self, seat: int) -> Event:
        """This event as ``seat`` may see it (OBS-1, D32): itself, but for another seat's discard."""
        return self

    @classmethod
    def parse(cls, text: object) -> Event:
        """The event whose canonical text is ``text`` (see :func:`~reference_engine.events.parse_event`)."""
        from .events import parse_event  # the parser knows every kind of event; they import this base

        return parse_event(text)

    def __repr__(self) -> str:
        return f"Event.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickled and copied as its text, which round-trips by design; a compiled frozen dataclass
        # refuses the field-by-field restore that pickle would do otherwise.
        from .events import parse_event

        return (parse_event, (str(self),))


@dataclass(frozen=True, slots=True, repr=False)
class SeatEvent(Event):
    """An event about one ``seat``, 0-3 (GAME-5); a kind with more fields checks them in :meth:`_check`."""

    seat: int

    def __post_init__(self) -> None:
        check_seat(self.seat)
        self._check()

    def _check(self) -> None:
        """Refuse a value of this kind's own fields (the seat is checked already)."""
