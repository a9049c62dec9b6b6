"""`.ci/run`, the CI entry point: it installs from scratch without touching a developer's `.venv`,
and runs both users' engines of ../shared/engines/ (issue 21, section 4)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CI = REPO / ".ci" / "run"


def test_ci_keeps_the_developers_venv_and_builds_its_own(tmp_path: Path) -> None:
    """Run .ci/run's setup in a copy of the clone, with a Python that only makes the venv's folder."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    clone = tmp_path / "clone"
    (clone / ".ci").mkdir(parents=True)
    shutil.copy(CI, clone / ".ci" / "run")
    (clone / ".venv" / "bin").mkdir(parents=True)
    (clone / ".venv" / "kept").write_text("the developer's environment")
    fake = tmp_path / "fake-python"
    # `fake-python -m venv DIR` makes DIR and nothing else; the install step after it then fails, ending the run.
    fake.write_text('#!/bin/sh\nif [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3"; exit 0; fi\nexit 1\n')
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "HAKKA_CI_VENV"} | {"PYTHON": str(fake)}
    done = subprocess.run(["bash", str(clone / ".ci" / "run")], cwd=clone, env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode != 0  # it stopped at the install, as the fake Python cannot install
    assert (clone / ".venv" / "kept").read_text() == "the developer's environment", done.stdout + done.stderr
    assert (clone / ".ci-venv").is_dir(), done.stdout + done.stderr


def test_ci_refuses_to_be_pointed_at_the_developers_venv(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(CI)], cwd=tmp_path, env=dict(os.environ, HAKKA_CI_VENV=".venv"),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "developer's venv" in done.stderr


def test_the_ci_venv_is_gitignored() -> None:
    default = re.search(r"VENV=\$\{HAKKA_CI_VENV:-([^}]+)\}", CI.read_text())
    assert default is not None
    ignored = (REPO / ".gitignore").read_text().split()
    assert default.group(1).rstrip("/") + "/" in ignored


def test_ci_runs_and_fuzzes_both_users_engines_skipping_a_missing_one() -> None:
    text = CI.read_text()
    for engine, binary in (("js-v1", '"cmd:node $JS_ENGINE"'), ("go-v2", '"cmd:$GO_ENGINE"')):
        assert f"../shared/engines/{engine}/" in text
        assert re.search(rf"hakka-conformance run --engine {re.escape(binary)} -q", text), engine
        assert re.search(rf"hakka-conformance fuzz --engine {re.escape(binary)} --hands 300 --no-write", text), engine
    assert 'GO_ENGINE=../shared/engines/go-v2/hakka-go' in text
    assert re.search(r'else\n\s+echo "skipped: \$GO_ENGINE not found', text)


def test_no_test_imports_a_conftest_by_name_inside_a_function() -> None:
    """`from conftest import X` inside a test runs after collection, when the module named `conftest`
    is whichever folder's conftest pytest collected last; CI once failed on it (tests/site's conftest
    answered tests/conformance's import). At module level it is the test's own folder's."""
    offenders = [f"{path.relative_to(REPO)}:{number}"
                 for path in sorted((REPO / "tests").rglob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if re.match(r"\s+(from conftest import|import conftest)\b", line)]
    assert not offenders, f"import these at module level: {offenders}"
