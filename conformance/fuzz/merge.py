"""Merging the ``--report`` files of a fuzz campaign's shards into the whole campaign's report.

Lanes share nothing, so the shards of one campaign (same engine, seed, hands,
lanes, strategy, mode, options) hold disjoint lanes; merged, and cut at the
first disagreement over all lanes (each lane of the whole campaign stops
there), they are the report of the campaign played in one go.

Nothing is merged on trust. Each report is checked against
``spec/schema/report/fuzz.schema.json`` and then for what a schema cannot say
(a lane of the campaign, a hand of its lane, each hand once, the lanes of its
shard); the reports must be of one campaign, each shard once; a campaign
missing a shard, or holding an interrupted one, is refused unless
``--allow-incomplete``, and the merged report then says it is incomplete.
Every refusal is a :class:`MergeError` naming the file and the field.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from ..adapters import json_depth_problem
from ..errors import InputError
from ..paths import default_spec_dir
from ..yamlsource import pointer_of
from .guided import Campaign, HandRecord, LaneResult, combine

SAME = ("engine", "strategy", "mode", "seed", "hands", "lanes", "options", "observe", "probe_percent", "playout",
        "setup_kinds", "checks", "classes")
"""What the shards of one campaign have in common: its identity."""
MAX_DEPTH = 32
"""A report nests about eight levels; anything much deeper is not one."""


class MergeError(InputError):
    """A report that cannot be merged: bad shape, of another campaign, a shard twice or missing."""


@lru_cache(maxsize=2)
def report_validator(spec_dir: Path | None = None) -> jsonschema.protocols.Validator:
    path = (spec_dir or default_spec_dir()) / "schema" / "report" / "fuzz.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    validator: jsonschema.protocols.Validator = jsonschema.Draft202012Validator(schema)
    return validator


def check_report(report: Any, name: str) -> None:
    """Raise MergeError naming ``name`` and the field if ``report`` is not a well-formed fuzz report."""
    problem = json_depth_problem(report, MAX_DEPTH)
    if problem:
        raise MergeError(f"{name}: not a fuzz report: it {problem}")
    errors = sorted(report_validator().iter_errors(report), key=lambda e: list(e.absolute_path))
    if errors:
        raise MergeError([f"{name}: {pointer_of(list(e.absolute_path)) or '/'}: {_short(e.message)}"
                          for e in errors[:5]])
    _check_lanes(report, name)
    if report["complete"]:
        _check_complete(report, name, {r["lane"]: r for r in report["lane_results"]})


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _check_lanes(report: dict[str, Any], name: str) -> None:
    lanes, hands, shard = report["lanes"], report["hands"], report["shard"]
    shard_lanes = report["shard_lanes"]
    if shard is not None:
        index, count = shard["index"], shard["count"]
        if index >= count:
            raise MergeError(f"{name}: /shard: shard {index}/{count}: the index must be below the count")
        if count > lanes:
            raise MergeError(f"{name}: /shard: a campaign of {lanes} lanes has at most {lanes} shards, not {count}")
        if shard_lanes != list(range(index, lanes, count)):
            raise MergeError(f"{name}: /shard_lanes: shard {index}/{count} of {lanes} lanes plays lanes "
                             f"{list(range(index, lanes, count))}, not {shard_lanes}")
    for i, lane in enumerate(shard_lanes):
        if lane >= lanes:
            raise MergeError(f"{name}: /shard_lanes/{i}: lane {lane} of a campaign of {lanes} lanes")
    seen_lanes: set[int] = set()
    for i, result in enumerate(report["lane_results"]):
        where = f"{name}: /lane_results/{i}"
        lane = result["lane"]
        if lane >= lanes:
            raise MergeError(f"{where}/lane: lane {lane} of a campaign of {lanes} lanes")
        if lane not in shard_lanes:
            raise MergeError(f"{where}/lane: lane {lane} is not one of this report's lanes {shard_lanes}")
        if lane in seen_lanes:
            raise MergeError(f"{where}/lane: lane {lane} is in the report twice")
        seen_lanes.add(lane)
        indices = [h[0] for h in result["hands"]]
        for j, index in enumerate(indices):
            if index >= hands or index % lanes != lane:
                raise MergeError(f"{where}/hands/{j}: hand {index} is not a hand of lane {lane} "
                                 f"(lane {lane} of {lanes} plays hands {lane}, {lane + lanes}, … below {hands})")
            if j and index <= indices[j - 1]:
                raise MergeError(f"{where}/hands/{j}: hand {index} "
                                 + ("repeated" if index in indices[:j] else "out of order")
                                 + ": each hand of a lane is played once, in order")
        found = result["found"]
        if found is not None and found["index"] not in indices:
            raise MergeError(f"{where}/found/index: the disagreement of hand {found['index']} is not one of the "
                             "lane's hands")


def _check_complete(report: dict[str, Any], name: str, results: dict[int, dict[str, Any]]) -> None:
    """A report that says ``complete`` holds every lane of its shard, each played to its end: every hand
    of the lane below the campaign's ``hands``, or up to the report's first disagreement (where every lane
    stops) — checked against the campaign's identity, not the report's word."""
    lanes, hands = report["lanes"], report["hands"]
    found = [r["found"]["index"] for r in results.values() if r["found"] is not None]
    last = min([hands - 1, *found])
    for lane in report["shard_lanes"]:
        result = results.get(lane)
        if result is None:
            raise MergeError(f"{name}: /lane_results: /complete is true, but lane {lane} of /shard_lanes has no "
                             "result (a lane lost?)")
        if not result["done"] or result.get("error") is not None:
            raise MergeError(f"{name}: /lane_results: /complete is true, but lane {lane} did not play to its end "
                             f"({result.get('error') or 'done: false'})")
        want = range(lane, last + 1, lanes)
        played = {h[0] for h in result["hands"]}
        gap = next((i for i in want if i not in played), None)
        if gap is not None:
            raise MergeError(f"{name}: /lane_results: /complete is true, but lane {lane} lacks hand {gap} "
                             f"(it plays {len(want)} hand(s): {lane}, {lane + lanes}, … up to {last})")


def _check_campaign(reports: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
    first, first_name = reports[0], names[0]
    for report, name in zip(reports[1:], names[1:], strict=True):
        for key in SAME:
            if report[key] != first[key]:
                raise MergeError(f"{name}: /{key}: not a shard of the campaign of {first_name}: its {key} differs "
                                 f"({_short(json.dumps(report[key]))} against {_short(json.dumps(first[key]))})")
    if first["strategy"] != "guided" and len(reports) > 1:
        raise MergeError(f"{first_name}: /strategy: a {first['strategy']} campaign plays in one process; "
                         "it has no shards to merge")
    shards: dict[tuple[int, int] | None, str] = {}
    for report, name in zip(reports, names, strict=True):
        shard = report["shard"]
        which = None if shard is None else (shard["index"], shard["count"])
        if which in shards:
            what = "the whole campaign" if which is None else f"shard {which[0]}/{which[1]}"
            raise MergeError(f"{name}: /shard: {what} is also {shards[which]}")
        shards[which] = name
    owner: dict[int, str] = {}
    for report, name in zip(reports, names, strict=True):
        for lane in report["shard_lanes"]:
            if lane in owner:
                raise MergeError(f"{name}: /shard_lanes: lane {lane} is also in {owner[lane]} (overlapping shards?)")
            owner[lane] = name


def merge_fuzz_reports(reports: Sequence[dict[str, Any]], names: Sequence[str] | None = None, *,
                       allow_incomplete: bool = False) -> dict[str, Any]:
    """The whole campaign's report from its shards' (raises MergeError, naming file and field, for a report
    that is malformed, of another campaign, or a duplicate; and, unless ``allow_incomplete``, for a campaign
    missing a shard or holding an incomplete one)."""
    names = list(names) if names is not None else [f"report {i + 1}" for i in range(len(reports))]
    for report, name in zip(reports, names, strict=True):
        check_report(report, name)
    _check_campaign(reports, names)
    first = reports[0]
    lanes: dict[int, dict[str, Any]] = {lane["lane"]: lane for report in reports for lane in report["lane_results"]}
    covered = sorted(lane for report in reports for lane in report["shard_lanes"])
    missing = sorted(set(range(first["lanes"])) - set(covered))
    partial = [name for report, name in zip(reports, names, strict=True) if not report["complete"]]
    if not allow_incomplete:
        if missing:
            raise MergeError(f"the campaign of {names[0]} is missing lanes {', '.join(map(str, missing))} of "
                             f"{first['lanes']} (a shard not given?); --allow-incomplete merges it anyway")
        if partial:
            raise MergeError([f"{name}: /complete: the report is incomplete (interrupted, or a lane errored); "
                              "--allow-incomplete merges it anyway" for name in partial])
    found = [lane["found"]["index"] for lane in lanes.values() if lane.get("found")]
    cutoff = min(found) if found else None
    trimmed = []
    for number in sorted(lanes):
        lane = dict(lanes[number])
        if cutoff is not None:
            lane["hands"] = [h for h in lane["hands"] if h[0] <= cutoff]
            if lane.get("found") and lane["found"]["index"] > cutoff:
                lane["found"] = None
        trimmed.append(lane)
    merged = {k: v for k, v in first.items() if k not in ("lane_results", "shard_lanes")}
    merged.update(lane_results=trimmed, shard_lanes=covered, shard=None, interrupted=None,
                  complete=not missing and not partial,
                  duration=round(max(float(r.get("duration", 0)) for r in reports), 3))
    if "duration" not in first:
        merged.pop("duration")
    if missing or partial:
        merged["allowed_incomplete"] = True
    return merged


def campaign_of(report: dict[str, Any]) -> Campaign:
    results = []
    for lane in report.get("lane_results", []):
        r = LaneResult(lane["lane"], [HandRecord(h[0], tuple(h[1]), h[2], h[3]) for h in lane["hands"]],
                       done=lane.get("done", True), error=lane.get("error"))
        if lane.get("found"):
            r.found_at, r.choices = lane["found"]["index"], lane["found"]["choices"]
            r.found = lane["found"]  # a summary, not a Disagreement
        results.append(r)
    return combine(results)


def merged_bad(merged: dict[str, Any]) -> bool:
    """Whether the merged campaign found something (a disagreement, a failure, an errored lane)."""
    campaign = campaign_of(merged)
    errored = any(lane.get("error") for lane in merged.get("lane_results", []))
    return campaign.first is not None or campaign.failure_count > 0 or errored


def format_campaign(report: dict[str, Any]) -> str:
    """The merged campaign in a few lines: hands, the first disagreement, failures, outcome coverage."""
    c = campaign_of(report)
    lanes = report.get("shard_lanes", [])
    lines = [f"fuzz (merged): {report['engine']['spec']} against the reference, seed {report['seed']}, "
             f"lanes {len(lanes)} of {report['lanes']}",
             f"hands: {c.hands}  actions: {c.actions}"]
    if len(lanes) != report["lanes"]:
        missing = sorted(set(range(report["lanes"])) - set(lanes))
        lines.append(f"INCOMPLETE (--allow-incomplete): lanes {', '.join(map(str, missing))} are in no report")
    elif not report.get("complete", True):
        lines.append("INCOMPLETE (--allow-incomplete): a shard was interrupted or lost a lane")
    for lane in report.get("lane_results", []):
        if lane.get("error"):
            lines.append(f"lane {lane['lane']} ERRORED: {lane['error']}")
    if c.failure_count:
        lines.append(f"candidate failures (crash, hang, protocol): {c.failure_count}")
        lines.extend(f"  {f}" for f in c.failures[:5])
    if c.first is None:
        lines.append("no disagreement")
    else:
        d: Any = c.first
        lines.append(f"first disagreement in hand {c.first_at}: {d['summary']}")
        lines.append("  actions: " + "; ".join(
            f"{s['seat']}:{s.get('do') or s.get('reject')}" for s in d["trace"]["steps"]))
    coverage: Counter[str] = c.coverage
    classes = report.get("classes", [])
    unreached = [k for k in classes if not coverage.get(k)]
    lines.append(f"outcome coverage: {len(classes) - len(unreached)}/{len(classes)} outcome classes (rules, games "
                 f"and request kinds) reached in {c.hands} hand(s)")
    if unreached:
        lines.append("  UNREACHED: " + ", ".join(unreached))
    return "\n".join(lines)


def merge_command(reports: Sequence[dict[str, Any]], names: Sequence[str], allow_incomplete: bool
                  ) -> tuple[dict[str, Any], str, int]:
    """``hakka-conformance merge`` of fuzz reports: the merged report, its text, and the exit status
    (0 nothing found; 1 a disagreement, failure or errored lane, or a campaign merged incomplete with
    ``--allow-incomplete``, as for run reports); raises MergeError (exit 2)."""
    merged = merge_fuzz_reports(reports, names, allow_incomplete=allow_incomplete)
    return merged, format_campaign(merged), 1 if merged_bad(merged) or not merged["complete"] else 0
