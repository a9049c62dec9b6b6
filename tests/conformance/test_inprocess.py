"""The in-process adapter (``python:MODULE:FACTORY``) turns engine faults into results too."""

from __future__ import annotations

import sys
import time

TRAJ = "example-calling-everybody-passes"
PAT = "example-pattern-run-of-three"


def test_scripted_session_passes_in_process(run, examples):
    results, engine = run("python:inprocess:ScriptedSession", [examples[TRAJ], examples[PAT]])
    assert [r.status for r in results] == ["pass", "pass"]
    assert engine.info is not None and engine.info.name == "scripted-fake"


def test_exception_in_handle_is_an_error_with_the_traceback(run, examples):
    results, engine = run("python:inprocess:Raising", [examples[TRAJ], examples[PAT]])
    assert results[0].status == "error"
    assert "RuntimeError: engine bug in state()" in results[0].reason
    assert "Traceback" in results[0].stderr and "cmd_state" in results[0].stderr
    assert results[1].status == "pass"
    assert engine.starts == 2  # a fresh session after the exception


def test_hang_in_handle_is_a_timeout_and_no_new_session_starts_while_the_thread_lives(run, examples):
    # A thread blocked in C (sleep) cannot be stopped: rather than pile up hung threads,
    # the engine is reported unavailable (issue 13, item 5).
    started = time.monotonic()
    results, _ = run("python:inprocess:Hanging", [examples[TRAJ], examples[PAT]], timeout=0.3)
    assert time.monotonic() - started < 3
    assert [r.status for r in results] == ["timeout", "timeout"]
    assert "still running a request that timed out" in results[1].reason and "cmd:" in results[1].reason
    assert sys.stderr is sys.__stderr__ or sys.stderr is not None  # redirection was undone


def test_answer_that_is_not_json_data_is_an_error(run, examples):
    results, _ = run("python:inprocess:NotJson", [examples[TRAJ]])
    assert results[0].status == "error" and "not JSON data" in results[0].reason


def test_prints_are_captured_as_diagnostics(run, examples, capsys):
    results, _ = run("python:inprocess:Printing", [examples[PAT]])
    assert results[0].status == "pass"
    assert "debug: hello" in results[0].stderr and "stray stdout" in results[0].stderr
    out, err = capsys.readouterr()
    assert "stray stdout" not in out and "debug:" not in err


def test_factory_that_raises_is_an_error(run, examples):
    results, _ = run("python:inprocess:broken_factory", [examples[PAT]])
    assert results[0].status == "error"
    assert "ImportError" in results[0].reason and "native module is missing" in results[0].reason


def test_unknown_module_or_factory_is_an_error_not_a_crash(run, examples):
    results, _ = run("python:no_such_module_xyz:Session", [examples[PAT]])
    assert results[0].status == "error" and "cannot import 'no_such_module_xyz'" in results[0].reason
    results, _ = run("python:inprocess:NoSuchFactory", [examples[PAT]])
    assert results[0].status == "error" and "has no attribute 'NoSuchFactory'" in results[0].reason


def test_in_process_messages_are_copies(run, examples):
    _results, engine = run("python:inprocess:ScriptedSession", [examples[TRAJ]])
    session = engine.adapter._session
    start = next(m for m in session.received if m["cmd"] == "start")
    start["setup"]["hands"].clear()  # mutating what the engine got does not touch the scenario
    assert examples[TRAJ].body["setup"]["hands"]
