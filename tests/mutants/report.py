"""The mutation report: which misreadings of the rules does the scenario corpus catch?

Runs the conformance scenarios (through the runner's Python API, in-process)
against every mutant of :mod:`tests.mutants.catalogue` and prints, per mutant,
whether some scenario kills it (fails or errors on it), which ones, and which
clauses those scenarios test. A mutant that passes the whole corpus *survives*:
the corpus does not pin down the rule it misreads.

    python -m tests.mutants.report [--json PATH] [--mutant GLOB] [--scenarios PATH]

Before the mutants, the same corpus runs on the reference engine and on the
``control`` engine (the default rules through the mutants' path). Scenarios
the reference fails are left out of the kill counts (they would "kill"
everything) and listed; a scenario the control fails but the reference passes
means the mutants' path is not the reference, and makes the report fail.

A clause is flagged *under-tested* when the mutants that misread it are
killed, but only by generated vectors (``generated: true``, under
``conformance/scenarios/generated/``): no hand-worked scenario catches them.
A clause is flagged *indirect* when its mutants are killed by hand-worked
scenarios none of which names that clause.

A mutant of :data:`KNOWN_SURVIVORS` is one the corpus cannot kill yet, listed with the scenario that
would: it is reported apart, and does not fail the report (``tests/mutants/test_report.py`` marks it
an expected failure, which fails once a scenario kills it, so the list only shrinks).

Exit status: 0 every mutant killed but the known survivors, and the control clean; 1 another mutant
survives or the control differs from the reference; 2 bad input (scenarios, spec, selection).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.errors import InputError
from conformance.loader import Scenario
from conformance.paths import DEFAULT_SCENARIOS_DIR, display_path
from conformance.results import BAD_STATUSES, Result
from conformance.suite import Suite

from . import catalogue
from .catalogue import CONTROL, MUTANTS, Mutant
from .sweep import fuzz_mutants

EXIT_OK, EXIT_SURVIVORS, EXIT_INPUT = 0, 1, 2

KNOWN_SURVIVORS: dict[str, str] = {}
"""The mutants no scenario of the corpus can kill yet, each with the scenario that would (none today: the
last one, batch-setup-refused-whole, fell to the batch scenarios of issue 31 §3)."""
REFERENCE_SPEC = "python:reference_engine.wire:Session"


class Corpus(Suite):
    """The suite, run against mutant engines in this process."""

    @classmethod
    def load(cls, paths: Sequence[Path] | None = None, spec_dir: Path | None = None) -> Corpus:  # type: ignore[override]
        suite = Suite.load(spec_dir, paths)
        if not suite.scenarios:
            raise InputError("no scenarios found")
        return cls(suite.spec_dir, suite.schemas, suite.spec, suite.scenarios)

    def run(  # type: ignore[override]
        self,
        engine_spec: str,
        scenarios: Iterable[Scenario] | None = None,
        timeout: float | None = None,
        validate: bool = True,
    ) -> list[Result]:
        """Run scenarios (default: all) against one in-process engine, through the runner's own path.

        Every engine is reached through :class:`~conformance.engine.Engine`, as
        the runner reaches any engine. Without a ``timeout`` it is called
        directly (``reference-direct``'s road, :class:`~conformance.adapters.DirectAdapter`:
        no thread, no JSON copies; the mutants have no unbounded loop). ``validate=False`` skips
        the schema check of answers, most of the runner's time, which cannot
        tell a mutant from the reference: every mutant answers through the
        reference's own Session, in its shapes. The reference and the control
        run validated.
        """
        spec = parse_engine_spec(engine_spec)
        engine = Engine(spec if timeout is not None else spec.called_directly(None), self.schemas,
                        timeout=timeout, validate=validate)
        try:
            return super().run(engine, scenarios)
        finally:
            engine.close()


@dataclass
class MutantOutcome:
    mutant: Mutant
    killers: list[Result]
    duration: float
    generated: frozenset[str] = frozenset()
    """IDs of the generated scenarios of the corpus."""

    @property
    def killed(self) -> bool:
        return bool(self.killers)

    @property
    def killer_ids(self) -> list[str]:
        return [r.id for r in self.killers]

    @property
    def hand_worked_killers(self) -> list[Result]:
        return [r for r in self.killers if r.id not in self.generated]

    @property
    def only_generated(self) -> bool:
        return self.killed and not self.hand_worked_killers

    @property
    def killer_clauses(self) -> list[str]:
        """The clauses the killing scenarios test, most frequent first."""
        counts: dict[str, int] = {}
        for r in self.killers:
            for c in r.clauses:
                counts[c] = counts.get(c, 0) + 1
        return sorted(counts, key=lambda c: -counts[c])

    def as_json(self) -> dict[str, Any]:
        m = self.mutant
        return {
            "id": m.id,
            "description": m.description,
            "clauses": list(m.clauses),
            "pins": m.pins,
            "engine": m.engine_spec,
            "killed": self.killed,
            "killers": [{"id": r.id, "status": r.status, "generated": r.id in self.generated,
                         "clauses": list(r.clauses), "file": r.file, "line": r.line} for r in self.killers],
            "killer_clauses": self.killer_clauses,
            "only_generated": self.only_generated,
            "duration": round(self.duration, 3),
        }


@dataclass
class Report:
    scenarios: list[Scenario]
    outcomes: list[MutantOutcome]
    excluded: list[Result] = field(default_factory=list)
    """Scenarios the reference engine itself fails (left out of the kill counts)."""
    control_failures: list[Result] = field(default_factory=list)
    """Scenarios the control fails although the reference passes them (a seam bug)."""
    duration: float = 0.0
    full: bool = False
    """Whether the count scenarios ran against every mutant (else only against survivors)."""
    fuzz_hands: int = 0
    fuzz_found: dict[str, int | None] = field(default_factory=dict)
    """With ``--fuzz-hands N``: the hand at which the fuzzer alone first told each mutant from the reference."""

    @property
    def survivors(self) -> list[MutantOutcome]:
        return [o for o in self.outcomes if not o.killed]

    def _by_clause(self) -> dict[str, list[MutantOutcome]]:
        by: dict[str, list[MutantOutcome]] = {}
        for o in self.outcomes:
            for c in o.mutant.clauses:
                by.setdefault(c, []).append(o)
        return by

    @property
    def under_tested(self) -> dict[str, list[str]]:
        """Clause -> its mutants, when those that are killed are killed only by generated vectors."""
        out = {}
        for clause, outcomes in self._by_clause().items():
            killed = [o for o in outcomes if o.killed]
            if killed and all(o.only_generated for o in killed):
                out[clause] = [o.mutant.id for o in killed]
        return dict(sorted(out.items()))

    @property
    def indirect(self) -> dict[str, list[str]]:
        """Clause -> its mutants, when no hand-worked scenario killing them names the clause."""
        out = {}
        for clause, outcomes in self._by_clause().items():
            killed = [o for o in outcomes if o.killed and not o.only_generated]
            if killed and not any(clause in r.clauses for o in killed for r in o.hand_worked_killers):
                out[clause] = [o.mutant.id for o in killed]
        return dict(sorted(out.items()))

    @property
    def unexpected_survivors(self) -> list[MutantOutcome]:
        """The survivors that are not :data:`KNOWN_SURVIVORS`: what makes the report fail."""
        return [o for o in self.survivors if o.mutant.id not in KNOWN_SURVIVORS]

    @property
    def ok(self) -> bool:
        return not self.unexpected_survivors and not self.control_failures

    def as_json(self) -> dict[str, Any]:
        return {
            "scenarios": len(self.scenarios),
            "generated_scenarios": sum(s.generated for s in self.scenarios),
            "mutants": [o.as_json() for o in self.outcomes],
            "killed": sum(o.killed for o in self.outcomes),
            "survivors": [o.mutant.id for o in self.survivors],
            "under_tested": self.under_tested,
            "indirect": self.indirect,
            "excluded": [{"id": r.id, "status": r.status, "reason": r.reason} for r in self.excluded],
            "control_failures": [{"id": r.id, "status": r.status, "reason": r.reason} for r in self.control_failures],
            "duration": round(self.duration, 3),
            "ok": self.ok,
        }


def run_report(
    mutants: Sequence[Mutant] = MUTANTS,
    corpus: Corpus | None = None,
    *,
    timeout: float | None = None,
    validate: bool = False,
    progress: TextIO | None = None,
    full: bool = False,
) -> Report:
    """Run the corpus against the reference, the control and every mutant of ``mutants``.

    Count (perft) scenarios cost as much as all the others together, so unless
    ``full`` they run only against a mutant that every other scenario lets live.
    """
    started = time.perf_counter()
    corpus = corpus or Corpus.load()
    reference = corpus.run(REFERENCE_SPEC, timeout=timeout)
    excluded = [r for r in reference if r.status in BAD_STATUSES]
    bad_ids = {r.id for r in excluded}
    scenarios = [s for s in corpus.scenarios if s.id not in bad_ids]
    generated = frozenset(s.id for s in scenarios if s.generated)
    control = corpus.run(CONTROL.engine_spec, scenarios, timeout=timeout)
    control_failures = [r for r in control if r.status in BAD_STATUSES]
    outcomes = []
    for m in mutants:
        t0 = time.perf_counter()
        first = scenarios if full else [s for s in scenarios if s.kind != "count"]
        results = corpus.run(m.engine_spec, first, timeout=timeout, validate=validate)
        killers = [r for r in results if r.status in BAD_STATUSES]
        if not killers and not full:
            counts = [s for s in scenarios if s.kind == "count"]
            results = corpus.run(m.engine_spec, counts, timeout=timeout, validate=validate)
            killers = [r for r in results if r.status in BAD_STATUSES]
        outcomes.append(MutantOutcome(m, killers, time.perf_counter() - t0, generated))
        if progress is not None:
            progress.write(f"{m.id}: {'killed by ' + str(len(killers)) if killers else 'SURVIVES'}\n")
            progress.flush()
    return Report(corpus.scenarios, outcomes, excluded, control_failures, time.perf_counter() - started, full)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _row(report: Report, o: MutantOutcome, first: int) -> tuple[str, ...]:
    ids = o.killer_ids
    shown = ", ".join(ids[:first]) + (f" (+{len(ids) - first})" if len(ids) > first else "")
    if o.only_generated:
        shown += " [generated only]"
    found = report.fuzz_found.get(o.mutant.id)
    fuzz = (f"hand {found}" if found is not None else f"not in {report.fuzz_hands}") if report.fuzz_hands else ""
    return (o.mutant.id, "yes" if o.killed else "NO", str(len(ids)), shown or "-",
            ", ".join(o.killer_clauses[:6]) or "-", ", ".join(o.mutant.clauses), fuzz)


def _survivor_lines(report: Report) -> list[str]:
    """The survivors that fail the report, then the known ones, each under its heading."""
    out = []
    if report.unexpected_survivors:
        out.append("SURVIVORS (no scenario catches these misreadings):")
        for o in report.unexpected_survivors:
            m = o.mutant
            pins = f"; only scenarios at the default of {m.pins.split('=')[0]} can kill it" if m.pins else ""
            out.append(f"  {m.id} [{', '.join(m.clauses)}]: {m.description.rstrip('.')}{pins}")
    known = [o for o in report.survivors if o.mutant.id in KNOWN_SURVIVORS]
    if known:
        out.append("KNOWN SURVIVORS (listed in tests/mutants/report.py with the scenario that would kill each):")
        for o in known:
            out.append(f"  {o.mutant.id} [{', '.join(o.mutant.clauses)}]: needs {KNOWN_SURVIVORS[o.mutant.id]}")
    return out


def render(report: Report, first: int = 3) -> str:
    """The report as text: one row per mutant, then the flags and the totals."""
    rows = [_row(report, o, first) for o in report.outcomes]
    head = ("mutant", "killed", "kills", "killed by", "clauses of the killers", "misreads",
            "fuzzer alone" if report.fuzz_hands else "")
    limits = (34, 6, 5, 70, 40, 24, 16)
    widths = [min(limit, max(len(head[i]), *(len(r[i]) for r in rows))) if rows else len(head[i])
              for i, limit in enumerate(limits)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(_cut(c, w).ljust(w) for c, w in zip(cells, widths, strict=False)).rstrip()

    out = [line(head), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    out.append("")
    killed = sum(o.killed for o in report.outcomes)
    out.append(f"{killed}/{len(report.outcomes)} mutants killed by {len(report.scenarios)} scenario(s) "
               f"({sum(s.generated for s in report.scenarios)} generated)")
    if not report.full:
        out.append("(count scenarios ran only against mutants that the others left alive; --full runs them all)")
    if report.fuzz_hands:
        found = [n for n in report.fuzz_found.values() if n is not None]
        out.append(f"the fuzzer alone (seed 0, no corpus) found {len(found)}/{len(report.outcomes)} mutants within "
                   f"{report.fuzz_hands} hands" + (f", the slowest at hand {max(found)}" if found else ""))
    out += _survivor_lines(report)
    if report.under_tested:
        out.append("UNDER-TESTED clauses (their mutants are killed only by generated vectors):")
        for clause, ids in report.under_tested.items():
            out.append(f"  {clause}: {', '.join(ids)}")
    if report.indirect:
        out.append("Indirectly tested clauses (killed by hand-worked scenarios that do not name the clause):")
        for clause, ids in report.indirect.items():
            out.append(f"  {clause}: {', '.join(ids)}")
    if report.excluded:
        out.append(f"Left out: {len(report.excluded)} scenario(s) the reference engine fails:")
        for r in report.excluded:
            out.append(f"  {r.id} ({r.status}): {_cut(r.reason, 120)}")
    if report.control_failures:
        out.append("CONTROL FAILURES (the default rules through the mutants' path differ from the reference):")
        for r in report.control_failures:
            out.append(f"  {r.id} ({r.status}): {_cut(r.reason, 120)}")
    out.append(f"Total run time: {report.duration:.2f} s")
    return "\n".join(out)


def select_mutants(globs: Sequence[str]) -> list[Mutant]:
    if not globs:
        return list(MUTANTS)
    chosen = [m for m in MUTANTS if any(fnmatch.fnmatchcase(m.id, g) for g in globs)]
    if not chosen:
        raise InputError(f"no mutant matches {', '.join(globs)} (see python -m tests.mutants.report --list)")
    return chosen


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tests.mutants.report", description=__doc__.split("\n\n")[0])
    p.add_argument("--json", metavar="PATH", type=Path, help="also write the report as JSON")
    p.add_argument("--mutant", "-m", metavar="GLOB", action="append", default=[], help="only these mutants (repeatable)")
    p.add_argument("--scenarios", metavar="PATH", action="append", type=Path,
                   help=f"scenario file or directory (repeatable; default {display_path(DEFAULT_SCENARIOS_DIR)})")
    p.add_argument("--spec", metavar="DIR", type=Path, help="the spec/ directory")
    p.add_argument("--first", metavar="N", type=int, default=3, help="killing scenarios shown per mutant (default 3)")
    p.add_argument("--timeout", metavar="SECONDS", type=float, default=None,
                   help="per-request timeout: run each request on the runner's worker thread (slower)")
    p.add_argument("--validate", action="store_true",
                   help="validate the mutants' answers against the protocol schemas too (slower)")
    p.add_argument("--progress", action="store_true", help="one line per mutant on stderr as it runs")
    p.add_argument("--full", action="store_true",
                   help="run the count (perft) scenarios against every mutant, not only against survivors (slow)")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--fuzz-hands", metavar="N", type=int, default=0,
                   help="also fuzz each mutant alone (no corpus) for up to N hands and show the hand that found it")
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    if args.list:
        for m in MUTANTS:
            out.write(f"{m.id:34} {','.join(m.clauses):18} {m.engine_spec}\n    {m.description}\n")
        return EXIT_OK
    try:
        mutants = select_mutants(args.mutant)
        corpus = Corpus.load(args.scenarios, args.spec)
    except InputError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return EXIT_INPUT
    report = run_report(mutants, corpus, timeout=args.timeout, validate=args.validate,
                        progress=sys.stderr if args.progress else None, full=args.full)
    if args.fuzz_hands > 0:
        rows = fuzz_mutants(mutants, hands=args.fuzz_hands, seed=0, shrink=False)
        report.fuzz_hands, report.fuzz_found = args.fuzz_hands, {row.id: row.found_at for row in rows}
    out.write(render(report, args.first) + "\n")
    if args.json:
        args.json.write_text(json.dumps(report.as_json(), indent=2) + "\n", encoding="utf-8")
    return EXIT_OK if report.ok else EXIT_SURVIVORS


assert catalogue  # the engines are loaded from it by name

if __name__ == "__main__":
    raise SystemExit(main())
