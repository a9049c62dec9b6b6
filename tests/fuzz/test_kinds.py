"""The default campaign's mix (issue 21 §3): each kind of request finds what no other kind meets, is sent
only where the candidate's handshake allows it, and prints its coverage; a game counts every hand."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from conformance.fuzz import FuzzConfig, fuzz
from conformance.fuzz.checks import VARIANTS, variant
from conformance.fuzz.cli import configure
from conformance.fuzz.outcomes import Outcomes
from conformance.notation import normalize_action
from conformance.results import FAIL, PASS
from conformance.suite import Suite
from reference_engine.events import HandDealt, parse_event
from reference_engine.outcomes import event_outcomes
from reference_engine.wire import Session
from tests.fuzz import fakes

ALL = ("setup", "count", "variant", "pattern", "deals")


@pytest.mark.parametrize(("fake", "hands", "kind", "where"), [
    (fakes.SeedPastItsBound, 200, "setup", "setup"),  # a seed past 2^64 - 1 taken: only a refused setup sends one
    (fakes.MiscountsDepthTwo, 60, "count", "count"),  # a wrong perft: only count asks
    (fakes.RefusesShortForms, 60, "variant", "act"),  # a legal spelling refused: only a respelled action has it
    (fakes.SplitsAtSpacesOnly, 60, "variant", "act"),  # a tab or a line end between words refused: likewise
    (fakes.ShowsTheDreamerAfterARefusedSetup, 60, "setup", "setup"),  # observe changed by a refused start
    (fakes.IgnoresOptions, 200, "setup", "setup"),  # protocol 3: options it does not follow taken silently
    (fakes.MisclassifiesSets, 200, "pattern", "pattern"),  # pattern's answer wrong: only a pattern check asks it
    (fakes.RefusesABatchSetupWhole, 200, "setup", "setup"),  # a refused setup in a batch: only that check sends one
    (fakes.RefusesAMissingDealAsIllegal, 300, "deals", "reject"),  # only a game with bad or too few deals meets it
])
def test_each_kind_finds_a_fault_that_no_other_kind_meets(fake: Any, hands: int, kind: str, where: str) -> None:
    found = fuzz(FuzzConfig.of(engine=fake, hands=hands, seed=0, out=None, shrink=False))
    d = found.disagreement
    assert d is not None and d.where == where, found.format()
    if fake is fakes.RefusesABatchSetupWhole:  # the start's own refusals agree: a batch found it
        assert d.request is not None and d.request["cmd"] == "batch", found.format()
    without = fuzz(FuzzConfig.of(engine=fake, hands=hands, seed=0, out=None, shrink=False,
                                 checks=tuple(k for k in ALL if k != kind)))
    assert without.ok, without.format()


@pytest.mark.parametrize(("fake", "config", "kind", "what"), [
    (fakes.MiscountsDepthTwo, {"hands": 60}, "count", "counts"),  # a wrong perft
    (fakes.DivideCountsEveryDepth, {"hands": 100}, "count", "divide"),  # counts right, its divide wrong
    (fakes.CountsIntoTheNextDeal, {"hands": 60, "seed": 1, "game": True, "checks": ("count",)}, "count",
     "setup.first_dealer"),  # a count within a game, into its next deal
    (fakes.RefusesABatchWithoutObservations, {"hands": 60, "checks": ("count",)}, "batch", "steps"),  # a count's batch
    (fakes.MisclassifiesSets, {"hands": 200}, "pattern", "classify"),
    (fakes.SeedPastItsBoundWithoutBatch, {"hands": 200}, "setup", "error"),  # a seed past 2^64 - 1 taken
    (fakes.ShowsTheDreamerAfterARefusedSetup, {"hands": 60}, "setup", "observe"),  # observe changed by a refusal
    (fakes.RefusesTheLargestSeed, {"hands": 200}, "trajectory", "setup.seed"),  # a setup at a bound refused
    (fakes.DealsTheLargestSeedAsZero, {"hands": 200}, "trajectory", "steps"),  # taken, and dealt otherwise
    (fakes.RefusesABatchSetupWhole, {"hands": 200}, "batch", "start"),  # a refused setup in a batch refused whole
    (fakes.SeedPastItsBound, {"hands": 200}, "batch", "start"),  # its bad seed taken in a batch's start
])
def test_a_side_check_disagreement_is_written_as_a_scenario_of_its_kind(
        tmp_path: Any, fake: Any, config: dict[str, Any], kind: str, what: str) -> None:
    # The scenario the fuzzer writes loads with the loader, the reference passes it and the fake fails it,
    # through the runner (not only through the fuzzer's own verification)
    config = {"seed": 0, **config}
    report = fuzz(FuzzConfig.of(engine=fake, out=tmp_path / "out", shrink_seconds=2, **config))
    d = report.disagreement
    assert d is not None and d.check is not None and not report.traces, report.format()
    [written] = report.written
    assert written.verified, report.format()
    generated = tmp_path / "corpus" / "generated"
    generated.mkdir(parents=True)
    shutil.copy(written.path, generated)
    suite = Suite.load(None, [tmp_path / "corpus"])
    [scenario] = suite.scenarios
    body: Any = scenario.body
    for key in what.split("."):  # the part of the body the disagreement is about
        assert key in body, (what, scenario.data)
        body = body[key]
    assert scenario.kind == kind and scenario.generated, scenario.data
    assert "reference" in scenario.data["notes"] and d.summary()[len("the candidate "):] in scenario.data["notes"]
    reference = suite.engine("reference", 30.0)
    candidate = suite.engine(f"python:tests.fuzz.fakes:{fake.__name__}", 30.0)
    try:
        assert suite.runner(reference).run(scenario).status == PASS
        assert suite.runner(candidate).run(scenario).status == FAIL
    finally:
        reference.close()
        candidate.close()


@pytest.mark.parametrize(("fake", "why", "summary"), [
    # an option the candidate does not follow must be refused as unsupported; which options an engine follows is
    # its own, so no scenario's expectation can say it
    (fakes.IgnoresOptions, "depends on which options an engine follows", "where the protocol wants unsupported"),
    # an option ID of the wrong shape: the scenario schema's options cannot hold it (the loader says so)
    (fakes.DropsOptionsOfTheWrongShape, "'Any Suit' does not match", "where the reference answers malformed"),
])
def test_a_side_check_disagreement_no_scenario_can_hold_is_reported_and_its_trace_written(
        tmp_path: Any, fake: Any, why: str, summary: str) -> None:
    report = fuzz(FuzzConfig.of(engine=fake, hands=200, seed=0, out=tmp_path, shrink_seconds=2))
    d = report.disagreement
    assert d is not None and d.where == "setup" and not report.written, report.format()
    text = report.format()
    assert "its trace is written instead" in text and why in text, text
    assert [p.name for p in tmp_path.iterdir()] == [report.traces[0].name]  # no scenario file left behind
    trace = json.loads(report.traces[0].read_text(encoding="utf-8"))
    assert trace["where"] == "setup" and trace["request"]["options"] == d.request["options"]
    assert trace["fields"] == ["error"] and summary in trace["summary"], trace["summary"]


class ProtocolOneRecorder(Session):
    """Speaks protocol 1 only, declares what js-v1 declares (no batch, no divide, not configurable), and keeps
    every request it is sent."""

    name = "fake-protocol-one-recorder"
    seen: ClassVar[list[dict[str, Any]]] = []

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "hello":
            if message.get("protocol") != 1:
                return {"ok": False, "error": {"kind": "unsupported", "message": "protocol 1 only"}}
            answer = super().handle(message)
            answer["capabilities"] = ["pattern", "count", "observe", "game"]
            answer["configurable"] = False
            return answer
        type(self).seen.append(dict(message))
        return super().handle(message)


def test_a_protocol_1_engine_is_sent_only_what_it_declared_and_still_every_kind() -> None:
    ProtocolOneRecorder.seen = []
    report = fuzz(FuzzConfig.of(engine=ProtocolOneRecorder, hands=120, seed=0, out=None, shrink=False))
    assert report.ok, report.format()
    seen = ProtocolOneRecorder.seen
    assert not [m for m in seen if m["cmd"] == "batch"]
    assert not [m for m in seen if m["cmd"] == "count" and "divide" in m]
    assert not [m for m in seen if "options" in m]  # not configurable, protocol 1: never options
    seeds = [m["setup"]["seed"] for m in seen if m["cmd"] == "start" and "seed" in m["setup"]]
    assert seeds and all(type(s) is int and 0 <= s < 2**64 for s in seeds)  # protocol 1: integers, valid only
    cov = report.coverage
    assert cov["setup:bad-setup"] and cov["count:depth:2"] and cov["variant:short"]
    assert not cov["setup:malformed"]  # a schema's refusal has an error kind from protocol 2 on
    assert cov["kind:game"] and "divide" not in str(report.kind_classes)
    assert "options:unknown-decision" not in report.kind_classes["setup"]


def test_every_kind_prints_its_coverage() -> None:
    report = fuzz(FuzzConfig.of(engine="reference", hands=40, seed=0, out=None))
    text = report.format()
    for head in ("outcome coverage:", "games:", "setups:", "counts:", "action text variants:",
                 "observe after refusals:"):
        assert f"\n{head}" in text, text
    assert "NOT every class reached" in text and not report.every_class_reached
    first = report.first_reached()
    ends = next(line for line in text.splitlines() if line.startswith("  rare ends"))
    for cid in ("score:12", "game:score:12"):  # each named, with the hand that first reached it or never
        assert (f"{cid} in hand {first[cid]}" if cid in first else f"{cid} never") in ends, ends
    for lane in report.lanes:  # the first hand of a class is one whose outcomes hold it, and none before
        for hand in lane.hands:
            for outcome in hand.outcomes:
                assert first[outcome] <= hand.index + 1
    assert any("UNREACHED" in line for line in text.splitlines() if "hands:" in line or "seed:" in line)


def test_a_game_counts_every_one_of_its_hands() -> None:
    # Before: a game counted only its last hand's classes. Each hand's classes are now in the game's.
    session = Session()
    session.handle({"cmd": "hello", "protocol": 3})
    outcomes = Outcomes({})
    met_before_the_last = 0
    for seed in range(6):
        answer = session.handle({"cmd": "batch", "setup": {"game": {"first_dealer": 0, "deals": [
            {"seed": str(seed * 16 + k)} for k in range(16)]}}, "steps": [], "playout": {"seed": str(seed)},
            "state": "last"})
        acts = [e.get("act") for e in answer["steps"][1:]]
        game = outcomes.reached(acts, [], game=True)
        events = [parse_event(text) for act in acts if act for text in act.get("events", ())]
        cuts = [i for i, e in enumerate(events) if isinstance(e, HandDealt)]
        hands = [events[a:b] for a, b in zip([0, *cuts], [*cuts, len(events)], strict=True)]
        for hand in hands:
            assert event_outcomes(hand) <= game
        met_before_the_last += len(set().union(*map(event_outcomes, hands[:-1])) - event_outcomes(hands[-1]))
        assert "game:over" in game and any(c.startswith("game:end:") for c in game)
    assert met_before_the_last  # earlier hands reached classes the last one did not: those were lost before


@pytest.mark.parametrize("action", ["play Sup3 Sup4 Sup5", "discard Gon2 Zok7", "play WanSin", "pass", "claim"])
def test_a_respelled_action_is_the_same_action(action: str) -> None:
    import random

    rng = random.Random(0)
    for how in VARIANTS:
        for _ in range(5):
            text = variant(action, how, rng)
            assert normalize_action(text) == action and (text != action or len(action.split()) < 3 or how in ("case", "space"))


def test_help_says_what_each_mode_compares() -> None:
    import argparse

    text = " ".join(configure(argparse.ArgumentParser()).format_help().split())
    for words in ("--checks", "error kind", "divide", "short card forms", "--states", "--observe", "--no-playout",
                  "--game", "--setup"):
        assert words in text, words


def test_a_fact_that_fits_two_error_kinds_goes_to_protocol_3_engines_only() -> None:
    from conformance.fuzz.faults import TWO_KINDS, faults_for

    everything = ("hands", "deck", "seed", "game")
    older = {f.id for f in faults_for(everything, 2, True)}
    newer = {f.id for f in faults_for(everything, 3, True)}
    assert newer >= TWO_KINDS and not TWO_KINDS & older
    assert {"hands:short:active", "deck:short", "seed:largest", "seed:leading-zero"} <= older
    assert not {f.id for f in faults_for(everything, 1, False)} & {"seed:leading-zero", "options:unknown-decision"}


def test_the_default_campaign_of_1000_hands_with_seed_0_reaches_every_class_and_says_so() -> None:
    # slow (tests/conftest.py): the claim of the issue, on the reference against itself (its hands are those
    # of any candidate that agrees: the reference alone chooses them)
    report = fuzz(FuzzConfig.of(engine="reference", hands=1000, seed=0, out=None))
    assert report.ok and report.every_class_reached, report.format()
    assert report.format().endswith("every kind reached every one of its classes")
    assert "never" not in next(line for line in report.format().splitlines() if line.startswith("  rare ends"))
    cov = report.coverage
    for game_class in ("game:end:void", "game:end:five-tigers", "game:score:12", "game:over"):
        assert cov[game_class], game_class
    assert cov["setup:bad-setup"] and cov["setup:malformed"] and cov["count:depth:2"] and cov["count:divide"]


class ProtocolTwo(Session):
    """The reference, speaking protocol 2 only (as the Go engine does)."""

    name = "fake-protocol-two"

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        if message.get("cmd") == "hello" and message.get("protocol") != 2:
            return {"ok": False, "error": {"kind": "unsupported", "message": "protocol 2 only"}}
        return super().handle(message)


def test_a_count_within_a_game_goes_to_protocol_3_engines_only() -> None:
    # protocol 3 ends a count with the hand in play; a protocol-2 engine may count on into the next deal
    newer = fuzz(FuzzConfig.of(engine="reference", hands=80, seed=0, out=None, shrink=False))
    older = fuzz(FuzzConfig.of(engine=ProtocolTwo, hands=80, seed=0, out=None, shrink=False))
    assert newer.ok and older.ok, older.format()
    assert "count:in-game" in newer.kind_classes["count"] and "count:in-game" not in older.kind_classes["count"]
    assert newer.coverage["count:in-game"] and not older.coverage["count:in-game"]
    assert older.coverage["count:depth:2"] and older.coverage["kind:game"]


def test_the_report_schema_names_every_check_kind() -> None:
    import json
    from pathlib import Path

    from conformance.fuzz.config import CHECK_KINDS

    schema = json.loads((Path(__file__).resolve().parents[2] / "spec" / "schema" / "report" / "fuzz.schema.json")
                        .read_text(encoding="utf-8"))

    def find(node: Any) -> Any:
        if isinstance(node, dict):
            if "checks" in node and isinstance(node["checks"], dict) and "items" in node["checks"]:
                return node["checks"]["items"]["enum"]
            return next((e for e in map(find, node.values()) if e is not None), None)
        return None

    assert find(schema) == list(CHECK_KINDS)


def test_a_count_vector_keeps_respelled_action_text_double_quoted(tmp_path: Any) -> None:
    # A count's prefix holds the hand's actions as sent, respelled with a tab or a line end too: written
    # double-quoted with escapes (the loader's one way to take a control character), it loads and passes
    from conformance.fuzz.checks import Check, Exchange
    from conformance.fuzz.model import Disagreement, Step, Trace
    from conformance.fuzz.scenario import dump, side_scenario
    from conformance.paths import default_spec_dir
    from conformance.specdata import load_spec_data

    session = Session()
    session.handle({"cmd": "hello", "protocol": 3})
    setup = {"dealer": 0, "seed": "7"}
    assert session.handle({"cmd": "start", "setup": setup})["ok"]
    step = Step(0, "\tcall\n")
    assert session.handle({"cmd": "act", "seat": 0, "action": step.action})["ok"]
    request = {"cmd": "count", "depth": 2, "divide": True}
    answer = session.handle(request)
    trace = Trace({}, setup, "seed", None, [step])
    check = Check("count", trace, [Exchange({"cmd": "start", "setup": setup}, {"ok": True}, "kind"),
                                   Exchange(request, answer, "count")], frozenset())
    miscounted = {**answer, "counts": [answer["counts"][0], answer["counts"][1] + 1]}
    d = Disagreement(trace, "count", ["counts"], answer, miscounted, request=request, check=check)
    scenario = side_scenario(d, load_spec_data(default_spec_dir()))
    assert isinstance(scenario, dict) and scenario["count"]["counts"] == answer["counts"], scenario
    assert scenario["count"]["divide"] == answer["divide"] and sum(answer["divide"].values()) == answer["counts"][-1]
    text = dump(scenario)
    assert '{seat: 0, do: "\\tcall\\n"}' in text, text
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "vector.yaml").write_text(text, encoding="utf-8")
    suite = Suite.load(None, [tmp_path])
    reference = suite.engine("reference", 30.0)
    try:
        assert suite.runner(reference).run(suite.scenarios[0]).status == PASS
    finally:
        reference.close()
