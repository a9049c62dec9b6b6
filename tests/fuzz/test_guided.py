"""The guided search, its lanes, --jobs, --shard and merge; the fields compared; batch play; coverage.

Identical results are the point of lanes: the same campaign played in one
process, in two, or in shards merged afterwards must report the same hands,
the same first disagreement and the same outcome coverage.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main as cli_main
from conformance.fuzz import FuzzConfig, fuzz
from conformance.fuzz.fields import compared_fields
from conformance.fuzz.merge import MergeError, campaign_of, merge_fuzz_reports
from reference_engine.wire import Session
from tests.fuzz import fakes

catalogue = pytest.importorskip("tests.mutants.catalogue")
SPEC = Path(__file__).resolve().parents[2] / "spec" / "schema" / "protocol"


def campaign(tmp_path: Path, name: str, **kw: object) -> dict[str, Any]:
    report = tmp_path / f"{name}.json"
    config = dict(engine="reference", hands=64, seed=3, out=None, observe="last", report=report)
    config.update(kw)
    fuzz(FuzzConfig.of(**config))
    return untimed(json.loads(report.read_text(encoding="utf-8")))


def untimed(data: dict[str, Any]) -> dict[str, Any]:
    """A report without its timing (the one thing two plays of a campaign do not share)."""
    data.pop("duration", None)
    return data


def test_jobs_two_gives_the_results_of_one_process(tmp_path: Path) -> None:
    one = campaign(tmp_path, "one")
    two = campaign(tmp_path, "two", jobs=2)
    assert one == two
    assert sum(len(lane["hands"]) for lane in one["lane_results"]) == 64


def test_shards_merged_are_the_whole_campaign(tmp_path: Path) -> None:
    whole = campaign(tmp_path, "whole")
    shards = [campaign(tmp_path, f"shard{i}", shard=(i, 3)) for i in range(3)]
    assert merge_fuzz_reports(shards) == whole
    with pytest.raises(MergeError, match="seed"):
        merge_fuzz_reports([shards[0], campaign(tmp_path, "other", seed=4, shard=(1, 3))])


def test_a_disagreement_is_the_same_whole_in_jobs_and_in_merged_shards(tmp_path: Path) -> None:
    m = catalogue.get("pp-penalty-missing")
    kw = dict(engine=m.factory, label="mutant", hands=200, seed=0, shrink=False)
    whole = campaign(tmp_path, "whole", **kw)
    assert campaign(tmp_path, "jobs", jobs=2, **kw) == whole
    merged = merge_fuzz_reports([campaign(tmp_path, f"s{i}", shard=(i, 2), **kw) for i in range(2)])
    assert merged == whole
    c = campaign_of(merged)
    assert c.first_at is not None and c.hands == c.first_at
    # the merge command prints it and fails
    paths = [tmp_path / f"s{i}.json" for i in range(2)]
    assert cli_main(["merge", *map(str, paths), "--out", str(tmp_path / "m.json")]) == 1
    assert untimed(json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))) == whole


def test_run_jobs_and_merged_shards_give_the_results_of_one_process(tmp_path: Path) -> None:
    args = ["run", "-q", "--area", "CALL"]

    def results(path: Path) -> dict[str, tuple[str, str]]:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {r["id"]: (r["status"], r["reason"]) for r in data["results"]}

    assert cli_main([*args, "--json", str(tmp_path / "one.json")]) == 0
    assert cli_main([*args, "--jobs", "2", "--json", str(tmp_path / "two.json")]) == 0
    for i in range(3):
        assert cli_main([*args, "--shard", f"{i}/3", "--json", str(tmp_path / f"s{i}.json")]) == 0
    assert cli_main(["merge", *(str(tmp_path / f"s{i}.json") for i in range(3)), "-o", str(tmp_path / "m.json")]) == 0
    one = results(tmp_path / "one.json")
    assert len(one) > 10
    assert results(tmp_path / "two.json") == one
    assert results(tmp_path / "m.json") == one
    assert [r["id"] for r in json.loads((tmp_path / "two.json").read_text())["results"]] == \
        [r["id"] for r in json.loads((tmp_path / "one.json").read_text())["results"]]


def test_a_bad_shard_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["run", "--shard", "3/3"]) == 2
    assert "--shard is I/N" in capsys.readouterr().err
    assert cli_main(["fuzz", "--engine", "reference", "--shard", "0/9", "--no-write"]) == 2
    assert "at most 8 shards" in capsys.readouterr().err


# ------------------------------------------------------------------ fields


def test_the_compared_fields_are_the_schemas_required_and_optional_fields() -> None:
    state = json.loads((SPEC / "state.response.schema.json").read_text())["else"]
    observation = json.loads((SPEC / "observe.response.schema.json").read_text())["else"]["properties"]["observation"]
    f = compared_fields()
    assert set(f.state.required) == set(state["required"]) - {"ok"}
    assert set(f.state.optional) == set(state["properties"]) - set(state["required"])
    assert set(f.observation.required) == set(observation["required"])
    assert set(f.observation.required) | set(f.observation.optional) == set(observation["properties"])


def test_an_engine_sending_only_the_required_fields_fuzzes_clean() -> None:
    report = fuzz(FuzzConfig.of(engine=fakes.RequiredFieldsOnly, hands=40, seed=1, out=None))
    assert report.ok and not report.batch, report.format()


def test_fields_no_schema_defines_are_never_compared() -> None:
    assert fuzz(FuzzConfig.of(engine=fakes.ExtraFields, hands=20, seed=1, out=None)).ok


def test_a_field_compared_only_in_some_phases_follows_its_schema_annotation() -> None:
    # state.response.schema.json: `round` has x-compare-when {phase: [playing]} (not defined elsewhere)
    assert dict(compared_fields().state.when)["round"] == (("phase", ("playing",)),)
    assert fuzz(FuzzConfig.of(engine=fakes.RoundOutsidePlaying, hands=30, seed=0, out=None)).ok


def test_a_missing_required_field_is_a_protocol_error_not_a_disagreement() -> None:
    # the answer breaks its schema (hand_sizes is required): the runner calls it an error, and so does the fuzzer
    report = fuzz(FuzzConfig.of(engine=fakes.MissingRequiredField, hands=5, seed=0, out=None, shrink=False))
    assert report.disagreement is None and report.failures, report.format()
    failure = report.failures[0]
    assert failure.invalid and failure.request == {"cmd": "observe", "seat": 0}
    assert "invalid answer to 'observe'" in failure.message and "hand_sizes" in failure.message


# ------------------------------------------------------------------ batch


def _protocol_2() -> Session:
    """A reference session after hello 2: batch and playout are requests of protocol 2."""
    session = Session()
    assert session.handle({"cmd": "hello", "protocol": 2})["ok"]
    return session


def test_a_batch_answers_what_the_same_requests_answer_one_by_one() -> None:
    steps = [{"seat": 1, "action": "call"}, {"seat": 0, "action": "play Sup9"}, {"seat": 1, "action": "play Sup3"}]
    setup = {"dealer": 1, "seed": "7"}
    one = _protocol_2()
    answers = [one.handle({"cmd": "start", "setup": setup})]
    expected: list[dict[str, Any]] = [{"state": one.handle({"cmd": "state"})}]
    for step in steps:
        act = one.handle({"cmd": "act", **step})
        expected.append({"act": act, "state": one.handle({"cmd": "state"})})
    expected[-1]["observations"] = [one.handle({"cmd": "observe", "seat": s}) for s in range(4)]
    batch = _protocol_2().handle({"cmd": "batch", "setup": setup, "steps": steps, "observe": "last"})
    assert batch == {"ok": True, "start": answers[0], "steps": expected}
    assert any(not e["act"]["ok"] for e in expected[1:])  # a refused step is answered and play goes on
    bad = _protocol_2().handle({"cmd": "batch", "setup": setup, "steps": [{"seat": 0}]})
    assert bad["ok"] is False and bad["error"]["kind"] == "malformed"
    refused = _protocol_2().handle({"cmd": "batch", "setup": {"dealer": 0, "deck": "Sup1"}, "steps": steps})
    assert refused["ok"] is True and refused["start"]["ok"] is False and refused["steps"] == []
    # a setup that breaks its schema makes the batch request malformed (spec/PROTOCOL.md, batch errors)
    bad = _protocol_2().handle({"cmd": "batch", "setup": {"dealer": 9, "seed": "1"}, "steps": steps})
    assert bad["ok"] is False and bad["error"]["kind"] == "malformed"


def test_batch_and_step_by_step_find_the_same_disagreement() -> None:
    m = catalogue.get("clockwise")
    reports = [fuzz(FuzzConfig.of(engine=m.factory, label="m", hands=30, seed=0, out=None, shrink=False, batch=b))
               for b in (True, False)]
    a, b = (r.disagreement for r in reports)
    assert a is not None and b is not None
    assert reports[0].hands_to_first_disagreement == reports[1].hands_to_first_disagreement
    assert (a.where, a.fields, a.trace.as_json()) == (b.where, b.fields, b.trace.as_json())


# ------------------------------------------------------------------ playout


def one_by_one(setup: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each step's answers when the same requests are sent alone: act, state, the four observations."""
    session = _protocol_2()
    assert session.handle({"cmd": "start", "setup": setup})["ok"]
    answers: list[dict[str, Any]] = []
    for step in [None, *steps]:
        entry: dict[str, Any] = {} if step is None else {"act": session.handle({"cmd": "act", **step}), "step": step}
        entry["state"] = session.handle({"cmd": "state"})
        entry["observations"] = [session.handle({"cmd": "observe", "seat": s}) for s in range(4)]
        answers.append(entry)
    return answers


@pytest.mark.parametrize("setup", [{"dealer": 2, "seed": "11"}, {"dealer": 0, "seed": "12"},
                                   {"game": {"first_dealer": 3, "deals": [{"seed": str(i)} for i in range(16)]}}])
def test_a_playout_takes_legal_actions_to_the_end_and_answers_as_one_by_one_requests(setup: dict[str, Any]) -> None:
    given = [{"seat": 2 if "dealer" in setup else 3, "action": "pass"}]
    answer = _protocol_2().handle({"cmd": "batch", "setup": setup, "steps": given, "playout": {"seed": "5"},
                               "observe": "every"})
    assert answer["ok"] and answer["start"] == {"ok": True}
    taken = [e["step"] for e in answer["steps"][2:]]
    assert "step" not in answer["steps"][1] and len(taken) > 1  # the given step, then the player's own
    expected = one_by_one(setup, given + taken)
    for entry in expected[1:2]:
        del entry["step"]
    assert answer["steps"] == expected  # every act accepted, every state and observation as asked alone
    assert expected[-1]["state"]["to_act"] is None  # played to the end (of the game: game-over)
    assert expected[-1]["state"]["phase"] == ("game-over" if "game" in setup else "ended")
    # the draws it reports replay the same actions with no seed; with no seed and no choices, draws are 0
    again = _protocol_2().handle({"cmd": "batch", "setup": setup, "steps": given, "state": "last",
                              "playout": {"choices": answer["choices"]}})
    assert [e["step"] for e in again["steps"][2:]] == taken and again["choices"] == answer["choices"]
    zeros = _protocol_2().handle({"cmd": "batch", "setup": setup, "steps": [], "playout": {}, "state": "last"})
    assert set(zeros["choices"]) == {0} and "state" not in zeros["steps"][1]


def test_a_playout_draws_as_the_protocol_defines() -> None:
    # The first draw is over the Dealer's two legal actions (call, pass: in that order): choice 3 is 3 mod 2.
    answer = _protocol_2().handle({"cmd": "batch", "setup": {"dealer": 1, "seed": "4"}, "steps": [],
                               "playout": {"choices": [3, 0]}, "state": "last"})
    assert answer["steps"][1]["step"] == {"seat": 1, "action": "pass"} and answer["choices"][:2] == [1, 0]
    assert answer["steps"][2]["step"] == {"seat": 2, "action": "call"}


@pytest.mark.parametrize("playout", [[], {"seed": -1}, {"seed": "1", "rounds": 3}, {"choices": [-1]},
                                     {"choices": "0 1"}])
def test_a_malformed_playout_is_refused_as_malformed(playout: Any) -> None:
    session = _protocol_2()
    answer = session.handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "playout": playout})
    assert answer["ok"] is False and answer["error"]["kind"] == "malformed" and "playout" in answer["error"]["message"]
    assert session.hand is None  # refused before anything started


def test_a_batch_field_the_protocol_does_not_define_is_refused() -> None:
    answer = _protocol_2().handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "policy": "x"})
    assert answer["ok"] is False and answer["error"]["kind"] == "malformed" and "'policy'" in answer["error"]["message"]


def test_playout_hands_find_what_step_by_step_hands_find_and_report_it_step_by_step() -> None:
    m = catalogue.get("clockwise")
    # no probes: every hand is a playout hand
    report = fuzz(FuzzConfig.of(engine=m.factory, label="m", hands=30, seed=0, out=None, shrink=False,
                             states="last", observe="last", probe_percent=0))
    d = report.disagreement
    assert d is not None, report.format()
    # reported from the step-by-step replay: the reference's state before the last step and the dealt hands
    assert d.before is not None and d.before.get("ok") and d.trace.hands is not None
    slow = fuzz(FuzzConfig.of(engine=m.factory, label="m", hands=30, seed=0, out=None, shrink=False,
                           states="last", observe="last", playout=False))
    assert slow.disagreement is not None and slow.hands_to_first_disagreement is not None


def test_the_reference_plays_every_guided_hand_in_one_request_and_probes_in_one_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.adapters import DirectAdapter
    from conformance.fuzz.driver import Lockstep

    modes: list[str] = []
    asked: list[str] = []
    draw, handle = Lockstep.draw_mode, DirectAdapter.request  # the reference's road (the candidate's has a timeout)

    def spy_mode(self: Lockstep, chooser: Any) -> str:
        modes.append(draw(self, chooser))
        return modes[-1]

    def spy_handle(self: DirectAdapter, message: dict[str, Any]) -> dict[str, Any]:
        if message["cmd"] != "hello":
            asked.append(message["cmd"] + ("+playout" if "playout" in message else ""))
        return handle(self, message)

    monkeypatch.setattr(Lockstep, "draw_mode", spy_mode)
    monkeypatch.setattr(DirectAdapter, "request", spy_handle)
    # without the deals check: a game whose later deals may refuse a move is played step by step (the
    # reference's refusal ends its play there), which tests/fuzz/test_kinds.py covers with the check on
    report = fuzz(FuzzConfig.of(engine="reference", hands=200, seed=0, out=None, observe="last",
                                checks=("setup", "count", "variant", "pattern")))
    assert report.ok
    # a quarter of the hands probe, fewer once the probes stop finding (drawn: about 40); the others are plain playouts
    assert 25 < modes.count("probes") < 80 and modes.count("playout") == 200 - modes.count("probes")
    # every hand is one playout request; a probing hand one more batch (when it drew a probe), a respelled
    # hand one more, a count one more; no step requests but the side checks' (a setup refused, a count)
    cov = report.coverage
    assert asked.count("batch+playout") == 200
    counts = cov["count:depth:1"] + cov["count:depth:2"]
    setups = sum(cov[f"setup:{k}"] for k in ("malformed", "bad-setup", "unsupported", "accepted"))
    in_batch = cov["setup:in-batch"]  # a refused setup sent inside a batch instead of a start
    assert 0 < asked.count("batch") <= modes.count("probes") + cov["kind:hand"] + counts + in_batch
    # the options checked once; two starts per setup, or one and a batch
    assert setups and in_batch and asked.count("start") == 1 + 2 * setups - in_batch
    assert asked.count("count") == counts and counts
    assert asked.count("state") == setups + counts and asked.count("observe") == 4 * setups
    assert set(asked) <= {"batch+playout", "batch", "pattern", "start", "state", "observe", "count"}, set(asked)
    assert report.coverage and any(k.startswith("refusal:") for k in report.coverage)  # probes were answered
    modes.clear()
    assert fuzz(FuzzConfig.of(engine="reference", hands=20, seed=0, out=None, playout=False)).ok
    assert modes == ["steps"] * 20


def test_a_pipelined_subprocess_campaign_reports_what_an_in_process_one_does(tmp_path: Path) -> None:
    # The subprocess answers hand i while the reference prepares hand i + 1; nothing may change for that.
    inprocess = campaign(tmp_path, "in", hands=48)
    subprocess = campaign(tmp_path, "sub", hands=48, engine="reference-subprocess")
    assert inprocess["lane_results"] == subprocess["lane_results"]
    assert sum(len(lane["hands"]) for lane in subprocess["lane_results"]) == 48


def test_a_pipelined_subprocess_stops_at_the_same_first_disagreement() -> None:
    import sys

    fakes_py = Path(fakes.__file__).resolve()
    config = dict(hands=200, seed=1, out=None, shrink=False, observe="last")
    inprocess = fuzz(FuzzConfig.of(engine=fakes.AcceptsWrongSeat, **config))
    subprocess = fuzz(FuzzConfig.of(engine=f"cmd:{sys.executable} {fakes_py} accepts-wrong-seat",
                                 **config))
    a, b = inprocess.disagreement, subprocess.disagreement
    assert a is not None and b is not None, subprocess.format()
    assert inprocess.hands_to_first_disagreement == subprocess.hands_to_first_disagreement
    assert a.trace.as_json() == b.trace.as_json() and a.where == b.where == "reject"
    assert subprocess.search.hands == inprocess.search.hands  # no hand after the disagreement counted


@pytest.mark.parametrize("game", [False, True])
def test_a_protocol_2_candidate_is_sent_its_seeds_as_decimal_strings(game: bool) -> None:
    # The fuzzer draws 64-bit integers; JSON parsers of many languages keep integers exact only to 2^53.
    report = fuzz(FuzzConfig.of(engine=fakes.StrictSeeds, hands=12 if game else 40, seed=0, out=None, game=game,
                             setup_kinds=("seed",) if not game else ("hands", "seed", "deck", "tigers")))
    assert report.ok, report.format()


# ------------------------------------------------------------------ coverage


def test_every_campaign_prints_its_outcome_coverage_and_names_the_unreached() -> None:
    report = fuzz(FuzzConfig.of(engine="reference", hands=10, seed=0, out=None, observe="none"))
    text = report.format()
    assert "outcome coverage:" in text and "UNREACHED: " in text
    assert report.unreached and all(c.id in text for c in report.unreached)
    assert sum(report.coverage.values()) > 10


# ------------------------------------------------------------------ game mode


def test_game_mode_finds_a_misreading_visible_across_hands_and_writes_a_game_scenario(tmp_path: Path) -> None:
    import yaml

    m = catalogue.get("game-length-deals")  # a void hand counted toward the game's four (GAME-2, D31)
    out = tmp_path / "generated" / "fuzz"
    report = fuzz(FuzzConfig.of(engine=m.factory, label="m", hands=20, seed=0, out=out, game=True, shrink_seconds=3))
    d = report.disagreement
    assert d is not None and "game" in d.fields, report.format()
    (written,) = report.written
    assert written.verified, report.format()
    (scenario,) = yaml.safe_load(written.path.read_text(encoding="utf-8"))["scenarios"]
    assert set(scenario["game"]["setup"]) == {"first_dealer", "deals"} and "trajectory" not in scenario
    assert report.format().startswith("fuzz:") and "games: " in report.format()
    clean = fuzz(FuzzConfig.of(engine="reference", hands=3, seed=0, out=None, game=True, observe="last"))
    assert clean.ok and "rule outcome classes reached in 3 game(s)" in clean.format()


def test_an_extra_kind_that_stops_finding_is_drawn_at_its_quiet_rate_until_it_finds_again() -> None:
    from conformance.fuzz.checks import FULL_RATES, QUIET_PERCENT
    from conformance.fuzz.guided import QUIET_AFTER, Lane

    lane = Lane(0, 0)

    def hand(*outcomes: str) -> None:
        lane._learn(frozenset(outcomes))
        lane.counts.update(outcomes)

    hand("kind:hand", "setup:bad-setup", "seed:zero", "count:depth:1")
    assert lane.rates() == FULL_RATES
    for _ in range(QUIET_AFTER):  # the same classes again: the setup and count checks found nothing new
        hand("kind:hand", "setup:bad-setup", "seed:zero", "count:depth:1")
    quiet = lane.rates()
    assert (quiet.setup, quiet.count) == (QUIET_PERCENT["setup"], QUIET_PERCENT["count"])
    assert (quiet.variant, quiet.game) == (FULL_RATES.variant, FULL_RATES.game)  # never carried: not judged
    hand("kind:hand", "setup:malformed", "seed:negative")  # the setup check finds again: back to its full rate
    assert lane.rates().setup == FULL_RATES.setup and lane.rates().count == QUIET_PERCENT["count"]
    for _ in range(QUIET_AFTER):
        hand("kind:game", "game:over", "game:end:claim")
    assert lane.rates().game == FULL_RATES.game  # the first game found game:over; the next ones nothing
    hand("kind:game", "game:over")
    assert lane.rates().game == QUIET_PERCENT["game"]
    # probing hands: what they find is the rules their refused actions name
    for _ in range(QUIET_AFTER + 1):
        hand("kind:hand", "kind:probes", "refusal:CALL-1")
    assert lane.rates().probe == QUIET_PERCENT["probe"] < FULL_RATES.probe
    hand("kind:hand", "kind:probes", "refusal:PAT-4")
    assert lane.rates().probe == FULL_RATES.probe
