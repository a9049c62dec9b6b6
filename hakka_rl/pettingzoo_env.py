"""Hakka Cards as a PettingZoo AEC environment: one hand (or one game) an episode, four agents (issue 18 §3).

>>> from hakka_rl.pettingzoo_env import env
>>> game = env()
>>> game.reset(seed=42)
>>> game.agent_selection, game.last()[0]["observation"].shape == (OBSERVATION_SIZE,)
('seat_0', True)

Agents ``seat_0`` .. ``seat_3`` are the four seats. The Dreamer (opposite the
Dealer, DEAL-3) is an agent like the others, so that it is paid (SCORE-5), but
it is never the agent selected to act: it is selected only at the end, like
every agent, for PettingZoo's closing ``step(None)``.

The action space of every agent is ``Discrete(248)`` (the ids of
:mod:`hakka_rl.actions`); an observation is a dict, as in PettingZoo's
classic games: ``"observation"`` (the observation tensor of
:mod:`hakka_rl.encoding`, or the information-state tensor with
``information_state=True``) and ``"action_mask"`` (int8, 1 for each legal id;
all 0 for an agent not selected). ``observation_key="observations"`` renames
the first key for RLlib's action-masking module, which reads that name
(:mod:`hakka_rl.rllib_demo`). A discard is several steps of the same
agent (one pick a step, :mod:`hakka_rl.actions`). The rewards are the score
table's: 0 on every step but the last, where each seat gets its delta of the
hand's result (SCORE-1..7; a void hand, CALL-6, pays 0).

``reset(seed=n)`` makes the episodes that follow reproducible: the Dealer and
the deal's seed (DEAL-5) are drawn from a ``random.Random(n)``. ``reset(options=
{"dealer": d, "deal": {"seed": s}})`` (or ``{"hands": [...]}``) deals one
given hand, and :attr:`raw_env.deal` says what was dealt.

``episode="game"`` makes an episode a whole game (GAME-1): the engine's
:class:`~reference_engine.Game`, hands dealt one after the other until 4
count (a void hand does not, D31), each later Dealer following from the
Calling (D4, D5). Each hand pays its deltas at its last step, so an agent's
rewards over the episode add up to its game score (GAME-4); the observations
are the hand in play's. The deals are ``max_deals`` seeds drawn as above
(default 16), or ``reset(options={"dealer": d, "deals": [...]})``; a game
that needs more deals than that (hands that never count) is truncated after
the last one's hand. ``infos[agent]["game"]`` says the game's progress after
each hand: the scores so far, the hands that counted and the deal's number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from reference_engine import DEFAULT_PROFILE, Game, Hand, Profile
from reference_engine.game import deal_hand

from .actions import NUM_ACTIONS, EncodingError, as_int, describe
from .encoding import INFORMATION_STATE_SIZE, OBSERVATION_SIZE, EncodedHand, Mask, Tensor

AGENTS: Final = ("seat_0", "seat_1", "seat_2", "seat_3")
_SEAT: Final = {agent: seat for seat, agent in enumerate(AGENTS)}
TENSOR_HIGH: Final = 36.0
"""The largest value of a tensor: counts (tricks won) stay within the 36 cards the active seats hold."""
EPISODES: Final = ("hand", "game")
"""What an episode is: one hand (the default) or a whole game of four hands that count (GAME-1)."""
DEFAULT_MAX_DEALS: Final = 16
"""The deals of a game episode at most: a game that needs more (hands that never count) is truncated."""
UNPLAYED: Final = {"seed": 0}
"""A game's deal after its last one: dealt when that deal's hand ends short of a whole game, never played
(the episode is truncated there), so that the engine can end that hand."""


def env(*, checked: bool = False, **kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The environment (``raw_env(**kwargs)``).

    It makes the checks of PettingZoo's ``OrderEnforcingWrapper`` and
    ``AssertOutOfBoundsWrapper`` itself (observing or stepping before
    ``reset()``, an id outside 0-247 or not legal now: a clear error), so it is
    not wrapped in them: those two wrappers halved its steps/s
    (benchmarks/rl_steps.py). ``checked=True`` wraps it in them all the same.
    """
    made: AECEnv[str, dict[str, Any], int] = raw_env(**kwargs)
    if checked:
        made = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(made))
    return made


def parallel_env(**kwargs: Any) -> ParallelEnv[str, dict[str, Any], int]:
    """The environment as a PettingZoo parallel environment (``raw_env(**kwargs)`` through PettingZoo's own
    ``turn_based_aec_to_parallel``): at each step every live agent gives an action and only the one of the agent
    to act (``infos[agent]["active_agent"]``) is played; the others' are ignored."""
    made: ParallelEnv[str, dict[str, Any], int] = turn_based_aec_to_parallel(raw_env(**kwargs))
    return made


class raw_env(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # PettingZoo's name; an untyped base
    """One hand of Hakka Cards an episode (or, with ``episode="game"``, a whole game); see the module's text."""

    metadata: Final[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "hakka_cards_v0", "is_parallelizable": False}

    def __init__(self, profile: Profile = DEFAULT_PROFILE, information_state: bool = False,
                 render_mode: str | None = None, observation_key: str = "observation",
                 illegal_reward: float | None = None, episode: str = "hand",
                 max_deals: int | np.integer[Any] = DEFAULT_MAX_DEALS) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode={episode!r}: 'hand' (an episode is one hand) or 'game' (a whole game, GAME-1)")
        deals = as_int(max_deals)
        if deals is None or deals < 1:
            raise ValueError(f"max_deals={max_deals!r}: the deals of a game episode at most, an integer >= 1")
        self.episode = episode
        self.max_deals = deals
        self.game: Game | None = None
        """The game in play (``episode="game"``): the engine's, its scores and results so far."""
        self._deals: list[Mapping[str, object]] = []
        self._paid = False
        if illegal_reward is not None and not isinstance(illegal_reward, (int, float, np.integer, np.floating)):
            raise ValueError(f"illegal_reward={illegal_reward!r}: a number (the reward of an illegal id) or None")
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        """``None`` (the default): an illegal id raises. A number: an id not legal now ends the episode, that
        agent gets this reward and the others 0, and its info says ``illegal_action`` (PettingZoo's card games)."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.profile = profile
        self.information_state = information_state
        self.observation_key = observation_key
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        size = INFORMATION_STATE_SIZE if information_state else OBSERVATION_SIZE
        self.observation_spaces = {agent: spaces.Dict({
            observation_key: spaces.Box(0.0, TENSOR_HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }) for agent in AGENTS}
        self.action_spaces: dict[str, spaces.Space[Any]] = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self.state_space = spaces.Box(0.0, TENSOR_HIGH, (4 * OBSERVATION_SIZE,), np.float32)
        """The global state's space: :meth:`state`, the four seats' observation tensors."""
        self._rng = random.Random()
        self._no_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self.deal: tuple[int, Mapping[str, object]] | None = None
        """The last hand dealt: ``(dealer, deal)``, ``deal`` as :func:`reference_engine.game.deal_hand` takes it."""
        self.encoded: EncodedHand | None = None
        self.actions: list[tuple[str, int]] = []
        """The episode so far: ``(agent, id)`` for every step made by a live agent."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the AEC API

    def reset(self, seed: int | np.integer[Any] | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            number = as_int(seed)
            if number is None:
                raise ValueError(f"reset(seed={seed!r}): a seed is an integer (int or numpy integer) or None")
            self._rng = random.Random(number)
        dealer, deal = self._next_deal(options or {})
        self.deal = (dealer, deal)
        if self.episode == "game":
            self.game = Game(dealer, [*self._deals, UNPLAYED], self.profile)
            self.encoded = EncodedHand(self.game.hand, self.game)
        else:
            self.encoded = EncodedHand(deal_hand(dealer, deal, self.profile))
        self._paid = False
        self.agents = list(AGENTS)
        self.rewards: dict[str, float] = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        if self.game is not None and self.episode == "game":
            self._tell_progress(self.game)
        self.actions = []
        to_act = self.encoded.to_act
        assert to_act is not None  # a new hand starts with the Dealer's call (CALL-1)
        self.agent_selection = AGENTS[to_act]

    def _next_deal(self, options: Mapping[str, Any]) -> tuple[int, Mapping[str, object]]:
        """The (first) Dealer and deal of the next episode; in a game episode, :attr:`_deals` too."""
        other = "deals" if self.episode == "hand" else "deal"
        if other in options:  # (other keys are let through: PettingZoo's api_test resets with one of its own)
            owner = "a game episode (episode='game')" if other == "deals" else "a one-hand episode"
            takes = "deal (one hand)" if self.episode == "hand" else "deals (a list, one a hand)"
            raise ValueError(f"reset(options={{'{other}': ...}}) is an option of {owner}; an episode of one "
                             f"{self.episode} takes {takes}")
        dealer = options.get("dealer")
        if dealer is None:
            dealer = self._rng.randrange(4)
        elif as_int(dealer) is not None:
            dealer = as_int(dealer)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < 4:
            raise ValueError(f"reset(options={{'dealer': {dealer!r}}}): the Dealer is a seat 0-3 (DEAL-1)")
        if self.episode == "hand":
            deal = options.get("deal")
            return dealer, _plain_deal("['deal']", {"seed": self._rng.getrandbits(64)} if deal is None else deal)
        deals = options.get("deals")
        if deals is None:
            deals = [{"seed": self._rng.getrandbits(64)} for _ in range(self.max_deals)]
        elif not isinstance(deals, (list, tuple)) or not deals:
            raise ValueError(f"reset(options={{'deals': {deals!r}}}): a game's deals are a list of deals, "
                             f"each a dict with hands, deck or seed (GAME-1)")
        self._deals = [_plain_deal(f"['deals'][{i}]", deal) for i, deal in enumerate(deals)]
        return dealer, self._deals[0]

    def _tell_progress(self, game: Game) -> None:
        """Each agent's ``infos[agent]["game"]``: the game's scores, hands that counted and deal number so far."""
        progress = {"scores": list(game.scores), "hands_played": game.hands_played, "deal": game.deal_index + 1}
        for agent in AGENTS:
            self.infos[agent]["game"] = progress

    def observe(self, agent: str) -> dict[str, Tensor | Mask]:
        encoded = self.encoded
        if encoded is None:
            raise EncodingError("reset() the environment before observing or stepping it")
        seat = _SEAT[agent]
        tensor = encoded.information_state_tensor(seat) if self.information_state else \
            encoded.observation_tensor(seat)
        mask = encoded.legal_mask() if encoded.hand.to_act == seat else self._no_mask.copy()
        return {self.observation_key: tensor, "action_mask": mask}

    def state(self) -> Tensor:
        """The global state, for a centralised critic: it sees EVERYTHING, every hidden card included (never
        give it to a policy that acts). The four seats' observation tensors, seat 0 to 3, joined: every hand,
        every face-down discard (each in its owner's tensor), the Dreamer's card and a partial discard's picks."""
        encoded = self._hand()
        return np.concatenate([encoded.observation_view(seat) for seat in range(4)])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, with no assertion of its own (``observe`` refuses an env not reset)."""
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent is done and removed: the end, as the last agent saw it
            return (self.observe(agent) if observe else None, 0, True, False, {})
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: int | np.integer[Any] | None) -> None:
        encoded = self.encoded
        if encoded is None:
            raise EncodingError("reset() the environment before observing or stepping it")
        agent = self.agent_selection
        if not self.agents:  # every agent is done: the episode is over (PettingZoo: nothing left to step)
            if action is not None:
                raise EncodingError(f"the episode is over (every agent is done): step({action!r}) has no agent to "
                                    f"act; reset() for a new one")
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = self._action_id(agent, action, encoded)
        self._cumulative_rewards[agent] = 0
        if self._paid:  # a game's last hand paid its deltas at the step before: nothing to pay now
            self.rewards = dict.fromkeys(AGENTS, 0)
            self._paid = False
        if self.illegal_reward is None:
            encoded.apply_id(action)  # refuses an illegal id, naming the seat and the legal ids
        else:
            try:
                encoded.apply_id(action)
            except EncodingError as error:
                self._illegal(agent, action, str(error))
                return
        self.actions.append((agent, action))
        to_act = encoded.hand.to_act
        if to_act is None:
            result = encoded.hand.result
            assert result is not None
            for seat, delta in enumerate(result.deltas):
                self.rewards[AGENTS[seat]] = delta
            game = self.game if self.episode == "game" else None
            if game is not None:
                self._tell_progress(game)
            if game is not None and not game.over and game.deal_index < len(self._deals):
                self._paid = True  # the game goes on: the next hand, dealt by the game (D4, D5)
                self.deal = (game.hand.dealer, self._deals[game.deal_index])
                self.encoded = EncodedHand(game.hand, game)
                next_to_act = self.encoded.to_act
                assert next_to_act is not None  # a new hand starts with the Dealer's call (CALL-1)
                self.agent_selection = AGENTS[next_to_act]
            else:  # the hand, or the game, is over; or the game's deals ran out: truncated
                if game is not None and not game.over:
                    self.truncations = dict.fromkeys(AGENTS, True)
                else:
                    self.terminations = dict.fromkeys(AGENTS, True)
                self.agent_selection = AGENTS[encoded.hand.dealer]
            self._accumulate_rewards()
        else:  # the rewards stay 0 until the hand ends (cleared at the step after a game's hand paid)
            self.agent_selection = AGENTS[to_act]
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, action: int, why: str) -> None:
        """End the episode after an illegal id (``illegal_reward`` set): that agent pays it, nobody else."""
        for other in AGENTS:
            self.rewards[other] = (self.illegal_reward or 0.0) if other == agent else 0
        self.infos[agent]["illegal_action"] = why
        self.terminations = dict.fromkeys(AGENTS, True)
        self._accumulate_rewards()
        self.actions.append((agent, action))
        if self.render_mode == "human":
            self.render()

    def _action_id(self, agent: str, action: object, encoded: EncodedHand) -> int:
        """``action`` as an id (an ``int`` or a numpy integer), or the error naming the legal ids."""
        found = as_int(action)
        if found is not None and 0 <= found < NUM_ACTIONS:
            return found
        legal = ", ".join(f"{i} ({describe(i)})" for i in encoded.legal_ids())
        if action is None:
            raise EncodingError(f"{agent} is to act and may not pass None; legal ids: {legal}")
        raise EncodingError(f"{agent} is to act: {action!r} is not an action id (an integer 0-{NUM_ACTIONS - 1}, "
                            f"not a float, a string or a bool); legal ids: {legal}")

    def _hand(self) -> EncodedHand:
        if self.encoded is None:
            raise EncodingError("reset() the environment before observing or stepping it")
        return self.encoded

    def render(self) -> str | None:
        """The hand's position as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        encoded = self._hand()
        hand: Hand = encoded.hand
        lines = [hand.notation()]
        if encoded.pending is not None and encoded.pending.picked:
            lines.append(f"seat {hand.to_act} discarding: {encoded.pending}")
        text = "\n".join(lines)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.encoded = None


def _plain_deal(where: str, deal: object) -> Mapping[str, object]:
    """``deal`` as the engine takes it (a numpy integer seed made an ``int``), or the error naming the option."""
    if not isinstance(deal, Mapping):
        raise ValueError(f"reset(): options{where} is {deal!r}; a deal is a dict with hands, deck or seed (DEAL-4)")
    seed = deal.get("seed")
    if seed is not None and type(seed) is not int and as_int(seed) is not None:
        return {**deal, "seed": as_int(seed)}
    return deal
