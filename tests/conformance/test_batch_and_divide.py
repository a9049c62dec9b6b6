"""Issue 31 §3's scenarios that needed runner work: a count inside a game, a count's `divide`, the `batch`
kind, the Dreamer's card right after a won hand. The loader refuses what the runner could not check; the runner
fails each miswiring of tests/fuzz/fakes.py on the check made for it, and passes the reference."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.engine import Engine
from conformance.errors import InputError
from conformance.loader import Scenario, load_scenarios
from conformance.report import closing_line
from conformance.results import Result
from conformance.runner import DIVIDE_NOT_COMPARED
from conformance.schemas import Schemas
from conformance.specdata import SpecData
from reference_engine.wire import Session

RunFn = Callable[..., tuple[list[Result], Engine]]
"""The ``run`` fixture of tests/conformance/conftest.py."""

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "conformance" / "scenarios" / "contract"
DREAMER = ROOT / "conformance" / "scenarios" / "observation" / "dreamer-after-a-won-hand.yaml"
NEW = (CONTRACT / "batch.yaml", CONTRACT / "counts-in-a-game-and-divide.yaml", DREAMER)
HANDS = ["Sup1 Sup4 Sup9 Gon1 Gon3 Gon5 Zok1 Zok2 Zok6 Sin7 Sin9 WanSin",
         "Sup2 Sup3 Sup8 Gon2 Gon4 Gon8 Zok3 Zok4 Zok8 Sin2 Sin3 Sin8", "Sin4",
         "Sup5 Sup6 Sup7 Gon6 Gon7 Gon9 Zok5 Zok7 Zok9 Sin1 Sin5 Sin6"]


class NoDivide(Session):
    """The reference as an engine that does not declare `divide`."""

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if isinstance(message, dict) and message.get("cmd") == "hello" and answer.get("ok"):
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "divide"]
        return answer


def _scenarios(schemas: Schemas, spec_data: SpecData) -> dict[str, Scenario]:
    return {s.id: s for s in load_scenarios(list(NEW), schemas, spec_data)}


def _file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "new.yaml"
    path.write_text("scenarios:\n" + textwrap.indent(textwrap.dedent(body), "  "), encoding="utf-8")
    return path


def _problems(path: Path, schemas: Schemas, spec_data: SpecData) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_scenarios([path], schemas, spec_data)
    return [str(p) for p in caught.value.problems]


def test_the_new_scenarios_pass_on_the_reference(run: RunFn, schemas: Schemas, spec_data: SpecData) -> None:
    results, _ = run("reference", list(_scenarios(schemas, spec_data).values()))
    assert len(results) == 8 and all(r.status == "pass" and not r.reason for r in results), \
        [(r.id, r.status, r.reason, r.diff) for r in results]


def test_a_divide_that_does_not_add_up_is_refused_naming_file_scenario_and_sum(
        tmp_path: Path, schemas: Schemas, spec_data: SpecData) -> None:
    path = _file(tmp_path, f"""\
        - id: my-divide
          title: a divide one short
          clauses: [CALL-1]
          count:
            setup: {{dealer: 0, hands: {HANDS}}}
            counts: [2, 4, 225]
            divide: {{call: 220, pass: 4}}
        """)
    [problem] = _problems(path, schemas, spec_data)
    assert problem.startswith(f"{path}:") or "new.yaml:" in problem
    assert "scenario my-divide:" in problem and "add up to 224, not to the last count 225 (depth 3)" in problem
    assert "(at /scenarios/0/count/divide)" in problem


@pytest.mark.parametrize(("body", "words"), [
    ("""\
        state: last
        steps:
          - {seat: 0, do: call, expect: {to_act: 0}}
          - {seat: 0, do: "play Sup4"}
     """, "with `state: last` only the last step carries a `state`"),
    ("""\
        steps:
          - {seat: 0, do: call, expect: {observe: [{seat: 1, to_act: 0}]}}
     """, "with `observe: none` this step carries no observations"),
    ("""\
        start: {error: bad-setup}
        steps:
          - {seat: 0, do: call, expect: {to_act: 0}}
     """, "a batch whose start is refused answers no step"),
    ("""\
        start: {error: bad-setup}
        steps: []
        final: {to_act: 0}
     """, "`final` needs `before`"),
])
def test_a_batch_expectation_its_answer_cannot_hold_is_refused(tmp_path: Path, schemas: Schemas, spec_data: SpecData,
                                                                body: str, words: str) -> None:
    path = _file(tmp_path, f"""\
        - id: my-batch
          title: a batch
          clauses: [CALL-1]
          batch:
            setup: {{dealer: 0, hands: {HANDS}}}
        """.rstrip(" ") + textwrap.indent(textwrap.dedent(body), " " * 12))
    problems = _problems(path, schemas, spec_data)
    assert any("scenario my-batch:" in p and words in p for p in problems), problems


def test_a_batch_setup_the_rules_refuse_needs_start_error(tmp_path: Path, schemas: Schemas,
                                                          spec_data: SpecData) -> None:
    """A setup that deals a card twice is a batch scenario's only with `start: {error: bad-setup}`."""
    path = _file(tmp_path, f"""\
        - id: my-batch
          title: a batch
          clauses: [CALL-1]
          batch:
            setup: {{dealer: 0, hands: {[HANDS[0], HANDS[0], HANDS[2], HANDS[3]]}}}
            steps: []
        """)
    assert any("no deal the rules allow" in p for p in _problems(path, schemas, spec_data))


@pytest.mark.parametrize(("fake", "scenario", "reason"), [
    ("RefusesABatchSetupWhole", "batch-refused-setup-is-the-start-answer", "the engine refused the batch whole"),
    ("StopsABatchAtARefusedStep", "batch-a-hand-with-refused-steps", "the batch answers 2 step(s), not 9"),
    ("StatesEveryStepOfABatch", "batch-a-game-hand-with-the-last-state-only", "the batch's answer 0 should hold no `state`"),
    ("PlaysABatchOnACopy", "batch-a-hand-with-refused-steps", "the engine refused `state`"),
    ("CountsIntoTheNextDeal", "count-in-a-game-stops-at-the-hands-end", "perft counts differ"),
    ("DivideCountsEveryDepth", "count-divide-calling-dealer0", "perft divide at depth 3 differs"),
    ("ShowsTheDreamersCardAfterAWonHand", "obs-dreamer-card-after-a-won-hand-in-a-game", "expectation not met: observe"),
])
def test_each_miswiring_fails_the_check_made_for_it(run: RunFn, schemas: Schemas, spec_data: SpecData,
                                                     fake: str, scenario: str, reason: str) -> None:
    [result], _ = run(f"python:tests.fuzz.fakes:{fake}", [_scenarios(schemas, spec_data)[scenario]])
    assert result.status == "fail" and result.reason.startswith(reason), (result.reason, result.diff)


def test_an_engine_without_divide_has_its_counts_compared_and_says_so(run: RunFn, schemas: Schemas,
                                                                      spec_data: SpecData) -> None:
    chosen = [s for s in _scenarios(schemas, spec_data).values() if "divide" in s.data.get("count", {})]
    results, _ = run(f"python:{__name__}:NoDivide", chosen)
    assert len(results) == 4 and all(r.status == "pass" and r.reason == DIVIDE_NOT_COMPARED for r in results)
    assert closing_line(results).endswith("4 passed with their divide not compared (the engine does not declare `divide`)")


def test_a_setup_scenario_that_observes_without_before_is_refused(tmp_path: Path, schemas: Schemas,
                                                                  spec_data: SpecData) -> None:
    """`observe: true` compares what each seat observes after the refusal with what it did after `before`."""
    path = _file(tmp_path, """\
        - id: my-setup
          title: a refused setup
          clauses: [DEAL-4]
          setup:
            start: {dealer: 0, seed: "-1"}
            error: malformed
            observe: true
        """)
    [problem] = _problems(path, schemas, spec_data)
    assert "new.yaml:" in problem and "scenario my-setup:" in problem, problem
    assert "`observe: true` compares every seat's observations after the refusal with those after `before`: it needs " \
           "`before`" in problem and "(at /scenarios/0/setup)" in problem, problem
