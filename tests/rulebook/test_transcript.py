"""The rulebook's complete-hand transcript (docs/_ext/hakka_transcript.py): what the runner sends the reference."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.schemas import load_schemas
from conformance.suite import Suite

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from hakka_transcript import transcript  # noqa: E402

SCENARIO = "example-hand-claim-with-privileged-penalty"


def test_every_message_of_the_transcript_is_valid_and_the_hand_ends() -> None:
    schemas = load_schemas(ROOT / "spec" / "schema")
    pairs = transcript(ROOT, SCENARIO)
    for request, answer in pairs:
        assert not list(schemas.request_errors(request)), request
        assert not list(schemas.response_errors(request["cmd"], answer)), (request, answer)
    final = pairs[-1]
    assert final[0]["cmd"] == "state" and final[1]["phase"] == "ended" and final[1]["result"]["end"] == "claim"


def test_the_transcript_is_the_runners_road_step_by_step() -> None:
    # The page shows what the runner sends, read from the scenario itself: the start and its state,
    # then for each step with an action that action and the state the runner checks (a step that
    # only expects is checked against the state already asked); a refused action is refused with
    # the error the step names, and every other answer is ok.
    (scenario,) = Suite.load().select(ids=(SCENARIO,))
    steps = scenario.body["steps"]
    expected: list[tuple[str, object]] = [("start", None), ("state", None)]
    for step in steps:
        if "do" in step or "reject" in step:
            expected += [("act", step.get("do", step.get("reject"))), ("state", None)]
    pairs = transcript(ROOT, SCENARIO)
    assert [(q["cmd"], q.get("action")) for q, _ in pairs] == expected
    rejected = [step for step in steps if "reject" in step]
    refused = [(q, a) for q, a in pairs if a["ok"] is not True]
    assert [(q["seat"], q["action"], a["error"]["kind"]) for q, a in refused] == [
        (step["seat"], step["reject"], step["error"]) for step in rejected]
    assert len(rejected) == 4
