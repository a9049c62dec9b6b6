"""The engine contract of protocol 2 (spec/PROTOCOL.md), as a foreign engine meets it.

Each engine here is the reference with one thing changed (fakes/contract_engines.py):
fewer capabilities, another protocol version, a wrong count, a wrong Dreamer's
count, a setup accepted that must be refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.loader import Scenario, load_scenarios
from conformance.report import failure_details
from conformance.runner import ScenarioRunner

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "conformance" / "scenarios"


@pytest.fixture(scope="module")
def corpus(schemas, spec_data) -> list[Scenario]:
    return load_scenarios([CORPUS], schemas, spec_data)


def _run(schemas, spec_data, factory: str, scenarios: list[Scenario], *, timeout: float = 10.0,
         diagnosis: bool = False) -> tuple[list[Any], Any]:
    engine = Engine(parse_engine_spec(f"python:contract_engines:{factory}"), schemas, timeout=timeout)
    reference = Engine(parse_engine_spec("reference"), schemas) if diagnosis else None
    try:
        runner = ScenarioRunner(engine, spec_data, diagnosis=reference)
        return [runner.run(s) for s in scenarios], engine.adapter._session  # type: ignore[attr-defined]
    finally:
        engine.close()
        if reference is not None:
            reference.close()


def _needs(scenario: Scenario) -> set[str]:
    """What a scenario needs, read off its YAML (the test's own reading of PROTOCOL.md's table)."""
    needs: set[str] = {scenario.kind} if scenario.kind in ("pattern", "count", "game", "batch") else set()

    def walk(node: Any, in_setup: bool) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if in_setup and key in ("hands", "deck", "seed", "game"):
                    needs.add(key)
                if key == "observe":
                    needs.add("observe")
                walk(value, in_setup or key in ("setup", "start", "before", "deals"))
        elif isinstance(node, list):
            for item in node:
                walk(item, in_setup)

    walk(dict(scenario.body), False)
    return needs


REQUEST_CAPABILITY = {"observe": "observe", "pattern": "pattern", "count": "count", "batch": "batch"}


@pytest.mark.parametrize("factory, declared", [
    ("only_pattern", {"pattern"}),
    ("no_observe_no_game", {"hands", "deck", "seed", "pattern", "count"}),
    ("only_seeds", {"seed", "observe", "count"}),
])
def test_capabilities_alone_decide_what_is_sent_and_what_is_skipped(
        schemas, spec_data, corpus, factory: str, declared: set[str]) -> None:
    results, session = _run(schemas, spec_data, factory, corpus)
    for scenario, result in zip(corpus, results, strict=True):
        missing = _needs(scenario) - declared
        if scenario.data.get("protocol", 1) > 2:  # these engines speak protocol 2: a newer scenario is skipped
            assert result.status == "skip" and "protocol" in result.reason, (scenario.id, result.reason)
            continue
        if missing:
            assert result.status == "skip", (scenario.id, result.status, result.reason)
            assert all(repr(c) in result.reason for c in missing), (scenario.id, result.reason)
        else:
            assert result.status == "pass", (scenario.id, result.status, result.reason)
    for request in session.received:
        capability = REQUEST_CAPABILITY.get(request["cmd"])
        assert capability is None or capability in declared, request
        if request["cmd"] == "start":
            setup = request["setup"]
            deals = setup["game"]["deals"] if "game" in setup else [setup]
            assert "game" not in setup or "game" in declared, request
            assert all(k in declared for d in deals for k in d if k in ("hands", "deck", "seed")), request


def test_unsupported_for_a_declared_capability_is_an_error_in_protocol_2_and_a_skip_in_1(
        schemas, spec_data, corpus) -> None:
    counts = [s for s in corpus if s.kind == "count" and s.data.get("protocol", 1) <= 2][:3]  # run under protocol 2
    v2, _ = _run(schemas, spec_data, "unsupported_count_v2", counts)
    assert {r.status for r in v2} == {"error"}
    assert "declares" in v2[0].reason
    v1, _ = _run(schemas, spec_data, "unsupported_count_v1", counts)
    assert {r.status for r in v1} == {"skip"}


def test_seeds_are_strings_for_protocol_2_and_integers_for_protocol_1(schemas, spec_data, corpus) -> None:
    seeded = [s for s in corpus if _needs(s) <= {"seed", "game"} and "seed" in _needs(s) and s.kind != "setup"][:5]
    assert seeded
    for factory, kind in (("protocol_1", int), ("no_observe_no_game", str)):
        results, session = _run(schemas, spec_data, factory, seeded)
        assert {r.status for r in results} <= {"pass", "skip"}, [r.reason for r in results]
        seeds = [d["seed"] for m in session.received if m["cmd"] == "start"
                 for d in (m["setup"]["game"]["deals"] if "game" in m["setup"] else [m["setup"]]) if "seed" in d]
        assert seeds and all(type(seed) is kind for seed in seeds), (factory, seeds)


def test_a_wrong_dreamer_count_points_at_score_4_first(schemas, spec_data, corpus) -> None:
    scenario = next(s for s in corpus if s.id == "example-hand-claim-with-privileged-penalty")
    (result,), _ = _run(schemas, spec_data, "wrong_dreamer_count", [scenario])
    assert result.status == "fail" and result.key == "result"
    assert result.rules[0] == "SCORE-4" and "SCORE-4" not in scenario.clauses[:1]
    assert "  rules:  rules/score.html#score-4, " in failure_details([result])


def test_a_wrong_count_shows_the_first_actions_whose_counts_differ(schemas, spec_data, corpus) -> None:
    scenario = next(s for s in corpus if s.kind == "count" and not s.body.get("prefix") and len(s.body["counts"]) >= 2)
    (result,), _ = _run(schemas, spec_data, "miscounts_pass", [scenario], diagnosis=True)
    assert result.status == "fail" and result.key == "counts"
    divide = [line for line in result.diff if line.startswith("  ")]
    assert divide and all(line.startswith("  pass: ") for line in divide), result.diff
    (result,), _ = _run(schemas, spec_data, "miscounts_pass_without_divide", [scenario], diagnosis=True)
    assert result.status == "fail" and any("declare the 'divide' capability" in line for line in result.diff)


def test_setup_scenarios_fail_an_engine_that_accepts_what_it_must_refuse(schemas, spec_data, corpus) -> None:
    setups = [s for s in corpus if s.kind == "setup"]
    assert len(setups) >= 8
    results, _ = _run(schemas, spec_data, "accepts_every_setup", setups)
    assert {r.status for r in results} == {"fail"}, [(r.id, r.status, r.reason) for r in results]
    assert all(f"must be refused as {s.body['error']}" in r.reason for s, r in zip(setups, results, strict=True))
    assert {s.body["error"] for s in setups} == {"bad-setup", "malformed"}


def test_a_refused_start_must_leave_the_hand_in_play(schemas, spec_data, corpus) -> None:
    setups = [s for s in corpus if s.kind == "setup" and "before" in s.body]
    assert setups
    results, _ = _run(schemas, spec_data, "forgets_on_refusal", setups)
    assert {r.status for r in results} == {"fail"}
    # the hand is gone: `state` is refused, or answers another state
    assert all("refused `state`" in r.reason or "state changed after a refused start" in r.reason
               for r in results), [r.reason for r in results]
