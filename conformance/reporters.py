"""Reporters: what a finished run becomes (the terminal summary, a JSON report, JUnit XML).

Every reporter is a :class:`~conformance.listeners.Listener` that writes at
``run_finished``, and each one that writes a file declares its command-line
flag in :data:`REPORTERS`: the CLI makes its ``--json``/``--junit`` options and
checks their paths from that table, so a new format is one class here.

A JSON run report (``spec/schema/report/run.schema.json``) says what it is:
its ``kind`` (``run``), its ``version``, the engine and protocol, the
``shard`` (``{index, count}`` or ``null``), the ``corpus`` it ran (the IDs
selected before sharding, their digest and the filters) and whether it is
``complete``; ``hakka-conformance merge`` checks each of them.
"""

from __future__ import annotations

import json
import platform
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar, TextIO

from . import PROTOCOL_VERSION
from .engine import EngineInfo
from .listeners import Listener
from .loader import area_sort_key
from .paths import make_own_folder
from .report import closing_line, counts, failure_details, summary_table, terminal_safe
from .results import ERROR, FAIL, SKIP, TIMEOUT, XFAIL, XPASS, Result, RunRecord

REPORT_FORMAT = "hakka-conformance-report"
REPORT_VERSION = 2
"""Version of the JSON run report. 2 added ``kind``, ``shard``, ``corpus`` and ``complete``."""


class Reporter(Listener):
    """A report of a run, written when the run ends; ``problem`` says why it could not be."""

    flag: ClassVar[str] = ""
    """The command-line option that asks for this report (``--json``), taking its path."""
    help: ClassVar[str] = ""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem: str | None = None

    @classmethod
    def dest(cls) -> str:
        return cls.flag.lstrip("-").replace("-", "_")

    def write(self, record: RunRecord) -> None:
        raise NotImplementedError

    def run_finished(self, record: RunRecord) -> None:
        try:
            make_own_folder(self.path)
            self.write(record)
        except (OSError, ValueError) as exc:
            self.problem = f"{self.flag} {self.path}: cannot write the report: {getattr(exc, 'strerror', None) or exc}"


def engine_json(label: str, info: EngineInfo | None) -> dict[str, Any]:
    """The engine as a report names it; ``null`` fields for an engine that never answered ``hello``."""
    known: dict[str, Any] = info.as_json() if info else {}
    return {"spec": label, "name": known.get("name"), "version": known.get("version"),
            "protocol": known.get("protocol"), "options": known.get("options"), **known}


def run_json(record: RunRecord) -> dict[str, Any]:
    """The JSON run report of ``record``."""
    results = list(record.results)
    return {
        "format": REPORT_FORMAT,
        "kind": "run",
        "version": REPORT_VERSION,
        "protocol": PROTOCOL_VERSION,
        "engine": engine_json(record.engine_label, record.info),
        "shard": None if record.shard is None else {"index": record.shard[0], "count": record.shard[1]},
        "corpus": record.corpus,
        "complete": record.complete,
        "runner": {"python": platform.python_version()},
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "duration": round(record.duration, 3),
        "summary": counts(results),
        "areas": {area: counts([r for r in results if r.area == area])
                  for area in sorted({r.area for r in results}, key=area_sort_key)},
        "results": [r.as_json() for r in results],
        "run": {"complete": record.complete, "interrupted": record.interrupted, "selected": record.selected},
    }


class JsonReporter(Reporter):
    flag = "--json"
    help = "write a JSON report (spec/schema/report/run.schema.json)"

    def write(self, record: RunRecord) -> None:
        self.path.write_text(json.dumps(run_json(record), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


class JUnitReporter(Reporter):
    """JUnit XML: one testcase per scenario, classname = rule area.

    fail / xpass → <failure>; error / timeout → <error>; skip / xfail → <skipped>.
    """

    flag = "--junit"
    help = "write a JUnit XML report"

    def write(self, record: RunRecord) -> None:
        results = list(record.results)
        c = counts(results)
        suites = ET.Element("testsuites", name="hakka-conformance")
        suite = ET.SubElement(suites, "testsuite", {
            "name": f"hakka-conformance[{record.engine_label}]",
            "tests": str(len(results)),
            "failures": str(c[FAIL] + c[XPASS]),
            "errors": str(c[ERROR] + c[TIMEOUT]),
            "skipped": str(c[SKIP] + c[XFAIL]),
            "time": f"{record.duration:.3f}",
        })
        # the corpus release it ran, as every report records it (conformance/corpus.py), and an interruption
        corpus = record.corpus or {}
        props = [(f"corpus.{key}", str(corpus[key])) for key in ("version", "content") if corpus.get(key)]
        props += [("interrupted", record.interrupted)] if record.interrupted else []
        if props:
            element = ET.SubElement(suite, "properties")
            for name, value in props:
                ET.SubElement(element, "property", name=name, value=value)
        for r in results:
            _testcase(suite, r)
        ET.indent(suites)
        ET.ElementTree(suites).write(self.path, encoding="utf-8", xml_declaration=True)


def _testcase(suite: ET.Element, r: Result) -> None:
    case = ET.SubElement(suite, "testcase", {
        "classname": r.area, "name": r.id, "file": r.file, "line": str(r.line), "time": f"{r.duration:.6f}"})
    body = "\n".join(filter(None, [
        f"at: {r.where}" if r.at else "", f"action: {r.action}" if r.action else "",
        f"key: {r.key}" if r.key else "", *r.diff]))
    if r.status in (FAIL, XPASS):
        ET.SubElement(case, "failure", message=_xml_safe(r.reason), type=str(r.status)).text = _xml_safe(body)
    elif r.status in (ERROR, TIMEOUT):
        ET.SubElement(case, "error", message=_xml_safe(r.reason), type=str(r.status)).text = _xml_safe(body)
    elif r.status == SKIP:
        ET.SubElement(case, "skipped", message=_xml_safe(r.reason))
    elif r.status == XFAIL:
        ET.SubElement(case, "skipped", message=_xml_safe(f"expected failure: {r.expected_failure or r.reason}"),
                      type="xfail")
    if r.stderr:
        ET.SubElement(case, "system-err").text = _xml_safe(r.stderr)


def _xml_safe(text: str) -> str:
    """Drop characters XML 1.0 cannot carry (engines may print anything)."""
    return "".join(ch for ch in text if ch in "\t\n\r" or (" " <= ch <= "\ud7ff") or ("\ue000" <= ch <= "\ufffd")
                   or ("\U00010000" <= ch <= "\U0010ffff"))


REPORTERS: tuple[type[Reporter], ...] = (JsonReporter, JUnitReporter)
"""The file reporters, each with its command-line flag: the CLI's report options come from here."""


class TerminalReporter(Listener):
    """The end of a run on the terminal: the engine, each failure, the table per area, the closing line."""

    def __init__(self, stream: TextIO, show_stderr: bool = True) -> None:
        self.stream = stream
        self.show_stderr = show_stderr

    def run_finished(self, record: RunRecord) -> None:
        out, results, info = self.stream, list(record.results), record.info
        name = f"{info.name} {info.version}" if info else record.engine_label
        out.write(terminal_safe(f"\nengine: {name} ({record.engine_label})") + "\n")
        details = failure_details(results, show_stderr=self.show_stderr)
        if details:
            out.write("\n" + details + "\n\n")
        out.write(summary_table(results) + "\n")
        out.write(f"\n{len(results)} scenario(s) in {record.duration:.2f} s: {closing_line(results)}\n")
        if record.interrupted:
            out.write(f"interrupted by {record.interrupted} after {len(results)} of {record.selected} scenario(s)\n")
