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
over: started from the real state, it swaps two hidden cards between two
places and keeps the swap when the result is consistent (a symmetric
proposal, so its stationary distribution is uniform too, over the states the
swaps connect), for ``steps`` swaps. :attr:`Resampler.fallbacks` counts how
often that happened.

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
from typing import Final

from .actions import DISCARD, Action
from .dealing import check_seat
from .events import Discarded, Event, Played
from .hand import Hand

__all__ = ["DEFAULT_STEPS", "DEFAULT_TRIES", "Resampler", "resample"]

DEFAULT_TRIES: Final = 400
"""Uniform candidates tried before the Markov chain takes over."""
DEFAULT_STEPS: Final = 200
"""Swaps the Markov chain makes when rejection fails."""


class Resampler:
    """Draws states consistent with what ``seat`` sees of ``hand`` (see the module's text).

    Build it once for a position and call :meth:`sample` as often as needed:
    the hidden places and the actions to replay are worked out once. The hand
    given is not changed; every sample is a new :class:`Hand`.
    """

    def __init__(self, hand: Hand, seat: int, *, tries: int = DEFAULT_TRIES, steps: int = DEFAULT_STEPS) -> None:
        check_seat(seat, "seat")
        self.hand = hand
        self.seat = seat
        self.tries = tries
        self.steps = steps
        self.fallbacks = 0
        """How many samples came from the Markov chain (rejection found nothing in ``tries``)."""
        self.seen: list[Event] = [e.seen_by(seat) for e in hand.events]
        self._target = hand.observation(seat)
        self._owners: list[int] = []
        """The seat whose cards each hidden place holds."""
        self._sizes: list[int] = []
        self._truth: list[int] = []
        self._discard_place: dict[int, int] = {}
        """Index in ``hand.events`` of a hidden discard -> its place."""
        self._known = [0, 0, 0, 0]
        self._find_places()
        self.cards: list[int] = []
        """The hidden cards (indices), place after place as in the real state."""
        for mask in self._truth:
            self.cards.extend(i for i in range(mask.bit_length()) if mask >> i & 1)

    def _add_place(self, owner: int, mask: int) -> int:
        self._owners.append(owner)
        self._sizes.append(mask.bit_count())
        self._truth.append(mask)
        return len(self._owners) - 1

    def _find_places(self) -> None:
        hand, seat = self.hand, self.seat
        known = self._known
        known[seat] = hand.dealt[seat]
        dreamer = hand.dreamer
        if seat != dreamer and self._target.dreamer_card is None:
            self._add_place(dreamer, hand.dealt[dreamer])
        else:
            known[dreamer] = hand.dealt[dreamer]
        for other in hand.active_seats:
            if other != seat:
                self._add_place(other, hand.hands[other])
        for index, event in enumerate(hand.events):
            if event.seat is None or event.seat == seat:
                continue
            if isinstance(event, Played):
                known[event.seat] |= event.mask
            elif isinstance(event, Discarded):
                self._discard_place[index] = self._add_place(event.seat, event.mask)

    # ---------------------------------------------------------------- sampling

    def sample(self, rng: random.Random) -> Hand:
        """A state drawn as the module's text says, whose ``observation(seat)`` equals the hand's."""
        cards = list(self.cards)
        for _ in range(self.tries):
            rng.shuffle(cards)
            world = self.replay(cards)
            if world is not None:
                return world
        self.fallbacks += 1
        return self._chain(rng)

    def _chain(self, rng: random.Random) -> Hand:
        cards = list(self.cards)
        place_of = [p for p, size in enumerate(self._sizes) for _ in range(size)]
        world = self.replay(cards)
        assert world is not None, "the real state is consistent with itself"
        if len(self._sizes) < 2:
            return world
        for _ in range(self.steps):
            i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
            if place_of[i] == place_of[j]:
                continue
            cards[i], cards[j] = cards[j], cards[i]
            candidate = self.replay(cards)
            if candidate is None:
                cards[i], cards[j] = cards[j], cards[i]
            else:
                world = candidate
        return world

    def masks(self, cards: list[int]) -> list[int]:
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

    def replay(self, cards: list[int]) -> Hand | None:
        """The hand with ``cards`` filling the hidden places in order, or ``None`` if ``seat`` could tell it apart."""
        hand, seen = self.hand, self.seen
        masks = self.masks(cards)
        dealt = list(self._known)
        for owner, mask in zip(self._owners, masks, strict=True):
            dealt[owner] |= mask
        world = Hand.deal(hand.dealer, dealt, hand.profile, rules=hand.rules)
        log = world.events
        for index, event in enumerate(hand.events):
            if index < len(log):
                continue  # caused by an earlier action, and already checked
            player = event.seat
            place = self._discard_place.get(index)
            action = event.action if place is None else Action(DISCARD, masks[place])
            if action is None or player is None:
                return None  # an event no action caused, missing from the replay
            if world.to_act != player or action not in world.legal_actions():
                return None
            start = len(log)
            world.apply(player, action)
            for offset in range(start, len(log)):
                if offset >= len(seen) or log[offset].seen_by(self.seat) != seen[offset]:
                    return None
        if len(log) != len(seen) or world.observation(self.seat) != self._target:
            return None
        return world


def resample(
    hand: Hand, seat: int, rng: random.Random | None = None, *, tries: int = DEFAULT_TRIES, steps: int = DEFAULT_STEPS
) -> Hand:
    """One state that ``seat`` cannot tell from ``hand``, drawn uniformly (see the module's text).

    ``rng`` makes the draw reproducible (a fresh ``random.Random()`` if not given).
    """
    return Resampler(hand, seat, tries=tries, steps=steps).sample(rng if rng is not None else random.Random())
