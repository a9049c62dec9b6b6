"""Hakka Cards as an OpenSpiel game: ``pyspiel.load_game("python_hakka_cards")`` (issue 18 §2).

Importing this module registers the game with pyspiel. One game is one hand:

* **chance** deals the 37 cards one at a time, in the order of the deal
  (DEAL-4, D2: ``deal_sequence``); a chance outcome is a card index 0-36, each
  card not yet dealt equally likely, so the deal is uniform;
* the three active seats then act by the ids of :mod:`hakka_rl.actions`
  (a discard is its picks, in increasing card order); the Dreamer
  (``dealer + 2``) sits the hand out and is never the current player;
* the returns are the hand's score deltas (SCORE-1..7, the score table), for
  all four seats, the Dreamer's share included: the game is declared zero-sum,
  since every point won is paid by another seat (SCORE-7: the four deltas of
  every hand sum to 0, a void hand's included).

The information-state tensor and the observation tensor are those of
:mod:`hakka_rl.encoding` (seat-relative, built only from what the seat may
see); the information-state string is the seat's dealt hand and every event
of the hand as that seat sees it (OBS-1). ``resample_from_infostate`` draws a
state the player cannot tell from this one with
:class:`reference_engine.sampling.Resampler` (uniform over the hidden
histories consistent with the player's view) and rebuilds it by its actions,
so that its ``history()`` is a real history of the game.

For Python callers (OpenSpiel's Python algorithms, a learner's loop) the state
defines ``legal_actions``, ``legal_actions_mask``, ``is_chance_node``,
``is_player_node`` and the tensors and strings in Python: they give exactly
what pyspiel's C++ methods give (tests/rl/test_openspiel.py compares them at
every state), without pybind11's calls from C++ back into Python.

Game parameters: ``dealer`` (0-3, default 0; -1: drawn by the first chance
node, each seat 1/4) and ``options``, the decision options as ``"D7:any-suit;D12:may-discard"`` (default: the spec's defaults;
``:`` and ``;`` because ``=`` and ``,`` separate the parameters of an
OpenSpiel game string, which a serialized state starts with).

``episode="game"`` (default ``"hand"``) makes one OpenSpiel game a whole game
of Hakka Cards (GAME-1): the engine's :class:`~reference_engine.Game`, hands
until 4 count (a void hand does not, D31), ``dealer`` the first Dealer and
every later one following from the Calling (D4, D5). Chance deals each hand
in turn, as above, when the one before it ends; the returns are the game's
scores (GAME-4: the sums of the hands' deltas, so the game stays zero-sum).
``max_deals`` (default 16) bounds the deals of a game: one that would need
more (hands that never count) ends after that many, its returns the scores
so far. The tensors are the hand in play's; the strings start with the
game's progress (``deal``, the hands that counted, the scores so far). A
resampled state keeps the hands already played as they were (they bear on
nothing still to come: every hand is dealt afresh) and draws the hand in play.

A serialized state is its game and its history: pyspiel pickles a Python
state's ``__dict__``, and this game's holds only the game's text and the
actions, replayed when loaded. pyspiel unpickles before the game sees the
string, so an untrusted string must be read with :func:`load_state`, which
never unpickles.

>>> import pyspiel
>>> game = pyspiel.load_game("python_hakka_cards")
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['call', 'pass'])
"""

from __future__ import annotations

import random
import re
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from reference_engine import Action, Game, Hand, Profile, deal_sequence
from reference_engine.actions import DISCARD
from reference_engine.cards import DECK_SIZE, NAMES, mask_text
from reference_engine.events import Discarded, SeatEvent
from reference_engine.game import HANDS_PER_GAME
from reference_engine.sampling import Resampler

from .actions import (
    NUM_ACTIONS,
    PICK_BASE,
    describe,
    encode_action,
)
from .encoding import (
    MAX_HISTORY,
    EncodedHand,
    PendingDiscard,
)
from .openspiel_observer import HakkaObserver, state_string, tensor_view

__all__ = ["GAME_NAME", "HakkaCardsGame", "HakkaCardsState", "HakkaObserver", "MAX_PLAYER_MOVES", "StateStringError",
           "load_state", "options_text", "parse_options", "replay_history", "state_of_hand"]

GAME_NAME: Final = "python_hakka_cards"
MAX_PLAYER_MOVES: Final = 3 + 1 + 36 + 12 + 1
"""Player moves in a hand at most: 3 Calling actions (CALL-3), 1 Five Tigers answer (TIG-1), 36 cards
leaving the hands (a play takes one card at least, a discard pick exactly one), 12 claim answers and a claim."""
MAX_LOSS: Final = 2 * 128 + 3 * 16
"""The most a seat can lose in one hand: a Privileged Player who pays both losers' shares of a 12-trick
win (SCORE-1, SCORE-6) and three shares to a Dreamer of 10 (SCORE-5, D28, D29)."""
MAX_GAIN: Final = 2 * 128
"""The most a seat can win: two losers' shares of 12 tricks (a Dreamer gets at most 3 × 16)."""

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Hakka Cards",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"dealer": 0, "options": "", "episode": "hand", "max_deals": 16},
)
EPISODES: Final = ("hand", "game")
"""The ``episode`` parameter: one hand (the default), or a whole game of four hands that count (GAME-1)."""
UNPLAYED: Final = {"seed": 0}
"""The deal a game is given after the hands dealt so far: the engine deals it when the last hand ends, which
says the next Dealer; the chance nodes then deal the real one (it is never played)."""


def game_info(dealer: int, episode: str, max_deals: int) -> Any:
    """pyspiel's GameInfo of these parameters: a Dealer drawn by chance is one chance node more (outcomes 0-3);
    a game of four hands has ``max_deals`` deals at most and pays the hands that count (a hand that does not
    count pays 0: D31, D23)."""
    deals, counted = (1, 1) if episode == "hand" else (max_deals, HANDS_PER_GAME)
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=DECK_SIZE,
        num_players=4,
        min_utility=-float(counted * MAX_LOSS),
        max_utility=float(counted * MAX_GAIN),
        utility_sum=0.0,
        max_game_length=(dealer < 0) + deals * (DECK_SIZE + MAX_PLAYER_MOVES),
    )


GAME_INFO: Final = game_info(0, "hand", 1)
"""The GameInfo of a game of one hand with a given Dealer (the default parameters)."""
assert MAX_PLAYER_MOVES == MAX_HISTORY  # the encoding's history slots hold every engine action


def parse_options(text: str) -> Profile:
    """The profile of an ``options`` parameter: ``"D7:any-suit;D12:may-discard"``."""
    options: dict[str, str] = {}
    for word in text.replace(";", " ").split():
        decision, sep, option = word.partition(":")
        if not sep or not decision or not option:
            raise ValueError(f"{GAME_NAME} parameter options: {word!r} is not DECISION:OPTION (e.g. D7:any-suit)")
        if decision in options:
            raise ValueError(f"{GAME_NAME} parameter options: decision {decision} is given twice "
                             f"({decision}:{options[decision]} and {word}): give each decision once")
        options[decision] = option
    return Profile.from_options(options)


def options_text(profile: Profile) -> str:
    """The ``options`` parameter of ``profile`` (its decisions that differ from the defaults)."""
    return ";".join(f"{d}:{o}" for d, o in profile.changed().items())


class HakkaCardsGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """The game object: its parameters and the observers pyspiel asks for."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        dealer = params.get("dealer", 0)
        if not isinstance(dealer, int) or not -1 <= dealer < 4:
            raise ValueError(f"{GAME_NAME} parameter dealer must be a seat 0-3, or -1 for a Dealer drawn by "
                             f"chance, not {dealer!r} (GAME-5)")
        self.dealer: int = dealer
        """The Dealer (0-3), or -1: drawn by the first chance node, each seat equally likely."""
        episode = params.get("episode", "hand")
        if episode not in EPISODES:
            raise ValueError(f"{GAME_NAME} parameter episode must be 'hand' (one hand a game) or 'game' (a whole "
                             f"game of four hands that count, GAME-1), not {episode!r}")
        self.episode: str = episode
        max_deals = params.get("max_deals", 16)
        if not isinstance(max_deals, int) or max_deals < 1:
            raise ValueError(f"{GAME_NAME} parameter max_deals must be an integer >= 1 (the deals of a game at "
                             f"most), not {max_deals!r}")
        self.max_deals: int = max_deals
        """With ``episode="game"``: the deals of a game at most (one that needs more ends there)."""
        self.profile: Profile = parse_options(str(params.get("options", "")))
        self.sequences: tuple[tuple[int, ...], ...] = tuple(tuple(deal_sequence(d, self.profile)) for d in range(4))
        """The order of the deal (DEAL-4, D2) of each Dealer."""
        super().__init__(GAME_TYPE, game_info(dealer, episode, max_deals), params)

    @property
    def sequence(self) -> tuple[int, ...]:
        """The order of the deal of the fixed Dealer (a game whose Dealer is drawn: a state's ``sequence``)."""
        if self.dealer < 0:
            raise ValueError(f"{GAME_NAME}: the Dealer is drawn by chance: ask a state for its deal's sequence")
        return self.sequences[self.dealer]

    def new_initial_state(self) -> HakkaCardsState:
        return HakkaCardsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HakkaObserver:
        if params:
            raise ValueError(f"{GAME_NAME}: observer parameters are not supported; passed {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (not iig_obs_type.public_info
                                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{GAME_NAME} observes a seat's own view only (public and single-player private "
                             f"information), not {iig_obs_type!r}")
        return HakkaObserver(perfect_recall)


CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_OUTCOMES: Final = ((),) + tuple(tuple((card, 1.0 / left) for card in range(DECK_SIZE))
                                 for left in range(1, DECK_SIZE + 1))
"""``_OUTCOMES[n][card]``: the chance outcome ``(card, 1/n)`` with ``n`` cards left to deal, made once (chance_outcomes
runs 37 times a deal: picking made pairs beats making them)."""


class _Core:
    """A state's own fields. pyspiel clones a Python state by deep-copying its ``__dict__``; this object
    copies itself in a few microseconds instead (the hand by :meth:`EncodedHand.copy`, the game shared).

    Once dealt, the hand is played by :class:`~hakka_rl.encoding.EncodedHand` (its ``apply_id``, partial
    discards and legal ids): the state's moves are the encoder's, with nothing restated here. Its tensors
    are made only when asked for (a search that never asks for one pays only for the encoder's few
    integer updates a move).
    """

    __slots__ = ("game", "dealer", "deck", "dealt", "left", "player", "encoded", "seen", "ids", "first", "play",
                 "past", "played")

    def __init__(self, game: HakkaCardsGame) -> None:
        self.game = game
        self.dealer: int | None = game.dealer if game.dealer >= 0 else None
        """The Dealer of the hand; ``None`` until the first chance node draws it (a game of ``dealer=-1``)."""
        self.first: int | None = self.dealer
        """The first hand's Dealer (``None`` until drawn)."""
        self.deck: list[int] = []
        """The cards dealt so far, in the order of the deal."""
        self.dealt = 0
        self.left: list[int] = list(range(DECK_SIZE)) if self.dealer is not None else [0, 1, 2, 3]
        """The chance outcomes' actions, ascending: the cards still to deal (or the seats, the Dealer to draw)."""
        self.player = CHANCE
        """pyspiel's current player: CHANCE while dealing, then the seat to act, TERMINAL once the hand is over."""
        self.encoded: EncodedHand | None = None
        """The hand being played, once the deal is complete."""
        self.seen: list[tuple[int, str]] = [(0, "")] * 4
        """Per seat: how many of the hand's events its information-state string has written, and that text (a
        search asks each state for it at every node: the events already written are not written again)."""
        self.ids: list[int] = []
        """The players' ids applied so far in the hand, in order (the state's history is ``deck + ids``, after the
        Dealer drawn if it is, and after the hands already played in a game)."""
        self.play: Game | None = None
        """``episode="game"``: the engine's game, once the first hand is dealt (its scores, results, hands)."""
        self.past: list[int] = []
        """``episode="game"``: the history of the hands already played (each one's deck, then its ids)."""
        self.played: list[tuple[list[int], list[int]]] = []
        """``episode="game"``: each hand already played, its deck and its ids."""

    def __reduce__(self) -> tuple[Any, ...]:
        """pyspiel serializes a Python state by pickling its ``__dict__``: this core pickles as plain data, the
        game's text and the state's history, which :class:`_Saved` replays when it is loaded (nothing else is
        trusted from the string)."""
        return (_Saved, (str(self.game), tuple(self.history())))

    def history(self) -> list[int]:
        """Every action so far: the Dealer drawn (``dealer=-1``), the hands already played, this hand's."""
        return self.before_hand() + self.deck + self.ids

    def before_hand(self) -> list[int]:
        """The actions before this hand's deal: the Dealer drawn (``dealer=-1``), the hands already played."""
        drawn = [self.first] if self.game.dealer < 0 and self.first is not None else []
        return drawn + self.past

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        core = _Core(self.game)
        core.dealer = self.dealer
        core.deck, core.dealt, core.left, core.player = list(self.deck), self.dealt, list(self.left), self.player
        core.seen, core.ids = list(self.seen), list(self.ids)
        core.first, core.past, core.played, core.play = self.first, list(self.past), list(self.played), self.play
        if self.encoded is not None:
            core.encoded = self.encoded.copy()
            core.play = core.encoded.game  # a game's own copy; between hands it is only read, so shared
        return core

    @property
    def hand(self) -> Hand | None:
        encoded = self.encoded
        return None if encoded is None else encoded.hand

    @property
    def pending(self) -> PendingDiscard | None:
        encoded = self.encoded
        return None if encoded is None else encoded.pending

    def legal_ids(self) -> list[int]:
        encoded = self.encoded
        return [] if encoded is None else encoded.legal_ids()

    def apply_id(self, action: int) -> None:
        """The move of id ``action`` for the seat to act (:meth:`EncodedHand.apply_id`, which refuses an illegal id)."""
        encoded = self.encoded
        assert encoded is not None
        encoded.apply_id(action)
        self.ids.append(action)
        seat = encoded.hand.to_act
        self.player = TERMINAL if seat is None else seat
        play = self.play
        if seat is None and play is not None and not play.over and len(self.played) + 1 < self.game.max_deals:
            # the game goes on: its next Dealer is the one the engine dealt the unplayed deal to (D4, D5)
            self.played.append((self.deck, self.ids))
            self.past += self.deck + self.ids
            self.dealer = play.hand.dealer
            self.deck, self.dealt, self.left, self.ids = [], 0, list(range(DECK_SIZE)), []
            self.encoded, self.seen, self.player = None, [(0, "")] * 4, CHANCE

    def progress(self) -> str:
        """A game's progress, as its strings start (``""`` for a game of one hand)."""
        if self.game.episode == "hand":
            return ""
        play = self.play
        scores = play.scores if play is not None else [0, 0, 0, 0]
        counted = play.hands_played if play is not None else 0
        return f"deal {len(self.played) + 1} counted {counted} scores {' '.join(map(str, scores))} | "

    @property
    def sequence(self) -> tuple[int, ...]:
        """The order of the deal (empty while the Dealer is still to draw)."""
        return () if self.dealer is None else self.game.sequences[self.dealer]

    def draw_dealer(self, seat: int) -> None:
        """The first chance node of a game of ``dealer=-1``: ``seat`` deals (DEAL-1), each seat equally likely."""
        if seat not in self.left:
            raise ValueError(f"{GAME_NAME}: chance outcome {seat} is not a seat 0-3 to deal")
        self.dealer, self.first, self.left = seat, seat, list(range(DECK_SIZE))

    def deal(self, card: int) -> None:
        """Deal ``card``, the next of the deal (DEAL-4); the hand starts after the 37th."""
        if not 0 <= card < DECK_SIZE or self.dealt >> card & 1:
            raise ValueError(f"{GAME_NAME}: chance outcome {card} is not a card still to deal")
        self.deck.append(card)
        self.dealt |= 1 << card
        self.left.remove(card)
        if not self.left:
            assert self.dealer is not None
            if self.game.episode == "game":
                self.encoded = self._game_so_far()
            else:
                self.encoded = EncodedHand(Hand.from_deck(self.dealer, self.deck, self.game.profile))
            seat = self.encoded.hand.to_act
            self.player = TERMINAL if seat is None else seat

    def _game_so_far(self) -> EncodedHand:
        """The engine's game of the decks dealt so far (then the unplayed deal), the hands already played
        replayed by their ids, and its hand in play, this deck's, as the one to play on."""
        decks = [deck for deck, _ in self.played] + [self.deck]
        play = self.play = Game(self.first, [{"deck": list(deck)} for deck in decks] + [UNPLAYED], self.game.profile)
        for _, ids in self.played:
            replay = EncodedHand(play.hand, play)
            for action in ids:
                replay.apply_id(action)
        assert play.hand.dealer == self.dealer and not play.over
        return EncodedHand(play.hand, play)


class HakkaCardsState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal so far (chance), then the hand, played by the ids of :mod:`hakka_rl.actions`."""

    def __init__(self, game: HakkaCardsGame) -> None:
        super().__init__(game)
        self._core = _Core(game)

    def __setattr__(self, name: str, value: Any) -> None:
        """pyspiel's ``deserialize_state`` sets the attributes it unpickled: a :class:`_Saved` core is replayed
        here, on this state's own game, and refused unless its history is the one pyspiel read."""
        if isinstance(value, _Saved):
            value = value.core_for(self)
        super().__setattr__(name, value)

    @property
    def _game(self) -> HakkaCardsGame:
        return self._core.game

    @property
    def deck(self) -> list[int]:
        """The cards dealt so far, in the order of the deal."""
        return self._core.deck

    @property
    def hand(self) -> Hand | None:
        """The hand being played, once the deal is complete (the engine's own object: do not change it)."""
        return self._core.hand

    @property
    def pending(self) -> PendingDiscard | None:
        """The discard in progress: the picks made so far by the seat to act."""
        return self._core.pending

    # ------------------------------------------------------------ pyspiel's State API

    def current_player(self) -> int:
        return self._core.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._core.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._core.left
        row = _OUTCOMES[len(left)]
        return [row[card] for card in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.encoded is not None:
            core.apply_id(action)
        elif core.dealer is None:
            core.draw_dealer(action)
        else:
            core.deal(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            sequence = self._core.sequence
            if not sequence:
                return f"seat {action} deals"
            return f"deal {NAMES[action]} to seat {sequence[len(self.deck)]}" if len(
                self.deck) < DECK_SIZE else f"deal {NAMES[action]}"
        return describe(action)

    def is_terminal(self) -> bool:
        return self._core.player == TERMINAL

    # ------------------------------------------------------------ pyspiel's C++ methods, for Python callers
    # pyspiel's own methods are C++: called from Python, each calls back into this class's Python methods
    # (current_player, _legal_actions ...) through pybind11, several times a call. These give exactly what
    # pyspiel.State's do (tests/rl/test_openspiel.py compares them, unbound, at every state of many games);
    # C++ callers (pyspiel.random_sim_test, C++ bots) still use pyspiel's.

    def is_chance_node(self) -> bool:
        return self._core.player == CHANCE

    def is_player_node(self) -> bool:
        return self._core.player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's ``LegalActions(player)`` of a Python game: the chance outcomes' cards at a chance node (for
        any player), ``[]`` at a terminal state or for a seat not to act; ``player`` defaults to the current one."""
        core = self._core
        current = core.player
        if current == TERMINAL:
            return []
        if current == CHANCE:
            return list(core.left)
        if player is None or player == current:
            return list(core.legal_ids())
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each of ``legal_actions(player)``: 37 long for the chance player, 248 for a seat (pyspiel's)."""
        if player is None:
            player = self._core.player
        mask = [0] * (DECK_SIZE if player == CHANCE else NUM_ACTIONS)
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def _seat(self, player: int | None) -> int:
        """``player`` (default: the current player), checked as pyspiel checks an observation's player."""
        seat = self._core.player if player is None else player
        if not 0 <= seat < 4:
            raise pyspiel.SpielError(f"{GAME_NAME}: player {seat} is not a seat 0-3: it observes nothing "
                                     f"(the current player is {self._core.player})")
        return seat

    # each call reads its own tensor (no buffer shared between calls: threads may ask at once)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        values: list[float] = tensor_view(self, self._seat(player), False).tolist()
        return values

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        values: list[float] = tensor_view(self, self._seat(player), True).tolist()
        return values

    def observation_string(self, player: int | None = None) -> str:
        return state_string(self, self._seat(player), False)

    def information_state_string(self, player: int | None = None) -> str:
        return state_string(self, self._seat(player), True)

    def returns(self) -> list[float]:
        """The hand's deltas once it ends (0 before); in a game, its scores once it ends (GAME-4; 0 before, as
        the game's rewards come at its end: :attr:`scores` are the scores so far)."""
        play = self._core.play
        if play is not None:
            return [float(score) for score in play.scores] if self._core.player == TERMINAL else [0.0] * 4
        hand = self._core.hand
        result = None if hand is None else hand.result
        if result is None:
            return [0.0, 0.0, 0.0, 0.0]
        return [float(d) for d in result.deltas]

    def __str__(self) -> str:
        hand = self._core.hand
        if hand is None:
            return f"dealing: {' '.join(NAMES[c] for c in self.deck)}"
        pending = self._core.pending
        picked = f" | picked {mask_text(pending.picked)}" if pending is not None and pending.picked else ""
        return hand.notation() + picked

    @property
    def scores(self) -> list[int]:
        """A game's scores so far (``episode="game"``: the sums of the deltas of the hands ended, GAME-4)."""
        play = self._core.play
        return [0, 0, 0, 0] if play is None else list(play.scores)

    def tensor(self, seat: int, perfect_recall: bool) -> npt.NDArray[np.float32]:
        """``seat``'s information-state tensor (``perfect_recall``) or observation tensor (a new array)."""
        return np.array(tensor_view(self, seat, perfect_recall))

    # ------------------------------------------------------------ what a seat knows

    def dealt_to(self, seat: int) -> int:
        """The cards dealt to ``seat`` so far (a mask)."""
        mask = 0
        for position, card in enumerate(self.deck):
            if self._core.sequence[position] == seat:
                mask |= 1 << card
        return mask

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HakkaCardsState:
        """A state ``player_id`` cannot tell from this one (see the module's text).

        ``probability_sampler()`` gives a number in [0, 1) (pyspiel's
        ``UniformProbabilitySampler``); it seeds the draw.
        """
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        hand = self._core.hand
        if hand is None:
            return self._resampled_deal(player_id, rng)
        return self.resampled(Resampler.of_hand(hand, player_id), rng)

    def resampled(self, sampler: Resampler, rng: random.Random) -> HakkaCardsState:
        """A state drawn by ``sampler`` (made for this state and one seat: a search keeps it for many draws)."""
        player = sampler.seat
        keep = {p: card for p, card in enumerate(self.deck) if self._core.sequence[p] == player}
        state = state_of_hand(self._game, sampler.sample(rng), rng, keep=keep, before=self._core.before_hand())
        self._replay_picks(state, player, rng)
        return state

    def _replay_picks(self, state: HakkaCardsState, player_id: int, rng: random.Random) -> None:
        """The picks of a discard in progress: the player's own, or as many drawn for another seat."""
        hand, pending = self._core.hand, self._core.pending
        assert hand is not None and state.hand is not None
        if pending is None or not pending.picked:
            return
        if hand.to_act == player_id:
            picks = [PICK_BASE + c for c in range(DECK_SIZE) if pending.picked >> c & 1]
        else:  # another seat's picks, which the player does not see (nor how many there are)
            option = state.hand.legal_actions().discard
            if option is None:  # in this world that seat may not discard: it has not begun to
                return
            pool = [c for c in range(DECK_SIZE) if option.allowed >> c & 1]
            chosen = sorted(rng.sample(pool, option.count))
            picks = [PICK_BASE + c for c in chosen[:pending.picked.bit_count()]]
        for pick in picks:
            state.apply_action(pick)

    def _resampled_deal(self, player_id: int, rng: random.Random) -> HakkaCardsState:
        sequence = self._core.sequence
        hidden = [c for p, c in enumerate(self.deck) if sequence[p] != player_id]
        hidden += [c for c in range(DECK_SIZE) if not self._core.dealt >> c & 1]
        rng.shuffle(hidden)
        state = HakkaCardsState(self._game)
        for action in self._core.before_hand():  # the Dealer is public (DEAL-1); the hands played are kept
            state.apply_action(action)
        for position, card in enumerate(self.deck):
            state.apply_action(card if sequence[position] == player_id else hidden.pop())
        return state


def state_of_hand(
    game: HakkaCardsGame, hand: Hand, rng: random.Random, *, keep: dict[int, int] | None = None,
    before: list[int] | None = None,
) -> HakkaCardsState:
    """The state of ``game`` whose hand is ``hand``, reached by pyspiel actions so that its ``history()``
    is real: a deck order that deals ``hand`` (each seat's cards in a random order of its places in the
    deal; ``keep``: places whose card stays), then the hand's actions by id. ``before``: the actions that
    come before the hand's deal (a game's hands already played; the Dealer drawn, then, too)."""
    if before is not None:
        state = HakkaCardsState(game)
        for earlier in before:
            state.apply_action(earlier)
        if state._core.dealer != hand.dealer or not state.is_chance_node() or state._core.deck:
            raise ValueError(f"{GAME_NAME}: after the actions given before it, the state is not at the deal of a "
                             f"hand by seat {hand.dealer}")
    elif game.episode == "game":
        raise ValueError(f"{GAME_NAME}: a hand of a game (episode=game) needs the game's actions before it")
    if (before is None and game.dealer >= 0 and hand.dealer != game.dealer) or hand.profile != game.profile:
        raise ValueError(f"{GAME_NAME}: a hand dealt by seat {hand.dealer} under {hand.profile.changed()} is no "
                         f"state of this game (dealer {game.dealer}, options {game.profile.changed()})")
    keep = keep or {}
    sequence = game.sequences[hand.dealer]
    cards: dict[int, list[int]] = {}
    for seat in range(4):
        kept = {card for p, card in keep.items() if sequence[p] == seat}
        cards[seat] = [c for c in range(DECK_SIZE) if hand.dealt[seat] >> c & 1 and c not in kept]
        rng.shuffle(cards[seat])
    deck = [keep[position] if position in keep else cards[seat].pop() for position, seat in enumerate(sequence)]
    moves: list[tuple[int, int]] = []
    for event in hand.events:
        action = Action(DISCARD, event.mask) if isinstance(event, Discarded) else event.action
        if action is not None and isinstance(event, SeatEvent):
            moves += [(event.seat, action_id) for action_id in encode_action(action)]
    if before is None:
        state = HakkaCardsState(game)
        if game.dealer < 0:
            state.apply_action(hand.dealer)
    for card in deck:
        state.apply_action(card)
    for _, action_id in moves:  # played: the state's hand is the encoder's own, reached by its moves
        state.apply_action(action_id)
    return state


class StateStringError(ValueError):
    """A serialized state that is not one of this game: another game, or a history that does not replay."""


class _Saved:
    """A serialized core as it is unpickled: the game's text and the history, nothing else (see _Core.__reduce__)."""

    __slots__ = ("game", "history")

    def __init__(self, game: str, history: tuple[int, ...]) -> None:
        self.game, self.history = game, history

    def core_for(self, state: HakkaCardsState) -> _Core:
        game = state.get_game()
        told = [int(a) for a in state.history()]
        if str(game) != self.game or not isinstance(game, HakkaCardsGame):
            raise StateStringError(f"{GAME_NAME}: a state of {self.game!r} is no state of {game}")
        if list(self.history) != told:
            raise StateStringError(f"{GAME_NAME}: the serialized state's history line ({len(told)} actions) and its "
                                   f"saved history ({len(self.history)} actions) disagree: refused")
        return replay_history(game, [(None, a) for a in told])._core


def replay_history(game: HakkaCardsGame, history: list[tuple[int | None, int]]) -> HakkaCardsState:
    """The state reached by ``history``, ``(player, action)`` pairs (``player`` ``None``: not checked), from a new
    initial state of ``game``; a pair that is not the current player's legal action is refused, naming its place."""
    state = HakkaCardsState(game)
    for place, (player, action) in enumerate(history):
        current = state.current_player()
        if player is not None and player != current:
            raise StateStringError(f"{GAME_NAME}: history action {place} is player {player}'s, but player {current} "
                                   f"is to act there: the history does not replay")
        legal = state.legal_actions()
        if action not in legal:
            raise StateStringError(
                f"{GAME_NAME}: history action {place} ({action}) is not legal for player {current} there "
                f"(legal: {', '.join(map(str, legal)) or 'none, the hand is over'}): the history does not replay")
        state.apply_action(action)
    return state


def load_state(text: str) -> tuple[HakkaCardsGame, HakkaCardsState]:
    """The game and state of a ``pyspiel.serialize_game_and_state`` string of this game, read without ``pickle``:
    the game's line and the history line are parsed and the history replayed (refused if it does not replay);
    the ``__dict__`` line, which pyspiel would unpickle, must be exactly the one this game writes for that state."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
        elif current is not None and line and not line.startswith("#"):
            current.append(line)
    game_lines, state_lines = sections.get("Game", []), sections.get("State", [])
    if len(game_lines) != 1 or not game_lines[0].startswith(GAME_NAME + "("):
        raise StateStringError(f"{GAME_NAME}: not a serialized state of this game (its [Game] line: {game_lines!r})")
    fields = dict(line.partition("=")[::2] for line in state_lines)
    if set(fields) != {"history", "move_number", "__dict__"}:
        raise StateStringError(f"{GAME_NAME}: a [State] has the lines history, move_number and __dict__, "
                               f"not {sorted(fields)}")
    history: list[tuple[int | None, int]] = []
    for item in filter(None, fields["history"].split(",")):
        player, sep, action = item.partition(":")
        if not sep or not _INTEGER.fullmatch(player) or not _INTEGER.fullmatch(action):
            raise StateStringError(f"{GAME_NAME}: history item {item!r} is not PLAYER:ACTION")
        history.append((int(player), int(action)))
    game = pyspiel.load_game(game_lines[0])
    state = replay_history(game, history)
    if pyspiel.serialize_game_and_state(game, state).rstrip("\n") != "\n".join(
            line for line in text.rstrip("\n").splitlines()):
        raise StateStringError(f"{GAME_NAME}: the string's move_number or __dict__ line is not what this game "
                               f"writes for its history: refused (it was not written by {GAME_NAME})")
    return game, state


_INTEGER: Final = re.compile(r"-?[0-9]{1,9}")


pyspiel.register_game(GAME_TYPE, HakkaCardsGame)
