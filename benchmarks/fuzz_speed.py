"""Differential fuzzing: speed, scaling, outcome coverage and mutants found (figures, not asserts).

Prints, each beside the targets of issue 11:

0. with ``--builds``: the fast mode (in-process, states and observations at the end of each hand) on the pure
   and the compiled build, against the engine's own random hands; and where a fuzz hand's CPU goes: the
   reference's answers, the candidate's (each engine timed from outside), the harness, and the ratio a
   harness that cost nothing would reach (the two engines' answers are engine work: a bound on the ratio);

1. differential hands/s against the reference itself, in-process (answers
   compared as Python dicts, no JSON) and as a subprocess declaring ``batch``,
   each next to the reference engine's own hands/s measured in the same run;
   with observations compared after every step, at the end of each hand, or
   not at all, and with ``state`` compared after every step or at the end
   (``--states last``);
2. the speed-up of ``--jobs 2`` over ``--jobs 1`` (same campaign, same results);
3. the rule outcome classes a 1,000-hand campaign with seed 0 reaches;
4. hands to the first disagreement for every mutant of the catalogue, the
   fuzzer alone (``python -m tests.mutants.sweep``).

The machine may be shared: every speed is the best of ``--repeat`` runs, and
the engine's own speed is measured in between for the ratio.

    python benchmarks/fuzz_speed.py [--hands 1000] [--quick]
    python benchmarks/fuzz_speed.py --builds --against main --quick   # the fast mode: before and after, both builds
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: a build on PYTHONPATH wins (--builds)

from conformance.adapters import SubprocessAdapter
from conformance.fuzz import FuzzConfig, fuzz
from reference_engine import Hand

ROOT = Path(__file__).resolve().parent.parent


def engine_hands_per_second(hands: int = 2000, clock: Callable[[], float] = time.perf_counter) -> float:
    """The reference engine alone: random legal play, no protocol (as benchmarks/random_hands.py)."""
    rng = random.Random(1)
    start = clock()
    for i in range(hands):
        hand = Hand.from_seed(i % 4, rng.getrandbits(64))
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None  # an unfinished hand has a seat to act
            hand.apply(seat, rng.choice(list(hand.legal_actions())))
    return hands / (clock() - start)


def observation_seconds(hands: int = 300) -> float:
    """Seconds the reference takes to answer ``observe`` for the four seats at the end of a hand."""
    from reference_engine.wire import Session

    session = Session()
    total = 0.0
    for i in range(hands):
        session.handle({"cmd": "batch", "setup": {"dealer": i % 4, "seed": str(i)}, "steps": [],
                        "playout": {"seed": str(i)}, "state": "last"})
        start = time.perf_counter()
        for seat in range(4):
            session.handle({"cmd": "observe", "seat": seat})
        total += time.perf_counter() - start
    return total / hands


def campaign_rate(engine: object, hands: int, repeat: int, cpu: bool = False, **kw: object) -> tuple[float, float]:
    """(hands/s of the campaign, engine hands/s measured right after), the best of ``repeat``; ``cpu``: per second
    of this process's CPU time (the whole campaign's, its setup included), not of the clock on the wall."""
    best = (0.0, 0.0)
    for _ in range(repeat):
        started = time.process_time()
        report = fuzz(FuzzConfig.of(engine=engine() if callable(engine) else engine, hands=hands, seed=1, out=None,
                                 timeout=None, **kw))
        assert report.ok, report.format()
        if cpu:
            rate = report.search.hands / (time.process_time() - started)
            alone = max(engine_hands_per_second(1000, time.process_time) for _ in range(2))
        else:
            rate, alone = report.search.hands / report.search.seconds, engine_hands_per_second(500)
        best = max(best, (rate, alone))
    return best


class TimedSession:
    """The reference's session, the CPU time of each answer added to ``spent`` under (side, command): an engine
    the fuzzer is given (the candidate, or the reference through ``reference_factory``), timed from outside."""

    def __init__(self, side: str, spent: dict[str, float]) -> None:
        from reference_engine.wire import Session

        self.session, self.side, self.spent = Session(), side, spent

    def handle(self, message: dict[str, object]) -> dict[str, object]:
        started = time.process_time()
        try:
            return self.session.handle(message)
        finally:
            key = f"{self.side} {message.get('cmd')}"
            self.spent[key] = self.spent.get(key, 0.0) + time.process_time() - started


def where_the_time_goes(hands: int) -> dict[str, object]:
    """One fast-mode campaign with both engines timed: CPU ms per hand in each engine's answers (by side and
    command) and in the harness (the rest)."""
    spent: dict[str, float] = {}
    started = time.process_time()
    report = fuzz(FuzzConfig.of(engine=lambda: TimedSession("candidate", spent), hands=hands, seed=1, out=None,
                                timeout=None, states="last", observe="last",
                                reference_factory=lambda: TimedSession("reference", spent)))
    total = time.process_time() - started
    assert report.ok, report.format()
    per_hand = {key: 1000 * seconds / hands for key, seconds in spent.items()}
    return {"total_ms": 1000 * total / hands, "engines_ms": sum(per_hand.values()), "by_request": per_hand}


def print_where(results: dict[str, list[dict[str, Any]]]) -> None:
    """Each build's CPU per fuzz hand: each engine's answers, the harness (the rest), and the bound on the ratio
    that a harness costing nothing would reach, since the two engines' answers are work the engine does."""
    print("   where the time goes: one more campaign per build (the same hands), each engine timed from outside;\n"
          "   CPU ms per fuzz hand, and the ratio with a harness that cost nothing:\n"
          f"   {'build':16} {'reference':>9} {'candidate':>9} {'harness':>8} {'total':>6}  {'engine hand':>11}"
          f"  {'answers in engine hands':>23}  {'free harness':>12}")
    for name, runs in results.items():
        split, alone = runs[0]["where"], max(run["engine_alone"] for run in runs)
        sides = {side: sum(ms for key, ms in split["by_request"].items() if key.startswith(side + " "))
                 for side in ("reference", "candidate")}
        engines, total = split["engines_ms"], split["total_ms"]
        print(f"   {name:16} {sides['reference']:9.2f} {sides['candidate']:9.2f} {total - engines:8.2f} {total:6.2f}"
              f"  {1000 / alone:11.2f}  {engines * alone / 1000:23.1f}  {1000 / engines / alone:11.3f}x")
    requests = results["compiled"][0]["where"]["by_request"]
    print("   the compiled build's engine time by request: " + ", ".join(
        f"{key} {ms:.2f}" for key, ms in sorted(requests.items(), key=lambda item: -item[1]) if ms >= 0.005))


def builds_fast_mode(hands: int, repeat: int, against: str | None = None) -> None:
    """The fast mode on each build, each in its own subprocess (benchmarks/builds.py), paired; with ``against``
    (a git ref), that ref's harness and engine too, on both builds, in the same rounds (before and after)."""
    from benchmarks.builds import best, compiled_tree, main_trees, paired, pure_tree

    argv = [str(Path(__file__).resolve()), "--fast-mode-json", "--hands", str(hands), "--repeat", "1"]
    runs = {"pure": (pure_tree(), argv), "compiled": (compiled_tree(), argv)}
    before = main_trees(against) if against else None
    if before is not None:
        for name, tree in zip(("pure", "compiled"), before, strict=True):
            runs[f"{against} {name}"] = (tree, argv)  # this script, on that tree's harness and engine (PYTHONPATH)
    results = paired(runs, repeat, "hands_per_s")
    pure, compiled = best(results["pure"], "hands_per_s"), best(results["compiled"], "hands_per_s")
    print(f"0. fast mode in-process (states and observations at the end of each hand), best of {repeat} paired runs,\n"
          "   per second of CPU time (the machine may be shared; each ratio's two figures come from one process):\n"
          f"   pure {pure:,.0f} hands/s, compiled {compiled:,.0f} hands/s: {compiled / pure:.2f}x (target >= 2x)")
    ratios = {}
    for name in results:
        # each run's campaign against the engine alone measured right after it, in the same process: the ratio
        ratios[name] = max(run["hands_per_s"] / run["engine_alone"] for run in results[name])
        alone = max(run["engine_alone"] for run in results[name])
        print(f"   {name:16} {best(results[name], 'hands_per_s'):6,.0f} hands/s; against the engine's own random "
              f"hands ({alone:,.0f} hands/s): {ratios[name]:.3f}x" + (" (target >= 0.25x)" if name == "compiled" else ""))
    print_where(results)
    if before is not None:
        print("   this checkout against " + ", ".join(
            f"{against}'s {name} build: {ratios[name] / ratios[f'{against} {name}']:.2f}x the ratio"
            for name in ("pure", "compiled")))
    print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per speed measure (default 1000)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="speed only: no mutant sweep")
    parser.add_argument("--builds", action="store_true",
                        help="first, the fast mode (in-process, states and observations at the end of each hand) on "
                             "the pure and the compiled engine (issue 17; builds the compiled one)")
    parser.add_argument("--against", metavar="REF",
                        help="with --builds: also the harness and engine of git REF (main, say), both builds, paired")
    parser.add_argument("--fast-mode-json", action="store_true", help=argparse.SUPPRESS)  # one build's figure
    args = parser.parse_args(argv)
    if args.fast_mode_json:
        rate, alone = campaign_rate("reference", args.hands, args.repeat, cpu=True, states="last", observe="last")
        print(json.dumps({"hands_per_s": rate, "engine_alone": alone, "where": where_the_time_goes(args.hands)}))
        return
    if args.builds:
        builds_fast_mode(args.hands, args.repeat, args.against)

    def subprocess_engine() -> SubprocessAdapter:
        return SubprocessAdapter([sys.executable, "-m", "reference_engine"], 30.0, cwd=str(ROOT))

    print("1. differential hands/s against the reference (targets: >= 2,000 in-process with observations, "
          ">= 1,000 through a subprocess declaring batch)")
    print(f"   {'candidate':12} {'states':7} {'observe':8} {'hands/s':>9} {'engine alone':>13} {'ratio':>7}")
    for name, engine in (("in-process", "reference"), ("subprocess", subprocess_engine)):
        for states, observe in (("every", "every"), ("every", "last"), ("last", "last"), ("last", "none")):
            rate, alone = campaign_rate(engine, args.hands, args.repeat, states=states, observe=observe)
            print(f"   {name:12} {states:7} {observe:8} {rate:9,.0f} {alone:13,.0f} {rate / alone:7.1%}", flush=True)
    alone = engine_hands_per_second(1000)
    observing = observation_seconds()
    print(f"   bound: a differential plays every hand on two engines, so at most {alone / 2:,.0f} hands/s with "
          f"nothing compared;\n   with the four observations at the end on each side ({observing * 1e6:.0f} us "
          f"each side), at most {1 / (2 / alone + 2 * observing):,.0f} hands/s, before any fuzzer work")

    print("\n2. --jobs 2 against --jobs 1 (target: >= 1.8x on 2 cores)")
    times = {}
    for jobs in (1, 2):
        best = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            report = fuzz(FuzzConfig.of(engine="reference", hands=args.hands * 2, seed=1, out=None, jobs=jobs,
                                     timeout=None, states="every", observe="last"))
            best = min(best, time.perf_counter() - started)
            assert report.ok
        times[jobs] = best
        print(f"   --jobs {jobs}: {args.hands * 2} hands in {best:.2f} s ({args.hands * 2 / best:,.0f} hands/s)",
              flush=True)
    print(f"   speed-up: {times[1] / times[2]:.2f}x")

    print("\n3. outcome coverage of a 1,000-hand campaign, seed 0 (target: every class)")
    report = fuzz(FuzzConfig.of(engine="reference", hands=1000, seed=0, out=None, timeout=None))
    for line in report.coverage_lines():
        print("   " + line)

    if args.quick:
        return
    print("\n4. the fuzzer alone against every mutant of the catalogue, 1,000 hands each at most "
          "(target: every one found)")
    from tests.mutants.sweep import format_row, fuzz_mutants, load_catalogue

    mutants = load_catalogue()
    rows = fuzz_mutants(mutants, hands=1000, seed=0, shrink=False,
                        progress=lambda row: print("   " + format_row(row, 1000), flush=True))
    found = sorted(r.found_at for r in rows if r.found_at is not None)
    missed = [r.id for r in rows if r.found_at is None]
    print(f"   {len(found)} of {len(rows)} found; most hands needed: {found[-1] if found else '-'}"
          + (f"; not found: {', '.join(missed)}" if missed else ""))


if __name__ == "__main__":
    main()
