"""Running the corpus in several processes or shards, and merging the JSON reports of shards.

``hakka-conformance run --jobs N`` runs the selected scenarios in N processes,
each with its own engine (started by the process; an engine is one
conversation), and reports the results in the order of the selection: the same
results as one process, durations aside. ``--shard I/N`` keeps every N-th
scenario of the selection starting at the I-th, so a CI matrix of N machines
runs the corpus once between them; ``hakka-conformance merge`` joins their
``--json`` reports (and the ``--report`` files of fuzz shards) into one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from .adapters import EngineSpec
from .errors import InputError
from .loader import Scenario
from .results import Result
from .specdata import SpecData


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="run scenarios in N processes, each with its own engine (default 1; 0 = one per CPU)")
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="run only scenarios I, I+N, I+2N, … of the selection (0 <= I < N); "
                             "join the shards' --json reports with `hakka-conformance merge`")


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    index, sep, total = text.partition("/")
    try:
        i, n = int(index), int(total)
    except ValueError:
        i, n = -1, 0
    if not sep or n < 1 or not 0 <= i < n:
        raise InputError(f"--shard is I/N with 0 <= I < N (e.g. 0/4), not {text!r}")
    return i, n


def shard(selected: list[Scenario], text: str | None) -> list[Scenario]:
    """The scenarios of shard ``I/N``: every N-th of the selection, from the I-th."""
    parsed = parse_shard(text)
    return selected if parsed is None else selected[parsed[0]::parsed[1]]


def jobs_wanted(jobs: int) -> int:
    if jobs < 0:
        raise InputError(f"--jobs must be >= 0, not {jobs}")
    if jobs == 0:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not Linux
            return os.cpu_count() or 1
    return jobs


_JOB: dict[str, Any] = {}


def _run_part(indices: list[int]) -> list[tuple[int, Result]]:
    from .adapters import parse_engine_spec
    from .engine import Engine
    from .runner import ScenarioRunner

    engine = Engine(_JOB["engine_spec"], _JOB["schemas"], timeout=_JOB["timeout"])
    diagnosis = Engine(parse_engine_spec("reference"), _JOB["schemas"], timeout=_JOB["timeout"])
    try:
        runner = ScenarioRunner(engine, _JOB["spec"], _JOB["expected"], diagnosis)
        return [(i, runner.run(_JOB["scenarios"][i])) for i in indices]
    finally:
        engine.close()
        diagnosis.close()


def run_parallel(scenarios: list[Scenario], engine_spec: EngineSpec, schemas: Any, spec: SpecData,
                 expected: dict[str, str], timeout: float | None, jobs: int,
                 on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Run ``scenarios`` in ``jobs`` forked processes; the results in the order of ``scenarios``.

    Each process takes every ``jobs``-th scenario (so long and short areas are
    spread) and starts its own engine.
    """
    parts = [list(range(j, len(scenarios), jobs)) for j in range(jobs)]
    parts = [p for p in parts if p]
    ctx = multiprocessing.get_context("fork")
    _JOB.update(engine_spec=engine_spec, schemas=schemas, spec=spec, expected=expected, timeout=timeout,
                scenarios=scenarios)
    results: dict[int, Result] = {}
    try:
        with ctx.Pool(len(parts)) as pool:
            for part in pool.imap_unordered(_run_part, parts):
                for i, result in part:
                    results[i] = result
                    if on_result is not None:
                        on_result(result)
    finally:
        _JOB.clear()
    return [results[i] for i in range(len(scenarios))]


# ------------------------------------------------------------------ merge


def add_merge_parser(sub: Any) -> argparse.ArgumentParser:
    merge: argparse.ArgumentParser = sub.add_parser(
        "merge", help="merge the JSON reports of shards (run --json, or fuzz --report) into one",
        description="Merge the JSON reports written by the shards of one run (`run --shard I/N --json F`) "
                    "or of one fuzz campaign (`fuzz --shard I/N --report F`) into one report.")
    merge.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    merge.add_argument("--out", "-o", type=Path, default=None, metavar="FILE", help="write the merged report here")
    return merge


def load_report(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read a JSON report: {exc}") from None
    if not isinstance(data, dict) or data.get("format") not in ("hakka-conformance-report", "hakka-fuzz-report"):
        raise InputError(f"{path}: not a report of hakka-conformance run --json or fuzz --report")
    return data


def merge_run_reports(reports: Sequence[dict[str, Any]], names: Sequence[str]) -> dict[str, Any]:
    """One run report from the reports of its shards: results joined, counts recomputed."""
    from .loader import area_sort_key
    from .results import STATUSES

    engines = {json.dumps(r.get("engine", {}).get("spec")) for r in reports}
    if len(engines) > 1:
        raise InputError("the reports are of different engines: " + ", ".join(sorted(engines)))
    seen: dict[str, str] = {}
    results: list[dict[str, Any]] = []
    for report, name in zip(reports, names, strict=True):
        for r in report.get("results", []):
            if r["id"] in seen:
                raise InputError(f"{name}: scenario {r['id']!r} is also in {seen[r['id']]} (overlapping shards?)")
            seen[r["id"]] = name
            results.append(r)

    def tally(items: list[dict[str, Any]]) -> dict[str, int]:
        return {s: sum(1 for r in items if r["status"] == s) for s in STATUSES}

    areas = sorted({r["area"] for r in results}, key=area_sort_key)
    merged = dict(reports[0])
    merged.update({
        "duration": round(max(float(r.get("duration", 0)) for r in reports), 3),
        "summary": tally(results),
        "areas": {a: tally([r for r in results if r["area"] == a]) for a in areas},
        "results": results,
        "merged_from": len(reports),
    })
    return merged


def cmd_merge(args: argparse.Namespace, out: TextIO) -> int:
    reports = [load_report(p) for p in args.reports]
    kinds = {r["format"] for r in reports}
    if len(kinds) > 1:
        raise InputError("cannot merge run reports with fuzz reports")
    names = [str(p) for p in args.reports]
    if kinds == {"hakka-fuzz-report"}:
        from .fuzz.merge import format_campaign, merge_fuzz_reports

        try:
            merged = merge_fuzz_reports(reports)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        out.write(format_campaign(merged) + "\n")
        status = 1 if merged_bad(merged) else 0
    else:
        merged = merge_run_reports(reports, names)
        summary = merged["summary"]
        out.write(f"{len(merged['results'])} scenario(s) from {len(reports)} report(s): "
                  + ", ".join(f"{n} {s}" for s, n in summary.items() if n) + "\n")
        status = 1 if any(summary.get(s) for s in ("fail", "error", "timeout", "xpass")) else 0
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(merged, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return status


def merged_bad(merged: dict[str, Any]) -> bool:
    from .fuzz.merge import campaign_of

    campaign = campaign_of(merged)
    return campaign.first is not None or campaign.failure_count > 0


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - used through the CLI
    parser = argparse.ArgumentParser(prog="hakka-conformance merge")
    sub = parser.add_subparsers(dest="command", required=True)
    add_merge_parser(sub)
    return cmd_merge(parser.parse_args(["merge", *(argv or sys.argv[1:])]), sys.stdout)
