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


def test_a_missing_script_is_named_first_with_the_engines_own_stderr(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path) -> None:
    import sys
    script = tmp_path / "no-such-engine.py"
    code, out = _smoke(capsys, f"cmd:{sys.executable} {script}")
    assert code == 1, out
    first = next(line for line in out.splitlines() if "PROBLEM" in line)
    assert f"the engine's command names '{script}', which does not exist" in first
    assert "can't open file" in out  # Python's own words, from the engine's stderr
    assert "fix the path in --engine" in out
    assert "answer {\"cmd\": \"hello\"" not in out  # not the advice for a wrong handshake


def test_node_saying_cannot_find_module_is_shown(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    import shutil
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code, out = _smoke(capsys, f"cmd:node {tmp_path / 'engine.js'}")
    assert code == 1 and "which does not exist" in out and "Cannot find module" in out, out


def test_an_engine_that_exits_at_once_is_told_so_with_its_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    import sys
    code, out = _smoke(capsys, f"cmd:{sys.executable} -c \"import sys; sys.exit('no config file')\"")
    assert code == 1, out
    assert "the engine exited before answering `hello`" in out and "no config file" in out
    assert "answer {\"cmd\": \"hello\"" not in out
