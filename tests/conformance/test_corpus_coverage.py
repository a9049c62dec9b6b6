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

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from conformance.adapters import parse_engine_spec
from conformance.engine import Engine
from conformance.loader import Scenario, load_scenarios
from conformance.notation import NotationError, card
from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
from conformance.results import FAIL, PASS
from conformance.runner import ScenarioRunner
from conformance.schemas import load_schemas
from conformance.setups import with_seeds
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


# ---------------------------------------------------------------------------------------------
# The corpus's edges (issue 21, section 2): what each seat sees at each end kind, every seat's
# entry in refused setups, every numeric field of the requests at its bounds, refusals that
# must leave `observe` unchanged, cards named twice. The lists come from spec/schema/protocol/.

PROTOCOL_SCHEMAS = default_spec_dir() / "schema" / "protocol"
HAND_END_KINDS = tuple(
    json.loads((PROTOCOL_SCHEMAS / "common.schema.json").read_text())["$defs"]["handResult"]["properties"]["end"]["enum"])
END_KINDS = (*HAND_END_KINDS, "game-over")
OBSERVATION_FIELDS = tuple(
    f for f in json.loads((PROTOCOL_SCHEMAS / "observe.response.schema.json").read_text())
    ["else"]["properties"]["observation"]["properties"] if f != "seat")
OPEN_AT_GAME_OVER = {
    "dealer", "dreamer", "privileged", "hand", "hand_sizes", "dreamer_card", "history", "tricks", "elders"}
"""Observation fields spec/PROTOCOL.md does not define at game over yet (issue 21, section 1.3): a
scenario may not expect them there. When the protocol defines one, take it out of this set."""


def _expectations(scenario: Scenario) -> list[Mapping[str, Any]]:
    body = scenario.body
    if scenario.kind not in ("trajectory", "game"):
        return []
    return [step["expect"] for step in body.get("steps", ()) if "expect" in step] + (
        [body["final"]] if "final" in body else [])


def _end_kind(expect: Mapping[str, Any]) -> str | None:
    """The end kind an expectation is checked at: a hand just ended (phase ended), or game over."""
    if expect.get("phase") == "game-over":
        return "game-over"
    result = expect.get("result")
    if expect.get("phase") == "ended" and isinstance(result, Mapping):
        return str(result.get("end"))
    return None


def test_every_seat_sees_every_observation_field_at_every_end_kind() -> None:
    """At each way a hand ends, and at game over, some scenario names every field for every seat."""
    _spec, scenarios, _runner = corpus()
    seen: dict[tuple[str, int], set[str]] = {}
    for scenario in scenarios:
        for expect in _expectations(scenario):
            kind = _end_kind(expect)
            if kind is None:
                continue
            for entry in expect.get("observe", ()):
                seen.setdefault((kind, entry["seat"]), set()).update(entry)
    missing = []
    for kind in END_KINDS:
        wanted = set(OBSERVATION_FIELDS) - (OPEN_AT_GAME_OVER if kind == "game-over" else set())
        for seat in range(4):
            lacking = sorted(wanted - seen.get((kind, seat), set()))
            if lacking:
                missing.append(f"{kind}, seat {seat}: {', '.join(lacking)}")
    assert not missing, ("no scenario expects these observation fields at these end kinds "
                         "(an `observe` in a step or `final` with phase ended and result.end, or phase game-over):\n"
                         + "\n".join(missing))


def test_the_fields_open_at_game_over_are_observation_fields() -> None:
    assert set(OBSERVATION_FIELDS) >= OPEN_AT_GAME_OVER


def test_a_refusal_is_checked_against_every_seats_observation() -> None:
    """Some scenario that observes refuses an illegal and a malformed action (the runner then compares `observe`)."""
    _spec, scenarios, _runner = corpus()
    kinds = {step["error"] for s in scenarios if s.kind in ("trajectory", "game")
             and any("observe" in e for e in _expectations(s))
             for step in s.body.get("steps", ()) if "reject" in step}
    assert {"illegal", "malformed"} <= kinds, f"observing scenarios refuse only {sorted(kinds)}"


def _words(holding: str) -> list[str | None]:
    out: list[str | None] = []
    for word in holding.split():
        try:
            out.append(card(word))
        except NotationError:
            out.append(None)
    return out


ROLES = {0: "the Dealer", 1: "dealer + 1", 2: "the Dreamer", 3: "dealer + 3"}


def _entry_faults(dealer: int, hands: list[str]) -> set[tuple[str, str]]:
    """(role, fault) for each entry of a `hands` setup that breaks DEAL-4 (its count) or CARDS-1 (a card shared)."""
    words = [_words(h) for h in hands]
    faults = set()
    for seat, mine in enumerate(words):
        role = (seat - dealer) % 4
        if len(mine) != (1 if role == 2 else 12):
            faults.add((ROLES[role], "card count"))
        others = [w for s, ws in enumerate(words) if s != seat for w in ws]
        if any(w is not None and (mine.count(w) > 1 or w in others) for w in mine):
            faults.add((ROLES[role], "a card also dealt elsewhere"))
    return faults


def test_every_seats_entry_is_broken_by_some_refused_setup() -> None:
    """For each seat (by role: the Dealer, the Dreamer…), a refused setup gives it a wrong count, and one a shared card."""
    _spec, scenarios, _runner = corpus()
    found: set[tuple[str, str]] = set()
    for scenario in scenarios:
        if scenario.kind != "setup" or scenario.body["error"] != "bad-setup":
            continue
        start = scenario.body["start"]
        if "game" in start:  # the first deal's Dealer is known; later ones depend on play
            start = {"dealer": start["game"]["first_dealer"], **start["game"]["deals"][0]}
        if "hands" in start:
            found |= _entry_faults(start["dealer"], start["hands"])
    wanted = {(role, fault) for role in ROLES.values() for fault in ("card count", "a card also dealt elsewhere")}
    assert not wanted - found, "no refused setup breaks: " + "; ".join(
        f"{role}'s {fault}" for role, fault in sorted(wanted - found))


def test_an_action_naming_a_card_twice_is_refused_for_play_and_discard() -> None:
    _spec, scenarios, _runner = corpus()
    verbs = set()
    for scenario in scenarios:
        for step in scenario.body.get("steps", ()) if scenario.kind in ("trajectory", "game") else ():
            words = step.get("reject", "").split()
            named = _words(" ".join(words[1:])) if words else []
            if step.get("error") == "malformed" and len(named) != len(set(named)) and None not in named:
                verbs.add(words[0].lower())
    assert {"play", "discard"} <= verbs, f"a card named twice is refused only in {sorted(verbs) or 'no action'}"


# --- numeric fields of the requests, at their bounds

Path_ = tuple[str, ...]


def _resolve(ref: str, here: str) -> tuple[Any, str]:
    file, _, pointer = ref.partition("#")
    file = file or here
    node: Any = json.loads((PROTOCOL_SCHEMAS / file).read_text())
    for part in filter(None, pointer.split("/")):
        node = node[part]
    return node, file


def numeric_fields(node: Any, here: str, path: Path_ = ()) -> dict[Path_, tuple[int | None, int | None]]:
    """Every integer field below a request schema: its path (``*`` for list items) and its bounds."""
    out: dict[Path_, tuple[int | None, int | None]] = {}
    if not isinstance(node, dict):
        return out
    if "$ref" in node:
        target, file = _resolve(node["$ref"], here)
        out.update(numeric_fields(target, file, path))
    types = node.get("type")
    if types == "integer" or (isinstance(types, list) and "integer" in types):
        low, high = out.get(path, (None, None))
        out[path] = (node.get("minimum", low), node.get("maximum", high))
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in node.get(key, ()):
            for p, bounds in numeric_fields(branch, here, path).items():
                low, high = out.get(p, (None, None))
                out[p] = (bounds[0] if bounds[0] is not None else low, bounds[1] if bounds[1] is not None else high)
    for key in ("if", "then", "else"):
        out.update(numeric_fields(node.get(key), here, path))
    for name, child in node.get("properties", {}).items():
        out.update(numeric_fields(child, here, (*path, name)))
    out.update(numeric_fields(node.get("items"), here, (*path, "*")))
    return out


def request_numeric_fields() -> dict[tuple[str, Path_], tuple[int | None, int | None]]:
    fields = {}
    for path in sorted(PROTOCOL_SCHEMAS.glob("*.request.schema.json")):
        cmd = path.name.split(".")[0]
        if cmd == "request":  # the union of the others
            continue
        for field, bounds in numeric_fields(json.loads(path.read_text()), path.name).items():
            if bounds != (None, None):
                fields[(cmd, field)] = bounds
    return fields


NOT_SENT_BY_SCENARIOS = {
    ("hello", ("protocol",)): "the runner's own handshake (tests/hostile and tests/conformance test versions)",
    ("count", ("depth",), "past"): "a count scenario's depth is the number of counts it expects, at least 1",
    ("observe", ("seat",), "past"): "the runner observes only the seats 0-3 an expectation names",
}
"""Bounds no scenario can send, and why. `batch` is the fuzzer's request, never a scenario's."""


def _values(message: Any, path: Path_) -> list[Any]:
    if not path:
        return [message]
    if path[0] == "*":
        return [v for item in message for v in _values(item, path[1:])] if isinstance(message, list) else []
    return _values(message[path[0]], path[1:]) if isinstance(message, dict) and path[0] in message else []


def scenario_requests(scenario: Scenario) -> list[dict[str, Any]]:
    """The requests the runner sends for ``scenario`` (spec/PROTOCOL.md, Scenario execution), seeds as protocol 2 sends them."""
    body, kind = scenario.body, scenario.kind
    if kind == "pattern":
        return [{"cmd": "pattern"}]
    setups = {"setup": lambda: [body.get("before"), body["start"]], "game": lambda: [{"game": body["setup"]}]}.get(
        kind, lambda: [body["setup"]])()
    out: list[dict[str, Any]] = [{"cmd": "start", "setup": with_seeds(s, str)} for s in setups if s is not None]
    steps = [*body.get("steps", ()), *body.get("prefix", ())]
    out += [{"cmd": "act", "seat": step["seat"]} for step in steps if "seat" in step]
    observes = [entry["seat"] for e in _expectations(scenario) for entry in e.get("observe", ())]
    out += [{"cmd": "observe", "seat": seat} for seat in observes + ([0, 1, 2, 3] if observes else [])]
    if kind == "count":
        out.append({"cmd": "count", "depth": len(body["counts"])})
    return out


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value) else None


def test_every_numeric_request_field_is_sent_at_and_past_each_bound() -> None:
    """Each bound of each integer field of spec/schema/protocol/*.request.schema.json: sent at it and one past it."""
    _spec, scenarios, _runner = corpus()
    sent: dict[tuple[str, Path_], set[int]] = {}
    fields = request_numeric_fields()
    for scenario in scenarios:
        for message in scenario_requests(scenario):
            for (cmd, path) in fields:
                if cmd == message["cmd"]:
                    sent.setdefault((cmd, path), set()).update(
                        n for v in _values(message, path) if (n := _number(v)) is not None)
    missing = []
    for (cmd, path), (low, high) in sorted(fields.items()):
        if cmd == "batch" or (cmd, path) in NOT_SENT_BY_SCENARIOS:
            continue
        wanted = {("at", low), ("past", low - 1)} if low is not None else set()
        wanted |= {("at", high), ("past", high + 1)} if high is not None else set()
        for how, value in sorted(wanted, key=str):
            if value not in sent.get((cmd, path), set()) and (cmd, path, how) not in NOT_SENT_BY_SCENARIOS:
                missing.append(f"{cmd} {'.'.join(path)} = {value} ({how} a bound of [{low}, {high}])")
    assert not missing, "no scenario sends:\n" + "\n".join(missing)


def test_the_exemptions_name_real_request_fields() -> None:
    fields = request_numeric_fields()
    assert {key[:2] for key in NOT_SENT_BY_SCENARIOS} <= set(fields)
    assert ("start", ("setup", "seed")) in fields and ("act", ("seat",)) in fields  # the walk finds what it must
