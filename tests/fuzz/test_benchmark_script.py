"""benchmarks/fuzz_speed.py still runs and prints every figure the issue asks for (not how fast: that is its job)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz_speed.py"


def test_the_fuzz_benchmark_prints_rates_ratios_the_bound_the_speed_up_and_the_coverage(
        capsys: pytest.CaptureFixture[str]) -> None:
    main = runpy.run_path(str(SCRIPT))["main"]
    main(["--quick", "--hands", "16", "--repeat", "1"])
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("in-process", "subprocess"))]
    assert len(rows) == 8 and all(row[-1].endswith("%") for row in rows)  # hands/s, engine alone, ratio
    assert "bound: a differential plays every hand on two engines" in out
    assert "speed-up:" in out and "outcome coverage:" in out
