"""Differential fuzzing speed: hands/s with the candidate in-process and as a subprocess.

The candidate is the reference engine itself, so every hand is played to its
end (no disagreement stops the run): in-process through the runner's
``python:`` adapter, and as a subprocess (``python -m reference_engine``)
through the line-delimited JSON protocol. Each is measured with the fuzzer as
it runs (Hypothesis drawing the choices) and with plain ``random`` choices
(the lockstep alone), with and without comparing the four observations at
every step. Each figure is the fastest of ``--repeat`` runs (the machine may be busy).

    python benchmarks/fuzz_speed.py --hands 200
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.adapters import SubprocessAdapter
from conformance.fuzz.driver import Lockstep, RandomChooser
from conformance.fuzz.endpoints import Reference, open_candidate
from conformance.fuzz.search import search

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES: dict[str, Callable[[], Any]] = {
    "in-process": lambda: "python:reference_engine.wire:Session",
    "subprocess": lambda: SubprocessAdapter([sys.executable, "-m", "reference_engine"], 30.0, cwd=str(ROOT)),
}


def measure(engine: Any, hands: int, seed: int, observe: bool, chooser: str) -> tuple[float, int, int]:
    """Seconds, actions and candidate requests for ``hands`` differential hands."""
    candidate = open_candidate(engine, timeout=30.0)
    try:
        _ = candidate.info  # start the engine before the clock
        lock = Lockstep(Reference(), candidate, observe=observe)
        start = time.perf_counter()
        if chooser == "hypothesis":
            result = search(lock, hands=hands, seed_value=seed, shrink=False)
            actions = result.actions
            assert result.disagreement is None and result.failure_count == 0
        else:
            rng = random.Random(seed)
            actions = 0
            for _ in range(hands):
                outcome = lock.play(RandomChooser(rng))
                assert outcome.clean, outcome
                actions += outcome.actions
        return time.perf_counter() - start, actions, lock.requests
    finally:
        candidate.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure; the fastest is shown (default 3)")
    args = parser.parse_args(argv)
    print(f"{'candidate':12} {'choices':11} {'observe':8} {'hands/s':>9} {'actions/s':>10} {'requests/s':>11}")
    for name, engine in CANDIDATES.items():
        for chooser in ("hypothesis", "random"):
            for observe in (True, False):
                seconds, actions, requests = min(
                    measure(engine(), args.hands, args.seed, observe, chooser) for _ in range(max(1, args.repeat)))
                print(f"{name:12} {chooser:11} {'yes' if observe else 'no':8} {args.hands / seconds:9,.1f} "
                      f"{actions / seconds:10,.0f} {requests / seconds:11,.0f}", flush=True)


if __name__ == "__main__":
    main()
