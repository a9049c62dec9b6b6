"""The rulebook's complete-hand transcript (docs/_ext/hakka_transcript.py) is a valid protocol-2 exchange."""

from __future__ import annotations

import sys
from pathlib import Path

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
