"""hakka_rl.gym_env: the Gymnasium single-agent environment against fixed opponents (issue 29 §3)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from hakka_play.bots import RuleBot
from hakka_rl import EncodedHand
from hakka_rl.actions import EncodingError, encode_action
from hakka_rl.gym_env import HakkaCardsEnv
from reference_engine import Hand
from reference_engine.wire import observation_json


@pytest.mark.parametrize("kwargs", [{}, {"seat": None, "information_state": True}])
def test_gymnasiums_own_checker_passes(kwargs):
    """check_env steps with unmasked samples of Discrete(248): an illegal id ends the episode with the penalty."""
    with pytest.warns(UserWarning, match="spec"):  # only its note that no registered spec names render modes
        check_env(HakkaCardsEnv(illegal_reward=-10.0, **kwargs))


def play(env: HakkaCardsEnv, seed: int) -> tuple[float, dict[str, Any], list[int]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        obs, reward, terminated, truncated, step_info = env.step(action)
        assert not truncated
        if terminated:
            return reward, info | step_info, taken
        assert reward == 0.0 and obs["action_mask"].any()


def test_an_episode_is_one_hand_paid_at_its_end_and_the_agent_is_never_the_dreamer():
    env = HakkaCardsEnv(seat=None)
    seats = set()
    for seed in range(40):
        reward, info, _ = play(env, seed)
        assert env.seat != (int(info["dealer"]) + 2) % 4  # DEAL-3: the Dreamer never acts
        assert reward == info["deltas"][env.seat] and sum(info["deltas"]) == 0  # SCORE-7
        seats.add(env.seat)
    assert seats == {0, 1, 2, 3}


def test_the_opponents_are_the_bots_given_and_the_hand_replays():
    """Against two rule-aware bots, the hand replayed from its deal with the agent's ids and the bots' own
    choices (same view, same draws) ends with the reward the env paid."""
    env = HakkaCardsEnv(seat=1, opponents=[RuleBot(), RuleBot()])
    for seed in range(6):
        reward, _, taken = play(env, seed)
        assert env.deal is not None
        dealer, deal_seed = env.deal
        hand = Hand.from_seed(dealer, deal_seed)
        encoded = EncodedHand(hand)
        mine = iter(taken)
        bot, rng = RuleBot(), random.Random()
        while (acting := encoded.to_act) is not None:
            if acting == 1:
                encoded.apply_id(next(mine))
                continue
            seen = hand.observation(acting)
            view = observation_json(seen)
            view["round"] = [str(p) for p in seen.round]
            for action_id in encode_action(bot.choose(view, hand.legal_actions(), rng)):  # RuleBot draws nothing
                encoded.apply_id(action_id)
        assert hand.result is not None and hand.result.deltas[1] == reward


def test_a_seed_reproduces_the_episode():
    first = play(HakkaCardsEnv(seat=None), 7)
    second = play(HakkaCardsEnv(seat=None), 7)
    assert first == second


def test_an_illegal_id_raises_by_default_and_ends_the_episode_with_a_penalty_if_asked():
    env = HakkaCardsEnv()
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(EncodingError, match=r"is not legal for seat 0 now; legal ids: 0 \(call\), 1 \(pass\)"):
        env.step(illegal)
    env = HakkaCardsEnv(illegal_reward=-5.0)
    env.reset(seed=3)
    _, reward, terminated, _, info = env.step(np.int64(illegal))
    assert (reward, terminated, info) == (-5.0, True, {"illegal": True})
    with pytest.raises(EncodingError, match=r"reset\(\) the environment"):
        env.step(0)


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match=r"seat=4.*seat 0-3"):
        HakkaCardsEnv(seat=4)
    with pytest.raises(ValueError, match=r"two bots.*given 1"):
        HakkaCardsEnv(opponents=[RuleBot()])
    assert HakkaCardsEnv(seat=np.int64(2)).seat == 2
