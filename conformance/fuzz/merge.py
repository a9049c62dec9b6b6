"""Merging the ``--report`` files of a fuzz campaign's shards into the whole campaign's report.

Lanes share nothing, so the shards of one campaign (same engine, seed, hands,
lanes, options) hold disjoint lanes; merged, and cut at the first
disagreement over all lanes (each lane of the whole campaign stops there), they
are the report of the campaign played in one go.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .guided import Campaign, HandRecord, LaneResult, combine

SAME = ("engine", "seed", "hands", "lanes", "options", "observe", "probe_percent", "playout", "setup_kinds",
        "classes")
"""What the shards of one campaign have in common."""


def merge_fuzz_reports(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The whole campaign's report from its shards' (raises ValueError for shards of different campaigns)."""
    first = reports[0]
    for key in SAME:
        values = {repr(r.get(key)) for r in reports}
        if len(values) > 1:
            raise ValueError(f"the reports are not shards of one campaign: their {key} differ ({', '.join(sorted(values))})")
    lanes: dict[int, dict[str, Any]] = {}
    for report in reports:
        for lane in report.get("lane_results", []):
            if lane["lane"] in lanes:
                raise ValueError(f"lane {lane['lane']} is in two reports (overlapping shards?)")
            lanes[lane["lane"]] = lane
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
    merged["lane_results"] = trimmed
    merged["shard_lanes"] = sorted(lanes)
    return merged


def campaign_of(report: dict[str, Any]) -> Campaign:
    results = []
    for lane in report.get("lane_results", []):
        r = LaneResult(lane["lane"], [HandRecord(h[0], tuple(h[1]), h[2], h[3]) for h in lane["hands"]])
        if lane.get("found"):
            r.found_at, r.choices = lane["found"]["index"], lane["found"]["choices"]
            r.found = lane["found"]  # a summary, not a Disagreement
        results.append(r)
    return combine(results)


def format_campaign(report: dict[str, Any]) -> str:
    """The merged campaign in a few lines: hands, the first disagreement, failures, outcome coverage."""
    c = campaign_of(report)
    lanes = report.get("shard_lanes", [])
    lines = [f"fuzz (merged): {report['engine']} against the reference, seed {report['seed']}, "
             f"lanes {len(lanes)} of {report['lanes']}",
             f"hands: {c.hands}  actions: {c.actions}"]
    if len(lanes) != report["lanes"]:
        missing = sorted(set(range(report["lanes"])) - set(lanes))
        lines.append(f"warning: lanes {', '.join(map(str, missing))} are in no report: the campaign is incomplete")
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
    lines.append(f"outcome coverage: {len(classes) - len(unreached)}/{len(classes)} rule outcome classes reached "
                 f"in {c.hands} hand(s)")
    if unreached:
        lines.append("  UNREACHED: " + ", ".join(unreached))
    return "\n".join(lines)
