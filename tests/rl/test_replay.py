"""Recorded PettingZoo episodes, replayed through the conformance runner's reference engine, score the
same (issue 18 §4, "the environments cannot drift from the rules").

Each episode becomes a trajectory scenario (spec/SCENARIOS.md): its deal, the engine actions its ids
stand for (hakka_rl.actions.engine_actions: a run of picks is one discard), and as the expected final
result the rewards the environment paid. The harness's Suite runs it on the ``reference`` Engine through
the protocol, as it runs any engine: a pass means the rules, not the environment, gave those scores.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
import yaml

from conformance.suite import Suite
from hakka_rl.actions import engine_actions
from hakka_rl.pettingzoo_env import AGENTS, raw_env


def record_episode(seed: int, rng: random.Random) -> tuple[dict[str, Any], list[tuple[int, int]], list[float]]:
    """One episode with random legal ids: (the deal, every (seat, id) step, each seat's total reward)."""
    game = raw_env()
    game.reset(seed=seed)
    assert game.deal is not None
    dealer, deal = game.deal
    totals = dict.fromkeys(AGENTS, 0.0)
    steps: list[tuple[int, int]] = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _info = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        steps.append((AGENTS.index(agent), action))
        game.step(action)
    return {"dealer": dealer, **deal}, steps, [totals[a] for a in AGENTS]


def scenario(number: int, setup: dict[str, Any], steps: list[tuple[int, int]], deltas: list[float]) -> dict[str, Any]:
    return {
        "id": f"rl-replay-{number:03d}",
        "title": "A recorded PettingZoo episode scores what the environment paid",
        "clauses": ["SCORE-1"],
        "requires": "defaults",
        "trajectory": {
            "setup": setup,
            "steps": [{"seat": seat, "do": str(action)} for seat, action in engine_actions(steps)],
            "final": {"result": {"deltas": [int(d) for d in deltas]}},
        },
    }


def _run(tmp_path: Path, scenarios: list[dict[str, Any]]) -> list[Any]:
    path = tmp_path / "episodes.yaml"
    path.write_text(yaml.safe_dump({"scenarios": scenarios}, sort_keys=False), encoding="utf-8")
    suite = Suite.load(scenario_paths=[path])
    return suite.run("reference")


def test_recorded_episodes_replay_to_the_same_scores(tmp_path: Path) -> None:
    rng = random.Random(18)
    recorded = [record_episode(seed, rng) for seed in range(30)]
    assert any(any(deltas) for _setup, _steps, deltas in recorded)  # some episodes pay
    assert any(len(steps) > len(engine_actions(steps)) for _setup, steps, _d in recorded)  # and pick discards
    results = _run(tmp_path, [scenario(i, *episode) for i, episode in enumerate(recorded)])
    assert len(results) == 30
    assert all(r.status == "pass" for r in results), [(r.id, r.status, r.reason, r.diff) for r in results
                                                       if r.status != "pass"]


def test_a_wrong_score_fails_the_replay(tmp_path: Path) -> None:
    """The replay can fail: the same episode with one reward changed is a failed scenario."""
    rng = random.Random(4)
    for seed in range(40):
        setup, steps, deltas = record_episode(seed, rng)
        if any(deltas):
            break
    wrong = [deltas[0] + 1, *deltas[1:]]
    (result,) = _run(tmp_path, [scenario(0, setup, steps, wrong)])
    assert result.status == "fail" and result.key == "result", result
