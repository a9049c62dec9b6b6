"""What a run shows on a terminal: progress, the summary table per rule area, failure details, the closing line.

The reports written to files (JSON, JUnit) are in :mod:`conformance.reporters`.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import TextIO

from .compare import EVENTS_NOT_COMPARED_NOTE
from .listeners import Listener
from .loader import Scenario, area_sort_key
from .results import BAD_STATUSES, ERROR, FAIL, PASS, SKIP, STATUSES, TIMEOUT, XFAIL, XPASS, Result, RunRecord
from .runner import DIVIDE_NOT_COMPARED

MAX_STDERR_SHOWN = 2000

# C0/C1 controls (but tab and newline), DEL, and the bidirectional overrides that can reorder a line.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """``text`` with control characters and ANSI escapes shown as ``\\x1b`` etc., never sent raw to a terminal.

    >>> terminal_safe("id\\x1b[2J\\rX")
    'id\\\\x1b[2J\\\\rX'
    """
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class Progress(Listener):
    """One updating line on a terminal; one plain line per scenario otherwise (a listener of the run)."""

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

    def scenario_started(self, scenario: Scenario) -> None:
        self.start(scenario)

    def scenario_finished(self, result: Result) -> None:
        self.result(result)

    def run_finished(self, record: RunRecord) -> None:
        self.finish()

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


def print_summary(results: list[Result], stream: TextIO = sys.stdout) -> None:
    stream.write(summary_table(results) + "\n")


def closing_line(results: Sequence[Result]) -> str:
    """``N passed, N failed`` first (CI tooling reads those words), then every other status that occurred.

    Each status is counted as itself: an error, a timeout or an xpass fails the
    run, but it is not a failed scenario.

    >>> closing_line([Result("a", "pass")] * 6 + [Result("b", "xpass")])
    '6 passed, 0 failed, 1 xpass'
    >>> closing_line([Result("a", "fail"), Result("b", "error"), Result("c", "error"), Result("d", "skip")])
    '0 passed, 1 failed, 2 errors, 1 skipped (a capability, decision option or protocol version the engine lacks)'
    """
    counted = Counter(r.status for r in results)
    parts = [f"{counted.get(PASS, 0)} passed", f"{counted.get(FAIL, 0)} failed"]
    labels = {ERROR: ("error", "errors"), TIMEOUT: ("timeout", "timeouts"), XPASS: ("xpass", "xpass"),
              SKIP: ("skipped (a capability, decision option or protocol version the engine lacks)",) * 2,
              XFAIL: ("expected failure", "expected failures")}
    parts += [f"{counted[s]} {label[counted[s] != 1]}" for s, label in labels.items() if counted.get(s)]
    unseen = sum(1 for r in results if r.status == PASS and r.reason.startswith(f"passed; {EVENTS_NOT_COMPARED_NOTE}"))
    if unseen:
        parts.append(f"{unseen} passed with their events not compared (the engine does not declare `events`)")
    undivided = sum(1 for r in results if r.status == PASS and r.reason == DIVIDE_NOT_COMPARED)
    if undivided:
        parts.append(f"{undivided} passed with their divide not compared (the engine does not declare `divide`)")
    return ", ".join(parts)
