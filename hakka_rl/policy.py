"""A masked softmax policy over the observation tensor, in plain numpy, and its saved file (issue 29 §1).

:class:`MaskedPolicy` is a small two-layer network: the observation tensor
(:data:`~hakka_rl.encoding.OBSERVATION_SIZE` = 408 values) -> ``hidden`` tanh
units -> a logit per action id (:data:`~hakka_rl.actions.NUM_ACTIONS` = 248)
and a value (the seat's expected score delta, for the learner's baseline).
Illegal ids get probability 0 (their logits are masked before the softmax).
It is trained by ``benchmarks/train_baseline.py`` (docs/rl.rst, *A learning
baseline*), and :data:`BASELINE_FILE` is the policy trained there, saved with
the command, seed and versions that made it.

>>> from reference_engine import Hand
>>> from hakka_rl import EncodedHand, describe
>>> policy = MaskedPolicy.load()
>>> hand = EncodedHand(Hand.from_seed(dealer=0, seed=7))
>>> describe(policy.act(hand.observation_tensor(0), hand.legal_mask())) in ('call', 'pass')
True

:class:`PolicyBot` plays it at the browser table (``hakka-play``'s bot
``policy``): given only the wire form of its seat's observation, it draws a
hand consistent with it (:class:`reference_engine.sampling.Resampler`; the
tensor of the seat's own view is the same in every such hand) and plays the
policy's most likely legal id, a discard one pick at a time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from reference_engine import Action, Hand, LegalActions, Profile
from reference_engine.actions import DISCARD
from reference_engine.sampling import NoConsistentDeal, Resampler, SeatView

from .actions import NUM_ACTIONS, action_of, is_pick, pick_card
from .encoding import OBSERVATION_SIZE, EncodedHand

__all__ = ["BASELINE_FILE", "MaskedPolicy", "PolicyBot"]

BASELINE_FILE: Final = Path(__file__).with_name("baseline_policy.npz")
"""The policy trained by ``benchmarks/train_baseline.py`` (its ``meta`` says how)."""

Floats = npt.NDArray[np.float32]
PARAMETERS: Final = ("w1", "b1", "w2", "b2", "wv", "bv")


class MaskedPolicy:
    """``obs -> tanh(obs @ w1 + b1) = h``; logits ``h @ w2 + b2`` over the legal ids; value ``h @ wv + bv``."""

    def __init__(self, params: Mapping[str, npt.ArrayLike], meta: Mapping[str, Any] | None = None) -> None:
        self.params: dict[str, Floats] = {name: np.asarray(params[name], dtype=np.float32) for name in PARAMETERS}
        w1, w2 = self.params["w1"], self.params["w2"]
        if w1.shape[0] != OBSERVATION_SIZE or w2.shape[1] != NUM_ACTIONS or w1.shape[1] != w2.shape[0]:
            raise ValueError(f"a policy maps {OBSERVATION_SIZE} values to {NUM_ACTIONS} ids: these weights are "
                             f"{w1.shape} and {w2.shape}")
        self.meta: dict[str, Any] = dict(meta or {})
        """How the policy was made: the training command, seed, versions, the figures it reached."""

    @classmethod
    def initial(cls, hidden: int, rng: np.random.Generator) -> MaskedPolicy:
        """Small random weights (the logits start near uniform over the legal ids)."""
        scale = 1.0 / np.sqrt(OBSERVATION_SIZE)
        return cls({
            "w1": rng.normal(0.0, scale, (OBSERVATION_SIZE, hidden)), "b1": np.zeros(hidden),
            "w2": rng.normal(0.0, 0.01, (hidden, NUM_ACTIONS)), "b2": np.zeros(NUM_ACTIONS),
            "wv": np.zeros((hidden, 1)), "bv": np.zeros(1),
        })

    @property
    def hidden(self) -> int:
        return int(self.params["w1"].shape[1])

    # ----------------------------------------------------------------- acting

    def probabilities(self, obs: Floats, mask: npt.NDArray[np.int8]) -> Floats:
        """The policy's probability of each id (0 for an illegal one); ``obs`` one tensor or a batch."""
        p = self.params
        h = np.tanh(obs @ p["w1"] + p["b1"])
        logits = np.where(mask > 0, h @ p["w2"] + p["b2"], -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits)
        out: Floats = e / e.sum(axis=-1, keepdims=True)
        return out

    def act(self, obs: Floats, mask: npt.NDArray[np.int8], rng: np.random.Generator | None = None) -> int:
        """The most likely legal id, or with ``rng`` one drawn from the policy."""
        p = self.params
        logits = np.tanh(obs @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("no legal id: the policy acts only for the seat to act")
        scores = logits[legal]
        if rng is None:
            return int(legal[int(np.argmax(scores))])
        e = np.exp(scores - scores.max())
        return int(legal[int(rng.choice(len(legal), p=e / e.sum()))])

    # ------------------------------------------------------------------- file

    def save(self, path: Path | str) -> None:
        """The weights as float32 and ``meta`` as JSON, in one compressed ``.npz``."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta, sort_keys=True)), **self.params}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path | str = BASELINE_FILE) -> MaskedPolicy:
        """A policy saved by :meth:`save` (by default the trained baseline)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                missing = [name for name in PARAMETERS if name not in data]
                if missing:
                    raise ValueError(f"{path}: not a saved policy (no {', '.join(missing)})")
                return cls({name: data[name] for name in PARAMETERS}, json.loads(str(data["meta"])))
        except OSError as error:
            raise ValueError(f"{path}: cannot read a saved policy ({error})") from error


class Fallback(Protocol):
    def choose(self, observation: Mapping[str, Any], legal: LegalActions, rng: random.Random) -> Action: ...


def drawn_world(observation: Mapping[str, Any], legal: LegalActions, profile: Profile, fallback: Fallback,
                rng: random.Random) -> Hand | Action:
    """What a table bot that decides on a whole hand starts from: a hand drawn consistent with the seat's view
    (the wire form of its observation), or the move to make without one: the only legal action, or
    ``fallback``'s choice when no hand fits the view (:class:`~reference_engine.sampling.NoConsistentDeal`)."""
    if len(legal.actions) == 1 and legal.discard is None:
        return legal.actions[0]
    try:
        return Resampler(SeatView.from_json(observation), profile).sample(rng)
    except NoConsistentDeal:
        return fallback.choose(observation, legal, rng)


def play_ids(policy: MaskedPolicy, hand: EncodedHand, seat: int, rng: np.random.Generator | None = None) -> Action:
    """The policy's whole move for ``seat`` (to act in ``hand``): one id, or picks until a discard is made.
    ``hand`` is left with the picks made but the discard not applied (the caller applies the action)."""
    first = policy.act(hand.observation_tensor(seat), hand.legal_mask(), rng)
    if not is_pick(first):
        return action_of(first)
    picked = 0
    pick = first
    option = hand.hand.legal_actions().discard
    assert option is not None  # a pick is legal only with a discard option
    while True:
        picked |= 1 << pick_card(pick)
        if picked.bit_count() == option.count:
            return Action(DISCARD, picked)
        hand.apply_id(pick)
        pick = policy.act(hand.observation_tensor(seat), hand.legal_mask(), rng)


class PolicyBot:
    """The browser table's bot interface (``choose(observation, legal, rng)``) for a :class:`MaskedPolicy`."""

    name = "trained policy"

    def __init__(self, profile: Profile, fallback: Fallback, policy: MaskedPolicy | None = None) -> None:
        self.profile = profile
        self.fallback = fallback
        """Chooses when no hand consistent with the view can be drawn (possible in principle)."""
        self.policy = policy if policy is not None else MaskedPolicy.load()

    def choose(self, observation: Mapping[str, Any], legal: LegalActions, rng: random.Random) -> Action:
        world = drawn_world(observation, legal, self.profile, self.fallback, rng)
        if isinstance(world, Action):
            return world
        return play_ids(self.policy, EncodedHand(world), int(observation["seat"]))
