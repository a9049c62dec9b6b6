"""Events are part of conformance (capability `events`): the fuzzer compares every accepted `act`'s events
with the reference's, and writes a scenario whose `events` expectation the runner checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.fuzz import FuzzConfig, fuzz
from conformance.fuzz.endpoints import default_schemas
from reference_engine.wire import Session
from tests.fuzz.test_fuzz import mutant_engine, run_through_runner

catalogue = pytest.importorskip("tests.mutants.catalogue")

MISREPORTS = [m.id for m in catalogue.MUTANTS if m.report is not None]


def test_there_is_a_misreport_per_kind_of_wrong_event() -> None:
    assert MISREPORTS == ["events-round-won-first", "events-promotion-untold", "events-privilege-untold"]


@pytest.mark.parametrize("mutant_id", MISREPORTS)
def test_the_fuzzer_finds_a_misreport_and_writes_an_events_scenario(mutant_id: str, tmp_path: Path) -> None:
    out = tmp_path / "generated" / "fuzz"
    m = catalogue.get(mutant_id)
    report = fuzz(FuzzConfig.of(engine=m.factory, label=f"mutant:{m.id}", hands=60, seed=0, out=out,
                             shrink_seconds=5))
    found = report.disagreement
    assert found is not None and found.where == "events" and found.fields == ["events"], report.format()
    assert "tells the events of" in found.summary()
    (written,) = report.written
    assert written.verified, report.format()
    (scenario,) = yaml.safe_load(written.path.read_text(encoding="utf-8"))["scenarios"]
    last = (scenario.get("trajectory") or scenario["game"])["steps"][-1]  # a hand, or a whole game
    assert "do" in last and last["expect"]["events"] == found.reference["events"]
    assert set(scenario["clauses"]) <= {"PLAY-6", "ELD-2", "CALL-4", "CLAIM-1", "TIG-1", "GAME-1"}
    assert run_through_runner(written.path, Engine(parse_engine_spec("reference"), default_schemas())) == "pass"
    assert run_through_runner(written.path, mutant_engine(mutant_id)) == "fail"


class Silent(Session):
    """Declares `events` and never sends them: an engine the capability binds."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if isinstance(message, dict) and message.get("cmd") == "act":
            answer.pop("events", None)
        return answer


def test_an_engine_declaring_events_must_send_them() -> None:
    report = fuzz(FuzzConfig.of(engine=Silent, hands=5, seed=0, out=None, shrink_seconds=1))
    found = report.disagreement
    assert found is not None and found.where == "events", report.format()
    assert found.detail and "absent" in found.detail[0]


class BrokenEventsUndeclared(Session):
    """Does not declare `events`, yet sends `events` that are no list: a schema error in a field never compared."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if isinstance(message, dict) and message.get("cmd") == "hello" and answer.get("ok"):
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "events"]
        if isinstance(message, dict) and message.get("cmd") == "act" and answer.get("ok"):
            answer["events"] = 7
        if isinstance(message, dict) and message.get("cmd") == "batch" and answer.get("ok"):
            for step in answer["steps"][1:]:
                step["act"]["events"] = 7
        return answer


def test_every_answer_of_a_sample_of_hands_is_schema_checked_by_default() -> None:
    report = fuzz(FuzzConfig.of(engine=BrokenEventsUndeclared, hands=3, seed=0, out=None, shrink_seconds=1))
    text = report.format()
    assert not report.ok, text
    assert "invalid answer" in text and "events" in text, text


def test_the_batch_decision_is_made_once() -> None:
    """The run and each lane ask the same function whether a candidate is sent whole hands in one `batch`."""
    from conformance.engine import EngineInfo
    from conformance.fuzz import driver, run
    from conformance.fuzz.driver import sends_batch

    def info(protocol: int, *capabilities: str) -> EngineInfo:
        return EngineInfo(name="x", version="1", language=None, protocol=protocol, options={}, configurable=False,
                          capabilities=capabilities)

    assert sends_batch(info(2, "batch")) and sends_batch(info(3, "batch", "events"))
    assert not sends_batch(info(1, "batch")) and not sends_batch(info(3))
    assert sends_batch(info(1), True) and not sends_batch(info(3, "batch"), False)
    assert run.sends_batch is driver.sends_batch  # type: ignore[attr-defined]
    source = Path(run.__file__).read_text(encoding="utf-8") + Path(driver.__file__).read_text(encoding="utf-8")
    assert source.count('"batch" in info.capabilities') == 1
