"""The environment under RLlib's multi-agent PettingZoo wrapper: local Ray, two env runners, a rollout
(issue 18 §5). Needs the ``[rllib]`` extra (ray, torch); skipped without it."""

from __future__ import annotations

import pytest

pytest.importorskip("ray", reason="RLlib is the [rllib] extra: pip install -e '.[rl,rllib]'")
pytest.importorskip("torch", reason="RLlib's masked module needs torch: pip install -e '.[rl,rllib]'")

from hakka_rl.rllib_demo import rollout


def test_two_env_runners_sample_whole_hands() -> None:
    figures = rollout(env_runners=2, timesteps=300)
    assert figures["env runners"] == 2
    assert figures["env steps"] == 600  # each runner sampled its 300 steps, every id legal (none refused)
    assert figures["episodes finished"] >= 2
