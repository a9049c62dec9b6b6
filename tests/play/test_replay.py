"""The replay viewer's data model takes every scenario of the corpus, scenario files and fuzz traces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.fuzz.model import Step, Trace
from conformance.fuzz.scenario import write_trace
from conformance.replay import ReplayError, corpus, load_replay, replay_scenario

CARDS_IN_PLAY = 37


def test_every_scenario_of_the_corpus_replays_without_a_problem() -> None:
    scenarios = corpus()
    assert len(scenarios) > 400
    kinds: dict[str, int] = {}
    for scenario in scenarios:
        replay = replay_scenario(scenario)
        kinds[scenario.kind] = kinds.get(scenario.kind, 0) + 1
        assert replay["problem"] is None, (scenario.id, replay["problem"])
        json.dumps(replay)  # what the server sends
        if scenario.kind == "pattern":
            assert replay["request"]["expect"] in ("run", "set", "single", "none", "beats", "does-not-beat")
            continue
        error = scenario.body["error"] if scenario.kind == "setup" else (
            scenario.body.get("start", {}).get("error") if scenario.kind == "batch" else None)
        if error:  # a refused start (a batch's too: then no step is taken, spec/PROTOCOL.md "Batch play")
            refused = replay["steps"][-1]
            assert refused["kind"] == "start" and refused["outcome"]["kind"] == error, scenario.id
            assert len(replay["steps"]) == 1 + ("before" in scenario.body)
            if "before" in scenario.body:
                assert refused["state"] == replay["steps"][0]["state"]  # the hand in play stays as it was
            continue
        steps = replay["steps"]
        assert steps[0]["kind"] == "setup" and steps[0]["outcome"] == {"ok": True}
        body_steps = scenario.body.get("prefix" if scenario.kind == "count" else "steps", [])
        assert len(steps) == 1 + len(body_steps) + (1 if "final" in scenario.body or scenario.kind == "count" else 0)
        for step, source in zip(steps[1:], body_steps, strict=False):  # steps end with the final check
            assert step["expect"] == source.get("expect")
            if "reject" in source:
                assert step["outcome"]["ok"] is False and step["outcome"]["kind"] == source["error"], scenario.id
            state = step["state"]
            held = [c for hand in state["hands"] for c in hand.split()]
            assert len(held) == len(set(held)) <= CARDS_IN_PLAY
    assert set(kinds) == {"pattern", "trajectory", "game", "count", "setup", "batch"}


def test_a_refusal_links_its_clause_and_a_step_names_its_line() -> None:
    replay = load_replay("obs-discard-hidden-from-others")
    assert replay["file"].endswith("observation/observe.yaml")
    last = replay["steps"][4]
    assert last["label"] == "seat 3: discard Sin1 Sin2 Sin3" and last["line"] > replay["line"]
    assert last["expect"]["observe"][0]["seat"] == 0
    # what each move did comes from the reference's events, not from a diff of states
    assert last["outcome"]["events"] == ["3 discard Sin1 Sin2 Sin3", "1 wins 3 tricks"]
    assert "1 promotes Gon6 Gon7 Gon8 to Elders" in replay["steps"][3]["outcome"]["events"]
    rejected = next(
        (s for sc in corpus() if sc.kind == "trajectory"
         for s in replay_scenario(sc)["steps"] if s["kind"] == "reject" and s["outcome"].get("rule")), None)
    assert rejected is not None and rejected["outcome"]["href"].startswith("/rulebook/")


def test_a_fuzz_trace_and_a_scenario_file_replay(tmp_path: Path) -> None:
    trace = Trace(options={"D7": "any-suit"}, setup={"dealer": 1, "seed": 12}, setup_kind="seed",
                  steps=[Step(1, "call"), Step(1, "play Sup10", "reject", "malformed", "CARDS-1")])
    path = write_trace("fuzz-act-seed1", {"summary": "the candidate refused a legal action", "where": "act",
                                          "fields": ["ok"], "trace": trace.as_json(),
                                          "reference": {"ok": True}, "candidate": {"ok": False}}, tmp_path)
    replay = load_replay(str(path))
    assert replay["kind"] == "trace" and replay["requires"] == {"D7": "any-suit"}
    assert [s["kind"] for s in replay["steps"]] == ["setup", "do", "reject", "final"]
    assert replay["steps"][2]["outcome"]["rule"] == "CARDS-1"
    assert replay["steps"][3]["expect"]["disagreement"]["candidate"] == {"ok": False}
    source = next(s for s in corpus() if s.kind == "game")
    file_replay = load_replay(f"{Path(source.file).resolve()}#{source.id}")
    assert file_replay["id"] == source.id and file_replay["steps"][-1]["state"]["game"] is not None


@pytest.mark.parametrize("ref, message", [
    ("no-such-scenario", "no scenario 'no-such-scenario'"),
    ("missing.trace.json", "no such trace file"),
    ("missing.yaml", "no such scenario file"),
])
def test_a_bad_reference_is_named(ref: str, message: str) -> None:
    with pytest.raises(ReplayError, match=message):
        load_replay(ref)


def test_a_file_that_is_not_a_trace_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "x.trace.json"
    bad.write_text('{"steps": []}')
    with pytest.raises(ReplayError, match="not a fuzz trace"):
        load_replay(str(bad))
    bad.write_text("{")
    with pytest.raises(ReplayError, match="not a readable JSON file"):
        load_replay(str(bad))
