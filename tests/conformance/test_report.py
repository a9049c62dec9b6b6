"""Progress output and the summary table."""

from __future__ import annotations

import io

from conformance.report import Progress, failure_details, summary_table
from conformance.results import FAIL, PASS, SKIP, TIMEOUT, Result


class _Scenario:
    def __init__(self, sid: str) -> None:
        self.id = sid


def results() -> list[Result]:
    return [
        Result("a-1", PASS, area="PLAY", clauses=("PLAY-1",)),
        Result("a-2", FAIL, "expectation not met: to_act", area="PLAY", clauses=("PLAY-4",), at="steps[2]",
               at_line=30, action="seat 1 do 'pass'", key="to_act", diff=("expected: 1", "actual:   3"),
               stderr="engine says hi\n", file="x.yaml", line=20),
        Result("b-1", SKIP, "no", area="CALL"),
        Result("c-1", TIMEOUT, "no answer", area="ZZZ"),
    ]


def test_progress_bar_on_a_tty_is_one_rewritten_line():
    out = io.StringIO()
    p = Progress(4, out, tty=True)
    for r in results():
        p.start(_Scenario(r.id))  # type: ignore[arg-type]
        p.result(r)
    p.finish()
    text = out.getvalue()
    assert "\r[" in text and "4/4" in text
    assert "FAIL    a-2: expectation not met: to_act\n" in text  # bad results get their own line
    assert text.count("\n") == 2


def test_progress_without_tty_prints_plain_lines():
    out = io.StringIO()
    p = Progress(4, out, tty=False)
    for r in results():
        p.result(r)
    assert out.getvalue().splitlines() == [
        "PASS    a-1", "FAIL    a-2: expectation not met: to_act", "SKIP    b-1: no", "TIMEOUT c-1: no answer"]


def test_summary_table_orders_areas_as_the_spec():
    lines = summary_table(results()).splitlines()
    assert [line.split()[0] for line in lines[2:5]] == ["CALL", "PLAY", "ZZZ"]
    assert lines[-1].split() == ["total", "1", "1", "0", "1", "1", "0", "0", "4"]


def test_failure_details_name_step_action_key_diff_and_stderr():
    text = failure_details(results())
    assert "FAIL a-2 (x.yaml:20) [PLAY-4]" in text
    assert "at:     steps[2] (line 30)" in text
    assert "action: seat 1 do 'pass'" in text
    assert "key:    to_act" in text
    assert "    expected: 1\n    actual:   3" in text
    assert "    | engine says hi" in text
    assert "TIMEOUT c-1" in text
