"""Hakka Cards as a Gymnasium single-agent environment against fixed opponents (issue 29 §3).

>>> from hakka_rl.gym_env import HakkaCardsEnv
>>> env = HakkaCardsEnv()
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape, info["seat"] == env.seat
((408,), (248,), True)

One episode is one hand. The agent plays one active seat (``seat``: a seat
0-3, or None for one drawn at each reset); the Dealer is drawn at each reset
among those that leave that seat active (the Dreamer, opposite the Dealer,
never acts, DEAL-3). The other two active seats are played by
``opponents``: bots of the browser table's interface
(``choose(observation, legal, rng)``, hakka_play/bots.py, given the wire form
of their own seat's observation), by default two that choose uniformly among
the legal actions (a discard counting as one action, its cards at random:
hakka_play's random bot). A hand in which the agent's seat has no decision
(it can end before the seat's first call) is played out and another dealt;
``info["skipped"]`` counts them.

The spaces are those of :mod:`hakka_rl.pettingzoo_env`: an observation is a
dict of ``"observation"`` (the observation tensor of :mod:`hakka_rl.encoding`,
or the information-state tensor with ``information_state=True``) and
``"action_mask"`` (int8, 1 for each legal id), the action space
``Discrete(248)``; a discard is one step a card. The reward is 0 until the
hand ends, then the agent's delta of the hand's result (SCORE-1..7).

An illegal id raises :class:`~hakka_rl.actions.EncodingError` (naming the seat
and the legal ids) unless ``illegal_reward`` is a number: then the episode
ends there with that reward and ``info["illegal"] = True`` (what PettingZoo's
card games do; a learner that ignores the mask needs it, and so does
Gymnasium's ``check_env``, which steps with unmasked samples).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
from gymnasium import Env, spaces

from reference_engine import DEFAULT_PROFILE, Action, Hand, LegalActions, Profile
from reference_engine.wire import observation_json

from .actions import NUM_ACTIONS, EncodingError, as_int, encode_action, random_action
from .encoding import INFORMATION_STATE_SIZE, OBSERVATION_SIZE, EncodedHand, Mask, Tensor
from .pettingzoo_env import TENSOR_HIGH

__all__ = ["HakkaCardsEnv", "UniformBot"]

MAX_REDEALS: Final = 100
"""Hands dealt at most for one reset (a hand where the agent never acts is rare: none in 10,000 seeds)."""


class UniformBot:
    """Uniform over the legal actions, a discard one choice with its cards at random (hakka_play's random bot)."""

    name = "random bot"

    def choose(self, observation: Mapping[str, Any], legal: LegalActions, rng: random.Random) -> Action:
        return random_action(legal, rng)


def _view(hand: Hand, seat: int) -> dict[str, Any]:
    """What the table gives a bot: the wire form of its seat's observation, with the round in play."""
    seen = hand.observation(seat)
    view = observation_json(seen)
    view["round"] = [str(play) for play in seen.round]
    return view


class HakkaCardsEnv(Env[dict[str, Any], int]):
    """One hand of Hakka Cards for one agent against fixed opponents; see the module's text."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  # gymnasium's own name and type

    def __init__(self, seat: int | np.integer[Any] | None = 0, opponents: Sequence[Any] | None = None, *,
                 profile: Profile = DEFAULT_PROFILE, information_state: bool = False,
                 illegal_reward: float | None = None, render_mode: str | None = None) -> None:
        if seat is not None and (not isinstance(seat, int | np.integer) or not 0 <= seat < 4):
            raise ValueError(f"HakkaCardsEnv(seat={seat!r}): a seat 0-3, or None for one drawn at each reset")
        if opponents is not None and len(opponents) != 2:
            raise ValueError(f"HakkaCardsEnv(opponents=...): two bots, one for each other active seat "
                             f"(given {len(opponents)})")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.fixed_seat = None if seat is None else int(seat)
        self.seat = self.fixed_seat if self.fixed_seat is not None else 0
        """The agent's seat in the hand in play."""
        self.opponents = list(opponents) if opponents is not None else [UniformBot(), UniformBot()]
        self.profile = profile
        self.information_state = information_state
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        size = INFORMATION_STATE_SIZE if information_state else OBSERVATION_SIZE
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, TENSOR_HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = random.Random()
        self.encoded: EncodedHand | None = None
        self.deal: tuple[int, int] | None = None
        """The hand in play: ``(dealer, seed)`` of ``Hand.from_seed``."""
        self._bots: dict[int, Any] = {}

    def reset(self, *, seed: int | np.integer[Any] | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Tensor | Mask], dict[str, Any]]:
        if seed is not None:
            number = as_int(seed)
            if number is None:
                raise ValueError(f"reset(seed={seed!r}): a seed is an integer (int or numpy integer) or None")
            seed = number  # Gymnasium's own seeding takes a Python int only
            self._rng = random.Random(seed)
        super().reset(seed=seed)
        rng = self._rng
        for skipped in range(MAX_REDEALS):
            self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(4)
            dealer = (self.seat + rng.choice((0, 1, 3))) % 4  # the agent is never the Dreamer, dealer + 2
            deal_seed = rng.getrandbits(64)
            self.deal = (dealer, deal_seed)
            self.encoded = EncodedHand(Hand.from_seed(dealer, deal_seed, self.profile))
            others = [s for s in range(4) if s not in (self.seat, (dealer + 2) % 4)]
            self._bots = dict(zip(others, self.opponents, strict=True))
            if self._play_opponents():
                return self._observe(), {"seat": self.seat, "dealer": dealer, "skipped": skipped}
        raise RuntimeError(f"no hand in {MAX_REDEALS} deals gave seat {self.seat} a decision")  # pragma: no cover

    def _play_opponents(self) -> bool:
        """The opponents' moves up to the agent's turn: False if the hand ended first."""
        encoded = self.encoded
        assert encoded is not None
        while (acting := encoded.to_act) is not None and acting != self.seat:
            hand = encoded.hand
            action = self._bots[acting].choose(_view(hand, acting), hand.legal_actions(), self._rng)
            for action_id in encode_action(action):
                encoded.apply_id(action_id)
        return encoded.to_act == self.seat

    def _observe(self) -> dict[str, Tensor | Mask]:
        encoded = self.encoded
        assert encoded is not None
        tensor = encoded.information_state_tensor(self.seat) if self.information_state else \
            encoded.observation_tensor(self.seat)
        mask = encoded.legal_mask() if encoded.to_act == self.seat else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def action_masks(self) -> Tensor | Mask:
        """The legal ids now (the name sb3-contrib's ``MaskablePPO`` asks for)."""
        return self._observe()["action_mask"]

    def step(self, action: int | np.integer[Any]) -> tuple[dict[str, Tensor | Mask], float, bool, bool, dict[str, Any]]:
        encoded = self.encoded
        if encoded is None or encoded.to_act != self.seat:
            raise EncodingError("reset() the environment before stepping it (or again after the hand ended)")
        if as_int(action) is None:  # not an id at all (a float, a bool, None): refused whatever illegal_reward says
            encoded.apply_id(action)  # type: ignore[arg-type]  # raises, naming the seat and the legal ids
        try:
            encoded.apply_id(action)  # type: ignore[arg-type]  # a numpy integer is taken as its int
        except EncodingError:
            if self.illegal_reward is None:
                raise
            obs = self._observe()
            self.encoded = None  # the episode is over: a step now needs a reset
            return obs, float(self.illegal_reward), True, False, {"illegal": True}
        if not self._play_opponents():
            result = encoded.hand.result
            assert result is not None
            obs = self._observe()
            self.encoded = None
            return obs, float(result.deltas[self.seat]), True, False, {"deltas": list(result.deltas)}
        return self._observe(), 0.0, False, False, {}

    def render(self) -> str | None:  # type: ignore[override]  # the ansi mode's frame is text
        if self.render_mode is None or self.encoded is None:
            return None
        return str(self.encoded.hand.notation())
