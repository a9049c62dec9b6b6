"""The learning environments' steps/s beside the engine's actions/s and their peers', in one run (issues 18, 29).

Every line plays the same number of random hands, uniformly over what is legal,
on one core, timed in CPU seconds (the machine is shared: wall time would
measure the neighbours). Each repeat (``--repeat``) plays new hands, the seed
plus the repeat's number, and each line keeps its best repeat: a learner never
meets a hand twice, so a cache warmed by an earlier repeat must not count. The engine line is benchmarks/random_hands.py's loop
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

**Floors and ceilings.** An interface's API costs something by itself, whatever the game behind
it: PettingZoo's AEC loop (``last``, ``step``, the reward and termination dicts, the dead steps
at the end), pyspiel's Python-game calls (each C++ method called from Python calls back into the
game's Python methods through pybind11). A *floor* line runs the same loop, the same hands, over a
no-op environment of exactly the real one's shape (benchmarks/rl_floors.py: recorded from the real
environment for the same seeds, it replays each step's seat and number of legal ids and each
chance node's number of outcomes, and copies preallocated observations and masks out the way the
real environment does). A real environment does at least the engine's work plus its API's, so no
implementation of that shape on that API can beat ``steps / (engine CPU + floor CPU)``; over the
engine's actions/s that is the line's **ceiling**, printed beside its ``x engine``. OpenSpiel's
floors come twice: with the Python-level methods hakka_rl.openspiel_game defines (what its own
ceiling is measured against) and with pyspiel's C++ methods only (a game without them).

**Peers.** The yardstick is the environments a researcher would otherwise pick (issue 29): PettingZoo's own
classic card games (``peer-pettingzoo-*`` lines: leduc hold'em, texas hold'em, no-limit hold'em; and gin rummy,
mahjong and dou dizhu, classic games of earlier PettingZoo releases, made on the ``RLCardBase`` PettingZoo still
ships; they need ``pip install rlcard pygame``, from PettingZoo's ``classic`` extra; hanabi, a cooperative game
whose C++ library is not installed here, is not among them) through the same learner's loop, and OpenSpiel's
card games with an observation tensor (C++: leduc poker, gin rummy, bridge, skat, dou dizhu; Python: kuhn
poker) through the OpenSpiel loop. An episode is
one of theirs (a hand, a deal), played at random like ours. The last rows say how many times faster than each
peer the PettingZoo ``env()`` steps, and the OpenSpiel game (``make_observation``) beside OpenSpiel's. The
PettingZoo env must stay ahead of every PettingZoo card game. Lines whose library is not installed are left out
(said at the end). A run on 2026-12-04 (``--hands 300 --repeat 2``, 2 cores shared; the whole table is in
docs/rl.rst) ended::

    PettingZoo env() over each peer: leduc_holdem_v4 5.25x, texas_holdem_v4 4.95x, texas_holdem_no_limit_v6 9.91x,
      RLCardBase('gin-rummy') 7.18x, RLCardBase('mahjong') 12.98x, RLCardBase('doudizhu') 18.73x
    OpenSpiel make_observation over each peer: leduc_poker 0.09x, gin_rummy 0.94x,
      bridge(use_double_dummy_result=false) 0.12x, skat 0.13x, dou_dizhu 0.13x, python_kuhn_poker 0.48x

Another interface adds its line with :func:`register` (the OpenSpiel game's
benchmark adds ``openspiel``: ``register("openspiel", my_function)``, a function
of ``(hands, seed)`` that returns a :class:`Line`; ``floor="name"`` names its
floor's line), or by naming a module with ``--with MODULE``, whose import
registers it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    floor: bool = False
    """A floor's line (benchmarks/rl_floors.py): its ceiling is its own."""

    @property
    def per_second(self) -> float:
        return self.steps / self.cpu


Measure = Callable[[int, int], Line]
LINES: dict[str, Measure] = {}
FLOORS: dict[str, str] = {}
"""A line's name -> the name of its floor's line (the ceiling column compares them; a floor's floor, the same
shape on a slower API, is printed below it)."""


def register(name: str, measure: Measure, *, floor: str | None = None) -> None:
    """Add a line to the table (a later name replaces an earlier one); ``floor``: the line of its floor."""
    LINES[name] = measure
    if floor is not None:
        FLOORS[name] = floor
    else:
        FLOORS.pop(name, None)


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


def _pettingzoo_loop(game: Any, hands: int, seed: int) -> tuple[int, float]:
    """A learner's loop over a PettingZoo AEC env: observe, pick a legal id from the mask, step; (steps, CPU s)."""
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
    return steps, time.process_time() - start


def _pettingzoo(hands: int, seed: int, wrapped: bool) -> Line:
    from hakka_rl.pettingzoo_env import env, raw_env

    steps, cpu = _pettingzoo_loop(env(checked=True) if wrapped else raw_env(), hands, seed)
    name = "PettingZoo env(checked=True) (wrapped)" if wrapped else "PettingZoo env() (AEC)"
    return Line(name, steps, -1, cpu)


def pettingzoo_line(hands: int, seed: int) -> Line:
    return _pettingzoo(hands, seed, wrapped=True)


def pettingzoo_raw_line(hands: int, seed: int) -> Line:
    return _pettingzoo(hands, seed, wrapped=False)


def _openspiel_loop(games: list[Any], observers: list[Any], hands: int, seed: int, as_list: bool,
                    ) -> tuple[int, float]:
    """A learner's loop over pyspiel states of ``games[i % 4]``: the chance nodes, then observe, pick, step."""
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
    return steps, time.process_time() - start


def _openspiel_games() -> list[Any]:
    import pyspiel

    import hakka_rl.openspiel_game  # noqa: F401  (registers python_hakka_cards)

    return [pyspiel.load_game("python_hakka_cards", {"dealer": dealer}) for dealer in range(4)]


def _openspiel(hands: int, seed: int, as_list: bool) -> Line:
    """hakka_rl.openspiel_game through pyspiel: the 37 chance nodes of the deal, then observe, pick, step.
    ``as_list``: observe by ``state.observation_tensor()`` (a Python list of 408 floats), else by OpenSpiel's
    Python observation API (``make_observation``: the observer's numpy tensor, filled in place)."""
    from open_spiel.python.observation import make_observation

    games = _openspiel_games()
    steps, cpu = _openspiel_loop(games, [make_observation(game) for game in games], hands, seed, as_list)
    return Line("OpenSpiel " + ("observation_tensor()" if as_list else "make_observation"), steps, -1, cpu)


def openspiel_line(hands: int, seed: int) -> Line:
    return _openspiel(hands, seed, as_list=False)


def openspiel_list_line(hands: int, seed: int) -> Line:
    return _openspiel(hands, seed, as_list=True)


# ------------------------------------------------------------ the floors (benchmarks/rl_floors.py)

_SHAPES: dict[tuple[str, int, int], list[Any]] = {}


def _recorded(interface: str, hands: int, seed: int) -> list[Any]:
    """The shapes of the episodes the real ``interface`` plays in its line for ``hands`` and ``seed`` (recorded
    once, untimed, by the same loop with the same random picks)."""
    key = (interface, hands, seed)
    if key not in _SHAPES:
        _SHAPES[key] = _record_pettingzoo(hands, seed) if interface == "pettingzoo" else _record_openspiel(hands, seed)
    return _SHAPES[key]


def _record_pettingzoo(hands: int, seed: int) -> list[Any]:
    from benchmarks.rl_floors import Shape
    from hakka_rl.pettingzoo_env import AGENTS, raw_env

    game, rng, shapes = raw_env(), random.Random(seed), []
    game.reset(seed=seed)
    for _ in range(hands):
        nodes: list[tuple[int, int]] = []
        returns: dict[str, float] = {}
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                returns.setdefault(agent, float(reward))  # the first agent then is the one selected at the end
                game.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0].tolist()
            nodes.append((AGENTS.index(agent), len(legal)))
            game.step(legal[rng.randrange(len(legal))])
        shapes.append(Shape(tuple(nodes), tuple(returns[a] for a in AGENTS), AGENTS.index(next(iter(returns)))))
        game.reset()
    return shapes


def _record_openspiel(hands: int, seed: int) -> list[Any]:
    from benchmarks.rl_floors import Shape

    games, rng, shapes = _openspiel_games(), random.Random(seed), []
    for i in range(hands):
        state = games[i % 4].new_initial_state()
        nodes: list[tuple[int, int]] = []
        while not state.is_terminal():
            choices = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            nodes.append((state.current_player(), len(choices)))
            state.apply_action(choices[rng.randrange(len(choices))])
        shapes.append(Shape(tuple(nodes), tuple(state.returns())))
    return shapes


def _pettingzoo_floor(hands: int, seed: int, wrapped: bool) -> Line:
    from pettingzoo.utils import wrappers

    from benchmarks.rl_floors import FloorEnv

    game = FloorEnv(_recorded("pettingzoo", hands, seed))
    if wrapped:
        game = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(game))
    steps, cpu = _pettingzoo_loop(game, hands, seed)
    return Line("  floor: PettingZoo AEC API" + (", wrapped" if wrapped else ""), steps, -1, cpu, floor=True)


def _openspiel_floor(hands: int, seed: int, as_list: bool, overrides: bool) -> Line:
    import pyspiel
    from open_spiel.python.observation import make_observation

    from benchmarks.rl_floors import FLOOR_NAME

    game = pyspiel.load_game(FLOOR_NAME, {"overrides": overrides})
    observer = make_observation(game)
    game.replay(_recorded("openspiel", hands, seed))
    steps, cpu = _openspiel_loop([game] * 4, [observer] * 4, hands, seed, as_list)
    api = "Python-level methods" if overrides else "pyspiel's C++ methods"
    return Line(f"  floor: pyspiel {'observation_tensor()' if as_list else 'make_observation'}, {api}", steps, -1,
                cpu, floor=True)


# ------------------------------------------------------------ the peers: other card games on the same APIs

PETTINGZOO_PEERS: dict[str, str] = {
    "leduc": "leduc_holdem_v4", "texas": "texas_holdem_v4", "no-limit": "texas_holdem_no_limit_v6",
}
"""PettingZoo's classic card games (pettingzoo.classic, 1.27: rlcard plays them), by line name."""
RLCARD_PEERS: dict[str, tuple[str, int, tuple[int, ...]]] = {
    "gin-rummy": ("gin-rummy", 2, (5, 52)), "mahjong": ("mahjong", 4, (6, 34, 4)), "dou-dizhu": ("doudizhu", 3, (901,)),
}
"""The card games earlier PettingZoo releases had as classic games (gin_rummy, mahjong, dou_dizhu), made as they
were: PettingZoo's own ``RLCardBase`` over rlcard's game, which 1.27 still ships (the name, players, observation
shape). Their own subclasses added rendering and reward scaling, which a learner's loop does not call."""
OPENSPIEL_PEERS: dict[str, str] = {
    "leduc": "leduc_poker", "gin-rummy": "gin_rummy", "bridge": "bridge(use_double_dummy_result=false)",
    "skat": "skat", "dou-dizhu": "dou_dizhu", "python-kuhn": "python_kuhn_poker",
}
"""OpenSpiel's card games with an observation tensor (C++; python_kuhn_poker a Python game, as this one is)."""


def _pettingzoo_peer(module: str) -> Measure:
    def measure(hands: int, seed: int) -> Line:
        with warnings.catch_warnings():  # Gymnasium's notes on rlcard's float64 bounds, at every construction
            warnings.simplefilter("ignore")
            game = importlib.import_module(f"pettingzoo.classic.{module}").env()
        steps, cpu = _pettingzoo_loop(game, hands, seed)
        return Line(f"  peer: PettingZoo {module}", steps, -1, cpu)
    return measure


def _rlcard_peer(name: str, players: int, shape: tuple[int, ...]) -> Measure:
    def measure(hands: int, seed: int) -> Line:
        from pettingzoo.classic.rlcard_envs.rlcard_base import RLCardBase

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            game = RLCardBase(name, players, shape)
        game.render_mode = None  # set by each classic game's own subclass; step() reads it
        steps, cpu = _pettingzoo_loop(game, hands, seed)
        return Line(f"  peer: PettingZoo RLCardBase({name!r})", steps, -1, cpu)
    return measure


def _openspiel_peer(name: str) -> Measure:
    def measure(hands: int, seed: int) -> Line:
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)
        import pyspiel
        from open_spiel.python.observation import make_observation

        game = pyspiel.load_game(name)
        steps, cpu = _openspiel_loop([game] * 4, [make_observation(game)] * 4, hands, seed, False)
        return Line(f"  peer: OpenSpiel {name}", steps, -1, cpu)
    return measure


def _installed(module: str) -> bool:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame greets on import otherwise
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def peer_ratios(best: dict[str, Line]) -> list[str]:
    """How many times faster than each peer our interface steps (steps/s over steps/s, measured in this run)."""
    rows = []
    for ours, prefix, label in (("pettingzoo", "  peer: PettingZoo ", "PettingZoo env()"),
                                ("openspiel", "  peer: OpenSpiel ", "OpenSpiel make_observation")):
        mine = best.get(ours)
        peers = [line for line in best.values() if line.name.startswith(prefix)]
        if mine is not None and peers:
            rows.append(f"{label} over each peer: " + ", ".join(
                f"{line.name[len(prefix):]} {mine.per_second / line.per_second:.2f}x" for line in peers))
    return rows


register("engine", engine_line)
register("encoding", encoded_line)
register("pettingzoo", pettingzoo_raw_line, floor="pettingzoo-floor")
register("pettingzoo-checked", pettingzoo_line, floor="pettingzoo-checked-floor")
register("openspiel", openspiel_line, floor="openspiel-floor")
register("openspiel-list", openspiel_list_line, floor="openspiel-list-floor")
register("pettingzoo-floor", lambda hands, seed: _pettingzoo_floor(hands, seed, False))
register("pettingzoo-checked-floor", lambda hands, seed: _pettingzoo_floor(hands, seed, True))
register("openspiel-floor", lambda hands, seed: _openspiel_floor(hands, seed, False, True), floor="openspiel-floor-cpp")
register("openspiel-list-floor", lambda hands, seed: _openspiel_floor(hands, seed, True, True),
         floor="openspiel-list-floor-cpp")
register("openspiel-floor-cpp", lambda hands, seed: _openspiel_floor(hands, seed, False, False))
register("openspiel-list-floor-cpp", lambda hands, seed: _openspiel_floor(hands, seed, True, False))
MISSING: list[str] = []
"""Peer lines left out because their library is not installed."""
_RLCARD = _installed("rlcard") and _installed("pygame")
for _name, _module in PETTINGZOO_PEERS.items():
    if _RLCARD:
        register(f"peer-pettingzoo-{_name}", _pettingzoo_peer(_module))
    else:
        MISSING.append(f"peer-pettingzoo-{_name} (pip install rlcard pygame)")
for _name, (_game, _players, _shape) in RLCARD_PEERS.items():
    if _RLCARD:
        register(f"peer-pettingzoo-{_name}", _rlcard_peer(_game, _players, _shape))
    else:
        MISSING.append(f"peer-pettingzoo-{_name} (pip install rlcard pygame)")
for _name, _game in OPENSPIEL_PEERS.items():
    register(f"peer-openspiel-{_name}", _openspiel_peer(_game))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000,
                        help="hands each line plays in a repeat (default 2000)")
    parser.add_argument("--seed", type=int, default=1,
                        help="the seed of the first repeat's hands: the Dealers, the deals and the random ids (default 1)")
    parser.add_argument("--with", dest="modules", action="append", default=[], metavar="MODULE",
                        help="import MODULE first (it registers its own line)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="run only these lines")
    parser.add_argument("--repeat", type=int, default=3,
                        help="run the lines in turn this many times, keep each line's best (the machine is shared); "
                             "repeat r plays the hands of seed + r, so no line meets a hand twice (as in training: "
                             "a cache warmed by an earlier repeat would flatter it)")
    args = parser.parse_args(argv)
    for module in args.modules:
        importlib.import_module(module)
    names = args.only or list(LINES)
    unknown = [n for n in names if n not in LINES]
    if unknown:
        parser.error(f"no line named {', '.join(unknown)}; lines: {', '.join(LINES)}")
    best: dict[str, Line] = {}
    for repeat in range(max(1, args.repeat)):
        for name in names:
            line = LINES[name](args.hands, args.seed + repeat)
            if name not in best or line.per_second > best[name].per_second:
                best[name] = line
    print(table(best, args.hands, max(1, args.repeat)))
    for row in peer_ratios(best):
        print(row)
    if MISSING and not args.only:
        print("left out, their library not installed: " + ", ".join(MISSING))


def table(best: dict[str, Line], hands: int, repeat: int) -> str:
    """The lines measured (by name), each real line followed by its floor, with their ceilings."""
    order: list[str] = []
    for name in best:
        while name in best and name not in order:  # a line, then its floor, then the floor's own floor ...
            order.append(name)
            name = FLOORS.get(name, "")
    engine = next((line for line in best.values() if line.name.startswith("engine")), None)
    rows = [f"{hands} random hands per line, CPU seconds, one core, best of {repeat}",
            f"{'line':60} {'steps':>7} {'engine actions':>14} {'cpu s':>6} {'steps/s':>8} {'x engine':>8} "
            f"{'ceiling':>7}"]
    for name in order:
        line = best[name]
        ratio = f"{line.per_second / engine.per_second:.2f}" if engine else "-"
        floor = line if line.floor else best.get(FLOORS.get(name, ""))
        ceiling = "-"
        if engine is not None and floor is not None:
            # the floor's time scaled to the line's steps: each line keeps its best repeat, whose hands may differ
            ceiling = f"{line.steps / (engine.cpu + floor.cpu * line.steps / floor.steps) / engine.per_second:.2f}"
        actions = str(line.actions) if line.actions >= 0 else "-"
        rows.append(f"{line.name:60} {line.steps:7} {actions:>14} {line.cpu:6.2f} {line.per_second:8,.0f} "
                    f"{ratio:>8} {ceiling:>7}")
    rows.append("steps: the engine's actions (random legal play, a discard one action); an environment's steps "
                "(a discard one step a card picked); OpenSpiel's 37 chance steps a deal timed, not counted")
    rows.append("floor: the same loop over a no-op environment of the line's exact shape on the same API; ceiling: "
                "steps / (engine cpu + floor cpu), over the engine's actions/s: the most x engine can be on that API")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
