"""An interrupted campaign keeps what was done (issue 20, item 2), with real signals and bounded waits.

``fuzz`` (one process, or ``--jobs 2``) stopped by SIGINT or SIGTERM, sent to the main process or to its
whole process group, writes its ``--report`` with every finished hand, marked incomplete, and exits
130/143; no worker process outlives it. A worker that dies (killed, or stopped by SIGINT like a ``run``
worker) ends the campaign at once, its lanes and the others' unfinished ones reported as errored.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.fuzz.merge import check_report

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0
"""The longest any campaign here may take to end once told to (a hang fails the test, never blocks it)."""


def start(report: Path, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "conformance.cli", "fuzz", "--engine", "reference", "--no-write",
               "--report", str(report), "--progress", *args]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def first_progress(process: subprocess.Popen[str]) -> None:
    """Wait for the first ``50 hands…`` line: hands are finished and reported by then."""
    assert process.stderr is not None
    line = process.stderr.readline()
    assert "hands" in line, line


def children(pid: int) -> list[int]:
    return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def alive(pids: list[int]) -> list[int]:
    out = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except OSError:
            continue
        if state != "Z":
            out.append(pid)
    return out


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"the campaign did not end within {WAIT:g} s")
    return process.returncode, out, err


def read(report: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    check_report(data, str(report))  # the published schema and every lane's hands in order, once
    return data


def hands(data: dict[str, Any]) -> int:
    return sum(len(lane["hands"]) for lane in data["lane_results"])


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find worker processes")
@pytest.mark.parametrize(("jobs", "sig", "to_group"), [
    ("1", signal.SIGINT, False), ("1", signal.SIGTERM, True),
    ("2", signal.SIGINT, False), ("2", signal.SIGTERM, False), ("2", signal.SIGINT, True), ("2", signal.SIGTERM, True),
], ids=lambda v: getattr(v, "name", str(v)))
def test_an_interrupted_campaign_reports_every_finished_hand(tmp_path: Path, jobs: str, sig: signal.Signals,
                                                             to_group: bool) -> None:
    report = tmp_path / "r.json"
    process = start(report, "--hands", "100000", "--jobs", jobs)
    first_progress(process)
    workers = children(process.pid)
    assert len(workers) == (2 if jobs == "2" else 0)
    if to_group:
        os.killpg(process.pid, sig)
    else:
        os.kill(process.pid, sig)
    status, _out, err = finish(process)
    assert status == 128 + sig, err
    assert f"interrupted ({sig.name})" in err
    data = read(report)
    assert data["complete"] is False and data["interrupted"] == sig.name
    assert 50 <= hands(data) < 100000
    time.sleep(0.2)
    assert not alive(workers), "a worker outlived the campaign"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find worker processes")
@pytest.mark.parametrize(("sig", "cause"), [(signal.SIGKILL, "killed by SIGKILL"), (signal.SIGINT, "stopped by SIGINT")],
                         ids=["SIGKILL", "SIGINT"])
def test_a_dead_worker_ends_the_campaign_at_once_with_its_lanes_errored(tmp_path: Path, sig: signal.Signals,
                                                                         cause: str) -> None:
    # Before: the other worker played its lanes to their end (here 100000 hands: the test timed out), and
    # SIGINT to a worker alone was ignored (the campaign ended complete) while it stops a `run` worker.
    report = tmp_path / "r.json"
    process = start(report, "--hands", "100000", "--jobs", "2")
    first_progress(process)
    victim, other = children(process.pid)
    os.kill(victim, sig)
    killed = time.monotonic()
    status, out, err = finish(process)
    assert time.monotonic() - killed < 15, "the campaign went on after its worker died"
    assert status == 1, err
    data = read(report)
    assert data["complete"] is False and data["interrupted"] is None
    lanes = data["lane_results"]
    assert lanes and all("error" in lane and not lane["done"] for lane in lanes)
    own = [lane for lane in lanes if lane["error"] == f"its worker process was {cause}"]
    ended = [lane for lane in lanes if lane["error"] == f"the campaign ended when another worker died "
                                                          f"(worker process was {cause})"]
    assert own and ended and len(own) + len(ended) == len(lanes), [lane["error"] for lane in lanes]
    assert 50 <= hands(data) < 100000
    assert "ERRORED" in out and cause in out
    assert "Traceback" not in err, err
    time.sleep(0.2)
    assert not alive([victim, other])


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find worker processes")
def test_no_worker_outlives_a_parent_killed_outright(tmp_path: Path) -> None:
    process = start(tmp_path / "r.json", "--hands", "100000", "--jobs", "2")
    first_progress(process)
    workers = children(process.pid)
    os.kill(process.pid, signal.SIGKILL)  # no handler runs: the kernel tells the workers (PR_SET_PDEATHSIG)
    process.communicate(timeout=WAIT)
    deadline = time.monotonic() + 10
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(workers), "a worker outlived its parent"
