"""The ``hakka-conformance`` command.

Exit status: 0 when every selected scenario passed, was skipped or is an
expected failure; 1 when any is ``fail``, ``error``, ``timeout`` or ``xpass``;
2 for bad input (missing file, bad YAML, invalid scenario, bad engine spec,
bad option), reported one line per problem, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from . import parallel
from .adapters import ENGINE_SPEC_HELP, parse_engine_spec
from .engine import Engine
from .errors import InputError
from .expected import load_expected_failures
from .fuzz import cli as fuzz_cli
from .loader import BODY_KINDS, Filters, Scenario, load_scenarios, select
from .paths import DEFAULT_SCENARIOS_DIR, default_spec_dir, display_path
from .report import Progress, failure_details, summary_table, write_json, write_junit
from .results import BAD_STATUSES, PASS, SKIP, XFAIL, Result
from .runner import ScenarioRunner
from .schemas import load_schemas
from .smoke import smoke
from .specdata import SpecData, load_spec_data

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_INPUT)


def _add_selection(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("scenario selection (repeat an option to OR its values; different options AND)")
    g.add_argument("--scenarios", metavar="PATH", action="append", type=Path,
                   help=f"scenario file or directory (default: {display_path(DEFAULT_SCENARIOS_DIR)})")
    g.add_argument("--id", dest="ids", metavar="GLOB", action="append", default=[],
                   help="scenario ID glob, e.g. 'play-follow-*'")
    g.add_argument("--clause", dest="clauses", metavar="ID", action="append", default=[],
                   help="clause ID (or glob) the scenario tests, e.g. PLAY-4")
    g.add_argument("--area", dest="areas", metavar="PREFIX", action="append", default=[],
                   help="rule area = clause prefix, e.g. PLAY, SCORE")
    g.add_argument("--tag", dest="tags", metavar="TAG", action="append", default=[])
    g.add_argument("--file", dest="files", metavar="GLOB", action="append", default=[],
                   help="scenario file path glob or directory prefix")
    g.add_argument("--kind", dest="kinds", metavar="KIND", action="append", default=[], choices=BODY_KINDS)
    p.add_argument("--spec", metavar="DIR", type=Path, default=None,
                   help="the spec/ directory (default: next to the package, or $HAKKA_SPEC_DIR)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hakka-conformance",
                     description="Run the Hakka Cards conformance scenarios against an engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser(
        "run", help="run scenarios against an engine",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run scenarios against an engine and report per rule area.",
        epilog=ENGINE_SPEC_HELP + """
Statuses: pass, fail (the engine disagrees with the scenario), error (crash,
protocol violation, internal error), timeout, skip (missing capability, or a
non-configurable engine following other decision options), xfail / xpass
(listed in --expected-failures and failing / passing).

Exit status: 0 all good, 1 any fail/error/timeout/xpass, 2 bad input.

Examples:
  hakka-conformance run
  hakka-conformance run --engine reference-subprocess --area PLAY
  hakka-conformance run --engine "cmd:./my-engine --stdio" \\
      --expected-failures my-engine.xfail --json report.json --junit junit.xml
""")
    run.add_argument("--engine", "-e", metavar="ENGINE", default="reference",
                     help="the engine to test (default: reference); see below")
    run.add_argument("--timeout", metavar="SECONDS", type=float, default=10.0,
                     help="per-request timeout (default 10; 0 = none)")
    run.add_argument("--expected-failures", metavar="PATH", type=Path,
                     help="YAML or text list of scenario IDs (with reasons) the engine is known to fail")
    run.add_argument("--json", metavar="PATH", type=Path, help="write a JSON report")
    run.add_argument("--junit", metavar="PATH", type=Path, help="write a JUnit XML report")
    run.add_argument("--quiet", "-q", action="store_true", help="no progress; only the summary and failures")
    run.add_argument("--no-stderr", action="store_true", help="do not print the engine's stderr with failures")
    run.add_argument("--fail-fast", "-x", action="store_true", help="stop after the first fail/error/timeout/xpass")
    parallel.add_run_arguments(run)
    _add_selection(run)

    ls = sub.add_parser("list", help="list scenarios (with the same filters as run)")
    ls.add_argument("--ids-only", action="store_true", help="print only the IDs")
    _add_selection(ls)

    smoke_p = sub.add_parser("smoke", help="try an engine once over in a few seconds, with advice",
                             formatter_class=argparse.RawDescriptionHelpFormatter, epilog=ENGINE_SPEC_HELP)
    smoke_p.add_argument("--engine", "-e", metavar="ENGINE", default="reference")
    smoke_p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS")
    smoke_p.add_argument("--spec", metavar="DIR", type=Path, default=None)
    check = sub.add_parser("check", help="validate scenario files (schema, IDs, clauses, decisions)")
    _add_selection(check)
    fuzz_cli.add_parser(sub)
    parallel.add_merge_parser(sub)
    return parser


def _load(args: argparse.Namespace) -> tuple[SpecData, list[Scenario], list[Scenario]]:
    spec_dir = args.spec or default_spec_dir()
    if not spec_dir.is_dir():
        raise InputError(f"{spec_dir}: spec directory not found (use --spec DIR)")
    schemas = load_schemas(spec_dir.resolve() / "schema")
    spec = load_spec_data(spec_dir)
    for warning in spec.warnings:
        print(warning, file=sys.stderr)
    paths = args.scenarios or [DEFAULT_SCENARIOS_DIR]
    scenarios = load_scenarios(paths, schemas, spec)
    filters = Filters(tuple(args.ids), tuple(args.clauses), tuple(args.areas), tuple(args.tags),
                      tuple(args.files), tuple(args.kinds))
    return spec, scenarios, select(scenarios, filters)


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    _, _, selected = _load(args)
    for s in selected:
        if args.ids_only:
            out.write(s.id + "\n")
        else:
            req = "" if s.requires is None else (" requires " + (s.requires if isinstance(s.requires, str)
                                                                 else ",".join(f"{k}={v}" for k, v in s.requires.items())))
            out.write(f"{s.id:40} {s.kind:10} {','.join(s.clauses):20} {s.location}{req}\n")
    if not args.ids_only:
        out.write(f"{len(selected)} scenario(s)\n")
    return EXIT_OK


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    _, scenarios, selected = _load(args)
    files = len({s.file for s in scenarios})
    out.write(f"ok: {len(scenarios)} scenario(s) in {files} file(s) are valid\n")
    return EXIT_OK


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    engine_spec = parse_engine_spec(args.engine)
    if args.timeout < 0:
        raise InputError(f"--timeout must be >= 0, not {args.timeout}")
    expected = load_expected_failures(args.expected_failures) if args.expected_failures else {}
    spec, scenarios, selected = _load(args)
    selected = parallel.shard(selected, args.shard)
    if not selected:
        raise InputError("no scenario matches the selection" if scenarios else "no scenarios found")
    known = {s.id for s in scenarios}
    for sid in sorted(set(expected) - known):
        print(f"warning: {display_path(args.expected_failures)}: {sid!r} is not a known scenario ID", file=sys.stderr)

    schemas = load_schemas((args.spec or default_spec_dir()).resolve() / "schema")
    engine = Engine(engine_spec, schemas, timeout=args.timeout or None)
    # Asked for a perft divide only when a count scenario fails (started lazily).
    diagnosis = Engine(parse_engine_spec("reference"), schemas, timeout=args.timeout or None)
    progress = Progress(len(selected), out, quiet=args.quiet)
    started = time.perf_counter()
    results = []
    try:
        jobs = parallel.jobs_wanted(args.jobs)
        if jobs > 1:
            results = parallel.run_parallel(selected, engine_spec, schemas, spec, expected, args.timeout or None,
                                            jobs, progress.result)
        runner = ScenarioRunner(engine, spec, expected, diagnosis)
        for scenario in selected if jobs == 1 else ():
            progress.start(scenario)
            result = runner.run(scenario)
            results.append(result)
            progress.result(result)
            if args.fail_fast and result.bad:
                break
    finally:
        progress.finish()
        engine.close()
        diagnosis.close()
    duration = time.perf_counter() - started

    info = engine.info
    name = f"{info.name} {info.version}" if info else args.engine
    out.write(f"\nengine: {name} ({args.engine})\n")
    details = failure_details(results, show_stderr=not args.no_stderr)
    if details:
        out.write("\n" + details + "\n\n")
    out.write(summary_table(results) + "\n")
    bad = [r for r in results if r.status in BAD_STATUSES]
    out.write(f"\n{len(results)} scenario(s) in {duration:.2f} s: {closing_line(results)}\n")
    if args.json:
        write_json(args.json, results, args.engine, info, duration)
    if args.junit:
        write_junit(args.junit, results, args.engine, duration)
    return EXIT_FAILED if bad else EXIT_OK


def cmd_smoke(args: argparse.Namespace, out: TextIO) -> int:
    spec_dir = (args.spec or default_spec_dir()).resolve()
    engine = Engine(parse_engine_spec(args.engine), load_schemas(spec_dir / "schema"), timeout=args.timeout or None)
    try:
        report = smoke(engine, load_spec_data(spec_dir))
    finally:
        engine.close()
    out.write(f"smoke test of {args.engine}\n")
    report.write(out)
    return EXIT_FAILED if report.problems else EXIT_OK


def closing_line(results: list[Result]) -> str:
    """``N passed, N failed`` and whatever else happened, e.g. skips that leave rules untested."""
    counted = Counter(r.status for r in results)
    parts = [f"{counted.get(PASS, 0)} passed", f"{sum(counted.get(s, 0) for s in BAD_STATUSES)} failed"]
    labels = {SKIP: "skipped (a capability, decision option or protocol version the engine lacks)",
              XFAIL: "expected failures"}
    parts += [f"{counted[s]} {label}" for s, label in labels.items() if counted.get(s)]
    return ", ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "fuzz":
            return fuzz_cli.run(args)
        if args.command == "run":
            return cmd_run(args, out)
        if args.command == "list":
            return cmd_list(args, out)
        if args.command == "smoke":
            return cmd_smoke(args, out)
        if args.command == "merge":
            return parallel.cmd_merge(args, out)
        return cmd_check(args, out)
    except InputError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
