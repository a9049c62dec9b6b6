"""Scenarios per second through the in-process adapter and through the subprocess protocol.

    python benchmarks/conformance_speed.py [--repeat 3]

Runs the whole corpus against the reference engine both ways (response
schema validation on, as in a normal run) and prints scenarios/s and the
subprocess/in-process time ratio (target: at most 2x).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.loader import load_scenarios
from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
from conformance.results import PASS
from conformance.schemas import load_schemas
from conformance.specdata import load_spec_data
from conformance.suite import Suite


def best_time(engine_text: str, repeat: int) -> tuple[float, int, int]:
    spec_dir = default_spec_dir()
    schemas = load_schemas(spec_dir / "schema")
    spec = load_spec_data(spec_dir)
    scenarios = load_scenarios([DEFAULT_SCENARIOS_DIR], schemas, spec)
    suite = Suite(spec_dir, schemas, spec, scenarios)
    best = float("inf")
    passed = 0
    for _ in range(repeat):
        engine = Engine(parse_engine_spec(engine_text), schemas)
        engine.ensure_started()  # process start-up is not part of the per-scenario figure
        start = time.perf_counter()
        results = suite.run(engine)
        best = min(best, time.perf_counter() - start)
        engine.close()
        passed = sum(r.status == PASS for r in results)
    return best, len(scenarios), passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    inproc, n, ok1 = best_time("reference", args.repeat)
    subproc, _, ok2 = best_time("reference-subprocess", args.repeat)
    print(f"scenarios: {n} (passed: in-process {ok1}, subprocess {ok2})")
    print(f"in-process: {inproc:.2f} s  {n / inproc:,.0f} scenarios/s")
    print(f"subprocess: {subproc:.2f} s  {n / subproc:,.0f} scenarios/s")
    print(f"subprocess / in-process time: {subproc / inproc:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
