"""Every scenario names in ``requires`` every decision its expectations depend on.

An engine that is not configurable and follows a non-default option must see
a scenario either pass or be skipped because the scenario names that
decision; a scenario that silently depends on a decision it does not name
fails such an engine for following a legitimate option.

The engine here is the reference engine fixed to one profile and declaring it
in ``hello`` with ``configurable: false`` (tests/conformance/fakes/fixed_profile.py);
it goes through the runner exactly as a user's engine does
(``python:MODULE:FACTORY`` → :class:`~conformance.engine.Engine` →
:meth:`~conformance.suite.Suite.run`).

What is switched (a *flip*), all read from spec/:

- every non-default option of every decision of spec/decisions.yaml, alone;
- both non-default options of every pair of decisions that *interact*, i.e.
  (a) one decision's text (question, options, rationale, rejections) names the
  other (D8 "found as D9 says", D12 "under D8 followers-too", D25 "(D26, D27)"),
  or (b) a clause of spec/clauses.yaml lists both under ``decisions``
  (PLAY-4: D12, D13; CLAIM-1: D21, D22; SCORE-4: D25, D26, D27), or (c) one
  decision's text names a clause the other governs (D22 tricks-only: "the
  Dreamer's count ... still apply (SCORE-4 ...)", which D25-D27 govern).

Where a flip is applied: the whole corpus runs under every flip alone (so a
scenario requiring nothing, or only defaults, meets the flipped option). A
single flip is also applied on top of the options each scenario itself
requires: every group of scenarios requiring the same non-default options B
runs under B plus the flip, so that a scenario written for, say, D22
tricks-only is checked for the decisions it does not name too (a flip of a
decision B names is not applied to that group: those scenarios name it). Pairs
are not applied on top of B: that would be a change in three decisions at
once, and it would double the test's time.

A run passes when every result is ``pass``, or ``skip`` because a decision the
scenario requires is followed differently by the engine (or for a reason that
holds at the defaults too: a ``setup`` scenario sending options is never run on
a non-configurable engine). A failure lists each
scenario (file:line) with the profile it ran under and what went wrong.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import defaultdict
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import pytest
import yaml
from fixed_profile import register  # tests/conformance/fakes, on sys.path through conftest.py

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.loader import Scenario, load_scenarios
from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
from conformance.results import PASS, SKIP, Result
from conformance.runner import required_options
from conformance.schemas import Schemas, load_schemas
from conformance.specdata import SpecData, load_spec_data
from conformance.suite import Suite

SPEC_DIR = default_spec_dir()
DECISION_ID = re.compile(r"\bD[1-9][0-9]*\b")
CLAUSE_ID = re.compile(r"\b[A-Z]+-[1-9][0-9]*\b")
Profile = Mapping[str, str]


def _number(decision: str) -> int:
    return int(decision[1:])


def _decisions() -> dict[str, dict[str, Any]]:
    text = (SPEC_DIR / "decisions.yaml").read_text(encoding="utf-8")
    return {d["id"]: d for d in yaml.safe_load(text)["decisions"]}


def _clauses() -> list[dict[str, Any]]:
    return list(yaml.safe_load((SPEC_DIR / "clauses.yaml").read_text(encoding="utf-8"))["clauses"])


def non_default(decision: Mapping[str, Any]) -> list[str]:
    return [o["id"] for o in decision["options"] if o["id"] != decision["default"]]


def interacting_pairs() -> list[tuple[str, str]]:
    """Pairs of configurable decisions that interact, by rules (a), (b), (c) of the module docstring."""
    decisions = _decisions()
    configurable = {d for d, body in decisions.items() if non_default(body)}
    pairs: set[tuple[str, str]] = set()

    def add(a: str, b: str) -> None:
        if a != b and a in configurable and b in configurable:
            pairs.add(tuple(sorted((a, b), key=_number)))  # type: ignore[arg-type]

    for did, body in decisions.items():
        text = json.dumps({k: v for k, v in body.items() if k not in ("id", "clauses")})
        for other in DECISION_ID.findall(text):                      # (a)
            add(did, other)
        named = set(CLAUSE_ID.findall(text))
        for other, other_body in decisions.items():                  # (c)
            if named & set(other_body["clauses"]):
                add(did, other)
    for clause in _clauses():                                        # (b)
        for a, b in itertools.combinations(clause.get("decisions") or [], 2):
            add(a, b)
    return sorted(pairs, key=lambda p: (_number(p[0]), _number(p[1])))


def flips() -> list[dict[str, str]]:
    decisions = _decisions()
    singles = [{did: option} for did in sorted(decisions, key=_number) for option in non_default(decisions[did])]
    pairs = [{a: oa, b: ob} for a, b in interacting_pairs()
             for oa in non_default(decisions[a]) for ob in non_default(decisions[b])]
    return singles + pairs


def label(profile: Profile) -> str:
    return ", ".join(f"{d}={o}" for d, o in sorted(profile.items(), key=lambda kv: _number(kv[0]))) or "defaults"


@lru_cache(maxsize=1)
def corpus() -> tuple[Schemas, SpecData, tuple[Scenario, ...]]:
    schemas = load_schemas(SPEC_DIR / "schema")
    spec = load_spec_data(SPEC_DIR)
    return schemas, spec, tuple(load_scenarios([DEFAULT_SCENARIOS_DIR], schemas, spec))


def non_default_required(scenario: Scenario, spec: SpecData) -> dict[str, str]:
    return {d: o for d, o in required_options(scenario, spec).items() if o != spec.default_of(d)}


def run_under(profile: Profile, scenarios: list[Scenario], schemas: Schemas, spec: SpecData) -> list[Result]:
    engine = Engine(parse_engine_spec(register(profile)), schemas, timeout=10.0)
    try:
        info = engine.ensure_started()
        assert not info.configurable and all(info.options[d] == o for d, o in profile.items()), info
        return Suite(SPEC_DIR, schemas, spec, scenarios).run(engine)
    finally:
        engine.close()


def names_another_option(scenario: Scenario, profile: Profile, spec: SpecData) -> bool:
    """Whether ``scenario`` requires an option of a decision that ``profile`` sets otherwise."""
    follows = spec.effective_options(dict(profile))
    return any(follows.get(d) != o for d, o in required_options(scenario, spec).items())


@lru_cache(maxsize=1)
def skipped_at_the_defaults() -> frozenset[str]:
    """Scenarios the fixed engine skips at the defaults for another reason than a decision.

    A non-configurable engine is never sent options, so a ``setup`` scenario that
    sends some (an unknown option to be refused) is skipped whatever it follows.
    """
    schemas, spec, scenarios = corpus()
    results = run_under({}, list(scenarios), schemas, spec)
    bad = [f"{r.id}: {r.status}: {r.reason}" for r in results if r.status not in (PASS, SKIP)]
    assert not bad, "the reference fixed to the defaults fails:\n" + "\n".join(bad)
    return frozenset(s.id for s, r in zip(scenarios, results, strict=True)
                     if r.status == SKIP and not names_another_option(s, {}, spec))


def problem(result: Result, scenario: Scenario, profile: Profile, spec: SpecData) -> str | None:
    """Why ``result`` is not acceptable under ``profile``, or ``None``."""
    if result.status == PASS:
        return None
    if result.status == SKIP and (names_another_option(scenario, profile, spec)
                                  or scenario.id in skipped_at_the_defaults()):
        return None
    return f"{scenario.id} ({scenario.location}) under {label(profile)}: {result.status}: {result.reason}"


FLIPS = flips()


def test_the_flips_come_from_the_spec() -> None:
    decisions = _decisions()
    singles = [f for f in FLIPS if len(f) == 1]
    assert len(singles) == sum(len(non_default(d)) for d in decisions.values()) > 20
    pairs = {tuple(sorted(f, key=_number)) for f in FLIPS if len(f) == 2}
    # The interactions the spec states in so many words are among them.
    assert {("D7", "D8"), ("D9", "D11"), ("D12", "D13"), ("D21", "D22"), ("D22", "D25"), ("D25", "D26")} <= pairs


def test_at_the_defaults_only_setups_sending_options_are_skipped_whatever_the_options() -> None:
    _schemas, _spec, scenarios = corpus()
    kinds = {s.kind for s in scenarios if s.id in skipped_at_the_defaults()}
    assert kinds <= {"setup"}, kinds


def case_id(flip: Profile) -> str:
    """``D7:any-suit+D8:followers-too`` (usable with ``pytest -k``, which does not take ``=``)."""
    return label(flip).replace("=", ":").replace(", ", "+")


@pytest.mark.parametrize("flip", FLIPS, ids=case_id)
def test_every_scenario_passes_or_names_the_decision(flip: dict[str, str]) -> None:
    schemas, spec, scenarios = corpus()
    groups: dict[frozenset[tuple[str, str]], list[Scenario]] = defaultdict(list)
    for scenario in scenarios:
        base = non_default_required(scenario, spec)
        if base and len(flip) == 1 and not set(base) & set(flip):
            groups[frozenset(base.items())].append(scenario)
    runs: list[tuple[dict[str, str], list[Scenario]]] = [(dict(flip), list(scenarios))]
    runs += [({**dict(base), **flip}, group) for base, group in sorted(groups.items(), key=lambda g: sorted(g[0]))]

    problems = []
    passed: set[str] = set()
    for profile, group in runs:
        for scenario, result in zip(group, run_under(profile, group, schemas, spec), strict=True):
            why = problem(result, scenario, profile, spec)
            if why:
                problems.append(why)
            elif result.status == PASS and profile == flip:
                passed.add(scenario.id)
    assert not problems, (
        f"{len(problems)} scenario(s) depend on a decision they do not name in `requires` "
        f"(or fail under its option):\n" + "\n".join(problems))

    if len(flip) == 1:
        # Not vacuous: the engine really plays the option, since the scenarios written for it alone pass.
        written_for = {s.id for s in scenarios if non_default_required(s, spec) == flip}
        assert written_for, f"no scenario requires {label(flip)} alone"
        assert written_for <= passed, sorted(written_for - passed)
