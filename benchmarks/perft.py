"""Perft speed: positions visited per second by ``perft_counts``, pure and compiled side by side (issue 17).

The positions are the hands of seeds ``0..--positions-1`` (Dealer seat 0) right
after the Dealer calls, counted to ``--depth`` actions; every position at depth
below ``--depth`` is copied, asked for its legal actions and played into, which
is what search and the fuzzer's probes do. Both builds must find the same
counts. Measured in CPU time, in turns for ``--rounds`` rounds, best round of
each (``benchmarks/builds.py``); ``--builds here`` measures this engine only.

    python benchmarks/perft.py                       # depth 4, 5 positions, 3 rounds
    python benchmarks/perft.py --builds here --depth 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: a build on PYTHONPATH (benchmarks/builds.py) wins

import reference_engine
from reference_engine import Hand, perft_counts

ROOT = Path(__file__).resolve().parent.parent


def measure(depth: int, positions: int) -> dict[str, object]:
    """Count every position; the counts, the positions expanded and the CPU and wall seconds taken."""
    hands = []
    for seed in range(positions):
        hand = Hand.from_seed(dealer=0, seed=seed)
        hand.apply(0, "call")
        hands.append(hand)
    start, cpu_start = time.perf_counter(), time.process_time()
    counts = [perft_counts(hand, depth) for hand in hands]
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    expanded = sum(1 + sum(c[:-1]) for c in counts)  # the roots and every position short of the last depth
    return {"build": "compiled" if getattr(reference_engine, "COMPILED", False) else "pure", "counts": counts, "expanded": expanded,
            "cpu": cpu, "wall": elapsed, "expanded_per_cpu_s": expanded / cpu}


def side_by_side(args: argparse.Namespace) -> None:
    from benchmarks.builds import best, compiled_tree, main_pure_tree, paired, pure_tree

    argv = [str(Path(__file__).resolve()), "--builds", "here", "--json", "--depth", str(args.depth),
            "--positions", str(args.positions)]
    print(f"perft to depth {args.depth} from {args.positions} positions, best of {args.rounds} paired rounds "
          "(positions expanded per CPU second):")
    runs = {"pure": (pure_tree(), argv), "compiled": (compiled_tree(), argv)}
    main_tree = main_pure_tree()
    if main_tree is not None:
        runs["main pure"] = (main_tree, argv)
    results = paired(runs, args.rounds, "expanded_per_cpu_s")
    figures = {name: best(runs, "expanded_per_cpu_s") for name, runs in results.items()}
    for name, figure in figures.items():
        print(f"   {name:10} {figure:11,.0f} positions/s   ({results[name][0]['expanded']:,} positions a run)")
    print(f"   compiled / pure {figures['compiled'] / figures['pure']:.2f}x  (target >= 3x)")
    if "main pure" in figures:
        print(f"   pure / main's pure {figures['pure'] / figures['main pure']:.2f}x  (target >= 1.0x)")
    if len({json.dumps(r[0]["counts"]) for r in results.values()}) != 1:
        raise SystemExit("the builds count differently: " + json.dumps({n: r[0]["counts"] for n, r in results.items()}))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--builds", choices=("both", "here"), default="both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="(--builds here) print one JSON line of the figures")
    args = parser.parse_args(argv)
    if args.builds == "both":
        side_by_side(args)
        return
    figures = measure(args.depth, args.positions)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['build']}: {figures['expanded']:,} positions in {figures['cpu']:.2f} s CPU "
              f"({figures['expanded_per_cpu_s']:,.0f}/s); counts {figures['counts']}")


if __name__ == "__main__":
    main()
