"""The site's data: run reports read and checked, grouped by engine and by corpus version."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..corpus import version_key
from ..errors import InputError
from ..fuzz.merge import check_report as check_fuzz_report
from ..merge import FUZZ_FORMAT, check_run_report, load_report, run_validator
from ..results import BAD_STATUSES, PASS

UNKNOWN_VERSION = "unknown"
"""The corpus version of a report written before corpus releases."""


def slug(text: str) -> str:
    """A file name for an engine: ``hakka-rust 0.3`` → ``hakka-rust-0-3``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "engine"


@dataclass
class RunReport:
    """One run report as the site shows it."""

    path: Path
    data: dict[str, Any]
    index: int = 0
    """Its order among the reports of its engine (0 = oldest)."""

    @property
    def engine(self) -> dict[str, Any]:
        return dict(self.data["engine"])

    @property
    def name(self) -> str:
        return str(self.engine.get("name") or self.engine["spec"])

    @property
    def key(self) -> str:
        return slug(self.name)

    @property
    def corpus_version(self) -> str:
        return str(self.data["corpus"].get("version") or UNKNOWN_VERSION)

    @property
    def created(self) -> str:
        return str(self.data.get("created", ""))

    @property
    def results(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in self.data["results"]}

    def counts(self, results: list[dict[str, Any]] | None = None) -> tuple[int, int, int]:
        """(passed, failed, skipped): failed counts every status that fails a run; xfail counts as skipped."""
        chosen = self.data["results"] if results is None else results
        passed = sum(1 for r in chosen if r["status"] == PASS)
        bad = sum(1 for r in chosen if r["status"] in BAD_STATUSES)
        return passed, bad, len(chosen) - passed - bad

    def area_results(self, area: str) -> list[dict[str, Any]]:
        return [r for r in self.data["results"] if r["area"] == area]

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [r for r in self.data["results"] if r["status"] in BAD_STATUSES]

    @property
    def skipped(self) -> list[dict[str, Any]]:
        return [r for r in self.data["results"] if r["status"] not in BAD_STATUSES and r["status"] != PASS]

    @property
    def label(self) -> str:
        return f"{self.path.name} ({self.created or 'no date'})"


def status_word(status: str) -> str:
    """The column a status falls in: passed, failed or skipped."""
    return "passed" if status == PASS else "failed" if status in BAD_STATUSES else "skipped"


@dataclass
class Engine:
    """An engine's reports, oldest first; ``current`` is the one the site shows."""

    key: str
    reports: list[RunReport] = field(default_factory=list)
    fuzz: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)

    @property
    def current(self) -> RunReport:
        return self.reports[-1]


@dataclass
class SiteData:
    version: str
    """The corpus version of the site: the newest of the reports, or the one asked for."""
    engines: dict[str, Engine]
    notes: list[str]

    @property
    def main(self) -> list[Engine]:
        """Engines whose current report is of the site's corpus version."""
        return [e for e in self.engines.values() if e.current.corpus_version == self.version]

    @property
    def others(self) -> list[Engine]:
        """Engines whose current report is of another corpus version: shown apart, never mixed in."""
        return [e for e in self.engines.values() if e.current.corpus_version != self.version]


def _order(version: str) -> tuple[int, tuple[int, int, int], bool, str]:
    """Oldest first; a release after its own ``+modified`` runs (build metadata has no precedence in a version,
    but the site must count the release, and whichever of equals came last in a set is no choice)."""
    try:
        return 1, version_key(version), "+" not in version, version
    except InputError:
        return 0, (0, 0, 0), False, version


def load(paths: list[Path], version: str | None = None) -> SiteData:
    """Read and check every report (run reports against their schema), and group them by engine."""
    validator = run_validator()
    runs: list[RunReport] = []
    fuzz: list[tuple[Path, dict[str, Any]]] = []
    for path in paths:
        data = load_report(path)
        if data["format"] == FUZZ_FORMAT:
            check_fuzz_report(data, str(path))
            fuzz.append((path, data))
            continue
        check_run_report(data, str(path), validator)
        runs.append(RunReport(path, data))
    if not runs:
        raise InputError("no run report given: the site is built from `hakka-conformance run --json` reports")
    versions = sorted({r.corpus_version for r in runs}, key=_order)
    chosen = version or versions[-1]
    if chosen not in versions:
        raise InputError(f"--corpus-version {chosen}: no report is of that corpus version ({', '.join(versions)})")
    engines: dict[str, Engine] = {}
    for report in runs:
        engines.setdefault(report.key, Engine(report.key)).reports.append(report)
    for engine in engines.values():
        engine.reports.sort(key=lambda r: (r.corpus_version == chosen, _order(r.corpus_version), r.created))
        for i, report in enumerate(engine.reports):
            report.index = i
    notes = [f"{r.path}: a report of corpus {r.corpus_version}, not {chosen}: shown apart as such"
             for r in runs if r.corpus_version != chosen]
    by_spec = {slug(str(e.current.engine.get("spec"))): e for e in engines.values()}
    for path, data in fuzz:
        engine_data = data.get("engine") or {}
        target = engines.get(slug(str(engine_data.get("name") or ""))) or by_spec.get(slug(str(engine_data.get("spec"))))
        if target is None:
            notes.append(f"{path}: a fuzz report of {engine_data.get('spec')!r}, an engine no run report names: left out")
            continue
        target.fuzz.append((path, data))
    return SiteData(chosen, dict(sorted(engines.items())), notes)


def fuzz_summary(data: dict[str, Any]) -> dict[str, Any]:
    """What a fuzz report says in a line: hands played, disagreements found, outcome classes reached."""
    lanes = [lane for lane in data.get("lane_results") or [] if isinstance(lane, dict)]
    hands = sum(len(lane.get("hands") or []) for lane in lanes)
    found = [lane["found"] for lane in lanes if lane.get("found")]
    classes = [str(c) for c in data.get("classes") or []]
    tags = {str(tag) for lane in lanes for hand in lane.get("hands") or [] if len(hand) > 1 for tag in hand[1] or []}
    return {"hands": hands, "disagreements": len(found), "complete": bool(data.get("complete")),
            "seed": data.get("seed"), "classes": len(classes), "reached": sum(1 for c in classes if c in tags),
            "unreached": [c for c in classes if c not in tags]}


def clauses_of(result: dict[str, Any]) -> list[str]:
    """The clauses a failure is filed under: those behind the failing key first, else the scenario's."""
    return list(result.get("rules") or result.get("clauses") or ["?"])


def by_clause(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Failures grouped under the first clause each names (the one behind its failing key)."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        out[clauses_of(r)[0]].append(r)
    return dict(out)
