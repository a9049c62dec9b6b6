"""`expect: {events: [...]}`: compared for an engine that declares the `events` capability, skipped (and said so)
for one that does not; only on a `do` step."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.compare import EVENTS_NOT_COMPARED, check_expectations, events_mismatch
from conformance.engine import Engine
from conformance.errors import InputError
from conformance.loader import load_scenarios
from conformance.report import closing_line
from conformance.results import Result
from conformance.schemas import Schemas
from conformance.specdata import SpecData
from reference_engine.wire import Session

RunFn = Callable[..., tuple[list[Result], Engine]]
"""The ``run`` fixture of tests/conformance/conftest.py."""

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "conformance" / "scenarios" / "events"
catalogue = pytest.importorskip("tests.mutants.catalogue")


class NoEvents(Session):
    """The reference as a protocol-3 engine that does not declare `events` (and sends none)."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if isinstance(message, dict) and message.get("cmd") == "hello" and answer.get("ok"):
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "events"]
        if isinstance(message, dict) and message.get("cmd") == "act":
            answer.pop("events", None)
        return answer


def test_events_are_compared_in_order_and_as_text() -> None:
    assert events_mismatch(["0 pass"], ["0 pass"]) is None
    m = events_mismatch(["3 play Zok9 (single)", "3 wins 1 trick"], ["3 wins 1 trick", "3 play Zok9 (single)"])
    assert m is not None and m.key == "events" and m.diff[-1].startswith("event 1: expected '3 play Zok9 (single)'")
    short = events_mismatch(["2 pass", "hand ends (void): deltas 0 0 0 0, next dealer 0, does not count"], ["2 pass"])
    assert short is not None and short.diff[-1] == "1 event(s), fewer than the 2 expected"
    absent = events_mismatch(["0 pass"], None)
    assert absent is not None and "absent" in absent.diff[-1]
    assert check_expectations({"events": ["0 pass"]}, {}, None, EVENTS_NOT_COMPARED) == []
    assert [m.key for m in check_expectations({"events": ["0 pass"]}, {}, None, ["0 call"])] == ["events"]
    assert m.rule_keys == ("events",)


def test_the_events_scenarios_pass_on_the_reference(run: RunFn, schemas: Schemas, spec_data: SpecData) -> None:
    results, _ = run("reference", load_scenarios([EVENTS], schemas, spec_data))
    assert results and all(r.status == "pass" and not r.reason for r in results), [(r.id, r.reason) for r in results]


@pytest.mark.parametrize("mutant_id", [m.id for m in catalogue.MUTANTS if m.report is not None])
def test_each_misreport_fails_an_events_scenario(run: RunFn, schemas: Schemas, spec_data: SpecData,
                                                 mutant_id: str) -> None:
    factory = catalogue.get(mutant_id).factory_name
    results, _ = run(f"python:tests.mutants.catalogue:{factory}", load_scenarios([EVENTS], schemas, spec_data))
    failed = [r for r in results if r.status == "fail"]
    assert failed and all(r.key == "events" and r.reason == "expectation not met: events" for r in failed)
    assert all(set(r.rules[:6]) == {"PLAY-6", "ELD-2", "CALL-4", "CLAIM-1", "TIG-1", "GAME-1"} for r in failed)


def test_an_engine_without_the_capability_passes_with_its_events_not_compared(
        run: RunFn, schemas: Schemas, spec_data: SpecData) -> None:
    scenarios = load_scenarios([EVENTS], schemas, spec_data)
    results, _ = run(f"python:{__name__}:NoEvents", scenarios)
    assert all(r.status == "pass" for r in results)
    by_id = {r.id: r for r in results}
    assert by_id["events-void-hand"].reason == (
        "passed; events not compared at 3 step(s): the engine does not declare the `events` capability")
    assert closing_line(results).endswith(
        f"{len(results)} passed with their events not compared (the engine does not declare `events`)")


def _problems(tmp_path: Path, schemas: Schemas, spec_data: SpecData, body: str) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_scenarios([path], schemas, spec_data)
    return [str(p) for p in info.value.problems]


HEAD = """\
    scenarios:
      - id: events-where
        title: t
        clauses: [PLAY-6]
        requires: defaults
        trajectory:
          setup: {dealer: 0, seed: "1"}
    """


@pytest.mark.parametrize(("rest", "words"), [
    ("      steps:\n        - {seat: 1, reject: pass, error: illegal, expect: {events: ['1 pass']}}\n", "needs a `do` step"),
    ("      steps:\n        - {expect: {events: ['0 pass']}}\n", "needs a `do` step"),
    ("      final: {events: ['0 pass']}\n", "`final` cannot expect `events`"),
    ("      steps:\n        - {seat: 0, do: pass, expect: {events: ['0 passes']}}\n", "events"),
    ("      steps:\n        - {seat: 0, do: pass, expect: {events: []}}\n", "events"),
])
def test_an_events_expectation_only_where_an_action_has_events(tmp_path: Path, schemas: Schemas, spec_data: SpecData,
                                                               rest: str, words: str) -> None:
    problems = _problems(tmp_path, schemas, spec_data, textwrap.dedent(HEAD) + rest)
    assert any(words in p for p in problems), problems
