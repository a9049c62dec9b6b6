"""No-op environments of the learning environments' exact shape: the floors of benchmarks/rl_steps.py.

A **floor** is what an interface's API costs by itself. The no-op environment here does no work
of its own: it replays a recorded episode's *shape* (who acts at each step and how many legal ids
they have; how many outcomes each chance node has) and hands out preallocated observations and
masks, copied out the way the real environment copies its own. A learner's loop over it makes the
same calls, the same number of times, with the same random picks as over the real environment.

Any environment of that shape on that API costs at least the engine's own work plus the floor, so
``steps / (engine CPU + floor CPU)``, over the engine's actions/s, is the most it could reach: the
**ceiling** of its ``x engine`` ratio (rl_steps prints it beside each real line).

* :class:`FloorEnv`: PettingZoo's AEC API (``reset``, ``observe``/``last``, ``step``, the
  rewards, terminations and dead steps of :class:`pettingzoo.AECEnv`), as hakka_rl.pettingzoo_env;
* ``python_hakka_floor``: a pyspiel Python game (chance nodes, player nodes, an observer) with
  the real game's type and sizes; ``overrides=True`` gives its state the Python-level
  ``is_chance_node``/``legal_actions``/``observation_tensor`` that hakka_rl.openspiel_game has
  (a Python caller then skips pybind11's C++ -> Python trampolines), ``False`` leaves pyspiel's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv

from hakka_rl.actions import NUM_ACTIONS
from hakka_rl.encoding import INFORMATION_STATE_SIZE, OBSERVATION_SIZE
from hakka_rl.openspiel_game import CHANCE, GAME_INFO, GAME_TYPE, TERMINAL
from hakka_rl.pettingzoo_env import AGENTS, TENSOR_HIGH

__all__ = ["FLOOR_NAME", "FloorEnv", "FloorGame", "Shape"]


@dataclass(frozen=True)
class Shape:
    """One episode's shape: each node's player (``CHANCE`` for chance) and its number of legal actions or
    chance outcomes, in order; ``returns``: what the players got; ``last``: the seat selected at the end."""

    nodes: tuple[tuple[int, int], ...]
    returns: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
    last: int = 0

    @property
    def steps(self) -> int:
        """The steps a learner counts: the player nodes (rl_steps' definition)."""
        return sum(player >= 0 for player, _ in self.nodes)


_MOST: Final = max(NUM_ACTIONS, GAME_INFO.max_chance_outcomes) + 1
_IDS: Final = tuple(list(range(n)) for n in range(_MOST))
_OUTCOMES: Final = ((),) + tuple([(i, 1.0 / n) for i in range(n)] for n in range(1, _MOST))
_SOURCE: Final = np.zeros(OBSERVATION_SIZE, np.float32)
"""The observation every floor copies out (its values do not matter: the copy does)."""

# ------------------------------------------------------------------ PettingZoo


class FloorEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # an untyped base
    """PettingZoo's AEC API over recorded :class:`Shape` s (one a ``reset``), as hakka_rl.pettingzoo_env.raw_env:
    the same agents, spaces and observation dict; the mask of a step has as many legal ids as recorded."""

    metadata: Final[dict[str, Any]] = {"render_modes": [], "name": "hakka_floor_v0", "is_parallelizable": False}

    def __init__(self, shapes: Sequence[Shape]) -> None:
        super().__init__()
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, TENSOR_HIGH, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }) for agent in AGENTS}
        self.action_spaces: dict[str, spaces.Space[Any]] = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._shapes: Iterator[Shape] = iter(shapes)
        self._masks = [np.zeros(NUM_ACTIONS, np.int8) for _ in range(NUM_ACTIONS + 1)]
        for n, mask in enumerate(self._masks):
            mask[:n] = 1
        self._nodes: tuple[tuple[int, int], ...] = ()
        self._shape = Shape(())
        self._step = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        shape = self._shape = next(self._shapes, self._shape)  # the loop's last reset deals a hand never played
        self._nodes, self._step = shape.nodes, 0
        self.agents = list(AGENTS)
        self.rewards: dict[str, float] = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._nodes[0][0]]

    def observe(self, agent: str) -> dict[str, Any]:
        step, nodes = self._step, self._nodes
        acting = step < len(nodes) and AGENTS[nodes[step][0]] == agent
        mask = self._masks[nodes[step][1] if acting else 0].copy()
        return {"observation": _SOURCE.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self._step += 1
        if self._step == len(self._nodes):
            for seat, delta in enumerate(self._shape.returns):
                self.rewards[AGENTS[seat]] = delta
            self.terminations = dict.fromkeys(AGENTS, True)
            self._accumulate_rewards()
            self.agent_selection = AGENTS[self._shape.last]
        else:
            self.agent_selection = AGENTS[self._nodes[self._step][0]]


# ------------------------------------------------------------------ OpenSpiel

FLOOR_NAME: Final = "python_hakka_floor"
FLOOR_TYPE: Final = pyspiel.GameType(
    short_name=FLOOR_NAME, long_name="Hakka Cards' floor: a no-op game of its shape",
    dynamics=GAME_TYPE.dynamics, chance_mode=GAME_TYPE.chance_mode, information=GAME_TYPE.information,
    utility=GAME_TYPE.utility, reward_model=GAME_TYPE.reward_model, max_num_players=4, min_num_players=4,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification={"overrides": False},
)


class FloorGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """The floor game: a new state replays ``shapes[played]``, the first shape not played to its end yet.

    (Not simply the next shape: pyspiel makes a new initial state of its own at each C++
    ``observation_tensor()``, to learn the tensor's size, as it does for the real game.)
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.overrides = bool(params.get("overrides", False))
        self.shapes: Sequence[Shape] = ()
        self.played = 0
        super().__init__(FLOOR_TYPE, GAME_INFO, params)

    def replay(self, shapes: Sequence[Shape]) -> None:
        """Replay ``shapes`` from the first."""
        self.shapes, self.played = shapes, 0

    def new_initial_state(self) -> FloorState:
        kind = FastFloorState if self.overrides else FloorState
        return kind(self, self.shapes[self.played] if self.played < len(self.shapes) else Shape(()))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FloorObserver:
        return FloorObserver(bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


class FloorState(pyspiel.State):  # type: ignore[misc]
    """A state that replays a :class:`Shape`: the methods a Python game must have, each a lookup."""

    def __init__(self, game: FloorGame, shape: Shape) -> None:
        super().__init__(game)
        self._game = game
        self._players = tuple(player for player, _ in shape.nodes) + (TERMINAL,)
        self._counts = tuple(count for _, count in shape.nodes) + (0,)
        self._end = len(shape.nodes)
        self._node = 0

    def current_player(self) -> int:
        return self._players[self._node]

    def _legal_actions(self, player: int) -> list[int]:
        return _IDS[self._counts[self._node]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _OUTCOMES[self._counts[self._node]]  # type: ignore[return-value]

    def _apply_action(self, action: int) -> None:
        self._node += 1
        if self._node == self._end:
            self._game.played += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action)

    def is_terminal(self) -> bool:
        return self._node == self._end

    def returns(self) -> list[float]:
        return [0.0, 0.0, 0.0, 0.0]

    def __str__(self) -> str:
        return f"node {self._node}"


class FastFloorState(FloorState):
    """The floor with hakka_rl.openspiel_game's Python-level methods (what a Python caller calls there)."""

    def is_chance_node(self) -> bool:
        return self._players[self._node] == CHANCE

    def is_player_node(self) -> bool:
        return self._players[self._node] >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        node = self._node
        current = self._players[node]
        if current == TERMINAL or (player is not None and player != current and current != CHANCE):
            return []
        return _IDS[self._counts[node]]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return _SOURCE.tolist()


class FloorObserver:
    """pyspiel's observer interface: ``set_from`` copies the preallocated observation into its tensor."""

    def __init__(self, perfect_recall: bool = False) -> None:
        self.tensor = np.zeros(INFORMATION_STATE_SIZE if perfect_recall else OBSERVATION_SIZE, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: FloorState, player: int) -> None:
        self.tensor[:OBSERVATION_SIZE] = _SOURCE

    def string_from(self, state: FloorState, player: int) -> str:
        return ""


pyspiel.register_game(FLOOR_TYPE, FloorGame)
