"""Shared fixtures for the conformance runner's tests."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.loader import Scenario, load_scenarios
from conformance.results import Result
from conformance.runner import ScenarioRunner
from conformance.schemas import Schemas, load_schemas
from conformance.specdata import SpecData, load_spec_data

HERE = Path(__file__).resolve().parent
FAKES = HERE / "fakes"
REPO = HERE.parent.parent
SPEC = REPO / "spec"
EXAMPLES = REPO / "conformance" / "scenarios" / "examples"

if str(FAKES) not in sys.path:
    sys.path.insert(0, str(FAKES))


def fake_cmd(mode: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(FAKES / "fake_engine.py"), mode])


@pytest.fixture(scope="session")
def schemas() -> Schemas:
    return load_schemas(SPEC / "schema")


@pytest.fixture(scope="session")
def spec_data() -> SpecData:
    return load_spec_data(SPEC)


@pytest.fixture(scope="session")
def examples(schemas: Schemas, spec_data: SpecData) -> dict[str, Scenario]:
    """The example scenarios the scripted fake answers (patterns + calling)."""
    loaded = load_scenarios([EXAMPLES / "patterns.yaml", EXAMPLES / "calling.yaml"], schemas, spec_data)
    return {s.id: s for s in loaded}


RunFn = Callable[..., tuple[list[Result], Engine]]


@pytest.fixture
def run(schemas: Schemas, spec_data: SpecData) -> Iterator[RunFn]:
    """``run(engine_spec_text, scenarios, timeout=..., expected=...) -> (results, engine)``."""
    engines: list[Engine] = []

    def _run(spec_text: str, scenarios: list[Scenario], timeout: float | None = 5.0,
             expected: dict[str, str] | None = None) -> tuple[list[Result], Engine]:
        engine = Engine(parse_engine_spec(spec_text), schemas, timeout=timeout)
        engines.append(engine)
        runner = ScenarioRunner(engine, spec_data, expected)
        return [runner.run(s) for s in scenarios], engine

    yield _run
    for engine in engines:
        engine.close()
