"""A giant or trickling answer costs the runner and the fuzzer at most about ``--timeout`` (issue 20.5).

The subprocess adapter reads an answer line no further than its size bound
(an ``error`` naming the bound), and gives the whole line one deadline
however its bytes arrive. Before: an engine padding each ``batch`` answer to
6 MB cost the fuzzer about 11 s and 384 MB per hand with ``--timeout 1``.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.adapters.process import MAX_ANSWER_BYTES, MAX_ANSWER_ENV, SubprocessAdapter, max_answer_bytes
from conformance.errors import EngineSpecError, EngineTimeout, ProtocolViolation

from .hostile_helpers import cli_env, processes_with

HERE = Path(__file__).resolve().parent
BATCH = {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "observe": "every"}


def _padding(mode: str, marker: str, timeout: float, max_answer: int | None = None) -> SubprocessAdapter:
    adapter = SubprocessAdapter([sys.executable, str(HERE / "padding_engine.py"), mode, marker], timeout,
                                max_answer=max_answer)
    adapter.start()
    assert adapter.request({"cmd": "hello", "protocol": 2})["ok"]
    return adapter


def test_an_answer_past_the_size_bound_is_a_protocol_error_naming_the_bound(marker: str) -> None:
    adapter = _padding("pad", marker, timeout=10.0)
    started = time.monotonic()
    with pytest.raises(ProtocolViolation) as refused:
        adapter.request(BATCH)
    assert time.monotonic() - started < 5
    assert f"longer than {MAX_ANSWER_BYTES} bytes" in str(refused.value) and MAX_ANSWER_ENV in str(refused.value)
    assert not adapter.alive and processes_with(marker) == []


def test_the_size_bound_is_configurable_and_every_reference_answer_fits_the_default(marker: str,
                                                                                    monkeypatch) -> None:
    adapter = _padding("trickle", marker, timeout=30.0, max_answer=16 * 1024 * 1024)
    try:
        answer = adapter.request(BATCH)
        assert answer["ok"] is True and len(answer["x-padding"]) == 6 * 1024 * 1024
    finally:
        adapter.kill()
    monkeypatch.setenv(MAX_ANSWER_ENV, "1000")
    assert max_answer_bytes() == 1000
    monkeypatch.setenv(MAX_ANSWER_ENV, "lots")
    with pytest.raises(EngineSpecError, match=MAX_ANSWER_ENV):
        max_answer_bytes()
    # The reference's largest answer within its own bounds: a batch of 10,000 answers (full hands in each state).
    from reference_engine.wire import BATCH_ANSWER_LIMIT, Session

    session = Session()
    session.handle({"cmd": "hello", "protocol": 2})
    steps = [{"seat": 1, "action": "call"}] * ((BATCH_ANSWER_LIMIT - 6) // 6)
    largest = session.handle({**BATCH, "steps": steps})
    assert largest["ok"] and len(json.dumps(largest, separators=(",", ":"))) < MAX_ANSWER_BYTES


def test_a_trickle_of_small_writes_does_not_extend_the_deadline_of_the_line(marker: str) -> None:
    adapter = _padding("trickle", marker, timeout=1.0, max_answer=16 * 1024 * 1024)
    started = time.monotonic()
    with pytest.raises(EngineTimeout, match="no answer"):
        adapter.request(BATCH)  # 6 MB in 64 KB pieces every 50 ms: about 5 s for the line
    assert time.monotonic() - started < 2.5
    assert processes_with(marker) == []


def test_a_padding_engine_costs_the_fuzzer_about_the_timeout_per_hand(tmp_path: Path, marker: str) -> None:
    hands = 3
    figures = tmp_path / "figures.json"
    engine = "cmd:" + shlex.join([sys.executable, str(HERE / "padding_engine.py"), "pad", marker])
    argv = [sys.executable, str(HERE / "measured_cli.py"), str(figures), "fuzz", "--engine", engine,
            "--hands", str(hands), "--timeout", "1", "--no-write"]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=cli_env(), cwd=tmp_path)
    seconds = time.monotonic() - started
    assert "Traceback" not in done.stderr, done.stderr
    assert f"longer than {MAX_ANSWER_BYTES} bytes" in done.stdout, done.stdout[-3000:]
    # per hand: the refused batch (under 1 s), the engine's restart and the hand replayed step by step
    assert seconds < 5 + hands * 3.5, (seconds, done.stdout[-2000:])
    assert json.loads(figures.read_text())["maxrss_kb"] < 150 * 1024  # before: 384 MB
    assert processes_with(marker) == []
