"""``python -m tests.mutants.sweep``: fuzz every mutant of the catalogue.

Test code, run from a checkout's root (the installed ``conformance`` package
never imports ``tests/``). For each mutant engine of
``tests/mutants/catalogue.py``, run the differential fuzzer and print
how many hands it took to find the first disagreement, and how many actions
the shrunk hand has. A mutant the fuzzer does not tell apart from the
reference within ``--hands`` hands is listed as ``not found``: a misreading
random play does not reach (or one visible only across a whole game).

    python -m tests.mutants.sweep --hands 300 --seed 0
    python -m tests.mutants.sweep --only clockwise --only score-12-is-64 --out /tmp/fuzz
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.fuzz.run import FuzzConfig, FuzzReport, fuzz

DEFAULT_CATALOGUE = "tests.mutants.catalogue"


@dataclass
class MutantRow:
    id: str
    clauses: tuple[str, ...]
    report: FuzzReport | None
    seconds: float
    error: str = ""

    @property
    def found_at(self) -> int | None:
        return self.report.hands_to_first_disagreement if self.report else None


def load_catalogue(module: str = DEFAULT_CATALOGUE) -> list[Any]:
    """The mutants of ``module.MUTANTS`` (each with ``id``, ``clauses`` and ``factory``)."""
    mod = importlib.import_module(module)
    return list(mod.MUTANTS)


def fuzz_mutants(mutants: Sequence[Any], *, hands: int, seed: int, out: Path | None = None,
                 shrink: bool = True, observe: bool | None = None, progress: Any = None) -> list[MutantRow]:
    rows = []
    for m in mutants:
        started = time.perf_counter()
        try:
            report = fuzz(FuzzConfig.of(
                engine=m.factory, label=f"mutant:{m.id}", hands=hands, seed=seed,
                out=None if out is None else out / m.id, verify=out is not None, shrink=shrink,
                observe=observe, options={}))
            row = MutantRow(m.id, tuple(m.clauses), report, time.perf_counter() - started)
        except Exception as exc:  # noqa: BLE001 - one bad mutant must not end the sweep
            row = MutantRow(m.id, tuple(m.clauses), None, time.perf_counter() - started,
                            f"{type(exc).__name__}: {exc}")
        rows.append(row)
        if progress is not None:
            progress(row)
    return rows


def format_row(row: MutantRow, hands: int) -> str:
    if row.report is None:
        return f"{row.id:40} ERROR {row.error}"
    r = row.report
    s = r.search
    if s.first_at is None:
        found = f"not found in {hands}"
        what = f"({s.failure_count} crash(es))" if s.failure_count else ""
    else:
        found = f"{s.first_at:>5}"
        d = r.disagreement
        assert d is not None
        what = f"{d.actions:>3} actions  {d.where}:{','.join(d.fields)}"
        if r.written:
            w = r.written[0]
            what += f"  [{'verified' if w.verified else 'NOT verified'}: {', '.join(w.clauses)}]"
    return f"{row.id:40} {found:>16}  {row.seconds:6.1f}s  {what}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutants.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--catalogue", default=DEFAULT_CATALOGUE, help=f"module with MUTANTS (default {DEFAULT_CATALOGUE})")
    parser.add_argument("--hands", type=int, default=300, help="hands per mutant at most (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", default=[], metavar="GLOB", help="mutant ids to fuzz (globs)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write and verify each mutant's scenario under OUT/<mutant>/ (default: write nothing)")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--no-observe", action="store_true")
    args = parser.parse_args(argv)
    try:
        mutants = load_catalogue(args.catalogue)
    except ImportError as exc:
        print(f"error: cannot import the mutant catalogue {args.catalogue!r} ({exc}); "
              "run it from the root of a checkout of the repository", file=sys.stderr)
        return 2
    if args.only:
        mutants = [m for m in mutants if any(fnmatch.fnmatchcase(m.id, g) for g in args.only)]
    print(f"{'mutant':40} {'hands to 1st diff':>16}  {'time':>7}  hand (shrunk unless --no-shrink)")
    rows = fuzz_mutants(mutants, hands=args.hands, seed=args.seed, out=args.out, shrink=not args.no_shrink,
                        observe=False if args.no_observe else None,
                        progress=lambda row: print(format_row(row, args.hands), flush=True))
    found = [r for r in rows if r.found_at is not None]
    print(f"\n{len(found)} of {len(rows)} mutants told apart from the reference within {args.hands} hands"
          + (f"; median hands to the first disagreement: {sorted(r.found_at or 0 for r in found)[len(found) // 2]}"
             if found else ""))
    missed = [r.id for r in rows if r.found_at is None]
    if missed:
        print("not found: " + ", ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
