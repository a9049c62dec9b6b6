"""Reporting: progress, the summary table per rule area, failure details, JSON and JUnit."""

from __future__ import annotations

import json
import platform
import re
import shutil
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from . import PROTOCOL_VERSION
from .engine import EngineInfo
from .loader import Scenario, area_sort_key
from .results import BAD_STATUSES, ERROR, FAIL, PASS, SKIP, STATUSES, TIMEOUT, XFAIL, XPASS, Result

MAX_STDERR_SHOWN = 2000

# C0/C1 controls (but tab and newline), DEL, and the bidirectional overrides that can reorder a line.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """``text`` with control characters and ANSI escapes shown as ``\\x1b`` etc., never sent raw to a terminal.

    >>> terminal_safe("id\\x1b[2J\\rX")
    'id\\\\x1b[2J\\\\rX'
    """
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class Progress:
    """One updating line on a terminal; one plain line per scenario otherwise."""

    def __init__(self, total: int, stream: TextIO, tty: bool | None = None, quiet: bool = False) -> None:
        self.total = total
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self.quiet = quiet
        self.done = 0
        self.counts: Counter[str] = Counter()
        self._width = shutil.get_terminal_size((80, 20)).columns if self.tty else 80
        self._current = ""

    def start(self, scenario: Scenario) -> None:
        self._current = terminal_safe(scenario.id)
        if self.tty and not self.quiet:
            self._draw()

    _last_draw = 0.0

    def result(self, result: Result) -> None:
        self.done += 1
        self.counts[result.status] += 1
        if self.quiet:
            return
        if self.tty:
            if result.bad:
                self._clear()
                self.stream.write(terminal_safe(f"{result.status.upper():7} {result.id}: {result.reason}") + "\n")
                self._last_draw = 0.0
            self._draw()
        else:
            line = f"{result.status.upper():7} {result.id}"
            if result.status != PASS and result.reason:
                line += f": {result.reason}"
            self.stream.write(terminal_safe(line) + "\n")
            self.stream.flush()

    def _clear(self) -> None:
        self.stream.write("\r" + " " * (self._width - 1) + "\r")

    def _draw(self) -> None:
        now = time.monotonic()
        if now - self._last_draw < 0.05 and self.done < self.total:
            return  # at most 20 redraws a second: thousands of fast scenarios stay cheap
        self._last_draw = now
        bar_width = 24
        filled = bar_width * self.done // max(self.total, 1)
        bad = sum(self.counts[s] for s in BAD_STATUSES)
        text = (f"[{'#' * filled}{'.' * (bar_width - filled)}] {self.done}/{self.total}"
                f" pass {self.counts[PASS]} bad {bad} skip {self.counts[SKIP]} {self._current}")
        self.stream.write("\r" + text[: self._width - 1].ljust(self._width - 1))
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and not self.quiet:
            self._clear()
            self.stream.flush()


def counts(results: Iterable[Result]) -> dict[str, int]:
    c = Counter(r.status for r in results)
    return {s: c[s] for s in STATUSES}


def summary_table(results: list[Result]) -> str:
    by_area: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_area[r.area].append(r)
    header = ["area"] + list(STATUSES) + ["total"]
    rows = []
    for area in sorted(by_area, key=area_sort_key):
        c = counts(by_area[area])
        rows.append([area] + [str(c[s]) for s in STATUSES] + [str(len(by_area[area]))])
    c = counts(results)
    rows.append(["total"] + [str(c[s]) for s in STATUSES] + [str(len(results))])
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(header), rule] + [fmt(r) for r in rows[:-1]] + [rule, fmt(rows[-1])])


def rule_anchor(clause: str) -> str:
    """Where a clause is in the built rulebook, relative to its root (docs/_build/html)."""
    return f"rules/{clause.split('-')[0].lower()}.html#{clause.lower()}"


def failure_details(results: list[Result], show_stderr: bool = True) -> str:
    blocks = []
    for r in results:
        if not r.bad:
            continue
        lines = [f"{r.status.upper()} {r.id} ({r.file}:{r.line}) [{', '.join(r.clauses)}]"]
        if r.at:
            lines.append(f"  at:     {r.where}")
        if r.action:
            lines.append(f"  action: {r.action}")
        if r.key:
            lines.append(f"  key:    {r.key}")
        lines.append(f"  reason: {r.reason}")
        lines.append(f"  rules:  {', '.join(rule_anchor(c) for c in (r.rules or r.clauses))}")
        for d in r.diff:
            lines.append(f"    {d}")
        if show_stderr and r.stderr.strip():
            text = r.stderr.strip()
            if len(text) > MAX_STDERR_SHOWN:
                text = "…" + text[-MAX_STDERR_SHOWN:]
            lines.append("  engine stderr:")
            lines.extend(f"    | {line}" for line in text.splitlines())
        blocks.append("\n".join(terminal_safe(line) for line in lines))
    return "\n\n".join(blocks)


def write_json(path: Path, results: list[Result], engine_label: str, info: EngineInfo | None,
               duration: float, extra: dict[str, Any] | None = None) -> None:
    report = {
        "format": "hakka-conformance-report",
        "version": 1,
        "protocol": PROTOCOL_VERSION,
        "engine": {"spec": engine_label, **(info.as_json() if info else {})},
        "runner": {"python": platform.python_version()},
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "duration": round(duration, 3),
        "summary": counts(results),
        "areas": {area: counts([r for r in results if r.area == area])
                  for area in sorted({r.area for r in results}, key=area_sort_key)},
        "results": [r.as_json() for r in results],
        **(extra or {}),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_junit(path: Path, results: list[Result], engine_label: str, duration: float,
                interrupted: str | None = None) -> None:
    """JUnit XML: one testcase per scenario, classname = rule area.

    fail / xpass → <failure>; error / timeout → <error>; skip / xfail → <skipped>.
    """
    c = counts(results)
    suites = ET.Element("testsuites", name="hakka-conformance")
    suite = ET.SubElement(suites, "testsuite", {
        "name": f"hakka-conformance[{engine_label}]",
        "tests": str(len(results)),
        "failures": str(c[FAIL] + c[XPASS]),
        "errors": str(c[ERROR] + c[TIMEOUT]),
        "skipped": str(c[SKIP] + c[XFAIL]),
        "time": f"{duration:.3f}",
    })
    if interrupted:
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="interrupted", value=interrupted)
    for r in results:
        case = ET.SubElement(suite, "testcase", {
            "classname": r.area, "name": r.id, "file": r.file, "line": str(r.line), "time": f"{r.duration:.6f}"})
        body = "\n".join(filter(None, [
            f"at: {r.where}" if r.at else "", f"action: {r.action}" if r.action else "",
            f"key: {r.key}" if r.key else "", *r.diff]))
        if r.status in (FAIL, XPASS):
            ET.SubElement(case, "failure", message=_xml_safe(r.reason), type=r.status).text = _xml_safe(body)
        elif r.status in (ERROR, TIMEOUT):
            ET.SubElement(case, "error", message=_xml_safe(r.reason), type=r.status).text = _xml_safe(body)
        elif r.status == SKIP:
            ET.SubElement(case, "skipped", message=_xml_safe(r.reason))
        elif r.status == XFAIL:
            ET.SubElement(case, "skipped", message=_xml_safe(f"expected failure: {r.expected_failure or r.reason}"),
                          type="xfail")
        if r.stderr:
            ET.SubElement(case, "system-err").text = _xml_safe(r.stderr)
    ET.indent(suites)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def _xml_safe(text: str) -> str:
    """Drop characters XML 1.0 cannot carry (engines may print anything)."""
    return "".join(ch for ch in text if ch in "\t\n\r" or (" " <= ch <= "\ud7ff") or ("\ue000" <= ch <= "\ufffd")
                   or ("\U00010000" <= ch <= "\U0010ffff"))


def print_summary(results: list[Result], stream: TextIO = sys.stdout) -> None:
    stream.write(summary_table(results) + "\n")


def run_status(results: list[Result], selected: int, interrupted: str | None) -> dict[str, Any]:
    """What a report says of the run as a whole: complete, or interrupted after N of M scenarios."""
    return {"complete": interrupted is None and len(results) == selected, "interrupted": interrupted,
            "selected": selected}


def write_reports(json_path: Path | None, junit_path: Path | None, results: list[Result], engine_label: str,
                  info: EngineInfo | None, duration: float, selected: int,
                  interrupted: str | None = None) -> list[str]:
    """Write the JSON and JUnit reports asked for; each is attempted whatever became of the other.

    Returns one message per report that could not be written.
    """
    problems = []
    if json_path is not None:
        try:
            write_json(json_path, results, engine_label, info, duration,
                       extra={"run": run_status(results, selected, interrupted)})
        except (OSError, ValueError) as exc:
            problems.append(f"--json {json_path}: cannot write the report: {getattr(exc, 'strerror', None) or exc}")
    if junit_path is not None:
        try:
            write_junit(junit_path, results, engine_label, duration, interrupted)
        except (OSError, ValueError) as exc:
            problems.append(f"--junit {junit_path}: cannot write the report: {getattr(exc, 'strerror', None) or exc}")
    return problems
