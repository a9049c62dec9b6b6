"""The differential fuzzer finds real misreadings, writes scenarios that catch them,
finds nothing when the candidate is the reference, and survives bad engines.

Every scenario is written to a temporary ``generated/`` folder, never to
``conformance/scenarios/generated/``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from conformance.adapters import SubprocessAdapter, parse_engine_spec
from conformance.engine import Engine
from conformance.fuzz import FuzzConfig, FuzzConfigError, fuzz
from conformance.fuzz.cli import main
from conformance.fuzz.driver import Lockstep
from conformance.fuzz.endpoints import default_schemas, open_candidate, reference_engine
from conformance.fuzz.model import ListChooser
from conformance.loader import load_scenarios
from conformance.paths import default_spec_dir
from conformance.specdata import load_spec_data
from conformance.suite import Suite
from tests.fuzz import fakes

catalogue = pytest.importorskip("tests.mutants.catalogue")

ROOT = Path(__file__).resolve().parents[2]


def run_through_runner(path: Path, engine: Engine) -> str:
    """The runner's status for the one scenario of ``path`` (loaded from a ``generated/`` folder)."""
    schemas = default_schemas()
    spec = load_spec_data(default_spec_dir())
    root = next(p for p in path.parents if p.name == "generated").parent
    (scenario,) = load_scenarios([root], schemas, spec)
    try:
        return Suite(default_spec_dir(), schemas, spec, [scenario]).run(engine)[0].status
    finally:
        engine.close()


def mutant_engine(mutant_id: str) -> Engine:
    m = catalogue.get(mutant_id)
    return open_candidate(m.factory, label=f"mutant:{m.id}")


# One mutant per kind of disagreement: who acts (to_act), what is legal, the Elders,
# tricks, the scoring (result deltas), and the deal itself (seeded setup).
MUTANTS = [
    "clockwise",
    "leader-ignores-top-suit",
    "elder-promotion-face-up-and-discards",
    "tricks-one-per-round",
    "pp-penalty-missing",
    "deal-order-dealer-last",
]


@pytest.mark.parametrize("mutant_id", MUTANTS)
def test_finds_the_mutant_and_writes_a_scenario_that_catches_it(mutant_id: str, tmp_path: Path) -> None:
    out = tmp_path / "generated" / "fuzz"
    m = catalogue.get(mutant_id)
    report = fuzz(FuzzConfig.of(engine=m.factory, label=f"mutant:{m.id}", hands=60, seed=0, out=out,
                             shrink_seconds=10))
    assert report.disagreement is not None, report.format()
    assert report.hands_to_first_disagreement is not None
    assert len(report.written) == 1, report.format()
    written = report.written[0]
    assert written.verified, report.format()

    data = yaml.safe_load(written.path.read_text(encoding="utf-8"))
    (scenario,) = data["scenarios"]
    assert scenario["generated"] is True
    assert scenario["tags"] == ["fuzz"]
    assert scenario["requires"] == "defaults"
    assert scenario["clauses"]
    # explicit hands unless the disagreement is in the deal itself; the campaign mixes hands and whole games,
    # so a mutant may first show in a game, whose deals are then given (explicit hands where it was caught)
    setup = (scenario.get("trajectory") or scenario["game"])["setup"]
    explicit = "hands" in setup or any("hands" in deal for deal in setup.get("deals", []))
    assert explicit == (mutant_id != "deal-order-dealer-last")

    # independently of the fuzzer's own check: the runner passes it on the reference, fails it on the mutant
    assert run_through_runner(written.path, Engine(parse_engine_spec("reference"), default_schemas())) == "pass"
    assert run_through_runner(written.path, mutant_engine(mutant_id)) == "fail"


def test_shrinking_makes_the_hand_no_longer(tmp_path: Path) -> None:
    m = catalogue.get("tricks-one-per-round")
    report = fuzz(FuzzConfig.of(engine=m.factory, hands=60, seed=0, out=None, shrink_seconds=20))
    s = report.search
    assert s.first is not None and s.shrunk is not None
    assert s.shrunk.actions <= s.first.actions
    assert s.shrunk.where == "state" and "tricks" in s.shrunk.fields
    # a round is 3 actions after the call: the smallest hand that shows a trick count is 4 actions
    assert s.shrunk.actions == 4


def test_reference_against_itself_finds_nothing() -> None:
    report = fuzz(FuzzConfig.of(engine="reference", hands=40, seed=7, out=None))
    assert report.ok, report.format()
    assert report.search.hands == 40
    assert report.search.actions > 40 * 3


def test_reference_under_options_against_itself_finds_nothing() -> None:
    options = {"D7": "any-suit", "D12": "may-discard", "D17": "yes", "D21": "automatic", "D24": "declared"}
    report = fuzz(FuzzConfig.of(engine="reference", hands=25, seed=1, out=None, options=options))
    assert report.ok, report.format()
    assert report.options == options


def test_subprocess_reference_finds_nothing() -> None:
    # ``python -m reference_engine`` from the repository root, installed or not
    engine = SubprocessAdapter([sys.executable, "-m", "reference_engine"], timeout=30, cwd=str(ROOT))
    report = fuzz(FuzzConfig.of(engine=engine, hands=8, seed=2, out=None))
    assert report.ok, report.format()


def test_options_are_the_scenarios_requirements(tmp_path: Path) -> None:
    """Under D7=any-suit the mutant that ignores the suit is the reference; fuzzing still
    finds another mutant, and the scenario requires the options it was found under."""
    m = catalogue.get("clockwise")
    out = tmp_path / "generated"
    report = fuzz(FuzzConfig.of(engine=m.factory, hands=20, seed=0, out=out, options={"D7": "any-suit"}))
    assert report.written and report.written[0].verified, report.format()
    scenario = yaml.safe_load(report.written[0].path.read_text())["scenarios"][0]
    assert scenario["requires"] == {"D7": "any-suit"}


def test_a_fixed_engine_is_fuzzed_under_the_options_it_declares() -> None:
    report = fuzz(FuzzConfig.of(engine=fakes.FixedAnySuit, hands=15, seed=0, out=None))
    assert report.ok, report.format()
    assert report.options == {"D7": "any-suit"}
    # options it does not follow cannot be fuzzed
    with pytest.raises(FuzzConfigError, match="not configurable"):
        fuzz(FuzzConfig.of(engine=fakes.FixedAnySuit, hands=1, out=None, options={"D7": "same-suit"}))


def test_unknown_option_is_a_configuration_error() -> None:
    with pytest.raises(FuzzConfigError):
        fuzz(FuzzConfig.of(engine="reference", hands=1, out=None, options={"D7": "sideways"}))


def test_a_crashing_candidate_is_reported_and_fuzzing_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    report = fuzz(FuzzConfig.of(engine=fakes.CrashOnSecondPass, hands=60, seed=2, out=out))
    assert report.disagreement is None
    assert report.search.hands == 60  # the search went on after each crash
    assert report.search.failure_count >= 2
    assert report.restarts >= 2
    failure = report.failures[0]
    assert failure.request["cmd"] == "act" and failure.request["action"] == "pass"
    assert [s.action for s in failure.trace.steps if s.kind == "do"][-2:] == ["pass", "pass"]
    assert "boom" in failure.message and "boom" in failure.stderr
    assert not report.ok
    # the crash is written as a scenario too: it passes on the reference and errors on the candidate
    assert len(report.written) == 1 and report.written[0].verified, report.format()
    assert "crash" in yaml.safe_load(report.written[0].path.read_text())["scenarios"][0]["tags"]


@pytest.mark.parametrize("batch", [False, True])
def test_a_hanging_candidate_times_out_and_fuzzing_goes_on(batch: bool) -> None:
    report = fuzz(FuzzConfig.of(engine=fakes.HangOnSecondSeatCall, hands=20, seed=2, out=None, timeout=0.2, batch=batch))
    assert report.search.hands == 20
    assert report.search.failure_count >= 1, report.format()
    assert all(f.status == "timeout" for f in report.failures)
    request = report.failures[0].request
    if batch:
        # A hung in-process thread cannot be stopped, so no new session replays the batch step by
        # step (conformance/README.md, in-process isolation): the batch itself is the request.
        assert request["cmd"] == "batch", request
    else:
        assert request == {"cmd": "act", "seat": request["seat"], "action": "call"}


def test_a_crashing_subprocess_is_restarted(tmp_path: Path) -> None:
    engine = f"cmd:{sys.executable} {ROOT / 'tests' / 'fuzz' / 'fakes.py'} crash-on-second-pass"
    report = fuzz(FuzzConfig.of(engine=engine, hands=30, seed=2, out=None, timeout=10))
    assert report.search.hands == 30
    assert report.search.failure_count >= 1, report.format()
    assert "exited" in report.failures[0].message or "closed" in report.failures[0].message


def test_accepting_an_illegal_action_is_a_reject_scenario(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    report = fuzz(FuzzConfig.of(engine=fakes.AcceptsWrongSeat, hands=30, seed=1, out=out))
    d = report.disagreement
    assert d is not None and d.where == "reject"
    assert report.written and report.written[0].verified, report.format()
    (scenario,) = yaml.safe_load(report.written[0].path.read_text())["scenarios"]
    steps = (scenario.get("trajectory") or scenario["game"])["steps"]  # the default mix plays games too
    assert steps[-1]["error"] == "illegal" and "reject" in steps[-1]


def test_a_spelling_with_other_white_space_is_written_double_quoted_and_verified(tmp_path: Path) -> None:
    """A candidate that splits action text at U+0020 only refuses a respelled action (variant:space, spec/PROTOCOL.md
    "White space"); the scenario written keeps the tabs and line ends as escapes in double quotes, the only way
    the loader takes a control character in action text, so it loads and is verified."""
    out = tmp_path / "generated"
    report = fuzz(FuzzConfig.of(engine=fakes.SplitsAtSpacesOnly, hands=60, seed=0, out=out))
    d = report.disagreement
    assert d is not None and d.where == "act", report.format()
    assert report.written and report.written[0].verified, report.format()
    text = report.written[0].path.read_text(encoding="utf-8")
    (scenario,) = yaml.safe_load(text)["scenarios"]
    spelled = (scenario.get("trajectory") or scenario["game"])["steps"][-1]["do"]
    assert spelled != " ".join(spelled.split()) and any(c < " " for c in spelled), spelled
    assert f"do: {json.dumps(spelled, ensure_ascii=False)}" in text.replace("\\", "\\"), text


def test_an_observation_disagreement_is_written_as_a_scenario_with_an_observe_expectation(tmp_path: Path) -> None:
    out = tmp_path / "generated" / "fuzz"
    report = fuzz(FuzzConfig.of(engine=fakes.WrongHandSizes, hands=5, seed=0, out=out, shrink_seconds=10))
    d = report.disagreement
    assert d is not None and d.where == "observe"
    assert any("hand_sizes" in path for path in d.detail)
    assert len(report.written) == 1 and not report.traces, report.format()
    written = report.written[0]
    assert written.verified, report.format()  # passes on the reference, fails on the fake
    (scenario,) = yaml.safe_load(written.path.read_text(encoding="utf-8"))["scenarios"]
    (entry,) = scenario["trajectory"]["steps"][-1]["expect"]["observe"]
    assert entry["seat"] == d.seat and set(entry) == {"seat", "hand_sizes"}
    assert scenario["clauses"] == ["OBS-1", "PLAY-5"]  # spec/expectations.yaml: the clauses behind `observe`
    # observations are not compared when asked not to
    assert fuzz(FuzzConfig.of(engine=fakes.WrongHandSizes, hands=5, seed=0, out=None, observe=False)).ok


def test_a_wrong_observed_dealer_is_written_as_a_verified_scenario(tmp_path: Path) -> None:
    # `observe` expectations hold every observation field (dealer included) since issue 21, section 2;
    # before, this disagreement could only be written as a trace.
    out = tmp_path / "generated"
    report = fuzz(FuzzConfig.of(engine=fakes.WrongObservedDealer, hands=5, seed=0, out=out, shrink_seconds=5))
    d = report.disagreement
    assert d is not None and d.where == "observe" and d.detail == ["dealer"]
    assert len(report.written) == 1 and not report.traces
    assert "dealer:" in report.written[0].path.read_text()


def test_replaying_the_choices_replays_the_hand() -> None:
    lock = Lockstep(reference_engine(), open_candidate("reference"))
    one = lock.play(ListChooser([0, 1, 12345, 1, 0, 3, 2, 0, 1]))
    two = lock.play(ListChooser([0, 1, 12345, 1, 0, 3, 2, 0, 1]))
    assert one.clean and two.clean
    assert one.trace.steps == two.trace.steps and one.result == two.result


def test_cli_exit_status_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--engine", "reference", "--hands", "5", "--no-write"]) == 0
    assert "no disagreement" in capsys.readouterr().out
    out = tmp_path / "generated"
    status = main(["--engine", "python:tests.mutants.catalogue:clockwise", "--hands", "5", "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 1
    assert "verified" in text and list(out.glob("fuzz-*.yaml"))
    assert main(["--engine", "reference", "--hands", "1", "--options", "D7=nope", "--no-write"]) == 2


def test_clauses_are_named_from_the_spec_never_from_a_table_of_the_fuzzer() -> None:
    from conformance.fuzz.clauses import rule_clauses
    from conformance.paths import default_spec_dir
    from conformance.specdata import load_spec_data

    spec = load_spec_data(default_spec_dir())
    decisions = yaml.safe_load((default_spec_dir() / "decisions.yaml").read_text(encoding="utf-8"))["decisions"]
    for decision in decisions:  # every decision, D37 and D38 included, with the clauses the spec gives it
        assert rule_clauses(decision["id"], spec) == decision["clauses"], decision["id"]
    assert rule_clauses("PLAY-4", spec) == ["PLAY-4"]
    assert rule_clauses("PLAY-99", spec) == [] and rule_clauses(None, spec) == []
