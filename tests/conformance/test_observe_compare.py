"""The `observe` expectation compares only the fields it names (OBS-1)."""

from __future__ import annotations

from conformance.compare import check_expectations

OBSERVATION = {
    "seat": 0, "hand": "Sup3 Gon6", "hand_sizes": [2, 2, 1, 2], "dreamer_card": None,
    "history": [{"seat": 3, "action": "discard", "count": 3}], "tricks": [0, 3, 0, 0],
    "elders": "Sup1 Sin1 WanSin Sup9 Gon9 Zok9 Sin9",
}


def test_matching_fields_pass_in_any_card_order_and_spelling() -> None:
    expect = {"observe": [{"seat": 0, "hand": "g6 sup3", "history": [{"seat": 3, "action": "discard", "count": 3}]}]}
    assert check_expectations(expect, {}, {0: OBSERVATION}) == []


def test_a_leaked_discard_is_reported_with_both_sides() -> None:
    leaked = dict(OBSERVATION, history=[{"seat": 3, "action": "discard Sin1 Sin2 Sin3"}])
    expect = {"observe": [{"seat": 0, "history": [{"seat": 3, "action": "discard", "count": 3}]}]}
    [mismatch] = check_expectations(expect, {}, {0: leaked})
    assert mismatch.key == "observe.0"
    assert any("discard Sin1 Sin2 Sin3" in line for line in mismatch.diff)


def test_a_visible_dreamer_card_fails_an_expected_null() -> None:
    expect = {"observe": [{"seat": 0, "dreamer_card": None}]}
    [mismatch] = check_expectations(expect, {}, {0: dict(OBSERVATION, dreamer_card="Gon8")})
    assert "Gon8" in " ".join(mismatch.diff)


def test_a_missing_observation_is_a_mismatch() -> None:
    [mismatch] = check_expectations({"observe": [{"seat": 2, "tricks": [0, 0, 0, 0]}]}, {}, {})
    assert mismatch.key == "observe.2"


def test_optional_fields_are_compared_only_when_the_engine_sends_them() -> None:
    expect = {"observe": [{"seat": 0, "legal": None, "result": {"end": "claim"}}]}
    assert check_expectations(expect, {}, {0: OBSERVATION}) == []  # neither `legal` nor `result` sent
    [mismatch] = check_expectations(expect, {}, {0: dict(OBSERVATION, legal={"actions": ["pass"], "discard": None},
                                                            result=None)})
    assert "legal" in " ".join(mismatch.diff) and "result" in " ".join(mismatch.diff)


def test_observed_legal_actions_compare_as_sets_and_results_as_subsets() -> None:
    seen = dict(OBSERVATION, legal={"actions": ["call", "pass"], "discard": None},
                result={"end": "void", "winner": None, "tricks": None, "dreamer_count": None,
                        "deltas": [0, 0, 0, 0], "next_dealer": 1, "counts": False})
    expect = {"observe": [{"seat": 0, "legal": {"actions": ["pass", "call"]}, "result": {"end": "void"}}]}
    assert check_expectations(expect, {}, {0: seen}) == []


class LeakyRefusal:
    """The reference engine, except that a refused action still shows in every seat's history."""

    def __init__(self) -> None:
        from reference_engine.wire import Session
        self.session = Session()
        self.leaked: list[dict[str, object]] = []

    def handle(self, message: dict[str, object]) -> dict[str, object]:
        answer = self.session.handle(message)
        if message.get("cmd") == "act" and not answer["ok"]:
            self.leaked.append({"seat": message["seat"], "action": "pass"})
        if message.get("cmd") == "start":
            self.leaked = []
        if message.get("cmd") == "observe" and answer["ok"]:
            answer["observation"]["history"] = answer["observation"]["history"] + self.leaked
        return answer


def test_a_refusal_that_changes_what_a_seat_sees_fails_though_state_is_unchanged() -> None:
    from conformance.adapters import parse_engine_spec
    from conformance.engine import Engine
    from conformance.loader import load_scenarios
    from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
    from conformance.runner import ScenarioRunner
    from conformance.schemas import load_schemas
    from conformance.specdata import load_spec_data

    spec_dir = default_spec_dir()
    schemas, spec = load_schemas(spec_dir / "schema"), load_spec_data(spec_dir)
    [scenario] = [s for s in load_scenarios([DEFAULT_SCENARIOS_DIR / "observation"], schemas, spec)
                  if s.id == "obs-every-seat-after-five-tigers"]
    runner = ScenarioRunner(Engine(parse_engine_spec("python:test_observe_compare:LeakyRefusal"), schemas), spec)
    result = runner.run(scenario)
    assert result.status == "fail", result.reason
    assert result.reason == "the observation of seat 0 changed after a rejected action"
    assert result.step == 0 and any("history" in line for line in result.diff)
    reference = ScenarioRunner(Engine(parse_engine_spec("reference"), schemas), spec)
    assert reference.run(scenario).status == "pass"
