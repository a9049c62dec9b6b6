"""`hakka-conformance smoke`: a broken adapter is told what is wrong, with advice, in seconds."""

from __future__ import annotations

import pytest
from conftest import fake_cmd

from conformance.cli import main


def _smoke(capsys: pytest.CaptureFixture[str], engine: str) -> tuple[int, str]:
    code = main(["smoke", "--engine", engine, "--timeout", "3"])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("engine", ["reference", "reference-subprocess", "python:contract_engines:protocol_1"])
def test_a_working_engine_is_ready(capsys: pytest.CaptureFixture[str], engine: str) -> None:
    code, out = _smoke(capsys, engine)
    assert code == 0, out
    assert "smoke: ready for `hakka-conformance run`" in out and "PROBLEM" not in out
    assert "a hand played to its end" in out


def test_a_pattern_only_engine_is_ready_for_pattern_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _smoke(capsys, "python:contract_engines:only_pattern")
    assert code == 0 and "only pattern scenarios will run" in out and "start (" not in out


@pytest.mark.parametrize("mode, problem, advice", [
    ("hang-at-hello", "handshake", "answer {\"cmd\": \"hello\""),
    ("schema-invalid", "`state`", "answer `state` with every field"),
    ("garbage", "`state`", "answer `state`"),
    ("reject-mutates", "a refused action changed the state", "an error never changes state"),
    ("crash-on-act", "`act`: engine exited with status 3", "refuse an action out of turn"),
    ("unsupported", "count refused", "count declared"),
])
def test_each_broken_adapter_gets_its_problem_and_advice(capsys: pytest.CaptureFixture[str], mode: str,
                                                          problem: str, advice: str) -> None:
    code, out = _smoke(capsys, fake_cmd(mode))
    assert code == 1, out
    line = next((x for x in out.splitlines() if x.startswith("  PROBLEM") and problem in x), None)
    assert line is not None, out
    assert advice in out, out
