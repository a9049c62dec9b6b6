"""The reference engine's protocol server answers every hostile line and keeps serving (issue 13, item 6).

Each attack line is sent first, then a `hello`: the server must answer the
attack with exactly one ``malformed`` protocol error line and then the
`hello` — never a traceback, never an exit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

HELLO = b'{"cmd":"hello","protocol":1}'

ATTACKS = {
    "not JSON (first line)": b"not json",
    "non-UTF-8 bytes": b"\xff\xfe{}",
    "integer over 4,300 digits": b'{"cmd":"state","x":' + b"9" * 5000 + b"}",
    "1,000 levels of nesting": b"[" * 1000 + b"]" * 1000,
    "1,000 levels inside an object": b'{"cmd":"state","x":' + b"[" * 1000 + b"]" * 1000 + b"}",
    "a list, not an object": b"[1, 2]",
    "a string, not an object": b'"hello"',
    "null": b"null",
    "truncated object": b'{"cmd": "hel',
    "over-long line": b'{"cmd":"state","pad":"' + b"x" * (1024 * 1024 + 10) + b'"}',
}


def serve(data: bytes) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "reference_engine"], input=data, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert not done.stderr, done.stderr.decode(errors="replace")[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("name", ATTACKS)
def test_a_hostile_line_gets_one_malformed_error_and_the_server_keeps_serving(name):
    answers = serve(ATTACKS[name] + b"\n" + HELLO + b"\n")
    assert len(answers) == 2, answers
    assert answers[0]["ok"] is False and answers[0]["error"]["kind"] == "malformed", answers[0]
    assert answers[1]["ok"] is True and answers[1]["protocol"] == 1


def test_hostile_lines_later_in_a_session_leave_it_serving():
    data = b"\n".join([HELLO, *ATTACKS.values(), b'{"cmd":"stop"}']) + b"\n"
    answers = serve(data)
    assert len(answers) == 2 + len(ATTACKS)
    assert all(a["ok"] is False and a["error"]["kind"] == "malformed" for a in answers[1:-1])
    assert answers[-1]["ok"] is True


@pytest.mark.parametrize("request_", [{"cmd": ["hello"]}, {"cmd": {"a": 1}}, {"cmd": "state", "seat": True}])
def test_a_request_of_the_wrong_shape_never_crashes_the_server(request_):
    answers = serve(json.dumps(request_).encode() + b"\n" + HELLO + b"\n")
    assert len(answers) == 2 and answers[0]["ok"] is False
    assert answers[1]["ok"] is True


HOSTILE_REQUESTS = [
    {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}},  # no steps: was `internal` with a traceback
    {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [{"seat": 7, "action": "call"}]},
    {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": "call"},
    {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "playout": {"seed": "x"}},
    {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "observe": ["every"]},
    {"cmd": "batch", "setup": {"game": {"first_dealer": 0, "deals": [{"seed": 1}]}}, "steps": []},
    {"cmd": "batch", "setup": None, "steps": []},
    {"cmd": "start", "setup": {"dealer": 0, "seed": -3}},
    {"cmd": "start", "setup": {"game": {"first_dealer": 0, "deals": "x"}}},
    {"cmd": "count", "depth": 2, "divide": "yes"},
    {"cmd": "pattern", "current": "Sup7", "challenger": 7, "elders": "", "led": True},
]


@pytest.mark.parametrize("protocol", [1, 2])
def test_no_answer_to_a_hostile_request_carries_a_traceback_or_a_file_path(protocol):
    """Issue 20.3: every request is checked against its schema; an answer never holds the engine's source."""
    lines = [json.dumps({"cmd": "hello", "protocol": protocol})] + [json.dumps(r) for r in HOSTILE_REQUESTS]
    answers = serve(("\n".join(lines) + "\n").encode())
    assert len(answers) == 1 + len(HOSTILE_REQUESTS)
    for request_, answer in zip(HOSTILE_REQUESTS, answers[1:], strict=True):
        text = json.dumps(answer)
        assert answer["ok"] is False and answer["error"]["kind"] in ("malformed", "unsupported"), (request_, answer)
        assert "Traceback" not in text and ".py" not in text and "/" not in answer["error"]["message"], text
    # under protocol 1 a batch is not a request at all; under 2 each of these breaks its schema
    kinds = {json.dumps(r): a["error"]["kind"] for r, a in zip(HOSTILE_REQUESTS, answers[1:], strict=True)}
    expected = "unsupported" if protocol == 1 else "malformed"
    assert all(k == expected for r, k in kinds.items() if '"batch"' in r), kinds
