"""The PettingZoo environment under RLlib: local Ray, two env runners, one rollout, no training (issue 18 §5).

    pip install -e '.[rl,rllib]'
    python -m hakka_rl.rllib_demo            # local Ray, 2 env runners
    python -m hakka_rl.rllib_demo --address auto --env-runners 8   # a running Ray cluster

RLlib's multi-agent wrapper of an AEC game (``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``)
takes :func:`hakka_rl.pettingzoo_env.raw_env`; the four seats share one policy, RLlib's own
action-masking PPO module (``ActionMaskingTorchRLModule`` of RLlib's examples: it reads the
observation's ``"action_mask"`` and its tensor under ``"observations"``), untrained, so every
sampled id is legal. Each env runner samples episodes; the script prints what came back.

On a cluster the same :func:`config` runs unchanged: start Ray on the head (``ray start --head``) and
the workers (``ray start --address HEAD:6379``), each with this package and the ``[rl,rllib]`` extras
installed, then run the script there with ``--address auto`` and as many ``--env-runners`` as the
cluster has CPUs to spare: Ray places the env runners on the workers.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

ENV_NAME = "hakka_cards"
POLICY = "shared"


def make_env(env_config: dict[str, Any]) -> Any:
    """RLlib's env creator: the AEC env in RLlib's multi-agent wrapper."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from .pettingzoo_env import raw_env

    return PettingZooEnv(raw_env(observation_key="observations"))


def config(env_runners: int = 2, fragment: int = 200) -> Any:
    """The PPO configuration: the env, ``env_runners`` remote env runners, one shared masked policy."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    return (
        PPOConfig()
        # RLlib's env checker steps the env with unmasked random ids, which a masked game refuses
        .environment(ENV_NAME, disable_env_checking=True)
        .env_runners(num_env_runners=env_runners, rollout_fragment_length=fragment, num_envs_per_env_runner=1)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                 model_config={"head_fcnet_hiddens": [64, 64]}),
        }))
    )


def rollout(env_runners: int = 2, timesteps: int = 400, address: str | None = None) -> dict[str, Any]:
    """Start (or join) Ray, build the algorithm, sample ``timesteps`` env steps on each env runner."""
    import ray

    start = time.perf_counter()
    ray.init(address=address, num_cpus=None if address else env_runners, include_dashboard=False,
             log_to_driver=False, ignore_reinit_error=True)
    try:
        algo = config(env_runners).build_algo()
        try:
            sampled = algo.env_runner_group.foreach_env_runner(
                lambda runner: runner.sample(num_timesteps=timesteps), local_env_runner=False)
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    episodes = [episode for batch in sampled for episode in batch]
    done = [e for e in episodes if e.is_done]
    paid: dict[str, float] = {}
    for episode in done:
        for agent, single in episode.agent_episodes.items():
            paid[agent] = paid.get(agent, 0.0) + single.get_return()
    return {
        "env runners": len(sampled),
        "episodes (pieces)": len(episodes),
        "episodes finished": len(done),
        "env steps": sum(e.env_steps() for e in episodes),
        "agent steps": sum(e.agent_steps() for e in episodes),
        "returns by agent (finished episodes)": dict(sorted(paid.items())),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--timesteps", type=int, default=400, help="env steps each env runner samples")
    parser.add_argument("--address", default=None, help="a Ray cluster's address ('auto': the one running here)")
    args = parser.parse_args(argv)
    for key, value in rollout(args.env_runners, args.timesteps, args.address).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
