"""No process, thread or descriptor outlives what started it (issue 13, items 2 and 11)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

import pytest

from conformance.adapters import SubprocessAdapter, engine_environment
from conformance.errors import AdapterError

from .hostile_helpers import HERE, SCENARIOS, cli_env, engine_spec, processes_with


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_eleven_engines_that_leave_a_child_on_their_pipes_leak_no_thread_descriptor_or_process(marker):
    # Before: each fault was a `timeout`, left its child running, and leaked a thread and descriptors
    # (13 threads and 21 descriptors after 11 faults, against 2 and 10).
    argv = [sys.executable, str(HERE / "hostile_engine.py"), "child-pipes", marker]
    threads, fds = threading.active_count(), _fds()
    started = time.monotonic()
    for _ in range(11):
        adapter = SubprocessAdapter(argv, timeout=10)
        adapter.start()
        assert adapter.request({"cmd": "hello", "protocol": 1})["ok"] is True
        with pytest.raises(AdapterError, match="exited with status 0"):
            adapter.request({"cmd": "state"})
        adapter.close()
    assert time.monotonic() - started < 20  # never waited for a timeout
    time.sleep(0.2)
    assert processes_with(marker) == []
    assert threading.active_count() == threads
    assert _fds() == fds


def _start_runner(tmp_path, engine):
    argv = [sys.executable, "-m", "conformance.cli", "run", "--engine", engine, *SCENARIOS, "--timeout", "60",
            "--json", str(tmp_path / "r.json"), "--junit", str(tmp_path / "r.xml")]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(),
                            cwd=tmp_path)


def _wait_for(predicate, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("sig, status, name", [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "SIGINT")])
def test_a_signal_to_the_runner_kills_the_engine_and_writes_the_reports_marked_interrupted(
        tmp_path, marker, sig, status, name):
    # Before: SIGTERM left the hung engine running with parent 1; SIGINT wrote no report.
    runner = _start_runner(tmp_path, engine_spec("cmd", "hang", marker))
    try:
        # The hang strikes at the first scenario's `state`: wait for the engine to be stuck in it.
        assert _wait_for(lambda: processes_with(marker)), "the engine never started"
        time.sleep(1.0)
        runner.send_signal(sig)
        out, err = runner.communicate(timeout=30)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == status, err
    assert "Traceback" not in err
    time.sleep(0.2)
    survivors = processes_with(marker)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert survivors == []
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["run"]["interrupted"] == name and report["run"]["complete"] is False
    assert report["run"]["selected"] == 8
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite is not None
    prop = suite.find("properties/property[@name='interrupted']")
    assert prop is not None
    assert prop.get("value") == name
    assert f"interrupted by {name}" in out


def test_a_signal_after_some_scenarios_keeps_their_results(tmp_path, marker):
    # The hang is at the first scenario; run the patterns first so some results exist.
    argv = [sys.executable, "-m", "conformance.cli", "run", "--engine", engine_spec("cmd", "hang", marker),
            *SCENARIOS[2:], *SCENARIOS[:2], "--timeout", "60", "--json", str(tmp_path / "r.json")]
    runner = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(),
                              cwd=tmp_path)
    try:
        assert _wait_for(lambda: processes_with(marker))
        time.sleep(1.5)
        runner.send_signal(signal.SIGINT)
        runner.communicate(timeout=30)
    finally:
        if runner.poll() is None:
            runner.kill()
    report = json.loads((tmp_path / "r.json").read_text())
    assert len(report["results"]) == 6 and report["run"]["interrupted"] == "SIGINT"
    assert processes_with(marker) == []


def test_the_engine_gets_a_minimal_environment_and_more_only_when_asked(monkeypatch):
    monkeypatch.setenv("CI_SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("ENGINE_FLAVOUR", "spicy")
    show_env = ("import json, os, sys; sys.stdin.readline(); "
                "print(json.dumps({'ok': True, 'env': dict(os.environ)}), flush=True)")
    adapter = SubprocessAdapter([sys.executable, "-c", show_env], timeout=10, env=engine_environment())
    adapter.start()
    env = adapter.request({"cmd": "hello"})["env"]
    adapter.kill()
    assert "CI_SECRET_TOKEN" not in env and "ENGINE_FLAVOUR" not in env
    assert env.get("PATH") == os.environ.get("PATH")
    assert engine_environment(["ENGINE_FLAVOUR", "MODE=fast"])["ENGINE_FLAVOUR"] == "spicy"
    assert engine_environment(["MODE=fast"])["MODE"] == "fast"
    # The default of a SubprocessAdapter is the minimal environment too.
    adapter = SubprocessAdapter([sys.executable, "-c", show_env], timeout=10)
    adapter.start()
    assert "CI_SECRET_TOKEN" not in adapter.request({"cmd": "hello"})["env"]
    adapter.kill()
