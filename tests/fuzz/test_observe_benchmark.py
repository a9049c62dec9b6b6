"""benchmarks/observe_speed.py still runs and prints each figure it names (not how fast: that is its job)."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "observe_speed.py"


def test_the_observe_benchmark_measures_four_observations_and_batches(capsys: pytest.CaptureFixture[str]) -> None:
    script = runpy.run_path(str(SCRIPT))
    script["main"](["--json", "--hands", "6"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert set(figures) == set(script["FIGURES"])
    assert all(value > 0 for value in figures.values())
