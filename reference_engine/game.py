"""A game of 4 hands with cumulative scores and Dealer rotation (GAME-1, GAME-4).

>>> game = Game(first_dealer=0, deals=[{"seed": s} for s in range(10)])
>>> game.hand.dealer, game.hands_played
(0, 0)

A move that ends a hand returns the hand's end and the next deal too:

>>> [game.apply(seat, "pass") for seat in (0, 1)]
[(Event.parse('0 pass'),), (Event.parse('1 pass'),)]
>>> for event in game.apply(3, "pass"):
...     print(event)
3 pass
hand ends (void): deltas 0 0 0 0, next dealer 1, does not count
deal 2: dealer 1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ._mypyc import mypyc_attr
from .cards import words
from .errors import SetupError
from .events import Event, GameEnded, HandDealt
from .hand import Hand, Phase
from .profile import DEFAULT_PROFILE, Profile
from .rules import DEFAULT_RULES, Rules
from .scoring import HandResult

GAME_OVER: Final = "game-over"
HANDS_PER_GAME: Final = 4

Deal = Mapping[str, object]
"""One deal: ``{"hands": [...]}``, ``{"deck": "..."}`` or ``{"seed": n}``."""


def deal_hand(dealer: object, deal: Deal, profile: Profile, *, rules: Rules = DEFAULT_RULES) -> Hand:
    """Deal one hand from a deal description (explicit hands, a deck order or a seed)."""
    if not isinstance(deal, Mapping):
        raise SetupError(f"a deal is a mapping with one of hands, deck or seed, not {deal!r}", rule="DEAL-4")
    keys = set(deal) & {"hands", "deck", "seed"}
    if len(keys) != 1:
        raise SetupError("a deal has exactly one of hands, deck or seed", rule="DEAL-4")
    if "hands" in deal:
        hands = deal["hands"]
        if not isinstance(hands, Sequence) or isinstance(hands, str):
            raise SetupError("hands must be a list of 4 card lists", rule="DEAL-4")
        return Hand.deal(dealer, hands, profile, rules=rules)
    if "deck" in deal:
        deck = deal["deck"]
        if not isinstance(deck, (str, list)):
            raise SetupError("deck must be a card list", rule="DEAL-4")
        return Hand.from_deck(dealer, deck, profile, rules=rules)
    seed = deal["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise SetupError(f"seed must be a non-negative integer, not {seed!r}", rule="DEAL-5")
    return Hand.from_seed(dealer, seed, profile, rules=rules)


# A plain class in both builds (its methods still compile): pickle and deepcopy must rebuild it without
# __init__ (learning libraries clone games), which a compiled class with an __init__ does not allow.
@mypyc_attr(native_class=False)
class Game:
    """Hands dealt one after the other from ``deals`` until 4 count (D31).

    The first Dealer is given (DEAL-1, D36); every later Dealer follows from
    the previous hand's Calling (CALL-2, CALL-3, D4, D5).
    """

    def __init__(
        self,
        first_dealer: object,  # object: see Hand.apply
        deals: Sequence[Deal],
        profile: Profile = DEFAULT_PROFILE,
        *,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        if not isinstance(deals, Sequence) or isinstance(deals, (str, bytes, bytearray)):
            raise SetupError(f"a game's deals are a list of deals, not {deals!r}", rule="GAME-1")
        if not deals:
            raise SetupError("a game needs at least one deal", rule="GAME-1")
        self.profile = profile
        self.rules = rules
        self.deals = list(deals)
        self.scores = [0, 0, 0, 0]
        self.results: list[HandResult] = []
        self.hands_played = 0
        self.deal_index = 0
        self.hand = deal_hand(first_dealer, self.deals[0], profile, rules=rules)
        self.events: list[Event] = []
        """Every event of the game so far: each hand's, each next deal and the end of the game."""
        for number, deal in enumerate(self.deals[1:], start=2):
            _check_deal(number, deal, profile, rules)

    @property
    def over(self) -> bool:
        return self.hands_played >= HANDS_PER_GAME

    @property
    def phase(self) -> str:
        return GAME_OVER if self.over else self.hand.phase

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.hand.to_act

    def apply(self, seat: object, action: object) -> tuple[Event, ...]:
        """Apply an action to the current hand; deal the next hand when it ends. Return the events it caused:
        the hand's (:meth:`Hand.apply`), then the next deal (:class:`~reference_engine.events.HandDealt`)
        or the end of the game (:class:`~reference_engine.events.GameEnded`).

        An action that would end a hand whose next deal is missing, or puts the
        1-card hand anywhere but opposite the new Dealer, is refused with a
        :class:`SetupError` naming the deal, and the move is not applied: the
        game, and the very :attr:`hand` object a caller holds, stay exactly as
        they were before it (position, log, results, scores).

        >>> game = Game(first_dealer=0, deals=[{"seed": 1}])
        >>> game.apply(0, "pass"); game.apply(1, "pass"); game.apply(3, "pass")
        Traceback (most recent call last):
        ...
        reference_engine.errors.SetupError: the game needs deal 2 but the setup lists only 1 [GAME-1]
        >>> game.hand.phase.value, game.hand.history, game.results
        ('calling', [(0, Action.parse('pass')), (1, Action.parse('pass'))], [])
        """
        hand = self.hand
        events = hand.apply(seat, action)  # no copy first: a refused next deal replays the hand instead (below)
        if hand.phase != Phase.ENDED:
            self.events.extend(events)
            return events
        result = hand.result
        assert result is not None
        if self.hands_played + result.counts < HANDS_PER_GAME:
            try:
                next_hand = self._deal(self.deal_index + 1, result.next_dealer)
            except SetupError:
                _before_last_move(hand).copy_into(hand)  # the same object, as it was: the move did not happen
                raise
            self.deal_index += 1
        else:
            next_hand = hand
        self.results.append(result)
        for seat_index, delta in enumerate(result.deltas):
            self.scores[seat_index] += delta
        self.hands_played += result.counts
        self.hand = next_hand
        after: tuple[Event, ...] = (HandDealt(self.deal_index + 1, next_hand.dealer),) if next_hand is not hand else (
            GameEnded((self.scores[0], self.scores[1], self.scores[2], self.scores[3])),)
        events += after
        self.events.extend(events)
        return events

    def _deal(self, index: int, dealer: int) -> Hand:
        if index >= len(self.deals):
            raise SetupError(
                f"the game needs deal {index + 1} but the setup lists only {len(self.deals)}", rule="GAME-1")
        try:
            return deal_hand(dealer, self.deals[index], self.profile, rules=self.rules)
        except SetupError as exc:
            raise SetupError(f"deal {index + 1} (Dealer seat {dealer}): {exc.message}", rule=exc.rule) from None


def _before_last_move(hand: Hand) -> Hand:
    """``hand`` as it was before its last move: its deal, with every earlier action replayed.

    The engine is deterministic, so this is the hand as it stood; only a refused
    next deal needs it, so no move pays for a copy of the hand (and its log) first.
    """
    again = Hand.deal(hand.dealer, list(hand.dealt), hand.profile, rules=hand.rules)
    for seat, action in hand.history[:-1]:
        again.apply(seat, action)
    return again


def _check_deal(number: int, deal: Deal, profile: Profile, rules: Rules) -> None:
    """Refuse at the start what no Dealer could make right: counts, duplicates, a bad deck or seed.

    Which seat holds the 1-card hand can only be judged when the deal is
    reached, since the Dealer then depends on play (GAME-1); here the deal is
    tried with the Dealer it would suit (opposite its shortest hand).
    """
    dealer = 0
    hands = deal.get("hands")
    if isinstance(hands, Sequence) and not isinstance(hands, str) and len(hands) == 4:
        sizes = [len(words(h)) if isinstance(h, str) else len(h) for h in hands]
        dealer = (sizes.index(min(sizes)) + 2) % 4
    try:
        deal_hand(dealer, deal, profile, rules=rules)
    except SetupError as exc:
        raise SetupError(f"deal {number}: {exc.message}", rule=exc.rule) from None
