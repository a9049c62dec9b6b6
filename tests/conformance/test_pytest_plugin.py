"""The pytest plugin: inert without --hakka-engine, one item per scenario with it.

Each test runs pytest in a subprocess on a small project in a temporary
directory, the way a developer would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from conftest import EXAMPLES, FAKES, REPO

PLUGIN_INSTALLED = any(ep.value == "conformance.pytest_plugin" for ep in entry_points(group="pytest11"))


def pytest_run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(FAKES), str(REPO), env.get("PYTHONPATH", "")])
    plugin = [] if PLUGIN_INSTALLED else ["-p", "conformance.pytest_plugin"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *plugin, *args],
        cwd=project, env=env, capture_output=True, text=True, timeout=120)


def make_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "scenarios").mkdir(parents=True)
    for name in ("patterns.yaml", "calling.yaml"):
        shutil.copy(EXAMPLES / name, project / "scenarios" / name)
    (project / "test_plain.py").write_text("def test_plain():\n    assert True\n")
    (project / "pytest.ini").write_text("[pytest]\n")
    return project


def test_without_engine_option_nothing_is_collected(tmp_path):
    project = make_project(tmp_path)
    proc = pytest_run(project, "--collect-only", "-q", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "test_plain.py::test_plain" in proc.stdout
    assert "1 test collected" in proc.stdout
    assert "scenarios/" not in proc.stdout


def test_with_engine_each_scenario_is_an_item(tmp_path):
    project = make_project(tmp_path)
    proc = pytest_run(project, "--hakka-engine=python:inprocess:ScriptedSession",
                      "--hakka-scenarios=scenarios", "scenarios")
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "PASSED scenarios/patterns.yaml::example-pattern-run-of-three" in out
    assert "PASSED scenarios/calling.yaml::example-calling-everybody-passes" in out
    assert "SKIPPED" in out and "requires D7=any-suit" in out
    assert "7 passed, 1 skipped" in out
    assert "test_plain" not in out


def test_without_scenario_paths_the_scenarios_are_added(tmp_path):
    project = make_project(tmp_path)
    proc = pytest_run(project, "--hakka-engine=python:inprocess:ScriptedSession",
                      "--hakka-scenarios=scenarios", "-k", "PAT-6 or test_plain")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed, 1 skipped, 5 deselected" in proc.stdout
    assert "SKIPPED [1] scenarios/patterns.yaml:53: requires D7=any-suit" in proc.stdout


def test_failures_and_expected_failures(tmp_path):
    project = make_project(tmp_path)
    (project / "xf.txt").write_text(
        "example-pattern-single-other-suit-any-suit-rule  the table says no\n"
        "example-pattern-run-of-three  not really failing\n")
    proc = pytest_run(project, "--hakka-engine=python:inprocess:ConfigurableSession",
                      "--hakka-scenarios=scenarios", "--hakka-expected-failures=xf.txt", "scenarios")
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "XFAIL scenarios/patterns.yaml::example-pattern-single-other-suit-any-suit-rule" in out
    assert "[XPASS(strict)] not really failing" in out


def test_failure_report_shows_the_diff_and_stderr(tmp_path):
    project = make_project(tmp_path)
    fake = f"cmd:{sys.executable} {FAKES / 'fake_engine.py'} reject-mutates"
    proc = pytest_run(project, f"--hakka-engine={fake}", "--hakka-scenarios=scenarios",
                      "scenarios/calling.yaml", "-k", "everybody")
    out = proc.stdout
    assert proc.returncode == 1
    assert "FAIL example-calling-everybody-passes" in out
    assert "reason: the state changed after a rejected action" in out
    assert "tricks: before [0, 0, 0, 0]" in out


def test_bad_engine_spec_is_a_usage_error(tmp_path):
    project = make_project(tmp_path)
    proc = pytest_run(project, "--hakka-engine=nonsense", "scenarios")
    assert proc.returncode == 4
    assert "bad engine spec 'nonsense'" in proc.stderr
    assert "Traceback" not in proc.stderr
