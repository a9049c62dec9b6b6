"""The PettingZoo environment passes PettingZoo's own tests and keeps to the rules (issue 18 §3)."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

from hakka_rl.actions import EncodingError, action_id
from hakka_rl.encoding import INFORMATION_STATE_SIZE, OBSERVATION_SIZE
from hakka_rl.pettingzoo_env import AGENTS, env, raw_env
from reference_engine import Action, Profile

EXPECTED_WARNINGS = {
    # api_test knows PettingZoo's own dict-observation games by name only (its env_obs_dicts list)
    "Observation is not a NumPy array",
    # the same test prefers Box or Discrete spaces; PettingZoo's classic games use this Dict, as here
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _run_quietly(check: object, *args: object, **kwargs: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)  # type: ignore[operator]
    # a ResourceWarning is another test's leftover (an event loop, a socket) collected meanwhile
    unexpected = {str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)} - EXPECTED_WARNINGS
    assert not unexpected, unexpected


@pytest.mark.parametrize("information_state", [False, True])
def test_api_test(information_state: bool) -> None:
    _run_quietly(api_test, env(information_state=information_state), num_cycles=400)


def test_api_test_with_pettingzoos_wrappers_and_other_options() -> None:
    profile = Profile.from_options({"D12": "may-discard", "D21": "automatic", "D24": "declared"})
    _run_quietly(api_test, env(checked=True, profile=profile), num_cycles=400)


def test_seed_test() -> None:
    _run_quietly(seed_test, env, num_cycles=400)


def test_render_test() -> None:
    render_test(lambda render_mode=None: env(render_mode=render_mode))


def test_same_seed_same_episodes_other_seed_other_deal() -> None:
    def deals(seed: int) -> list[object]:
        seen: list[object]
        game = raw_env()
        game.reset(seed=seed)
        seen = [game.deal]
        for _ in range(3):
            game.reset()
            seen.append(game.deal)
        return seen

    assert deals(7) == deals(7)
    assert deals(7) != deals(8)


def _play(game: raw_env, rng: random.Random) -> dict[str, float]:
    """Play one episode with random legal ids; return each agent's total reward."""
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _info = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        mask = observation["action_mask"]
        assert game.encoded is not None and AGENTS.index(agent) != game.encoded.hand.dreamer
        game.step(rng.choice(np.flatnonzero(mask).tolist()))
    return totals


def test_rewards_are_the_hands_deltas_and_the_dreamer_never_acts() -> None:
    rng = random.Random(3)
    game = raw_env()
    game.reset(seed=11)
    won = 0
    for _ in range(40):
        totals = _play(game, rng)
        assert game.encoded is not None
        result = game.encoded.hand.result
        assert result is not None
        assert [totals[a] for a in AGENTS] == list(result.deltas)
        assert sum(result.deltas) == 0
        won += result.winner is not None
        game.reset()
    assert won  # some hands pay


def test_observations_are_the_encodings_tensors() -> None:
    game = raw_env(information_state=True)
    game.reset(seed=1)
    agent = game.agent_selection
    observation = game.observe(agent)["observation"]
    assert observation.shape == (INFORMATION_STATE_SIZE,) and observation.dtype == np.float32
    assert game.encoded is not None
    seat = AGENTS.index(agent)
    assert np.array_equal(observation[:OBSERVATION_SIZE], game.encoded.observation_tensor(seat))
    other = AGENTS[(seat + 1) % 4]
    assert not game.observe(other)["action_mask"].any()  # only the agent to act has legal ids


def test_bad_moves_are_refused_with_the_seat_and_the_legal_ids() -> None:
    game = raw_env()
    with pytest.raises(EncodingError, match="reset"):
        game.step(0)
    game.reset(options={"dealer": 0, "deal": {"seed": 5}})
    with pytest.raises(EncodingError, match=r"not legal for seat 0 now; legal ids: 0 \(call\), 1 \(pass\)"):
        game.step(action_id(Action.parse("play Sup1")))
    with pytest.raises(EncodingError, match="not an action id"):
        game.step(248)
    with pytest.raises(EncodingError, match="may not pass None"):
        game.step(None)
    with pytest.raises(ValueError, match="Dealer is a seat 0-3"):
        game.reset(options={"dealer": 4})


def test_observation_key_renames_the_tensor_for_rllib() -> None:
    game = raw_env(observation_key="observations")
    game.reset(seed=2)
    seen = game.observe(game.agent_selection)
    assert set(seen) == {"observations", "action_mask"}
    assert game.observation_space(game.agent_selection).contains(seen)


# ------------------------------------------------------------ issue 29: parallel_env, state(), illegal ids


def test_the_parallel_env_passes_pettingzoos_parallel_tests():
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    from hakka_rl.pettingzoo_env import parallel_env

    parallel_api_test(parallel_env(), num_cycles=300)
    parallel_seed_test(lambda: parallel_env(illegal_reward=-1))  # its random ids are mostly illegal


def test_the_global_state_passes_state_test_and_sees_every_hand():
    from pettingzoo.test.state_test import state_test

    from hakka_rl.encoding import OBSERVATION_SIZE
    from hakka_rl.layout import OBSERVATION
    from hakka_rl.pettingzoo_env import parallel_env

    state_test(env(illegal_reward=-1), parallel_env(illegal_reward=-1), num_cycles=50)
    game = env()
    game.reset(seed=9)
    state = game.state()
    assert game.state_space.contains(state)
    hand = OBSERVATION["hand"]
    for seat in range(4):
        cards = state[seat * OBSERVATION_SIZE + hand.offset: seat * OBSERVATION_SIZE + hand.end]
        assert int(cards.sum()) == game.encoded.hand.dealt[seat].bit_count()  # every seat's hidden hand
    assert int(sum(state[s * OBSERVATION_SIZE + hand.offset: s * OBSERVATION_SIZE + hand.end].sum()
                   for s in range(4))) == 37


def test_the_illegal_action_policy_is_off_by_default_and_ends_the_episode_when_on():
    game = env()
    game.reset(seed=2, options={"dealer": 0})
    with pytest.raises(EncodingError, match="not legal"):
        game.step(6)
    game = env(illegal_reward=-1)
    game.reset(seed=2, options={"dealer": 0})
    game.step(6)  # play Sup1 in the Calling: illegal
    assert game.terminations == dict.fromkeys(game.possible_agents, True)
    assert game._cumulative_rewards == {"seat_0": -1, "seat_1": 0, "seat_2": 0, "seat_3": 0}
    assert "not legal" in game.infos["seat_0"]["illegal_action"]
    with pytest.raises(ValueError, match="illegal_reward"):
        env(illegal_reward="lose")
