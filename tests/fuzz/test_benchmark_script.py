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


def test_where_the_time_goes_splits_a_hand_between_the_two_engines_and_the_harness(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = runpy.run_path(str(SCRIPT))
    split = script["where_the_time_goes"](12)
    sides = {key.split()[0] for key in split["by_request"]}
    assert sides == {"reference", "candidate"} and "candidate batch" in split["by_request"]
    assert 0 < split["engines_ms"] < split["total_ms"]
    run = {"hands_per_s": 1.0, "engine_alone": 5000.0, "where": split}
    script["print_where"]({"pure": [run], "compiled": [run]})
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("pure", "compiled"))]
    assert len(rows) == 2 and rows[0][-1].endswith("x")
    # the bound: engine hands/s over the engines' ms per fuzz hand, as printed
    assert float(rows[0][-1][:-1]) == pytest.approx(1000 / split["engines_ms"] / 5000.0, abs=0.0005)
