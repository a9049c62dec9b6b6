"""The engine's own actions/s beside the learning environments' steps/s, in one run (issue 18 targets).

Every line plays the same number of random hands, uniformly over what is legal,
on one core, timed in CPU seconds (the machine is shared: wall time would
measure the neighbours). The engine line is benchmarks/random_hands.py's loop
(a uniform pick among the compact legal actions, then a discard's cards); an
environment's line is a loop a learner runs: observe, pick a legal id from the
mask, step. A discard is one engine action but k environment steps (one pick
each), so each line also says how many engine actions it made. The OpenSpiel
lines count only the players' steps: the 37 chance nodes of each deal are
timed but not counted (the engine line's deal, ``Hand.from_seed``, is not an
action either). A learner reads the legal ids from the mask with
``mask.nonzero()[0]`` (the same ids as ``np.flatnonzero``, without its copy
of the array to a flat one).

    python benchmarks/rl_steps.py --hands 2000

Another interface adds its line with :func:`register` (the OpenSpiel game's
benchmark adds ``openspiel``: ``register("openspiel", my_function)``, a function
of ``(hands, seed)`` that returns a :class:`Line`), or by naming a module with
``--with MODULE``, whose import registers it.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.random_hands import play_random_hand
from reference_engine import Hand


@dataclass(frozen=True)
class Line:
    """One interface's figures: ``steps`` it counts as its own, ``actions`` the engine made, CPU seconds."""

    name: str
    steps: int
    actions: int
    cpu: float

    @property
    def per_second(self) -> float:
        return self.steps / self.cpu


Measure = Callable[[int, int], Line]
LINES: dict[str, Measure] = {}


def register(name: str, measure: Measure) -> None:
    """Add a line to the table (a later name replaces an earlier one)."""
    LINES[name] = measure


def _seeds(hands: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(hands)]


def engine_line(hands: int, seed: int) -> Line:
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for i, deal_seed in enumerate(_seeds(hands, seed)):
        actions += play_random_hand(Hand.from_seed(dealer=i % 4, seed=deal_seed), rng)
    cpu = time.process_time() - start
    return Line("engine (reference_engine.Hand)", actions, actions, cpu)


def encoded_line(hands: int, seed: int) -> Line:
    """hakka_rl.encoding alone: ids, mask and observation tensor, no environment API around them."""
    from hakka_rl.encoding import EncodedHand

    rng = random.Random(seed)
    steps = actions = 0
    start = time.process_time()
    for i, deal_seed in enumerate(_seeds(hands, seed)):
        hand = EncodedHand(Hand.from_seed(dealer=i % 4, seed=deal_seed))
        while True:
            seat = hand.to_act
            if seat is None:
                break
            hand.observation_tensor(seat)
            ids = hand.legal_ids()
            if hand.apply_id(ids[rng.randrange(len(ids))]):
                actions += 1
            steps += 1
    cpu = time.process_time() - start
    return Line("hakka_rl.encoding (EncodedHand)", steps, actions, cpu)


def _pettingzoo(hands: int, seed: int, wrapped: bool) -> Line:
    from hakka_rl.pettingzoo_env import env, raw_env

    game = env(checked=True) if wrapped else raw_env()
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    game.reset(seed=seed)
    played = 0
    while played < hands:
        for agent in game.agent_iter():
            observation, _reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0].tolist()
            game.step(legal[rng.randrange(len(legal))])
            steps += 1
            del agent
        played += 1
        game.reset()
    cpu = time.process_time() - start
    name = "PettingZoo env(checked=True) (wrapped)" if wrapped else "PettingZoo env() (AEC)"
    return Line(name, steps, -1, cpu)


def pettingzoo_line(hands: int, seed: int) -> Line:
    return _pettingzoo(hands, seed, wrapped=True)


def pettingzoo_raw_line(hands: int, seed: int) -> Line:
    return _pettingzoo(hands, seed, wrapped=False)


def _openspiel(hands: int, seed: int, as_list: bool) -> Line:
    """hakka_rl.openspiel_game through pyspiel: the 37 chance nodes of the deal, then observe, pick, step.
    ``as_list``: observe by ``state.observation_tensor()`` (a Python list of 408 floats), else by OpenSpiel's
    Python observation API (``make_observation``: the observer's numpy tensor, filled in place)."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import hakka_rl.openspiel_game  # noqa: F401  (registers python_hakka_cards)

    games = [pyspiel.load_game("python_hakka_cards", {"dealer": dealer}) for dealer in range(4)]
    observers = [make_observation(game) for game in games]
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for i in range(hands):
        state = games[i % 4].new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if as_list:
                state.observation_tensor(state.current_player())
            else:
                observers[i % 4].set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    cpu = time.process_time() - start
    return Line("OpenSpiel " + ("observation_tensor()" if as_list else "make_observation"), steps, -1, cpu)


def openspiel_line(hands: int, seed: int) -> Line:
    return _openspiel(hands, seed, as_list=False)


def openspiel_list_line(hands: int, seed: int) -> Line:
    return _openspiel(hands, seed, as_list=True)


register("engine", engine_line)
register("encoding", encoded_line)
register("pettingzoo", pettingzoo_raw_line)
register("pettingzoo-checked", pettingzoo_line)
register("openspiel", openspiel_line)
register("openspiel-list", openspiel_list_line)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with", dest="modules", action="append", default=[], metavar="MODULE",
                        help="import MODULE first (it registers its own line)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="run only these lines")
    parser.add_argument("--repeat", type=int, default=3,
                        help="run the lines in turn this many times, keep each line's best (the machine is shared)")
    args = parser.parse_args(argv)
    for module in args.modules:
        importlib.import_module(module)
    names = args.only or list(LINES)
    unknown = [n for n in names if n not in LINES]
    if unknown:
        parser.error(f"no line named {', '.join(unknown)}; lines: {', '.join(LINES)}")
    best: dict[str, Line] = {}
    for _ in range(max(1, args.repeat)):
        for name in names:
            line = LINES[name](args.hands, args.seed)
            if name not in best or line.cpu < best[name].cpu:
                best[name] = line
    lines = [best[name] for name in names]
    base = next((line.per_second for line in lines if line.name.startswith("engine")), None)
    print(f"{args.hands} random hands per line, CPU seconds, one core, best of {max(1, args.repeat)}")
    print(f"{'line':40} {'steps':>8} {'engine actions':>15} {'cpu s':>7} {'steps/s':>9} {'x engine':>9}")
    for line in lines:
        ratio = f"{line.per_second / base:.2f}" if base else "-"
        actions = str(line.actions) if line.actions >= 0 else "-"
        print(f"{line.name:40} {line.steps:8} {actions:>15} {line.cpu:7.2f} {line.per_second:9,.0f} {ratio:>9}")
    print("steps: the engine's actions (random legal play, a discard one action); an environment's steps "
          "(a discard one step a card picked); OpenSpiel's 37 chance steps a deal timed, not counted")


if __name__ == "__main__":
    main()
