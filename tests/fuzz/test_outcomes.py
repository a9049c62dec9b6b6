"""The fuzzer's outcome classes come from the reference's answers (its moves' events), not from its insides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.fuzz import FuzzConfig, fuzz
from conformance.fuzz.outcomes import Outcomes
from reference_engine.outcomes import hand_outcomes
from reference_engine.wire import Session


def test_the_events_of_the_answers_give_the_outcomes_of_the_hand() -> None:
    session = Session()
    session.handle({"cmd": "hello", "protocol": 2})
    outcomes = Outcomes({})
    seen: set[str] = set()
    for i in range(300):
        answer = session.handle({"cmd": "batch", "setup": {"dealer": i % 4, "seed": str(i)}, "steps": [],
                                 "playout": {"seed": str(i)}, "state": "last"})
        from_answers = outcomes.reached((e.get("act") for e in answer["steps"][1:]), ["PLAY-3"])
        assert session.hand is not None
        assert from_answers == hand_outcomes(session.hand, ["PLAY-3"]), i  # the engine's own reading
        seen |= from_answers
    assert len(seen) > 20  # the hands reached many classes, so the equality said something


class NoEvents(Session):
    """The reference, but its hello does not declare `events`: the fuzzer then reads none from its answers."""

    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]:
        answer = super().handle(message)
        if message.get("cmd") == "hello" and answer.get("ok"):
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "events"]
        return answer


def test_a_reference_that_reports_no_events_reaches_no_outcome() -> None:
    report = fuzz(FuzzConfig.of(engine="reference", reference_factory=NoEvents, hands=10, seed=0, out=None))
    assert report.ok and report.classes and not any(c.id in report.coverage for c in report.classes)
    assert report.coverage["kind:hand"]  # what the side checks covered is the fuzzer's own count
