"""The ``hakka-conformance`` command.

One exit-status policy for every command (the table in conformance/README.md):

- 0: all is well (``run``: every selected scenario passed, was skipped or is
  an expected failure; ``fuzz``: no disagreement; ``list``/``check``: valid);
- 1: failures (``run``: any ``fail``, ``error``, ``timeout`` or ``xpass``;
  ``fuzz``: a disagreement, crash or hang of the candidate);
- 2: bad input or usage (missing file, bad YAML, invalid scenario, bad engine
  spec or a program that does not exist, bad option value, an output path
  that cannot be written), one line per problem, never a traceback;
- 130 (SIGINT) / 143 (SIGTERM): interrupted; ``run`` still writes its reports
  for the scenarios done, marked interrupted, and no engine is left running.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
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
from .loader import BODY_KINDS, Filters, Scenario
from .paths import DEFAULT_SCENARIOS_DIR, default_spec_dir, display_path
from .report import Progress, failure_details, summary_table, terminal_safe, write_reports
from .results import BAD_STATUSES, PASS, SKIP, XFAIL, Result
from .runner import ScenarioRunner
from .safety import check_engine_command, check_output_paths, exit_status, signal_name, terminable, timeout_value
from .smoke import smoke
from .specdata import load_spec_data
from .suite import Suite, load_checked_schemas

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

Exit status: 0 all good, 1 any fail/error/timeout/xpass, 2 bad input,
130/143 interrupted by SIGINT/SIGTERM (reports written for what was done).

Examples:
  hakka-conformance run
  hakka-conformance run --engine reference-subprocess --area PLAY
  hakka-conformance run --engine "cmd:./my-engine --stdio" \\
      --expected-failures my-engine.xfail --json report.json --junit junit.xml
""")
    run.add_argument("--engine", "-e", metavar="ENGINE", default="reference",
                     help="the engine to test (default: reference); see below")
    run.add_argument("--timeout", metavar="SECONDS", type=timeout_value, default=10.0,
                     help="per-request timeout, above 0 and at most 3600 (default 10)")
    run.add_argument("--engine-env", metavar="NAME[=VALUE]", action="append", default=[],
                     help="pass this environment variable to a cmd: engine (repeatable); by default it gets "
                          "only PATH, HOME, the locale, TMPDIR, PYTHONPATH and VIRTUAL_ENV")
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
    smoke_p.add_argument("--timeout", type=timeout_value, default=10.0, metavar="SECONDS")
    smoke_p.add_argument("--engine-env", metavar="NAME[=VALUE]", action="append", default=[],
                         help="pass this environment variable to a cmd: engine (repeatable)")
    smoke_p.add_argument("--spec", metavar="DIR", type=Path, default=None)
    check = sub.add_parser("check", help="validate scenario files (schema, IDs, clauses, decisions)")
    _add_selection(check)
    fuzz_cli.add_parser(sub)
    parallel.add_merge_parser(sub)
    return parser


def _load(args: argparse.Namespace) -> tuple[Suite, list[Scenario]]:
    """The suite (spec and scenarios, checked) and the scenarios the filters select."""
    suite = Suite.load(args.spec, args.scenarios)
    for warning in suite.spec.warnings:
        print(warning, file=sys.stderr)
    filters = Filters(tuple(args.ids), tuple(args.clauses), tuple(args.areas), tuple(args.tags),
                      tuple(args.files), tuple(args.kinds))
    return suite, suite.select(filters)


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    _, selected = _load(args)
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


def _filtered(args: argparse.Namespace) -> bool:
    return any((args.ids, args.clauses, args.areas, args.tags, args.files, args.kinds))


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    suite, selected = _load(args)
    scenarios = suite.scenarios
    if _filtered(args):
        if not selected:
            raise InputError("no scenario matches the selection" if scenarios else "no scenarios found")
        files = len({s.file for s in selected})
        out.write(f"ok: {len(selected)} selected scenario(s) (of {len(scenarios)}) in {files} file(s) are valid\n")
        return EXIT_OK
    files = len({s.file for s in scenarios})
    out.write(f"ok: {len(scenarios)} scenario(s) in {files} file(s) are valid\n")
    return EXIT_OK


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    engine_spec = dataclasses.replace(parse_engine_spec(args.engine), env=tuple(args.engine_env))
    check_engine_command(engine_spec)
    check_output_paths({"--json": args.json, "--junit": args.junit})
    expected = load_expected_failures(args.expected_failures) if args.expected_failures else {}
    suite, selected = _load(args)
    spec, scenarios, schemas = suite.spec, suite.scenarios, suite.schemas
    selected = parallel.shard(selected, args.shard)
    if not selected:
        raise InputError("no scenario matches the selection" if scenarios else "no scenarios found")
    known = {s.id for s in scenarios}
    for sid in sorted(set(expected) - known):
        print(f"warning: {display_path(args.expected_failures)}: {sid!r} is not a known scenario ID", file=sys.stderr)

    engine = Engine(engine_spec, schemas, timeout=args.timeout)
    # Asked for a perft divide only when a count scenario fails (started lazily).
    diagnosis = Engine(parse_engine_spec("reference"), schemas, timeout=args.timeout)
    progress = Progress(len(selected), out, quiet=args.quiet)
    started = time.perf_counter()
    results: list[Result] = []
    interrupted: BaseException | None = None
    with terminable():
        try:
            jobs = parallel.jobs_wanted(args.jobs)
            if jobs > 1:
                results = parallel.run_parallel(selected, engine_spec, schemas, spec, expected, args.timeout,
                                                jobs, progress.result)
            runner = ScenarioRunner(engine, spec, expected, diagnosis)
            for scenario in selected if jobs == 1 else ():
                progress.start(scenario)
                result = runner.run(scenario)
                results.append(result)
                progress.result(result)
                if args.fail_fast and result.bad:
                    break
        except KeyboardInterrupt as exc:  # SIGINT, or SIGTERM through terminable()
            interrupted = exc
        finally:
            progress.finish()
            try:
                engine.close()
                diagnosis.close()
            except KeyboardInterrupt:  # a second Ctrl-C while stopping: terminable() kills it
                pass
    duration = time.perf_counter() - started

    info = engine.info
    name = f"{info.name} {info.version}" if info else args.engine
    out.write(terminal_safe(f"\nengine: {name} ({args.engine})") + "\n")
    details = failure_details(results, show_stderr=not args.no_stderr)
    if details:
        out.write("\n" + details + "\n\n")
    out.write(summary_table(results) + "\n")
    bad = [r for r in results if r.status in BAD_STATUSES]
    out.write(f"\n{len(results)} scenario(s) in {duration:.2f} s: {closing_line(results)}\n")
    stopped = None if interrupted is None else signal_name(interrupted)
    if stopped:
        out.write(f"interrupted by {stopped} after {len(results)} of {len(selected)} scenario(s)\n")
    problems = write_reports(args.json, args.junit, results, args.engine, info, duration, len(selected), stopped)
    for problem in problems:
        print(f"error: {terminal_safe(problem)}", file=sys.stderr)
    if interrupted is not None:
        return exit_status(interrupted)
    if problems:
        return EXIT_INPUT
    return EXIT_FAILED if bad else EXIT_OK


def cmd_smoke(args: argparse.Namespace, out: TextIO) -> int:
    spec_dir = (args.spec or default_spec_dir()).resolve()
    engine_spec = dataclasses.replace(parse_engine_spec(args.engine), env=tuple(args.engine_env))
    check_engine_command(engine_spec)
    engine = Engine(engine_spec, load_checked_schemas(spec_dir), timeout=args.timeout)
    with terminable():
        try:
            report = smoke(engine, load_spec_data(spec_dir))
        finally:
            engine.close()
    out.write(terminal_safe(f"smoke test of {args.engine}") + "\n")
    buffer = io.StringIO()
    report.write(buffer)
    out.write(terminal_safe(buffer.getvalue()))  # engine messages may hold escapes
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
            print("error: " + terminal_safe(str(problem)).replace("\n", "\\n"), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt as exc:
        print("interrupted", file=sys.stderr)
        return exit_status(exc)


if __name__ == "__main__":
    raise SystemExit(main())
