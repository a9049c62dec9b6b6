"""What one seat may see of a hand (OBS-1, D32), as a typed value.

The wire form (spec/PROTOCOL.md, ``observe``) is made from it by
:func:`reference_engine.wire.observation_json`.

>>> from reference_engine.hand import Hand
>>> seen = Hand.from_seed(dealer=0, seed=1).observation(2)
>>> seen.phase, seen.hand_sizes, seen.dreamer_card == seen.hand.mask.bit_length() - 1
(<Phase.CALLING: 'calling'>, (12, 12, 1, 12), True)

A seat sees every event of the hand but the cards of another seat's discard
(PLAY-5), which shows as its count:

>>> hand = Hand.deal(0, ["Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon1 Gon2 Gon3 Gon4 Gon5",
...                      "Sup1 Sup9 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
...                      "WanSin",
...                      "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9"])
>>> for seat, action in [(0, "call"), (0, "play Sup5 Sup6 Sup7"), (1, "discard Gon6 Gon7 Zok1")]:
...     _ = hand.apply(seat, action)
>>> [str(e) for e in hand.observation(3).round]
['0 play Sup5 Sup6 Sup7 (run)', '1 discard (3 face down)']
>>> [str(e) for e in hand.observation(1).events]
['0 call', '0 play Sup5 Sup6 Sup7 (run)', '1 discard Gon6 Gon7 Zok1']
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Final, NamedTuple

from .actions import VERBS, Action, LegalActions
from .cards import Cards
from .events import Discarded, Event, Played, SeatEvent
from .hand import Hand, Phase
from .scoring import HandResult


class Seen(NamedTuple):
    """One action of the hand's history as the observing seat sees it.

    ``action`` is ``None`` for another seat's discard, which is face down
    (PLAY-5): only its ``size`` (how many cards) shows. (A named tuple: an observation
    is made at every step of a fuzz campaign, and a tuple is made five times
    faster than a frozen dataclass.)
    """

    seat: int
    action: Action | None
    size: int


OBSERVATION_FIELDS: Final = (
    "seat", "phase", "to_act", "dealer", "dreamer", "privileged", "hand", "hand_sizes", "dreamer_card", "history",
    "events", "leader", "round", "tricks", "elders", "legal", "result",
)
"""The fields of an :class:`Observation`, in order (its ``__init__``'s parameters, its ``__match_args__``)."""


class Observation:
    """What ``seat`` may see now. Two states that differ only in cards hidden
    from ``seat`` give equal observations.

    A small immutable value of its fields (:data:`OBSERVATION_FIELDS`), made by keyword or in order; it
    compares, hashes and reads back (``repr``) as a frozen dataclass of them would. Not a dataclass: compiled,
    a dataclass's ``__init__`` stays interpreted, and made so an observation cost twenty times more (an
    observation is made for every seat at the end of every hand a fuzz campaign compares, and at every step
    the table and the learning environments observe).
    """

    __slots__ = OBSERVATION_FIELDS
    __match_args__ = OBSERVATION_FIELDS

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    dreamer: int
    privileged: int | None
    hand: Cards
    hand_sizes: tuple[int, int, int, int]
    dreamer_card: int | None
    """The Dreamer's card (an index) when ``seat`` is the Dreamer or the hand was won; else hidden."""
    history: tuple[Seen, ...]
    """Every action of the hand, as ``seat`` sees it (the protocol's ``history``)."""
    events: tuple[Event, ...]
    """Every event of the hand, as ``seat`` sees it: another seat's discard shows its count only."""
    leader: int | None
    """Who led the round in progress (phase ``playing`` only)."""
    round: tuple[Played | Discarded, ...]
    """The plays and discards of the round in progress, as ``seat`` sees them (phase ``playing`` only)."""
    tricks: tuple[int, int, int, int]
    elders: Cards
    legal: LegalActions | None
    """The legal actions, for the seat to act only."""
    result: HandResult | None

    def __init__(self, seat: int, phase: Phase, to_act: int | None, dealer: int, dreamer: int,
                 privileged: int | None, hand: Cards, hand_sizes: tuple[int, int, int, int],
                 dreamer_card: int | None, history: tuple[Seen, ...], events: tuple[Event, ...],
                 leader: int | None, round: tuple[Played | Discarded, ...],
                 tricks: tuple[int, int, int, int], elders: Cards, legal: LegalActions | None,
                 result: HandResult | None) -> None:
        # object.__setattr__: __setattr__ below refuses every other change (compiled, these are direct stores)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "to_act", to_act)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "dreamer", dreamer)
        object.__setattr__(self, "privileged", privileged)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "dreamer_card", dreamer_card)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "elders", elders)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "result", result)

    def _values(self) -> tuple[object, ...]:
        return (self.seat, self.phase, self.to_act, self.dealer, self.dreamer, self.privileged, self.hand,
                self.hand_sizes, self.dreamer_card, self.history, self.events, self.leader, self.round,
                self.tricks, self.elders, self.legal, self.result)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Observation) and other._values() == self._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(OBSERVATION_FIELDS, self._values(), strict=True))
        return f"Observation({fields})"

    def __reduce__(self) -> tuple[type[Observation], tuple[object, ...]]:
        # pickled and copied through __init__: compiled, pickle's default would call __init__ without them
        return (Observation, self._values())


def _seen(fields: tuple[int, Action | None, int]) -> Seen:
    """A :class:`Seen` of its three fields, made by ``tuple.__new__``: ``Seen(...)`` and ``Seen._make`` are
    interpreted, and compiled they cost a third of an observation (which makes one per action of the hand,
    and four observations end every hand a fuzz campaign compares)."""
    return tuple.__new__(Seen, fields)


_CACHE_LIMIT: Final = 1 << 15
_SEEN_ACTIONS: Final[dict[str, dict[int, Seen]]] = {verb: {} for verb in VERBS}
"""verb → ``mask << 2 | seat`` → the :class:`Seen` of that action: :func:`seen_action`'s cache."""
_SEEN_HIDDEN: Final[dict[int, Seen]] = {}


def seen_action(seat: int, action: Action) -> Seen:
    """``seat``'s ``action`` as every seat sees it (cached: a :class:`Seen` costs more to make than to look up,
    and the actions of hands repeat as their events do)."""
    cache = _SEEN_ACTIONS[action.verb]
    mask = action.mask
    key = mask << 2 | seat
    seen = cache.get(key)
    if seen is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        seen = cache[key] = _seen((seat, action, mask.bit_count()))
    return seen


def seen_hidden(seat: int, count: int) -> Seen:
    """``seat``'s discard of ``count`` cards as another seat sees it: its count only (PLAY-5; cached, as
    ``play_events.hidden_discard`` caches its event)."""
    key = count << 2 | seat
    seen = _SEEN_HIDDEN.get(key)
    if seen is None:
        seen = _SEEN_HIDDEN[key] = _seen((seat, None, count))
    return seen


class SeatViews:
    """The four seats' views of one hand's log (:attr:`Hand.events`), what :func:`observe` reads (OBS-1, D32).

    The seats' views differ only at a discard (another seat's shows its count, PLAY-5), so each event is
    looked at once for the four seats, when the first observation after it is asked, not once per
    observation: the hand keeps its views (a cache, like its legal actions), and :meth:`extended` makes
    them anew with the events logged since. A value, never changed once made: a hand observed from two
    threads at once gives each a whole view, and an observation shares its tuples with them. A log they
    were not made of (a copy's, one put back by ``Game.apply``), or one shorter than they hold or changed
    at its end, is read again from its start. Pickled or copied, they start empty.
    """

    __slots__ = ("log", "count", "last", "history", "events")

    log: list[Event] | None
    """The log the views were made of."""
    count: int
    """How many of its events they hold."""
    last: Event | None
    """The last of them (to see a log changed in place)."""
    history: list[tuple[Seen, ...]]
    """Each seat's :attr:`Observation.history` (a list of four, not a tuple: compiled, a tuple of four is a C
    struct, boxed again at each look-up by a seat)."""
    events: list[tuple[Event, ...]]
    """Each seat's :attr:`Observation.events`."""

    def __init__(self, log: list[Event] | None = None, count: int = 0, last: Event | None = None,
                 history: list[tuple[Seen, ...]] | None = None, events: list[tuple[Event, ...]] | None = None) -> None:
        self.log, self.count, self.last = log, count, last
        self.history = [(), (), (), ()] if history is None else history
        self.events = [(), (), (), ()] if events is None else events

    def __reduce__(self) -> tuple[type[SeatViews], tuple[()]]:
        return (SeatViews, ())

    def extended(self, log: list[Event]) -> SeatViews:
        """The views of every event of ``log`` (the hand's log now): these, or new ones."""
        count = self.count
        if log is self.log and count <= len(log) and (not count or log[count - 1] is self.last):
            if count == len(log):
                return self
            base_history, base_events = self.history, self.events
        else:  # another log, or this one changed: read from its start
            count, base_history, base_events = 0, [(), (), (), ()], [(), (), (), ()]
        history: list[list[Seen]] = [[], [], [], []]
        events: list[list[Event]] = [[], [], [], []]
        for event in log[count:]:
            if isinstance(event, Discarded):
                for seat in range(4):
                    if event.seat == seat:
                        action = event.action
                        if action is not None:
                            history[seat].append(seen_action(seat, action))
                        events[seat].append(event)
                    else:
                        hidden = event.seen_by(seat)
                        history[seat].append(seen_hidden(hidden.seat, hidden.count))
                        events[seat].append(hidden)
                continue
            action = event.action
            if action is not None and isinstance(event, SeatEvent):
                seen = seen_action(event.seat, action)
                for seat in range(4):
                    history[seat].append(seen)
            for seat in range(4):
                events[seat].append(event)
        return SeatViews(log, len(log), log[-1] if log else None, [base_history[s] + tuple(history[s]) for s in range(4)],
                         [base_events[s] + tuple(events[s]) for s in range(4)])


_NO_VIEWS: Final = SeatViews()


def observe(hand: Hand, seat: int) -> Observation:
    """What ``seat`` (0-3) may see of ``hand`` now (OBS-1, D32)."""
    views = hand._views
    views = hand._views = (_NO_VIEWS if views is None else views).extended(hand.events)
    playing = hand.phase == Phase.PLAYING
    rnd = hand.round
    show_dreamer = seat == hand.dreamer or (hand.result is not None and hand.result.winner is not None)
    sizes = [hand.hands[s].bit_count() if s != hand.dreamer else 1 for s in range(4)]
    return Observation(
        seat=seat,
        phase=hand.phase,
        to_act=hand.to_act,
        dealer=hand.dealer,
        dreamer=hand.dreamer,
        privileged=hand.privileged,
        hand=hand.hand_of(seat),
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        dreamer_card=hand.dreamer_card if show_dreamer else None,
        history=views.history[seat],
        events=views.events[seat],
        leader=rnd.leader if playing else None,
        round=tuple(p.seen_by(seat) if isinstance(p, Discarded) else p for p in rnd.plays) if playing else (),
        tricks=(hand.tricks[0], hand.tricks[1], hand.tricks[2], hand.tricks[3]),
        elders=Cards(hand.elders),
        legal=hand.legal_actions() if seat == hand.to_act else None,
        result=hand.result,
    )
