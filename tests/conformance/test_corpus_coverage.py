"""The conformance corpus covers the spec: every clause, every decision option.

- every clause of spec/clauses.yaml is tested by at least one hand-worked
  (not generated) scenario;
- every non-default option of every decision has a scenario that requires it
  and whose expectation the default option would NOT meet (run against the
  reference engine with that one decision switched back to the default, it
  fails), and a twin that requires the default and fails under the option.

So a scenario "requiring" an option without depending on it does not count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache

import pytest

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.loader import Scenario, load_scenarios
from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
from conformance.results import FAIL, PASS
from conformance.runner import ScenarioRunner
from conformance.schemas import load_schemas
from conformance.specdata import SpecData, load_spec_data


@lru_cache(maxsize=1)
def corpus() -> tuple[SpecData, tuple[Scenario, ...], ScenarioRunner]:
    spec_dir = default_spec_dir()
    schemas = load_schemas(spec_dir / "schema")
    spec = load_spec_data(spec_dir)
    scenarios = load_scenarios([DEFAULT_SCENARIOS_DIR], schemas, spec)
    engine = Engine(parse_engine_spec("reference"), schemas, timeout=None)
    return spec, tuple(s for s in scenarios if not s.generated), ScenarioRunner(engine, spec)


def explicit(scenario: Scenario) -> Mapping[str, str]:
    return scenario.requires if isinstance(scenario.requires, Mapping) else {}


def status_under(scenario: Scenario, decision: str, option: str) -> str:
    """Run ``scenario`` with ``decision`` forced to ``option`` (everything else as it requires)."""
    _spec, _scenarios, runner = corpus()
    return runner.run(replace(scenario, requires={**explicit(scenario), decision: option})).status


def multi_option_decisions() -> list[tuple[str, str, str]]:
    spec, _s, _r = corpus()
    cases = []
    for decision in (spec.decisions or {}).values():
        for option in decision.options:
            if option != decision.default:
                cases.append((decision.id, option, decision.default))
    return cases


def test_every_clause_has_a_hand_worked_scenario() -> None:
    spec, scenarios, _runner = corpus()
    tested = {c for s in scenarios for c in s.clauses}
    untested = sorted(set(spec.clauses or ()) - tested)
    assert not untested, f"clauses no hand-worked scenario tests: {', '.join(untested)}"


def test_the_whole_corpus_passes_on_the_reference_engine() -> None:
    _spec, scenarios, runner = corpus()
    bad = [f"{s.id}: {r.status} {r.reason}" for s in scenarios if (r := runner.run(s)).status != PASS]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("decision", "option", "default"), multi_option_decisions())
def test_option_is_told_apart_from_the_default(decision: str, option: str, default: str) -> None:
    _spec, scenarios, _runner = corpus()
    requiring = [s for s in scenarios if explicit(s).get(decision) == option]
    assert requiring, f"no scenario requires {decision}={option}"
    assert any(status_under(s, decision, default) == FAIL for s in requiring), (
        f"every scenario requiring {decision}={option} also passes under {decision}={default}: "
        f"none tells the option apart ({', '.join(s.id for s in requiring)})"
    )
    twins = [s for s in scenarios if explicit(s).get(decision) == default]
    assert twins, f"no twin scenario requires {decision}={default} explicitly"
    assert any(status_under(s, decision, option) == FAIL for s in twins), (
        f"no scenario requiring {decision}={default} fails under {decision}={option}"
    )
