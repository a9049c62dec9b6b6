"""The learning baseline (issue 29 §1): a short training learns, and the saved policy loads and plays."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from benchmarks.train_baseline import Config, Evaluator, loss_and_grads, self_play, train
from hakka_play.bots import BOTS, RandomBot, RuleBot
from hakka_play.table import Table
from hakka_rl import OBSERVATION_SIZE, EncodedHand
from hakka_rl.actions import encode_action
from hakka_rl.pettingzoo_env import env
from hakka_rl.policy import BASELINE_FILE, MaskedPolicy, PolicyBot, play_ids
from reference_engine import DEFAULT_PROFILE, Hand
from reference_engine.wire import observation_json


def test_a_short_training_lowers_the_loss_and_its_policy_saves_and_loads(tmp_path):
    """60 batches of 32 hands (seconds of CPU): the value head's squared error, the part of the loss whose
    target (the hands' deltas) does not move with the policy's own scale, falls by a quarter at least
    (seeds 3, 4, 5 gave 0.57, 0.29, 0.54 of its first ten batches' mean)."""
    policy, _, history = train(Config(batch=32, seed=3), 600.0, eval_every=1e9, evaluator=None, max_batches=60)
    first = np.mean([h["value"] for h in history[:10]])
    last = np.mean([h["value"] for h in history[-10:]])
    assert last < 0.75 * first, (first, last)
    policy.meta = {"seed": 3}
    path = tmp_path / "p.npz"
    policy.save(path)
    loaded = MaskedPolicy.load(path)
    hand = EncodedHand(Hand.from_seed(1, 11))
    obs, mask = hand.observation_tensor(1), hand.legal_mask()
    assert loaded.meta == {"seed": 3}
    assert np.array_equal(loaded.probabilities(obs, mask), policy.probabilities(obs, mask))


def test_the_gradient_is_the_losss_own():
    """The hand-written backward pass against central differences of the loss, on a small batch: the policy
    and entropy terms through the logits' weights, the value term through the value head's (the advantage is
    a fixed weight of the policy term, as in every actor-critic, so the value head gets the value term only)."""
    cfg = Config(hidden=8, seed=2)
    rng = np.random.default_rng(2)
    policy = MaskedPolicy.initial(8, rng)
    policy.params["w2"] = rng.normal(0, 0.3, policy.params["w2"].shape).astype(np.float32)
    policy.params["wv"] = rng.normal(0, 0.3, policy.params["wv"].shape).astype(np.float32)
    batch = self_play(policy, 2, rng, random.Random(2))
    policy.params = {k: v.astype(np.float64) for k, v in policy.params.items()}
    batch.obs = batch.obs.astype(np.float64)

    def part(name: str) -> float:
        losses, _ = loss_and_grads(policy, batch, cfg)
        if name in ("wv", "bv"):
            return cfg.value_coef * losses["value"]
        return losses["policy"] - cfg.entropy * losses["entropy"]

    _, grads = loss_and_grads(policy, batch, cfg)
    chosen = int(batch.action[0])
    for name, index in [("w2", (3, chosen)), ("b2", (chosen,)), ("wv", (5, 0)), ("bv", (0,))]:
        p = policy.params[name]
        old = p[index]
        p[index] = old + 1e-6
        up = part(name)
        p[index] = old - 1e-6
        down = part(name)
        p[index] = old
        assert grads[name][index] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-7), name


def test_the_saved_policy_loads_with_its_command_seed_and_versions():
    policy = MaskedPolicy.load()
    assert BASELINE_FILE.stat().st_size < 1_000_000
    assert policy.meta["command"].startswith("python benchmarks/train_baseline.py")
    assert isinstance(policy.meta["seed"], int) and {"python", "numpy"} <= set(policy.meta["versions"])
    assert policy.params["w1"].shape == (OBSERVATION_SIZE, policy.hidden)


def test_a_file_that_is_no_policy_is_refused_by_name(tmp_path):
    path = tmp_path / "x.npz"
    np.savez(path, w1=np.zeros(3))
    with pytest.raises(ValueError, match=r"x\.npz: not a saved policy \(no b1"):
        MaskedPolicy.load(path)
    with pytest.raises(ValueError, match="cannot read a saved policy"):
        MaskedPolicy.load(tmp_path / "missing.npz")


def test_the_saved_policy_plays_the_pettingzoo_env():
    policy = MaskedPolicy.load()
    game = env()
    for seed in range(5):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            obs, _, done, truncated, _ = game.last()
            game.step(None if done or truncated else policy.act(obs["observation"], obs["action_mask"]))
        assert sum(game.rewards.values()) == 0  # SCORE-7


def test_the_saved_policy_beats_the_random_bot():
    """The sign of the benchmark's figure, on 300 paired deals it never saw (the benchmark's are 0-999):
    the whole interval above 0."""
    margin, half = Evaluator({"random": RandomBot()}, 300, start=5000).margins(MaskedPolicy.load())["random"]
    assert margin - half > 0, (margin, half)


def test_the_table_offers_the_trained_policy():
    assert "policy" in BOTS
    table = Table(humans=[], seed=5, bot="policy")
    bots = [s.bot for s in table.seats if s.bot is not None]
    assert bots and all(isinstance(b, PolicyBot) for b in bots)
    # 50 legal actions by the policy at every seat. Not the whole game: the policy never calls, so every hand
    # is void (CALL-6) and does not count, and the table's 64 deals would run out (GAME-1) before four count.
    assert table.play_bots(limit=50) == 50


def test_the_table_bot_plays_the_policys_choice_from_the_view_alone():
    """At every decision of these hands the bot, given the wire view only, chooses what the policy chooses on
    the real hand (a discard: all its picks): the hidden cards it draws anew change no tensor of the seat."""
    policy = MaskedPolicy.load()
    bot = PolicyBot(DEFAULT_PROFILE, RuleBot(), policy)
    decisions = 0
    for seed in range(8):
        hand = EncodedHand(Hand.from_seed(seed % 4, seed))
        while (seat := hand.to_act) is not None:
            seen = hand.hand.observation(seat)
            view = observation_json(seen)
            view["round"] = [str(p) for p in seen.round]
            chosen = bot.choose(view, hand.hand.legal_actions(), random.Random(seed))
            legal = hand.hand.legal_actions()
            if len(legal.actions) > 1 or legal.discard is not None:
                assert chosen == play_ids(policy, hand.copy(), seat)
                decisions += 1
            for action_id in encode_action(chosen):
                hand.apply_id(action_id)
    assert decisions >= 10
