"""Scenario execution: statuses, skips, options, expected failures, failure details."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

# at module level, as tests/conformance/test_loader.py says why
from conftest import EXAMPLES

from conformance.engine import EngineInfo
from conformance.expected import load_expected_failures
from conformance.loader import load_scenarios
from conformance.runner import options_to_send, skip_reason

TRAJ = "example-calling-everybody-passes"
PAT = "example-pattern-run-of-three"
SAME = "example-pattern-single-same-suit-beats"
ANY = "example-pattern-single-other-suit-any-suit-rule"
COUNT = "example-count-calling-two-plies"

HANDS = ('["Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3", '
         '"Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6", "Sin9", '
         '"Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 WanSin"]')


def _one(sid: str, kind: str, rest: str) -> str:
    """A one-scenario file on the fake's deal; ``rest`` is YAML at the body's indentation."""
    return (f"scenarios:\n  - id: {sid}\n    title: test\n    clauses: [CALL-1]\n    {kind}:\n"
            f"      setup: {{dealer: 0, hands: {HANDS}}}\n" + textwrap.indent(textwrap.dedent(rest), "      "))


def _scenario_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(body)
    return path


def _load(path, schemas, spec_data):
    return {s.id: s for s in load_scenarios([path], schemas, spec_data)}


def test_examples_pass_or_skip_on_the_scripted_engine(run, examples):
    results, _ = run("python:inprocess:ScriptedSession", list(examples.values()))
    statuses = {r.id: r.status for r in results}
    assert statuses.pop(ANY) == "skip"  # needs D7=any-suit; the fake follows the default
    assert set(statuses.values()) == {"pass"}, [r for r in results if r.status != "pass"]


def test_non_configurable_skip_reason_names_the_decision(run, examples):
    results, _ = run("python:inprocess:ScriptedSession", [examples[ANY]])
    assert results[0].status == "skip"
    assert "D7=any-suit (engine follows same-suit)" in results[0].reason


def test_configurable_engine_gets_the_required_options(run, examples):
    results, engine = run("python:inprocess:ConfigurableSession", [examples[ANY], examples[TRAJ], examples[COUNT]])
    session = engine.adapter._session
    sent = [m for m in session.received if m["cmd"] in ("pattern", "start")]
    assert sent[0]["options"] == {"D7": "any-suit"}
    assert sent[1]["options"] == {"D4": "next-seat", "D5": "next-dealer", "D31": "played-hands"}
    assert sent[2]["options"] == {}  # requires: defaults -> the engine defaults everything
    # The table of the fake says Gon8 does not beat Sup7: under any-suit that is a failure.
    assert results[0].status == "fail"
    assert results[0].diff == ("expected: beats", "actual:   does-not-beat")


def test_skip_reason_rules(spec_data, examples):
    info = EngineInfo("x", "1", None, 1, {"D7": "any-suit"}, False, ("pattern",))
    assert skip_reason(examples[ANY], info, spec_data) is None
    reason = skip_reason(examples[SAME], info, spec_data)
    assert reason is not None
    assert "D7=same-suit (engine follows any-suit)" in reason
    assert skip_reason(examples[COUNT], info, spec_data) == \
        "the engine does not declare the 'hands' and 'count' capabilities"
    # requires: defaults -> every decision must be at its default
    info2 = EngineInfo("x", "1", None, 2, {"D12": "may-discard"}, False, ("hands", "count"))
    reason = skip_reason(examples[COUNT], info2, spec_data)
    assert reason is not None
    assert "D12=must-beat (engine follows may-discard)" in reason
    assert options_to_send(examples[COUNT]) == {}


def test_game_scenario_skipped_without_the_game_capability(run, schemas, spec_data, tmp_path):
    path = _scenario_file(tmp_path, textwrap.dedent("""\
        scenarios:
          - id: game-one
            title: a game
            clauses: [GAME-1]
            game:
              setup: {first_dealer: 0, deals: [{seed: 1}]}
              final: {phase: game-over, game: {scores: [0, 0, 0, 0]}}
        """))
    scenarios = _load(path, schemas, spec_data)
    results, _ = run("python:inprocess:ScriptedSession", list(scenarios.values()))
    assert results[0].status == "skip" and "'game' capability" in results[0].reason


def test_failure_names_step_action_key_and_diff(run, schemas, spec_data, tmp_path):
    path = _scenario_file(tmp_path, _one("wrong-expectations", "trajectory", """\
        steps:
          - {seat: 0, do: pass,
             expect: {to_act: 3, legal: {actions: [call, "play Sup3 Sup4 Sup5"]},
                      legal_includes: ["discard Gon4"], hands: {1: "Gon4 Gon5"}}}
        """))
    s = _load(path, schemas, spec_data)["wrong-expectations"]
    r = run("python:inprocess:ScriptedSession", [s])[0][0]
    assert r.status == "fail"
    assert r.at == "steps[0]" and r.step == 0 and r.at_line == 8
    assert r.action == "seat 0 do 'pass'"
    assert r.key == "to_act, legal, legal_includes, hands"
    diff = "\n".join(r.diff)
    assert "expected: 3" in diff and "actual:   1" in diff
    assert "missing actions: play Sup3 Sup4 Sup5" in diff
    assert "extra actions:   pass" in diff
    assert "not legal but expected legal: discard Gon4" in diff
    assert "seat 1 extra:   Gon6 Gon7 Gon8 Gon9 Zok1" in diff


def test_engine_refusing_a_do_step_fails_naming_the_refusal(run, schemas, spec_data, tmp_path):
    path = _scenario_file(tmp_path, _one("refused", "trajectory", """\
        steps:
          - {seat: 0, do: call}
        """))
    r = run("python:inprocess:ScriptedSession", list(_load(path, schemas, spec_data).values()))[0][0]
    assert r.status == "fail" and r.key == "do"
    assert "the engine refused 'call' by seat 0: illegal: not in the script" in r.reason


def test_accepting_an_action_that_must_be_rejected_fails(run, schemas, spec_data, tmp_path):
    path = _scenario_file(tmp_path, _one("must-reject", "trajectory", """\
        steps:
          - {seat: 0, reject: pass, error: illegal}
        """))
    r = run("python:inprocess:ScriptedSession", list(_load(path, schemas, spec_data).values()))[0][0]
    assert r.status == "fail" and r.key == "reject"
    assert r.diff == ("expected: error illegal", "actual:   ok")


def test_count_mismatch_lists_each_depth(run, schemas, spec_data, tmp_path):
    path = _scenario_file(tmp_path, _one("perft-wrong", "count", "counts: [2, 39, 100]\n"))
    r = run("python:inprocess:ScriptedSession", list(_load(path, schemas, spec_data).values()))[0][0]
    assert r.status == "fail" and r.key == "counts"
    assert r.diff[:2] == ("depth 2: expected 39, actual 38", "expected 3 counts, got 2")


def test_expected_failures_turn_into_xfail_and_xpass(run, examples, tmp_path):
    xf = tmp_path / "xf.txt"
    xf.write_text("# known\nexample-pattern-single-other-suit-any-suit-rule  table says no\n"
                  "example-pattern-run-of-three: works now\n")
    expected = load_expected_failures(xf)
    assert expected == {ANY: "table says no", PAT: "works now"}
    results, _ = run("python:inprocess:ConfigurableSession", [examples[ANY], examples[PAT]], expected=expected)
    xfail, xpass = results
    assert xfail.status == "xfail" and xfail.original_status == "fail" and not xfail.bad
    assert xpass.status == "xpass" and xpass.bad
    assert "remove it from the list" in xpass.reason


def test_expected_failures_yaml_forms(tmp_path):
    a = tmp_path / "a.yaml"
    a.write_text("one-id: reason one\ntwo-id: null\n")
    assert load_expected_failures(a) == {"one-id": "reason one", "two-id": ""}
    b = tmp_path / "b.yaml"
    b.write_text("- one-id\n- {id: two-id, reason: because}\n")
    assert load_expected_failures(b) == {"one-id": "", "two-id": "because"}


def test_every_request_the_runner_sends_is_schema_valid(run, examples, schemas):
    _results, engine = run("python:inprocess:ConfigurableSession", list(examples.values()))
    session = engine.adapter._session
    assert len(session.received) > 10
    for message in session.received:
        errors = list(schemas.request_errors(message))
        assert not errors, (message, [e.message for e in errors])


@pytest.mark.parametrize("spec_text", ["reference", "reference-subprocess"])
def test_examples_against_the_reference_engine(run, spec_text, schemas, spec_data):
    pytest.importorskip("reference_engine.wire")
    scenarios = load_scenarios([EXAMPLES], schemas, spec_data)
    results, _ = run(spec_text, scenarios, timeout=30)
    bad = [(r.id, r.status, r.reason, r.diff) for r in results if r.status != "pass"]
    assert not bad
