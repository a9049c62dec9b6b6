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
import importlib
import io
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from . import corpus, merge, parallel
from .adapters import ENGINE_SPEC_HELP, EngineSpec, parse_engine_spec
from .corpus import corpus_identity
from .engine import Engine
from .errors import InputError
from .expected import load_expected_failures
from .fuzz import cli as fuzz_cli
from .listeners import Collector, Listeners
from .loader import BODY_KINDS, Filters, Scenario
from .paths import DEFAULT_SCENARIOS_DIR, default_spec_dir, display_path
from .report import Progress, terminal_safe
from .reporters import REPORTERS, TerminalReporter
from .results import RunRecord
from .safety import check_engine_command, check_output_paths, exit_status, signal_name, terminable, timeout_value
from .site import build as site
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
    for reporter in REPORTERS:
        run.add_argument(reporter.flag, dest=reporter.dest(), metavar="PATH", type=Path, help=reporter.help)
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
    merge.add_merge_parser(sub)
    corpus.add_corpus_parser(sub)
    site.add_site_parser(sub)
    return parser


def _filters(args: argparse.Namespace) -> Filters:
    return Filters(tuple(args.ids), tuple(args.clauses), tuple(args.areas), tuple(args.tags),
                   tuple(args.files), tuple(args.kinds))


def _load(args: argparse.Namespace) -> tuple[Suite, list[Scenario]]:
    """The suite (spec and scenarios, checked) and the scenarios the filters select."""
    suite = Suite.load(args.spec, args.scenarios)
    for warning in suite.spec.warnings:
        print(warning, file=sys.stderr)
    return suite, suite.select(_filters(args))


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


def check_python_engine(spec: EngineSpec) -> None:
    """Refuse a ``python:`` engine whose module cannot be imported or has no such factory (exit 2), before running.

    The module is imported here, once: the in-process adapter would import it at
    the first scenario anyway, and report the same failure under every one.
    """
    if spec.kind != "python":
        return
    try:
        target: object = importlib.import_module(spec.module)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - whatever the engine's import raises is its problem
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise InputError(f"engine {spec.text!r}: cannot import {spec.module!r}: {type(exc).__name__}: {first}") from None
    for part in spec.factory.split("."):
        if not hasattr(target, part):
            raise InputError(f"engine {spec.text!r}: module {spec.module!r} has no attribute {spec.factory!r}")
        target = getattr(target, part)
    if not callable(target):
        raise InputError(f"engine {spec.text!r}: {spec.module}.{spec.factory} is not callable")


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    engine_spec = dataclasses.replace(parse_engine_spec(args.engine), env=tuple(args.engine_env))
    check_engine_command(engine_spec)
    check_python_engine(engine_spec)
    check_output_paths({r.flag: getattr(args, r.dest()) for r in REPORTERS})
    expected = load_expected_failures(args.expected_failures) if args.expected_failures else {}
    suite, selected = _load(args)
    corpus = corpus_identity(selected, _filters(args), args.scenarios)
    shard = parallel.parse_shard(args.shard)
    selected = parallel.shard(selected, args.shard)
    if not selected:
        raise InputError("no scenario matches the selection" if suite.scenarios else "no scenarios found")
    known = {s.id for s in suite.scenarios}
    for sid in sorted(set(expected) - known):
        print(f"warning: {display_path(args.expected_failures)}: {sid!r} is not a known scenario ID", file=sys.stderr)
    jobs = parallel.jobs_wanted(args.jobs)

    engine = suite.engine(engine_spec, args.timeout)
    collected = Collector()
    progress = Progress(len(selected), out, quiet=args.quiet)
    reporters = [r(getattr(args, r.dest())) for r in REPORTERS if getattr(args, r.dest()) is not None]
    started = time.perf_counter()
    interrupted: BaseException | None = None
    with terminable():
        try:
            # collected before shown: a signal between the two never loses a result the terminal showed
            suite.run(engine, selected, expected, timeout=args.timeout, listeners=[collected, progress],
                      jobs=jobs, fail_fast=args.fail_fast)
        except KeyboardInterrupt as exc:  # SIGINT, or SIGTERM through terminable()
            interrupted = exc
        finally:
            try:
                engine.close()
            except KeyboardInterrupt:  # a second Ctrl-C while stopping: terminable() kills it
                pass
    stopped = None if interrupted is None else signal_name(interrupted)
    info = engine.info or collected.info  # in a parallel run, a worker's engine answered
    record = RunRecord(collected.ordered(selected), args.engine, info, time.perf_counter() - started,
                       len(selected), stopped, shard, corpus)
    Listeners([progress, TerminalReporter(out, show_stderr=not args.no_stderr), *reporters]).run_finished(record)
    problems = [r.problem for r in reporters if r.problem]
    for problem in problems:
        print(f"error: {terminal_safe(problem)}", file=sys.stderr)
    if interrupted is not None:
        return exit_status(interrupted)
    if problems:
        return EXIT_INPUT
    return EXIT_FAILED if any(r.bad for r in record.results) else EXIT_OK


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
            return merge.cmd_merge(args, out)
        if args.command == "corpus":
            return corpus.cmd_corpus(args, out)
        if args.command == "site":
            return site.cmd_site(args, out)
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
