"""``run --jobs N`` under signals: results stream back per scenario, nothing outlives the run, nothing hangs.

Real signals to real processes: the CLI in a session of its own, its workers
found as its children in /proc. Every wait is bounded, so a regression fails
instead of hanging the suite.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.listeners import Capture, Collector, Listener
from conformance.loader import Scenario
from conformance.results import Result
from conformance.suite import Suite

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds workers through /proc (Linux)")

REPO = Path(__file__).resolve().parents[2]


def _corpus_size() -> int:
    """The number of scenarios `run` runs by default (the corpus grows: never a number written here)."""
    from conformance.loader import load_scenarios
    from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
    from conformance.schemas import load_schemas
    from conformance.specdata import load_spec_data
    spec_dir = default_spec_dir()
    return len(load_scenarios([DEFAULT_SCENARIOS_DIR], load_schemas(spec_dir / "schema"), load_spec_data(spec_dir)))


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status  # a zombie has ended, whoever reaps it


class _Run:
    """``hakka-conformance run --jobs 2`` in its own session, its progress lines read as they come."""

    def __init__(self, tmp_path: Path, *extra: str) -> None:
        self.report = tmp_path / "r.json"
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "conformance.cli", "run", "--jobs", "2", "--json", str(self.report), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
            start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")

    def wait_for_results(self, count: int, within: float = 120.0) -> None:
        deadline = time.monotonic() + within
        while sum(1 for line in self.seen if line.startswith(("PASS", "FAIL", "ERROR"))) < count:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"fewer than {count} results within {within} s")
            if line == "":
                pytest.fail("the run ended before the signal")
            self.seen.append(line)

    def workers(self) -> list[int]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = _children(self.process.pid)
            if len(found) == 2:
                return found
            time.sleep(0.05)
        pytest.fail(f"expected 2 workers, found {_children(self.process.pid)}")

    def finish(self, within: float = 120.0) -> tuple[int, str]:
        try:
            _, err = self.process.communicate(timeout=within)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.communicate()
            pytest.fail(f"the run did not end within {within} s (a hang)")
        return self.process.returncode, err

    def kill_all(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.communicate()


def _gone(pids: list[int], within: float = 10.0) -> list[int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


@pytest.mark.parametrize("sig, target, status", [
    (signal.SIGINT, "main", 130), (signal.SIGTERM, "main", 143),
    (signal.SIGINT, "group", 130), (signal.SIGTERM, "group", 143)])
def test_a_signal_keeps_every_result_streamed_so_far_and_ends_every_worker(
        tmp_path: Path, sig: signal.Signals, target: str, status: int) -> None:
    # Before: results came back only when a whole part finished: 0 of 525 kept after a SIGINT mid-run.
    run = _Run(tmp_path)
    try:
        run.wait_for_results(15)
        workers = run.workers()
        if target == "main":
            os.kill(run.process.pid, sig)
        else:
            os.killpg(run.process.pid, sig)
        code, err = run.finish(60)
    finally:
        run.kill_all()
    assert code == status, err
    assert "Traceback" not in err  # with the group's signal, terminate()'s SIGTERM reaches a worker already stopping
    assert _gone(workers) == []
    report = json.loads(run.report.read_text())
    assert report["complete"] is False and report["run"]["interrupted"] == signal.Signals(sig).name
    jsonschema.validate(report, json.loads((REPO / "spec/schema/report/run.schema.json").read_text()))
    assert len(report["results"]) >= 15  # at least every result the progress showed before the signal
    assert len(report["results"]) < _corpus_size()
    assert len({r["id"] for r in report["results"]}) == len(report["results"])


def test_a_worker_stops_at_the_first_signal_and_ignores_every_later_one() -> None:
    # Before: the main process's terminate() (SIGTERM) reached a worker already stopping on the group's
    # signal, raised again in its `except` clause, and Process._bootstrap printed a traceback (1 run in 30).
    from conformance.parallel import _StopOnce
    from conformance.safety import Terminated
    for first, raised in ((signal.SIGTERM, Terminated), (signal.SIGHUP, Terminated), (signal.SIGINT, KeyboardInterrupt)):
        stop = _StopOnce()
        with pytest.raises(raised) as caught:
            stop(first, None)
        assert caught.type is raised
        for later in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            stop(later, None)  # raises nothing: the worker is already stopping
        assert stop.stopping


_SIGNALLED_AT_FORK = """
import os, signal, sys
from conformance.safety import terminable
from conformance.suite import Suite
suite = Suite.load()
chosen = suite.select(kinds=("trajectory",))[:4]
# every forked worker gets SIGTERM before multiprocessing's bootstrap has run a line of the worker
os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGTERM))
with terminable():
    results = suite.run("reference", chosen, jobs=2)
for r in results:
    print(r.status, r.reason)
"""


def test_a_signal_landing_before_the_worker_runs_ends_it_quietly(tmp_path: Path) -> None:
    # Before: a signal in the bootstrap (before the worker's handler was set) raised in
    # multiprocessing's code, which printed "Process hakka-worker-0:" and a traceback.
    done = subprocess.run([sys.executable, "-c", _SIGNALLED_AT_FORK], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 4
    assert all(line.startswith("error worker ") and "was stopped by SIGTERM before this scenario ran" in line
               for line in lines), lines



_FUZZ_SIGNALLED_AT_FORK = """
import os, signal, sys
from conformance.cli import main
os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGTERM))
sys.exit(main(["fuzz", "--engine", "reference", "--no-write", "--hands", "8", "--jobs", "2"]))
"""


def test_a_signal_landing_before_a_fuzz_worker_runs_ends_it_quietly(tmp_path: Path) -> None:
    # The fuzz pool (conformance/fuzz/workers.py) had the same window: the SIGTERM was printed as an
    # ignored exception and lost, and the worker played on.
    done = subprocess.run([sys.executable, "-c", _FUZZ_SIGNALLED_AT_FORK], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    errored = [line for line in done.stdout.splitlines() if " ERRORED after 0 hands" in line]
    assert len(errored) == 8 and all("worker process was stopped by SIGTERM" in line for line in errored), done.stdout


def test_no_worker_outlives_a_main_process_killed_outright(tmp_path: Path) -> None:
    run = _Run(tmp_path)
    try:
        run.wait_for_results(5)
        workers = run.workers()
        os.kill(run.process.pid, signal.SIGKILL)  # no handler, no finally: the workers must see it themselves
        run.finish(30)
        assert _gone(workers) == []
    finally:
        for pid in _children(run.process.pid):
            os.kill(pid, signal.SIGKILL)
        run.kill_all()


@pytest.mark.parametrize("sig, cause", [(signal.SIGKILL, "was killed by SIGKILL"),
                                        (signal.SIGINT, "was stopped by SIGINT")])
def test_a_worker_that_dies_leaves_its_scenarios_as_errors_naming_why(
        tmp_path: Path, sig: signal.Signals, cause: str) -> None:
    # Before: one pool worker stopped by SIGINT left the main process waiting forever.
    run = _Run(tmp_path, "-q")
    try:
        time.sleep(0.1)
        workers = run.workers()
        deadline = time.monotonic() + 60
        while not run.report.exists() and time.monotonic() < deadline:
            # -q prints no progress: wait for the worker to be running scenarios (its CPU time grows)
            if int(Path(f"/proc/{workers[0]}/stat").read_text().split()[13]) > 50:
                break
            time.sleep(0.05)
        os.kill(workers[0], sig)
        code, err = run.finish(180)
    finally:
        run.kill_all()
    assert code == 1, err
    report = json.loads(run.report.read_text())
    assert report["complete"] is True and len(report["results"]) == _corpus_size()
    lost = [r for r in report["results"] if r["at"] == "worker"]
    assert lost, "the dead worker's unfinished scenarios are errors"
    assert all(r["status"] == "error" and f"worker 0 (pid {workers[0]}) {cause}" in r["reason"] for r in lost)
    # Only the scenario the worker was in when it died says so (none, if it died between two); every other
    # one of its part says it never ran (issue 27: each said "while running this scenario").
    running = [r for r in lost if r["reason"].endswith(f"{cause} while running this scenario")]
    assert len(running) <= 1 and len(lost) - len(running) >= 1
    assert all(r["reason"].endswith(f"{cause} before this scenario ran") for r in lost if r not in running)
    assert all(r["status"] == "pass" for r in report["results"] if r["at"] != "worker")
    assert _gone(workers) == []


class _Events(Listener):
    def __init__(self) -> None:
        self.events: list[str] = []

    def scenario_started(self, scenario: Scenario) -> None:
        self.events.append("start " + scenario.id)

    def step_begun(self, scenario: Scenario, at: str, line: int | None) -> None:
        self.events.append("step " + at)

    def request_sent(self, scenario: Scenario, message: dict[str, Any]) -> None:
        self.events.append("request " + message["cmd"])

    def answer_received(self, scenario: Scenario, message: dict[str, Any], answer: dict[str, Any]) -> None:
        self.events.append("answer " + message["cmd"])

    def scenario_finished(self, result: Result) -> None:
        self.events.append("result " + result.status)


@pytest.fixture(scope="module")
def suite() -> Suite:
    return Suite.load()


def test_the_loop_tells_listeners_every_request_answer_step_and_result(suite: Suite) -> None:
    plain = [s for s in suite.select(kinds=("trajectory",)) if not any("reject" in step for step in s.body["steps"])]
    chosen = suite.select(ids=("dec-d7-any-suit-higher-other-suit-beats",)) + plain[:1]
    events, capture = _Events(), Capture()
    results = suite.run("reference", chosen, listeners=[events, capture])
    assert [r.status for r in results] == ["pass", "pass"]
    first = events.events[:events.events.index("result pass") + 1]
    assert first == ["start " + chosen[0].id, "step hello", "step pattern", "request pattern", "answer pattern",
                     "result pass"]
    rest = events.events[len(first):]
    assert rest[0] == "start " + chosen[1].id and rest[-1] == "result pass"
    assert "step setup" in rest and rest.count("request start") == 1
    assert rest.count("request state") == rest.count("answer state") >= 1
    assert [m["cmd"] for m, _ in capture.exchanges[chosen[1].id]][:2] == ["start", "state"]
    assert all(a is not None and a["ok"] for _, a in capture.exchanges[chosen[1].id])


def test_a_parallel_run_streams_each_result_and_matches_one_process(suite: Suite) -> None:
    chosen = suite.select(kinds=("trajectory",))[:12]
    one = suite.run("reference", chosen)
    collected = Collector()
    several = suite.run("reference", chosen, listeners=[collected], jobs=3)
    assert [(r.id, r.status) for r in several] == [(r.id, r.status) for r in one]
    assert sorted(r.id for r in collected.results) == sorted(s.id for s in chosen)  # each heard once
    assert collected.info is not None and collected.info.name == "hakka-reference"


def test_fail_fast_stops_the_loop_at_the_first_bad_result(suite: Suite) -> None:
    chosen = suite.select(kinds=("trajectory",))[:5]
    results = suite.run("reference", chosen, expected_failures={chosen[1].id: "listed"}, fail_fast=True)
    assert [r.status for r in results] == ["pass", "xpass"]
