"""Every generator of tools/ answers --help with its help and does nothing else (issue 21, section 4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GENERATORS = sorted(p.stem for p in (REPO / "tools").glob("*.py") if p.stem != "__init__")


def _snapshot() -> dict[Path, float]:
    """Every file the generators may write, with its modification time."""
    roots = [REPO / "conformance" / "scenarios", REPO / "tools" / "data"]
    return {p: p.stat().st_mtime_ns for root in roots for p in root.rglob("*") if p.is_file()}


def test_there_are_generators() -> None:
    assert {"make_count_scenarios", "make_generated_vectors"} <= set(GENERATORS)


@pytest.mark.parametrize("tool", GENERATORS)
def test_help_prints_help_and_writes_nothing(tool: str) -> None:
    before = _snapshot()
    done = subprocess.run([sys.executable, "-m", f"tools.{tool}", "--help"], cwd=REPO, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:") and "--help" in done.stdout, done.stdout
    assert done.stderr == ""  # a generator at work reports its progress on stderr
    assert _snapshot() == before


@pytest.mark.parametrize("tool", GENERATORS)
def test_an_unknown_option_is_refused_before_any_work(tool: str) -> None:
    before = _snapshot()
    done = subprocess.run([sys.executable, "-m", f"tools.{tool}", "--no-such-option"], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "unrecognized arguments: --no-such-option" in done.stderr, done.stderr
    assert _snapshot() == before
