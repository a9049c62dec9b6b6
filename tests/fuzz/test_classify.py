"""The fuzzer classifies like the runner (issue 20, item 6): a compared answer that breaks its schema is a
protocol error of the candidate, never a disagreement about the rules, and is never written as a scenario.

Without ``--validate`` the fuzzer checks an answer's schema only where it already differs from the
reference's (cheap: nothing is validated while the answers agree).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.cli import main as cli_main
from conformance.fuzz import FuzzConfig, fuzz
from tests.fuzz import fakes

FAKES_PY = Path(fakes.__file__).resolve()


@pytest.mark.parametrize("batch", [True, False], ids=["batch", "steps"])
def test_phase_seven_is_a_protocol_error_not_a_disagreement(tmp_path: Path, batch: bool) -> None:
    out = tmp_path / "generated"
    report = fuzz(FuzzConfig.of(engine=fakes.PhaseSeven, hands=4, seed=0, out=out, batch=batch))
    assert report.disagreement is None, report.format()
    assert report.failures and all(f.invalid and f.status == "error" for f in report.failures)
    assert all("invalid answer to 'state'" in f.message and "/phase" in f.message for f in report.failures)
    assert not report.written, "a protocol error is not written as a scenario of the rules"
    assert report.traces and all(t.suffix == ".json" for t in report.traces)
    assert not report.ok


def test_nan_over_the_wire_is_a_protocol_error(tmp_path: Path) -> None:
    report_path = tmp_path / "r.json"
    status = cli_main(["fuzz", "--engine", f"cmd:{sys.executable} {FAKES_PY} nan-tricks", "--hands", "3",
                       "--no-write", "--report", str(report_path)])
    assert status == 1
    data = json.loads(report_path.read_text(encoding="utf-8"))
    assert all(lane["found"] is None for lane in data["lane_results"])  # no disagreement anywhere
    failures = [h[3] for lane in data["lane_results"] for h in lane["hands"] if h[3]]
    assert failures and all("invalid answer to 'state'" in f and "/tricks/0" in f for f in failures), failures


def test_the_runner_and_the_fuzzer_agree_on_a_broken_answer(tmp_path: Path) -> None:
    # the same engine through `run`: an error (the schema), not a failure of the rules
    out = tmp_path / "run.json"
    assert cli_main(["run", "-q", "--engine", f"cmd:{sys.executable} {FAKES_PY} phase-seven", "--id",
                     "obs-discard-hidden-from-others", "--json", str(out)]) == 1
    (result,) = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["status"] == "error" and "phase" in result["reason"], result


def test_a_schema_valid_difference_is_still_a_disagreement() -> None:
    report = fuzz(FuzzConfig.of(engine=fakes.WrongHandSizes, hands=5, seed=0, out=None, shrink=False))
    assert report.disagreement is not None and not report.failures


def test_a_protocol_one_engine_is_never_sent_batch() -> None:
    fakes.ProtocolOneClaimingBatch.batches = 0
    report = fuzz(FuzzConfig.of(engine=fakes.ProtocolOneClaimingBatch, hands=6, seed=0, out=None))
    assert report.ok, report.format()
    assert not report.batch and fakes.ProtocolOneClaimingBatch.batches == 0


def test_a_sampled_batch_answer_that_differs_only_in_a_type_is_schema_checked() -> None:
    """``"ok": 1`` for ``true``: equal to the reference's answer as Python compares, so no comparison sees it;
    the schema check of the sampled hands does (the first hand is sampled)."""
    report = fuzz(FuzzConfig.of(engine=fakes.IntegerOkInBatch, hands=3, seed=0, out=None, states="last",
                                observe="last"))
    assert report.disagreement is None and not report.ok
    assert report.failures and all(f.status == "error" for f in report.failures)
    assert "invalid answer to 'batch'" in report.failures[0].message
    assert "/act/ok" in report.failures[0].message


def test_a_sampled_batch_answer_that_is_the_references_own_is_not_checked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference's answer is valid: the same answer, types included, needs no schema check (a whole
    hand's check costs about ten hands' play). The fuzzer rebuilds the reference's answer to the hand's batch
    from its own answers; were it rebuilt wrong, every sampled hand would be checked."""
    from conformance.engine import Engine

    checked: list[str] = []
    original = Engine.check_answer

    def spy(self: Engine, cmd: str, answer: object, variant: str | None = None) -> None:
        checked.append(cmd)
        original(self, cmd, answer, variant)

    monkeypatch.setattr(Engine, "check_answer", spy)
    for states, observe in (("last", "last"), ("every", "every")):
        report = fuzz(FuzzConfig.of(engine="reference", hands=2, seed=0, out=None, states=states, observe=observe))
        assert report.ok, report.format()
    assert checked == []


def test_same_json_tells_types_apart_at_every_depth() -> None:
    from conformance.normalize import same_json

    assert same_json({"a": [1, "x", None, {"b": True}]}, {"a": [1, "x", None, {"b": True}]})
    assert not same_json(1, True) and not same_json(1, 1.0)
    assert not same_json({"a": [1]}, {"a": [True]}) and not same_json({"a": {"b": 0}}, {"a": {"b": 0.0}})
    assert not same_json({"a": 1}, {"a": 1, "b": 2}) and not same_json([1, 2], [1])
