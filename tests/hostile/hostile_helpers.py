"""Helpers of the fault-injection suite: run the CLI on a hostile engine, find what it left running."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
EXAMPLES = REPO / "conformance" / "scenarios" / "examples"
# calling.yaml first: its trajectories meet the faults; the pattern scenarios after them show
# whether the run recovered.
SCENARIOS = ["--scenarios", str(EXAMPLES / "calling.yaml"), "--scenarios", str(EXAMPLES / "patterns.yaml")]
N_SCENARIOS = 8


def processes_with(marker: str) -> list[int]:
    """PIDs of live processes with ``marker`` as one of their arguments (zombies are dead: not counted).

    A whole argument: the runner's own command line holds the marker only inside its ``cmd:…`` engine spec.
    """
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline.split(b"\0") and state != "Z":
            found.append(int(entry))
    return found


def engine_spec(kind: str, mode: str, marker: str) -> str:
    if kind == "cmd":
        return "cmd:" + shlex.join([sys.executable, str(HERE / "hostile_engine.py"), mode, marker])
    return f"python:hostile_engine:make_{mode.replace('-', '_')}"


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH", "")]))
    return env


@dataclass
class Run:
    status: int
    seconds: float
    stdout: str
    stderr: str
    figures: dict[str, Any]
    report: dict[str, Any]
    junit: ET.Element
    survivors: list[int]

    @property
    def statuses(self) -> list[str]:
        return [r["status"] for r in self.report["results"]]


def run_cli(tmp_path: Path, engine: str, marker: str, *extra: str, timeout: float = 0.5) -> Run:
    figures_path, json_path, junit_path = tmp_path / "figures.json", tmp_path / "r.json", tmp_path / "r.xml"
    argv = [sys.executable, str(HERE / "measured_cli.py"), str(figures_path), "run", "--engine", engine,
            *SCENARIOS, "--timeout", str(timeout), "--json", str(json_path), "--junit", str(junit_path), *extra]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=cli_env(), cwd=tmp_path)
    seconds = time.monotonic() - started
    time.sleep(0.2)
    survivors = processes_with(marker)
    for pid in survivors:  # do not let a failing test leave them behind either
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(json_path.read_text(encoding="utf-8"))
    return Run(done.returncode, seconds, done.stdout, done.stderr, json.loads(figures_path.read_text()),
               report, ET.parse(junit_path).getroot(), survivors)


def new_marker() -> str:
    return f"hostile-{uuid.uuid4().hex}"
