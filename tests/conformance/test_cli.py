"""The command line: exit statuses, one line per problem, reports; never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from conftest import EXAMPLES, REPO, fake_cmd

from conformance.cli import main

SCRIPTED = "python:inprocess:ScriptedSession"
SELECT = ["--scenarios", str(EXAMPLES / "patterns.yaml"), "--scenarios", str(EXAMPLES / "calling.yaml")]


def test_run_all_good_exits_0_with_summary(capsys):
    assert main(["run", "--engine", SCRIPTED, *SELECT]) == 0
    out = capsys.readouterr().out
    assert "PASS    example-pattern-run-of-three" in out  # plain lines when not a TTY
    assert "SKIP    example-pattern-single-other-suit-any-suit-rule: requires D7=any-suit" in out
    assert "engine: scripted-fake 0" in out
    assert "PAT       5     0      0        0     1      0      0      6" in out
    assert "0 failed" in out


def test_run_with_failures_exits_1_and_writes_reports(tmp_path, capsys):
    report, junit = tmp_path / "r.json", tmp_path / "j.xml"
    code = main(["run", "--engine", fake_cmd("crash-on-act"), *SELECT, "--json", str(report), "--junit", str(junit)])
    assert code == 1
    out = capsys.readouterr().out
    assert "ERROR example-calling-everybody-passes" in out
    assert "engine stderr:" in out and "| fake: segmentation fault (pretend)" in out
    data = json.loads(report.read_text())
    assert data["engine"]["name"] == "scripted-fake" and data["engine"]["spec"].startswith("cmd:")
    by_id = {r["id"]: r for r in data["results"]}
    crashed = by_id["example-calling-everybody-passes"]
    assert crashed["status"] == "error" and crashed["clauses"] == ["CALL-1", "CALL-6", "DEAL-3"]
    assert "segmentation fault" in crashed["stderr"] and crashed["duration"] >= 0
    assert crashed["transcript"][-1]["request"]["cmd"] == "act"
    assert data["summary"]["error"] == 1 and data["areas"]["PAT"]["pass"] == 5
    root = ET.parse(junit).getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert cases["example-calling-everybody-passes"].get("classname") == "CALL"
    assert cases["example-calling-everybody-passes"].find("error") is not None
    assert cases["example-pattern-single-other-suit-any-suit-rule"].find("skipped") is not None


def test_expected_failures_make_the_run_pass_and_xpass_fails_it(tmp_path, capsys):
    xf = tmp_path / "xf.yaml"
    xf.write_text("example-calling-everybody-passes: crashes on act\nexample-count-calling-two-plies: crashes\n")
    assert main(["run", "--engine", fake_cmd("crash-on-act"), *SELECT, "--expected-failures", str(xf)]) == 1
    out = capsys.readouterr().out
    assert "XPASS example-count-calling-two-plies" in out and "remove it from the list" in out
    assert "XFAIL   example-calling-everybody-passes" in out


def test_filters_and_fail_fast(capsys):
    assert main(["run", "--engine", SCRIPTED, *SELECT, "--area", "CALL", "--kind", "count"]) == 0
    out = capsys.readouterr().out
    assert "1 scenario(s)" in out


@pytest.mark.parametrize("argv, message", [
    (["run", "--engine", "bogus"], "bad engine spec 'bogus': expected reference, reference-subprocess"),
    (["run", "--engine", "python:nocolon"], "expected python:MODULE:FACTORY"),
    (["run", "--engine", "cmd:"], "no command after cmd:"),
    (["run", "--engine", "cmd:'unclosed"], "No closing quotation"),
    (["run", "--engine", SCRIPTED, "--scenarios", "/no/such/dir"], "/no/such/dir: no such file or directory"),
    (["run", "--engine", SCRIPTED, *SELECT, "--id", "nothing-*"], "no scenario matches the selection"),
    (["run", "--engine", SCRIPTED, *SELECT, "--expected-failures", "/no/xf.txt"], "expected-failures file not found"),
    (["list", "--spec", "/no/spec"], "spec directory not found"),
])
def test_bad_input_exits_2_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_invalid_scenario_file_exits_2_naming_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("scenarios:\n  - id: x\n    title: t\n    clauses: [PAT-1]\n    pattern: {classify: Sup3, expect: maybe}\n")
    assert main(["check", "--scenarios", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {bad}:5: scenario x: 'maybe' is not one of ['run', 'set', 'single', 'none'] "
                   "(at /scenarios/0/pattern/expect)"]


def test_list_and_check(capsys):
    assert main(["list", *SELECT, "--tag", "perft"]) == 0
    out = capsys.readouterr().out
    assert "example-count-calling-two-plies" in out and "1 scenario(s)" in out
    assert main(["list", *SELECT, "--ids-only", "--clause", "PAT-6"]) == 0
    assert capsys.readouterr().out.split() == [
        "example-pattern-single-same-suit-beats", "example-pattern-single-other-suit-same-suit-rule",
        "example-pattern-single-other-suit-any-suit-rule"]
    assert main(["check", *SELECT]) == 0
    assert "ok: 8 scenario(s) in 2 file(s) are valid" in capsys.readouterr().out


def test_usage_error_exits_2():
    with pytest.raises(SystemExit) as info:
        main(["run", "--timeout", "soon"])
    assert info.value.code == 2


def test_console_entry_point_bad_yaml_has_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("scenarios: [\n")
    proc = subprocess.run([sys.executable, "-m", "conformance.cli", "check", "--scenarios", str(bad)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: {bad}:2: invalid YAML")
    assert "Traceback" not in proc.stderr


def test_run_help_documents_engine_specs(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    for spec in ("reference-subprocess", "python:MODULE:FACTORY", "cmd:COMMAND"):
        assert spec in out
