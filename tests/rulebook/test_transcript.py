"""The rulebook's complete-hand transcript (docs/_ext/hakka_transcript.py) is a valid protocol-2 exchange."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.schemas import load_schemas

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from hakka_transcript import transcript  # noqa: E402


def test_every_message_of_the_transcript_is_valid_and_the_hand_ends() -> None:
    schemas = load_schemas(ROOT / "spec" / "schema")
    pairs = transcript(ROOT, "example-hand-claim-with-privileged-penalty")
    assert [q["cmd"] for q, _ in pairs][:3] == ["hello", "start", "state"]
    for request, answer in pairs:
        assert not list(schemas.request_errors(request)), request
        assert not list(schemas.response_errors(request["cmd"], answer)), (request, answer)
        assert answer["ok"] is True, (request, answer)
    cmds = [q["cmd"] for q, _ in pairs]
    assert "observe" in cmds and cmds[-1] == "stop"
    final = [a for q, a in pairs if q["cmd"] == "state"][-1]
    assert final["phase"] == "ended" and final["result"]["end"] == "claim"


def test_the_transcript_learns_what_happened_from_events_and_asks_nothing_it_does_not_show(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: a `state` was asked after every action, off the page, to learn whether a round had ended.
    import conformance.adapters as adapters

    sent: list[dict[str, Any]] = []
    real = adapters.parse_engine_spec

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def make_adapter(self, timeout: float) -> Any:
            adapter = self.inner.make_adapter(timeout)
            request = adapter.request

            def spied(message: dict[str, Any]) -> dict[str, Any]:
                sent.append(message)
                answer: dict[str, Any] = request(message)
                return answer

            adapter.request = spied
            return adapter

    monkeypatch.setattr(adapters, "parse_engine_spec", lambda text: Spy(real(text)))
    pairs = transcript(ROOT, "example-hand-claim-with-privileged-penalty")
    assert sent == [q for q, _ in pairs]  # every request the reference got is on the page
    for i, (request, answer) in enumerate(pairs):
        if request["cmd"] == "observe":  # the seat observed is the seat to act after the first lead
            assert answer["observation"]["to_act"] == request["seat"]
            assert [q["cmd"] for q, _ in pairs[i - 2:i]] == ["state", "act"]  # right after the lead
