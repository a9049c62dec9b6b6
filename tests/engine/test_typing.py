"""The engine type-checks under ``mypy --strict`` (it ships py.typed)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import reference_engine

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(reference_engine.__file__).resolve().parent
"""The engine under test: the checkout's, or an installed wheel's (.ci/run tests each build from a copy of tests/)."""


def test_mypy_strict_reference_engine(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    if ENGINE != ROOT / "reference_engine":
        pytest.skip("the engine under test is an installed build, not this checkout's (CI's lint step checks that)")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy-cache"), "reference_engine"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success" in proc.stdout


def test_engine_ships_py_typed() -> None:
    assert (ENGINE / "py.typed").is_file(), ENGINE
