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


def test_the_closing_line_counts_each_status_as_itself(tmp_path, capsys):
    # Before: one xpass printed "1 failed" while the table showed 0 fail; errors were "failed" too.
    xf = tmp_path / "xf.yaml"
    xf.write_text("example-count-calling-two-plies: listed\n")
    assert main(["run", "--engine", fake_cmd("crash-on-act"), *SELECT, "--expected-failures", str(xf)]) == 1
    closing = capsys.readouterr().out.strip().splitlines()[-1]
    assert closing.startswith("8 scenario(s) in ") and ": 5 passed, 0 failed, 1 error, 1 xpass, 1 skipped" in closing
    report = tmp_path / "r.json"
    assert main(["run", "--engine", SCRIPTED, *SELECT, "--id", "example-pattern-run-*", "--expected-failures", str(xf),
                 "--json", str(report)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(": 1 passed, 0 failed")


@pytest.mark.parametrize("source, words", [
    ("import no_such_module_of_hakka\n", ["cannot import 'broken_engine'", "ModuleNotFoundError",
                                          "no_such_module_of_hakka"]),
    ("def Engine(:\n", ["cannot import 'broken_engine'", "SyntaxError"]),
    ("raise RuntimeError('the engine needs a licence file')\n", ["RuntimeError: the engine needs a licence file"]),
    ("X = 1\n", ["module 'broken_engine' has no attribute 'Engine'"]),
])
def test_a_python_engine_that_cannot_be_imported_is_one_clear_error(tmp_path, monkeypatch, capsys, source, words):
    # Before: "0 passed, 525 failed" over 3,170 lines, exit 1.
    (tmp_path / "broken_engine.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "broken_engine", raising=False)
    assert main(["run", "--engine", "python:broken_engine:Engine", *SELECT]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: engine 'python:broken_engine:Engine': "), lines
    for word in words:
        assert word in lines[0]


def test_statuses_are_typed_and_none_can_be_made_up():
    from conformance.results import Result, Status

    # Text is refused by the type checker (hence the ignores) and checked at run time, as a report's is.
    assert Result("x", "xpass").status is Status.XPASS  # type: ignore[arg-type]
    assert Status.XPASS.bad and not Status.XFAIL.bad
    with pytest.raises(ValueError, match="'FAILED' is not a status"):
        Result("x", "FAILED")  # type: ignore[arg-type]


def test_the_report_flags_and_their_path_checks_come_from_the_reporters_table(tmp_path, monkeypatch, capsys):
    from conformance import cli
    from conformance.reporters import REPORTERS, Reporter
    from conformance.results import RunRecord

    class Ids(Reporter):
        flag = "--ids-file"
        help = "write the IDs run"

        def write(self, record: RunRecord) -> None:
            self.path.write_text("".join(f"{r.id} {r.status}\n" for r in record.results))

    monkeypatch.setattr(cli, "REPORTERS", (*REPORTERS, Ids))
    out = tmp_path / "ids.txt"
    assert cli.main(["run", "--engine", SCRIPTED, *SELECT, "--kind", "count", "--ids-file", str(out)]) == 0
    assert out.read_text() == "example-count-calling-two-plies pass\n"
    capsys.readouterr()
    assert cli.main(["run", "--engine", SCRIPTED, *SELECT, "--ids-file", str(tmp_path)]) == 2  # a directory
    assert f"--ids-file {tmp_path}: is a directory" in capsys.readouterr().err
    assert cli.main(["run", "--engine", SCRIPTED, *SELECT, "--json", str(out), "--ids-file", str(out)]) == 2
    assert "the same file as --json" in capsys.readouterr().err
