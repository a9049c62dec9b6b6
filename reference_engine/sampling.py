"""Deals consistent with one seat's view: the hidden information of a hand, resampled (OBS-1, D32).

A search that cannot see the other hands (information-set Monte Carlo tree
search, IS-MCTS) plays many *determinizations*: full states that the seat to
move cannot tell from the real one. :func:`resample` makes one.

What a seat cannot see (OBS-1, D32 ``standard``) is: the cards the two other
active seats hold (or the three active seats, for the Dreamer), the cards of
every face-down discard but its own (PLAY-5), and the Dreamer's card until
the hand ends with a winner. Everything else is fixed: its own deal, every
face-up play with its seat, the size of every discard and holding.

**The distribution.** Every *hidden history* (an assignment of the hidden
cards to the other seats' holdings, to each of their face-down discards and
to the Dreamer) that the seat's :meth:`~reference_engine.hand.Hand.observation`
cannot tell from the real one is equally likely. A candidate is consistent
when the hand replays from its deal with the same actions (the hidden
discards taking the candidate's cards) legally, and every event equals, as
that seat sees it, the real one. So the sampler respects every inference the
rules allow: a seat that discarded under D12 ``must-beat`` could not beat; a
Calling with no Five Tigers shown means no active seat held them (TIG-1); a
round won without a claim offered means a claim count below 6 (CLAIM-1); the
Elders after a discard under D19 ``face-up-and-discards``.

Uniform candidates are drawn and refused until one is consistent (rejection:
exactly uniform). If ``tries`` candidates are refused, a Markov chain takes
over: started from a consistent state (the real one when the sampler is given
the hand, else the last sample it drew), it swaps two hidden cards between
two places and keeps the swap when the result is consistent (a symmetric
proposal, so its stationary distribution is uniform too, over the states the
swaps connect), for ``steps`` swaps. :attr:`Resampler.fallbacks` counts how
often that happened. With no consistent state to start from,
:class:`NoConsistentDeal` is raised.

A sampler is built from what the seat sees, a :class:`SeatView`, never from
the hidden cards: from :meth:`Hand.observation <reference_engine.hand.Hand.observation>`
(with its events, the strictest check) or from the wire form of an
observation (``observe``, whose history has the actions but not the events),
so that a bot that is given only its seat's view can search.

>>> import random
>>> from reference_engine import Hand
>>> hand = Hand.from_seed(dealer=0, seed=7)
>>> for seat, action in [(0, "call"), (0, "play Sup4")]:
...     _ = hand.apply(seat, action)
>>> world = resample(hand, seat=1, rng=random.Random(3))
>>> world.observation(1) == hand.observation(1), world.hand_of(1) == hand.hand_of(1)
(True, True)
>>> world.hand_of(3) == hand.hand_of(3)   # another seat's hidden cards, drawn again
False
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import DISCARD, Action
from .cards import FULL_DECK, mask_text, parse_card_index, parse_mask
from .dealing import check_seat
from .errors import HakkaError, SetupError
from .events import Discarded, Event
from .hand import Hand
from .observation import Observation, Seen
from .profile import DEFAULT_PROFILE, Profile
from .rules import DEFAULT_RULES, Rules
from .scoring import HandResult

__all__ = ["DEFAULT_STEPS", "DEFAULT_TRIES", "NoConsistentDeal", "Resampler", "SeatView", "resample"]

DEFAULT_TRIES: Final = 400
"""Uniform candidates tried before the Markov chain takes over."""
DEFAULT_STEPS: Final = 200
"""Swaps the Markov chain makes when rejection fails."""


class NoConsistentDeal(HakkaError):
    """Rejection found no state consistent with the seat's view, and there was none to start a chain from."""

    kind = "setup"


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat sees of a hand, as far as resampling needs it (OBS-1).

    ``events`` (the events as the seat sees them) may be ``None`` when only the
    actions are known (the wire form of an observation); every other field is
    in both.
    """

    seat: int
    dealer: int
    hand: int
    """The seat's cards now (a mask; the Dreamer: its one card)."""
    dreamer_card: int | None
    history: tuple[Seen, ...]
    events: tuple[Event, ...] | None
    phase: str
    to_act: int | None
    elders: int
    tricks: tuple[int, int, int, int]
    result: tuple[str, int | None, int | None, int | None, tuple[int, ...]] | None
    """The hand's end, winner, tricks, Dreamer's count and deltas, once it has ended (SCORE-1..7)."""

    @classmethod
    def of(cls, seen: Observation) -> SeatView:
        """The view of an engine :class:`~reference_engine.observation.Observation` (events included)."""
        return cls(seen.seat, seen.dealer, seen.hand.mask, seen.dreamer_card, seen.history, seen.events,
                   str(seen.phase), seen.to_act, seen.elders.mask, seen.tricks, _result(seen.result))

    @classmethod
    def from_json(cls, seen: Mapping[str, Any]) -> SeatView:
        """The view of the wire form of an observation (spec/PROTOCOL.md, ``observe``), which has no events."""
        history = []
        for item in seen["history"]:
            if item["action"] == DISCARD and "count" in item:
                history.append(Seen(int(item["seat"]), None, int(item["count"])))
            else:
                action = Action.parse(item["action"])
                history.append(Seen(int(item["seat"]), action, action.mask.bit_count()))
        card = seen.get("dreamer_card")
        tricks = [int(t) for t in seen["tricks"]]
        result = seen.get("result")
        return cls(int(seen["seat"]), int(seen["dealer"]), parse_mask(seen["hand"]),
                   None if card is None else parse_card_index(card), tuple(history), None, str(seen["phase"]),
                   seen["to_act"], parse_mask(seen["elders"]), (tricks[0], tricks[1], tricks[2], tricks[3]),
                   None if result is None else (str(result["end"]), result["winner"], result["tricks"],
                                                result["dreamer_count"], tuple(int(d) for d in result["deltas"])))


def _result(result: HandResult | None) -> tuple[str, int | None, int | None, int | None, tuple[int, ...]] | None:
    if result is None:
        return None
    return (result.end, result.winner, result.tricks, result.dreamer_count, result.deltas)


class Resampler:
    """Draws states consistent with what a seat sees (see the module's text).

    Build it once for a position and call :meth:`sample` as often as needed:
    the hidden places and the actions to replay are worked out once. Every
    sample is a new :class:`Hand`. ``start``, a state consistent with the
    view (the real one), is only where the Markov chain starts.
    """

    def __init__(
        self, view: SeatView, profile: Profile = DEFAULT_PROFILE, rules: Rules = DEFAULT_RULES, *,
        start: Hand | None = None, tries: int = DEFAULT_TRIES, steps: int = DEFAULT_STEPS,
    ) -> None:
        check_seat(view.seat, "seat")
        self.view = view
        self.seat = view.seat
        self.profile = profile
        self.rules = rules
        self.tries = tries
        self.steps = steps
        self.fallbacks = 0
        """How many samples came from the Markov chain (rejection found nothing in ``tries``)."""
        self._owners: list[int] = []
        """The seat whose cards each hidden place holds."""
        self._sizes: list[int] = []
        self._discard_place: dict[int, int] = {}
        """Index in the history of a hidden discard -> its place."""
        self._known = [0, 0, 0, 0]
        self._find_places()
        self.cards: list[int] = []
        """The hidden cards (indices), place after place (as in ``start`` when given)."""
        self._last: list[int] | None = None
        known = self._known
        twice = known[0] & known[1] | (known[0] | known[1]) & known[2] | (known[0] | known[1] | known[2]) & known[3]
        if twice:
            raise NoConsistentDeal(f"seat {self.seat}'s view places {mask_text(twice)} with two seats", rule="OBS-1")
        hidden = FULL_DECK & ~(known[0] | known[1] | known[2] | known[3])
        if hidden.bit_count() != sum(self._sizes):
            raise NoConsistentDeal(f"seat {self.seat}'s view leaves {hidden.bit_count()} cards hidden "
                                   f"({mask_text(hidden)}) for {sum(self._sizes)} hidden places", rule="OBS-1")
        if start is not None:
            for mask in self._truth(start):
                self.cards.extend(i for i in range(mask.bit_length()) if mask >> i & 1)
            self._last = list(self.cards)
        else:
            self.cards = [i for i in range(hidden.bit_length()) if hidden >> i & 1]

    @classmethod
    def of_hand(cls, hand: object, seat: object, *, tries: object = DEFAULT_TRIES,
                steps: object = DEFAULT_STEPS) -> Resampler:
        """A sampler of what ``seat`` sees of ``hand``; the hand itself starts the chain.

        Its arguments are read as ``object`` and checked (:class:`SetupError`): compiled, typed
        parameters would refuse a wrong type with a bare TypeError and take ``True`` for seat 1.
        """
        if not isinstance(hand, Hand):
            raise SetupError(f"a sampler resamples a Hand, not {hand!r}")
        checked = check_seat(seat, "seat")
        for name, value in (("tries", tries), ("steps", steps)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SetupError(f"{name} is an integer of at least 0, not {value!r}")
        assert isinstance(tries, int) and isinstance(steps, int)
        return cls(SeatView.of(hand.observation(checked)), hand.profile, hand.rules, start=hand, tries=tries,
                   steps=steps)

    def _add_place(self, owner: int, size: int) -> None:
        self._owners.append(owner)
        self._sizes.append(size)

    def _find_places(self) -> None:
        view, seat = self.view, self.seat
        known = self._known
        dreamer = (view.dealer + 2) % 4
        if seat == dreamer:
            known[dreamer] = view.hand
        elif view.dreamer_card is not None:
            known[dreamer] = 1 << view.dreamer_card
        else:
            self._add_place(dreamer, 1)
        sizes = [12, 12, 12, 12]
        for item in view.history:
            sizes[item.seat] -= item.size  # a play or a discard: its cards; any other action: 0
        for other in (view.dealer, (view.dealer + 1) % 4, (view.dealer + 3) % 4):
            if other != seat:
                self._add_place(other, sizes[other])
        own = view.hand
        for index, item in enumerate(view.history):
            action = item.action
            if action is None:
                self._discard_place[index] = len(self._owners)
                self._add_place(item.seat, item.size)
            elif action.verb == "play" and item.seat != seat:
                known[item.seat] |= action.mask
            elif action.verb in ("play", DISCARD) and item.seat == seat:
                own |= action.mask
        if seat != dreamer:
            known[seat] = own

    def _truth(self, hand: Hand) -> list[int]:
        """The cards of each hidden place in ``hand`` (a state consistent with the view)."""
        dreamer = hand.dreamer
        masks = []
        if self.seat != dreamer and self.view.dreamer_card is None:
            masks.append(hand.dealt[dreamer])
        masks.extend(hand.hands[o] for o in hand.active_seats if o != self.seat)
        masks.extend(e.mask for e in hand.events if isinstance(e, Discarded) and e.seat != self.seat)
        return masks

    # ---------------------------------------------------------------- sampling

    def sample(self, rng: random.Random) -> Hand:
        """A state drawn as the module's text says, which the seat cannot tell from its view."""
        cards = list(self.cards)
        for _ in range(self.tries):
            rng.shuffle(cards)
            world = self.replay(cards)
            if world is not None:
                self._last = list(cards)
                return world
        if self._last is None:
            raise NoConsistentDeal(f"no deal consistent with seat {self.seat}'s view in {self.tries} tries, and "
                                   f"no consistent state to start a chain from", rule="OBS-1", seat=self.seat)
        self.fallbacks += 1
        return self._chain(rng, self._last)

    def _chain(self, rng: random.Random, start: list[int]) -> Hand:
        cards = list(start)
        place_of = [p for p, size in enumerate(self._sizes) for _ in range(size)]
        world = self.replay(cards)
        assert world is not None, "the chain starts from a consistent state"
        for _ in range(self.steps if len(self._sizes) > 1 else 0):
            i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
            if place_of[i] == place_of[j]:
                continue
            cards[i], cards[j] = cards[j], cards[i]
            candidate = self.replay(cards)
            if candidate is None:
                cards[i], cards[j] = cards[j], cards[i]
            else:
                world = candidate
        self._last = cards
        return world

    def masks(self, cards: Sequence[int]) -> list[int]:
        """The card mask of each hidden place when ``cards`` fill them in order."""
        masks = []
        start = 0
        for size in self._sizes:
            mask = 0
            for index in cards[start:start + size]:
                mask |= 1 << index
            masks.append(mask)
            start += size
        return masks

    def replay(self, cards: Sequence[int]) -> Hand | None:
        """The hand with ``cards`` filling the hidden places in order, or ``None`` if the seat could tell it apart."""
        view, seat = self.view, self.seat
        masks = self.masks(cards)
        dealt = list(self._known)
        for owner, mask in zip(self._owners, masks, strict=True):
            dealt[owner] |= mask
        world = Hand.deal(view.dealer, dealt, self.profile, rules=self.rules)
        log = world.events
        events = view.events
        for index, item in enumerate(view.history):
            place = self._discard_place.get(index)
            action = item.action if place is None else Action(DISCARD, masks[place])
            assert action is not None
            if world.to_act != item.seat or action not in world.legal_actions():
                return None
            start = len(log)
            world.apply(item.seat, action)
            if events is not None:
                for offset in range(start, len(log)):
                    # ``object``, not ``Event``: compiled, ``!=`` between two values of one class with no
                    # ``__eq__`` of its own is an identity test (mypyc cannot see the ``__eq__`` that
                    # ``@dataclass`` gives each kind of event), and a hand's end is a new event at each replay
                    seen: object = log[offset].seen_by(seat)
                    if offset >= len(events) or seen != events[offset]:
                        return None
        if events is not None and len(log) != len(events):
            return None
        return world if self._same_end(world) else None

    def _same_end(self, world: Hand) -> bool:
        view = self.view
        return (str(world.phase) == view.phase and world.to_act == view.to_act and world.elders == view.elders
                and tuple(world.tricks) == view.tricks and world.hand_of(self.seat).mask == view.hand
                and _result(world.result) == view.result)


def resample(
    hand: object, seat: object, rng: object = None, *, tries: object = DEFAULT_TRIES, steps: object = DEFAULT_STEPS
) -> Hand:
    """One state that ``seat`` cannot tell from ``hand``, drawn uniformly (see the module's text).

    ``rng`` (a ``random.Random``) makes the draw reproducible (a fresh ``random.Random()`` if not given).
    Every argument is checked as :meth:`Resampler.of_hand` says.
    """
    if rng is not None and not isinstance(rng, random.Random):
        raise SetupError(f"rng is a random.Random or None, not {rng!r}")
    sampler = Resampler.of_hand(hand, seat, tries=tries, steps=steps)
    return sampler.sample(rng if rng is not None else random.Random())
