"""An IS-MCTS player for Hakka Cards through OpenSpiel (issue 18 §4).

:class:`SearchBot` is OpenSpiel's own information-set Monte Carlo tree search
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``, UCT over information
states) with a budget of simulations a move (:data:`DEFAULT_SIMULATIONS`) and,
only as an upper bound, of seconds (``time_limit``, none by default). Every
draw it makes comes from one ``random.Random(seed)``, so that a seed gives the
same moves on any machine as long as the time limit is not reached (issue 29
§2). It plays in OpenSpiel's ``evaluate_bots`` (``restart_at``,
``inform_action``) and, at a chance node, draws an outcome by its
probabilities. Each simulation starts from a determinization that
:class:`reference_engine.sampling.Resampler` draws (one sampler a search, so
the hidden places are worked out once) and is scored by a playout on the
engine (:class:`RandomPlayout`: no tensors, no pyspiel calls), at random or
by a given policy.

:class:`TableBot` is the same search behind the browser table's bot interface
(``choose(observation, legal, rng)``, hakka_play/bots.py): it is given
the wire form of its seat's observation and nothing else, draws a first state
consistent with it, and searches from there: the same budget of simulations
for each decision (each pick of a discard too), its playouts at random or, with
``guided=True``, by its fallback bot, each seat choosing from its own view.

>>> import pyspiel, random
>>> from hakka_rl.openspiel_game import GAME_NAME
>>> game = pyspiel.load_game(GAME_NAME)
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> bot = SearchBot(game, simulations=20, seed=1)
>>> bot.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import ismcts

from reference_engine import Action, Hand, LegalActions, Profile
from reference_engine.actions import DISCARD
from reference_engine.sampling import Resampler
from reference_engine.wire import observation_json

from .actions import action_of, as_int, is_pick, pick_card, random_action
from .openspiel_game import GAME_NAME, HakkaCardsState, options_text, state_of_hand
from .policy import Fallback, drawn_world

__all__ = ["DEFAULT_SIMULATIONS", "DEFAULT_TIME_LIMIT", "DEFAULT_WORLDS", "RandomPlayout", "SearchBot", "TableBot"]

DEFAULT_SIMULATIONS: Final = 200
"""Simulations a search (issue 29: a budget that reproduces; on this project's machine about 0.1-0.3 s)."""
DEFAULT_TIME_LIMIT: Final = 0.25
"""The table's upper bound on a move's search, in seconds (issue 18: at most 0.25 s); past it a move may differ
from the one its seed gives elsewhere. :class:`SearchBot` has none unless given one."""
DEFAULT_WORLDS: Final = 32
"""Determinizations drawn a search (OpenSpiel's ``max_world_samples``); later simulations reuse them."""
SEARCH_TRIES: Final = 12
SEARCH_STEPS: Final = 12
"""A search's sampler: few rejection tries, then a short chain from the root state (consistent by
construction), so that one draw never takes much of a move's budget (the deadline is checked between draws)."""
OVERRUN: Final = 0.06
"""Seconds kept back from a table move's time limit: a search stops after the simulation that crosses its deadline."""
DEFAULT_UCT_C: Final = 4.0
"""UCT's exploration constant, in points of the score table (a hand's deltas are mostly within ±8)."""


Policy = Callable[[Hand, int, random.Random], Action]
"""A playout policy: the action of ``seat`` in ``hand`` (which it must read only as that seat may see it)."""


class RandomPlayout:
    """OpenSpiel's evaluator interface: a state's value is the score deltas of one playout (in a game of
    four hands, ``episode=game``, added to the game's scores so far, as its returns are the game's scores).

    The playout is played on a copy of the engine's hand, by ``policy`` if
    given, else at random: each legal action equally likely, a discard
    counting as one action with its cards drawn at random (a partial discard
    is finished at random first). The prior is uniform.
    """

    def __init__(self, rng: random.Random, policy: Policy | None = None) -> None:
        self.rng = rng
        self.policy = policy

    def evaluate(self, state: HakkaCardsState) -> npt.NDArray[np.float64]:
        hand = state.hand
        assert hand is not None, "no playout from a chance node of the deal"
        hand = hand.copy()
        rng = self.rng
        pending = state.pending
        if pending is not None and pending.picked and hand.to_act is not None:
            pool = [c for c in range(37) if pending.allowed >> c & 1 and c > pending.picked.bit_length() - 1]
            picked = pending.picked | sum(1 << c for c in rng.sample(pool, pending.left))
            hand.apply(hand.to_act, Action(DISCARD, picked))
        policy = self.policy
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            hand.apply(seat, random_action(hand.legal_actions(), rng) if policy is None else policy(hand, seat, rng))
        # a game's returns are its scores (episode=game): the scores so far, then this hand's deltas (the hands
        # still to deal count 0, each seat's expected share of them unknown); a game of one hand: the deltas
        return np.array(hand.result.deltas, dtype=np.float64) + state.scores

    def prior(self, state: HakkaCardsState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class SearchBot(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel has no type stubs
    """OpenSpiel's IS-MCTS on :class:`RandomPlayout`: ``simulations`` a search, stopped earlier only by
    ``time_limit`` seconds if given (see the module's text)."""

    def __init__(
        self, game: Any, *, simulations: int | np.integer[Any] = DEFAULT_SIMULATIONS, time_limit: float | None = None,
        worlds: int = DEFAULT_WORLDS, uct_c: float = DEFAULT_UCT_C, seed: int | np.integer[Any] | None = None,
        playout: Policy | None = None,
    ) -> None:
        budget = as_int(simulations)
        if budget is None or budget < 1:
            raise ValueError(f"SearchBot(simulations={simulations!r}): a search makes one simulation at least "
                             f"(an integer >= 1)")
        simulations = budget
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"SearchBot(time_limit={time_limit}): seconds > 0, or None for no limit")
        if seed is not None and as_int(seed) is None:
            raise ValueError(f"SearchBot(seed={seed!r}): an integer (int or numpy integer) or None")
        self.rng = random.Random(None if seed is None else as_int(seed))
        super().__init__(game, RandomPlayout(self.rng, playout), uct_c, simulations, max_world_samples=worlds,
                         random_state=np.random.RandomState(self.rng.randrange(2**32)),
                         final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.time_limit = time_limit
        self.simulations = 0
        """Simulations made by the last search (the budget, unless the time limit stopped it)."""
        self.timed_out = False
        """Whether the time limit stopped the last search (its move may then differ on another machine)."""
        self._sampler: tuple[str, Resampler] | None = None
        self.set_resampler(self._resample)

    # OpenSpiel's Bot interface, as evaluate_bots calls it: the search keeps nothing from move to move
    def restart_at(self, state: Any) -> None:
        """A new game (or position) begins: nothing to forget, since each search starts afresh."""
        self.reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Another player's (or chance's) action: nothing to record, for the same reason."""

    def step(self, state: Any) -> int:
        """The bot's action; at a chance node, an outcome drawn by its probabilities (``evaluate_bots`` draws
        its own there; a caller that asks the bot gets a real outcome, not OpenSpiel's ``INVALID_ACTION``)."""
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            return int(outcomes[self._random_state.choice(len(outcomes), p=probs)])
        return int(super().step(state))

    def _resample(self, state: HakkaCardsState, player: int) -> HakkaCardsState:
        key = state.information_state_string(player)
        if self._sampler is None or self._sampler[0] != key:
            assert state.hand is not None
            self._sampler = (key, Resampler.of_hand(state.hand, player, tries=SEARCH_TRIES, steps=SEARCH_STEPS))
        return state.resampled(self._sampler[1], self.rng)

    def run_search(self, state: HakkaCardsState) -> list[tuple[int, float]]:
        """OpenSpiel's ``ISMCTSBot.run_search``, its loop bounded by the time limit as well."""
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        self.reset()
        self.timed_out = False
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        self.simulations = 0
        # two simulations at least: the first only expands the root (OpenSpiel's ISMCTS needs a visit of it);
        # then, with a time limit, another only if it is likely to end by the deadline (as long as the slowest)
        slowest = 0.0
        now = time.perf_counter()
        while self.simulations < max(2, self._max_simulations):
            if deadline is not None and self.simulations >= 2 and now + slowest >= deadline:
                self.timed_out = True
                break
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            if deadline is not None:
                before, now = now, time.perf_counter()
                slowest = max(slowest, now - before)
        return list(self.get_final_policy(state, self._root_node))


def table_view(hand: Hand, seat: int) -> dict[str, Any]:
    """What the table gives a bot at ``seat``: the wire form of its observation, with the round in play
    (hakka_play/table.py adds ``round``; the rule-aware bot reads whether it is empty)."""
    seen = hand.observation(seat)
    view = observation_json(seen)
    view["round"] = [str(play) for play in seen.round]
    return view


class TableBot:
    """The browser table's IS-MCTS bot: :class:`SearchBot` from the seat's own view (see the module's text).

    ``simulations`` is the budget of each decision (each pick of a discard too);
    ``time_limit`` bounds the search time of one table move (a discard's picks
    share it: the first half, the others the rest), or None for no bound.
    ``fallback`` chooses when no state consistent with the view can be drawn
    (:class:`~reference_engine.sampling.NoConsistentDeal`), which the view makes
    possible in principle.
    """

    name = "IS-MCTS bot"

    def __init__(self, profile: Profile, fallback: Fallback, *, simulations: int = DEFAULT_SIMULATIONS,
                 time_limit: float | None = DEFAULT_TIME_LIMIT, guided: bool = False) -> None:
        self.profile = profile
        self.fallback = fallback
        self.simulations = simulations
        self.time_limit = time_limit
        self.timed_out = 0
        """Decisions whose search the time limit stopped (their move may differ on another machine)."""
        self.guided = guided
        """Play the search's playouts with ``fallback``'s choices (each seat from its own view) instead of at random
        (off by default: in benchmarks/rl_bots.py it made each simulation dearer and the bot no stronger)."""
        self.options = options_text(profile)
        self._games: dict[int, Any] = {}

    def _playout(self, hand: Hand, seat: int, rng: random.Random) -> Action:
        return self.fallback.choose(table_view(hand, seat), hand.legal_actions(), rng)

    def _game(self, dealer: int) -> Any:
        game = self._games.get(dealer)
        if game is None:
            game = self._games[dealer] = pyspiel.load_game(GAME_NAME, {"dealer": dealer, "options": self.options})
        return game

    def choose(self, observation: Mapping[str, Any], legal: LegalActions, rng: random.Random) -> Action:
        started = time.perf_counter()
        world = drawn_world(observation, legal, self.profile, self.fallback, rng)
        if isinstance(world, Action):
            return world
        state = state_of_hand(self._game(world.dealer), world, rng)
        option = legal.discard
        limit = self.time_limit
        if limit is not None:
            # the move's limit, less the time spent so far and a margin for the last simulation's overrun;
            # a discard is several picks: the first decision has half of it, the other picks share the rest
            limit = max(1e-6, limit - (time.perf_counter() - started) - OVERRUN)
        first_limit = limit if limit is None or option is None or option.count == 1 else limit / 2
        bot = SearchBot(state.get_game(), simulations=self.simulations, time_limit=first_limit,
                        seed=rng.randrange(2**32), playout=self._playout if self.guided else None)
        first = int(bot.step(state))
        self.timed_out += bot.timed_out
        if not is_pick(first):
            return action_of(first)
        assert option is not None
        picked = 1 << pick_card(first)
        state.apply_action(first)
        if limit is not None and first_limit is not None:
            bot.time_limit = max(1e-6, (limit - first_limit) / max(1, option.count - 1))
        while picked.bit_count() < option.count:
            pick = int(bot.step(state))
            self.timed_out += bot.timed_out
            picked |= 1 << pick_card(pick)
            state.apply_action(pick)
        return Action(DISCARD, picked)
