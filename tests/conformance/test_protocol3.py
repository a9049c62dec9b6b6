"""Protocol 3: partial configurability, and what a non-configurable engine answers to options (issue 21 §1.1, §2).

spec/PROTOCOL.md, "Versions" and "Options an engine does not follow".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.errors import ProtocolViolation
from conformance.loader import Scenario, load_scenarios
from conformance.results import FAIL, PASS, SKIP
from conformance.runner import ScenarioRunner, required_options
from conformance.schemas import Schemas
from conformance.specdata import SpecData

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "conformance" / "scenarios"
UNKNOWN_OPTION = "setup-unknown-decision-option"


@pytest.fixture(scope="module")
def corpus(schemas: Schemas, spec_data: SpecData) -> dict[str, Scenario]:
    return {s.id: s for s in load_scenarios([CORPUS], schemas, spec_data)}


def _engine(schemas: Schemas, factory: str) -> Engine:
    return Engine(parse_engine_spec(f"python:protocol3_engines:{factory}"), schemas)


def _run(schemas: Schemas, spec_data: SpecData, factory: str, scenarios: list[Scenario]) -> tuple[Any, list[Any]]:
    engine = _engine(schemas, factory)
    try:
        runner = ScenarioRunner(engine, spec_data)
        results = [runner.run(s) for s in scenarios]
        return engine.info, results
    finally:
        engine.close()


def test_a_partly_configurable_engine_is_skipped_for_exactly_the_options_it_cannot_follow(
        schemas: Schemas, spec_data: SpecData, corpus: dict[str, Scenario]) -> None:
    picked: list[tuple[Scenario, bool]] = []
    for scenario in corpus.values():
        needed = required_options(scenario, spec_data)
        other = {d for d, o in needed.items() if o != spec_data.default_of(d)}
        if other and len(picked) < 40 and scenario.kind != "setup":
            picked.append((scenario, other <= {"D7"}))
    assert any(ok for _s, ok in picked) and any(not ok for _s, ok in picked)
    info, results = _run(schemas, spec_data, "partly_configurable", [s for s, _ok in picked])
    assert info.protocol == 3 and info.follows == {"D7": ("same-suit", "any-suit")} and not info.configurable
    for (scenario, followable), result in zip(picked, results, strict=True):
        if followable:
            assert result.status == PASS, (scenario.id, result.reason)
        else:
            assert result.status == SKIP and "the engine is not configurable" in result.reason, scenario.id
            named = {d for d, o in required_options(scenario, spec_data).items() if o != spec_data.default_of(d)}
            assert all(f"{d}=" in result.reason for d in named - {"D7"}), (scenario.id, result.reason)


def test_a_map_of_options_is_a_protocol_violation_under_protocol_2(schemas: Schemas) -> None:
    engine = _engine(schemas, "map_under_protocol_2")
    with pytest.raises(ProtocolViolation, match="protocol 3's"):
        engine.ensure_started()
    engine.close()


@pytest.mark.parametrize("factory, status", [
    ("fixed_defaults", PASS),  # refuses D7=sideways as bad-setup, as protocol 3 asks
    ("ignores_options", FAIL),  # takes a start with an option no rule has
    ("fixed_defaults_protocol_2", SKIP),  # protocol 2: never sent options
])
def test_a_non_configurable_engine_answers_options_it_is_sent_under_protocol_3(
        schemas: Schemas, spec_data: SpecData, corpus: dict[str, Scenario], factory: str, status: str) -> None:
    info, results = _run(schemas, spec_data, factory, [corpus[UNKNOWN_OPTION]])
    assert not info.configurable and results[0].status == status, results[0].reason


def test_a_non_configurable_engine_refuses_a_known_option_it_does_not_follow_as_unsupported() -> None:
    from fixed_profile import FixedProfileSession

    session = FixedProfileSession({})
    session.handle({"cmd": "hello", "protocol": 3})
    setup = {"dealer": 0, "seed": "1"}
    refused = session.handle({"cmd": "start", "options": {"D7": "any-suit"}, "setup": setup})
    assert refused["error"]["kind"] == "unsupported" and refused["error"]["rule"] == "D7"
    assert session.handle({"cmd": "start", "options": {"D99": "x"}, "setup": setup})["error"]["kind"] == "bad-setup"
    assert session.handle({"cmd": "start", "options": {"D7": "same-suit"}, "setup": setup}) == {"ok": True}


def test_a_capability_the_engine_s_version_does_not_have_is_never_used(schemas: Schemas) -> None:
    engine = _engine(schemas, "protocol_1_declaring_batch")
    try:
        info = engine.ensure_started()
    finally:
        engine.close()
    assert info.protocol == 1 and "batch" not in info.capabilities and "divide" not in info.capabilities
    assert {"pattern", "count", "observe", "hands", "deck", "seed", "x-own"} <= set(info.capabilities)
