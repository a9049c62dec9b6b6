"""Misbehaving engines never crash or stall the runner.

Each test runs scenarios against a fake engine (tests/conformance/fakes/)
that fails in one way; the faulty scenario gets ``error`` or ``timeout``
with the reason and the engine's stderr, and the run goes on with a
restarted engine (the next scenario passes).
"""

from __future__ import annotations

import time

from conftest import fake_cmd

TRAJ = "example-calling-everybody-passes"
PAT = "example-pattern-run-of-three"
COUNT = "example-count-calling-two-plies"


def test_correct_fake_passes(run, examples):
    results, engine = run(fake_cmd("correct"), [examples[TRAJ], examples[PAT], examples[COUNT]])
    assert [r.status for r in results] == ["pass", "pass", "pass"], [r.reason for r in results]
    assert engine.starts == 1


def test_crash_mid_scenario_is_an_error_with_stderr_and_the_run_goes_on(run, examples):
    results, engine = run(fake_cmd("crash-on-act"), [examples[TRAJ], examples[PAT]])
    crashed, after = results
    assert crashed.status == "error"
    assert "exited with status 3" in crashed.reason
    assert "segmentation fault (pretend)" in crashed.stderr
    assert crashed.at == "steps[1]" and crashed.action == "seat 1 reject 'call'"
    assert after.status == "pass"
    assert engine.starts == 2


def test_hang_is_a_timeout_and_the_engine_is_restarted(run, examples):
    started = time.monotonic()
    results, _engine = run(fake_cmd("hang-on-state"), [examples[TRAJ], examples[PAT]], timeout=0.5)
    assert time.monotonic() - started < 5
    hung, after = results
    assert hung.status == "timeout"
    assert "no answer to 'state' within 0.5 s" in hung.reason
    assert "thinking forever" in hung.stderr
    assert after.status == "pass"


def test_half_a_line_then_silence_is_a_timeout(run, examples):
    results, _ = run(fake_cmd("partial-line"), [examples[TRAJ], examples[PAT]], timeout=0.5)
    assert [r.status for r in results] == ["timeout", "pass"]


def test_garbage_on_stdout_is_an_error(run, examples):
    results, _ = run(fake_cmd("garbage"), [examples[TRAJ], examples[PAT]])
    assert results[0].status == "error"
    assert "not JSON" in results[0].reason and "just garbage" in results[0].reason
    assert results[1].status == "pass"


def test_schema_invalid_answer_is_an_error_naming_the_schema_violation(run, examples):
    results, _ = run(fake_cmd("schema-invalid"), [examples[TRAJ], examples[PAT]])
    assert results[0].status == "error"
    assert "invalid answer to 'state'" in results[0].reason
    assert "'to_act' is a required property" in results[0].reason
    assert results[1].status == "pass"


def test_answer_of_the_wrong_kind_is_an_error(run, examples):
    results, _ = run(fake_cmd("wrong-kind"), [examples[PAT], examples[TRAJ]])
    assert results[0].status == "error"
    assert "'pattern' is a required property" in results[0].reason
    assert results[1].status == "pass"


def test_other_protocol_version_is_an_error_for_every_scenario_and_gives_up_after_three(run, examples):
    scenarios = [examples[PAT], examples[TRAJ], examples[COUNT], examples[PAT]]
    results, engine = run(fake_cmd("protocol-99"), scenarios)
    assert [r.status for r in results] == ["error"] * 4
    assert "engine speaks protocol 99; the runner speaks 3 or 2 or 1" in results[0].reason
    assert engine.starts == 3
    assert "not retried" in results[3].reason


def test_stderr_is_attached_to_the_scenario_that_caused_it(run, examples):
    results, _ = run(fake_cmd("chatty"), [examples[TRAJ], examples[PAT]])
    assert [r.status for r in results] == ["pass", "pass"]
    assert "fake: got hello" in results[0].stderr and "fake: got act" in results[0].stderr
    assert results[1].stderr == "fake: got pattern\n"


def test_exit_at_startup_is_an_error_with_the_engine_message(run, examples):
    results, _engine = run(fake_cmd("exit-at-startup"), [examples[PAT], examples[TRAJ]])
    assert [r.status for r in results] == ["error", "error"]
    assert "exited with status 1" in results[0].reason
    assert "libhakka.so not found" in results[0].stderr
    assert "libhakka.so not found" in results[1].stderr  # restarted, failed again


def test_hang_at_hello_is_a_timeout(run, examples):
    results, _ = run(fake_cmd("hang-at-hello"), [examples[PAT]], timeout=0.5)
    assert results[0].status == "timeout"
    assert "engine start failed" in results[0].reason


def test_two_lines_for_one_request_is_an_error(run, examples):
    # The extra line is caught when it is already there (same read, or before the
    # next request); when it arrives later it is taken as the next answer, and the
    # shift shows as an invalid answer. Either way: an error, never a pass.
    results, _ = run(fake_cmd("two-lines"), [examples[PAT], examples[TRAJ]])
    assert [r.status for r in results] == ["error", "error"]
    for r in results:
        assert any(s in r.reason for s in ("more than one line", "without a request", "invalid answer"))


def test_missing_executable_is_an_error(run, examples):
    results, _ = run("cmd:/nonexistent/engine --stdio", [examples[PAT]])
    assert results[0].status == "error"
    assert "cannot start" in results[0].reason


def test_state_changed_by_a_rejected_action_is_a_failure(run, examples):
    results, _ = run(fake_cmd("reject-mutates"), [examples[TRAJ]])
    r = results[0]
    assert r.status == "fail" and r.key == "state"
    assert r.at == "steps[1]"
    assert any("tricks" in line for line in r.diff)


def test_wrong_error_kind_is_a_failure(run, examples):
    results, _ = run(fake_cmd("wrong-error"), [examples[TRAJ]])
    r = results[0]
    assert r.status == "fail" and r.key == "error"
    assert r.action == "seat 3 reject 'shout'"
    assert r.diff[0] == "expected: malformed"


def test_internal_error_answer_is_an_error_and_unsupported_is_a_skip(run, examples):
    results, _ = run(fake_cmd("internal"), [examples[COUNT]])
    assert results[0].status == "error" and "perft overflowed" in results[0].reason
    results, _ = run(fake_cmd("unsupported"), [examples[COUNT]])
    assert results[0].status == "skip" and "no perft here" in results[0].reason


def test_close_stops_the_process(run, examples):
    _results, engine = run(fake_cmd("correct"), [examples[PAT]])
    proc = engine.adapter._proc
    assert proc is not None
    engine.close()
    assert proc.poll() is not None
