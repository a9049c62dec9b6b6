"""The ``fuzz`` command: ``python -m conformance.fuzz`` (and ``hakka-conformance fuzz``).

    python -m conformance.fuzz --engine cmd:"node my-engine.js" --hands 500 --seed 1
    python -m conformance.fuzz --engine python:tests.mutants.catalogue:clockwise --hands 200 --out /tmp/fuzz

Exit status: 0 when the candidate agreed with the reference on every hand,
1 when it disagreed, crashed or hung (a scenario is written under ``--out``),
2 for bad input (engine spec, options).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..adapters import ENGINE_SPEC_HELP
from ..errors import ConformanceError, InputError
from ..safety import (
    check_engine_command,
    check_output_paths,
    check_writable_dir,
    exit_status,
    positive_int,
    signal_name,
    terminable,
    timeout_value,
)
from .config import (
    CHECK_KINDS,
    DEFAULT_LANES,
    DEFAULT_OUT,
    CampaignConfig,
    CompareConfig,
    EngineConfig,
    FuzzConfig,
    OutputConfig,
    SplitConfig,
    StrategyConfig,
)
from .moves import SETUP_KINDS

if TYPE_CHECKING:
    from .search import SearchResult

DESCRIPTION = """\
Differential fuzzing: the reference engine plays random hands and whole games, and the candidate answers
the same requests; the first disagreement is shrunk and written as a YAML regression scenario (or, where no
scenario kind can replay it, as a trace).

The default campaign mixes, each only where the candidate's handshake (capabilities, protocol,
configurable) allows it:
  hands      single hands (explicit hands, a deck, a seed, the Five Tigers): state after every action,
             every seat's observe, and refused probes (same error kind, state and observe unchanged)
  games      whole games (--setup game), some opened with a hand the search found (a void hand, the Five
             Tigers, a 12-trick claim): the same comparisons across deals, every hand's outcomes counted
  setups     a setup to be refused (or accepted at a bound): the error kind, then state and observe
  counts     count (and divide) of a small depth at a state drawn from the hand's play: exact counts
  variants   a hand's actions respelled as the protocol allows: accepted alike, the same states
Every kind prints its coverage: what it sent and which of its classes it reached.

Fast modes: --states last, --observe last|none, --checks none, --setup KIND, --probe-percent 0;
playout (the default; --no-playout turns it off) lets the reference play a whole hand in one request.
"""


def parse_options(items: list[str]) -> dict[str, str] | None:
    if not items:
        return None
    options: dict[str, str] = {}
    for item in items:
        for part in item.replace(",", " ").split():
            decision, sep, option = part.partition("=")
            if not sep or not decision or not option:
                raise InputError(f"bad --options value {part!r}: expected Dn=OPTION, e.g. D7=any-suit")
            options[decision.strip().upper()] = option.strip()
    return options


def parse_checks(text: str) -> tuple[str, ...]:
    """``--checks``: side-check kinds, comma-separated, or ``none``."""
    if text.strip() == "none":
        return ()
    kinds = tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))
    unknown = [k for k in kinds if k not in CHECK_KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(f"--checks takes {', '.join(CHECK_KINDS)} (comma-separated) or none, "
                                         f"not {text!r}")
    return kinds


def configure(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--engine", required=True, metavar="ENGINE",
                        help="the candidate engine (see below)")
    parser.add_argument("--hands", type=positive_int, default=200, help="hands to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    parser.add_argument("--options", action="append", default=[], metavar="Dn=OPTION",
                        help="decision options to play under (repeatable, or comma-separated); "
                             "default: the options the candidate declares in hello")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"folder to write the scenario in (default ./{DEFAULT_OUT} in the working directory)")
    parser.add_argument("--no-write", action="store_true", help="write nothing, only report")
    parser.add_argument("--no-verify", action="store_true",
                        help="do not run the written scenario through the runner")
    parser.add_argument("--no-shrink", action="store_true", help="report the first disagreement as found")
    parser.add_argument("--shrink-seconds", type=float, default=60.0,
                        help="stop shrinking after this many seconds, keeping the smallest hand so far (default 60)")
    parser.add_argument("--no-observe", action="store_true", help="do not compare observations (--observe none)")
    parser.add_argument("--observe", choices=("every", "last", "none"), default=None,
                        help="compare the four seats' observations after every step (default, when the engine "
                             "declares observe), at the end of each hand only, or never")
    parser.add_argument("--states", choices=("every", "last"), default="every",
                        help="compare state after every step (default), or only at the end of each hand: faster, "
                             "and every act answer is still compared, but a wrong legal list is then caught only "
                             "by a probe or by its consequences")
    parser.add_argument("--search", choices=("guided", "hypothesis"), default="guided",
                        help="guided (default): lanes of random hands steered toward rule outcomes not yet "
                             "reached; hypothesis: Hypothesis draws every choice (one process)")
    parser.add_argument("--lanes", type=int, default=None, metavar="N",
                        help="independent streams a guided campaign is split into (default 8); "
                             "--jobs and --shard split lanes, so results do not depend on them")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="processes to play the lanes in (default 1; 0 = one per CPU)")
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="play only the lanes I, I+N, I+2N, … (0 <= I < N); merge the shards' --report "
                             "files with `hakka-conformance merge`")
    parser.add_argument("--report", type=Path, default=None, metavar="FILE",
                        help="write the campaign as JSON (every hand's outcomes, the first disagreement)")
    parser.add_argument("--no-batch", action="store_true",
                        help="talk to the engine step by step even if it declares the batch capability")
    parser.add_argument("--no-playout", action="store_true",
                        help="play every hand step by step, with probes (default: three hands in four, more once "
                             "the probes stop finding, are played by the reference in one batch, without probes: "
                             "about three times faster)")
    parser.add_argument("--isolate", action="store_true",
                        help="copy an in-process engine's messages through JSON (as the runner does) instead "
                             "of comparing its answers as they are")
    parser.add_argument("--probe-percent", type=int, default=15,
                        help="percent of steps that first try an action the reference refuses (default 15)")
    parser.add_argument("--setup", action="append", choices=SETUP_KINDS, default=[],
                        help="setup kinds to draw from (repeatable; default all: hands, seed, deck, tigers)")
    parser.add_argument("--checks", type=parse_checks, default=CHECK_KINDS, metavar="KINDS",
                        help="side checks the hands carry, comma-separated (default all: setup,count,variant,pattern,deals; "
                             "'none' for none): setup sends a setup to be refused (every seat's entry, seeds at and "
                             "past their bounds, decks, options, a game's deals; in a batch too) and compares the error "
                             "kind, then state and every seat's observe; pattern compares pattern's classify answer "
                             "for cards the hand played, as played and with one card changed; count compares count "
                             "(and divide, if declared) at a "
                             "state drawn from the hand's play; variant sends the hand's actions respelled as the "
                             "protocol allows (case, card order, short card forms, other white space); deals gives some games explicit "
                             "later deals (the 1-card hand drawn blind) or too few, and compares the refusal of the "
                             "move that reaches a bad or missing one. Each only if the candidate's "
                             "capabilities and protocol allow it")
    parser.add_argument("--game", action="store_true",
                        help="play whole four-hand games (dealer rotation, void hands, cumulative scores) in "
                             "lockstep instead of single hands; disagreements are written as game scenarios")
    parser.add_argument("--timeout", type=timeout_value, default=10.0,
                        help="seconds the candidate may take per request, above 0 and at most 3600 (default 10)")
    parser.add_argument("--validate", action="store_true",
                        help="validate every answer of the candidate against the protocol schemas (about 20 times slower; "
                             "by default every answer of one hand in 64, and any answer about to disagree)")
    parser.add_argument("--progress", action="store_true", help="print progress to stderr")
    if not any("--spec" in a.option_strings for a in parser._actions):
        parser.add_argument("--spec", type=Path, default=None, metavar="DIR",
                            help="the spec/ directory (schemas, clauses) for writing and checking scenarios")
    parser.epilog = ENGINE_SPEC_HELP
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``fuzz`` subcommand to the runner's CLI (``subparsers`` from ``add_subparsers``)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "fuzz", help="differential fuzzing against the reference engine", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    configure(parser)
    parser.set_defaults(func=run)
    return parser


def config_from_args(args: argparse.Namespace) -> FuzzConfig:
    from .guided import available_cpus, parse_shard

    try:
        shard = None if args.shard is None else parse_shard(args.shard)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    lanes = DEFAULT_LANES if args.lanes is None else args.lanes
    if lanes < 1:
        raise InputError(f"--lanes must be at least 1, not {lanes}")
    jobs = args.jobs if args.jobs > 0 else available_cpus()
    observe: bool | str | None = args.observe
    if args.no_observe:
        observe = "none"
    return FuzzConfig(
        engine=EngineConfig(engine=args.engine, timeout=args.timeout if args.timeout > 0 else None,
                            validate=args.validate, direct=not args.isolate,
                            batch=False if args.no_batch else None),
        campaign=CampaignConfig(hands=args.hands, seed=args.seed, lanes=lanes, options=parse_options(args.options),
                                setup_kinds=tuple(dict.fromkeys(args.setup)) or SETUP_KINDS, game=args.game,
                                probe_percent=max(0, min(100, args.probe_percent)), checks=args.checks),
        compare=CompareConfig(observe=observe, states=args.states),
        strategy=StrategyConfig(search=args.search, playout=not args.no_playout, shrink=not args.no_shrink,
                                shrink_seconds=args.shrink_seconds if args.shrink_seconds > 0 else None),
        split=SplitConfig(jobs=jobs, shard=shard),
        output=OutputConfig(out=None if args.no_write else args.out, verify=not args.no_verify, report=args.report,
                            spec_dir=args.spec),
    )


def run(args: argparse.Namespace) -> int:
    """Run the ``fuzz`` command; returns the exit status."""
    try:
        from .run import fuzz
    except ImportError as exc:
        print(f"error: the fuzz command needs Hypothesis ({exc}); pip install 'hypothesis>=6.100' "
              "or the package's dev extra", file=sys.stderr)
        return 2
    try:
        config = config_from_args(args)
        engine = config.engine.engine
        if isinstance(engine, str) and not engine.startswith("python:"):
            from ..adapters import parse_engine_spec
            check_engine_command(parse_engine_spec(engine))
        if config.output.out is not None:
            check_writable_dir("--out", config.output.out)
        if config.output.report is not None:
            check_output_paths({"--report": config.output.report})
        progress = None
        if getattr(args, "progress", False):
            def progress(result: SearchResult) -> None:
                if result.hands % 50 == 0:
                    print(f"  {result.hands} hands…", file=sys.stderr, flush=True)
        with terminable():  # SIGTERM ends the campaign like Ctrl-C: the report keeps the finished hands
            report = fuzz(config, progress)
    except ConformanceError as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        where = f"; the report {args.report} keeps the finished hands" if getattr(args, "report", None) else ""
        print(f"interrupted ({signal_name(exc)}){where}", file=sys.stderr)
        return exit_status(exc)
    print(report.format())
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = configure(argparse.ArgumentParser(prog="python -m conformance.fuzz", description=DESCRIPTION))
    return run(parser.parse_args(argv))
