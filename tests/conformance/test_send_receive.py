"""``Adapter.send``/``receive``: a request in flight while the caller works (the fuzzer's pipeline)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from conformance.adapters import InProcessAdapter, SubprocessAdapter
from conformance.errors import EngineTimeout
from reference_engine.wire import Session

ROOT = Path(__file__).resolve().parents[2]


def test_an_answer_that_came_while_the_caller_was_busy_counts_even_past_the_timeout() -> None:
    # Python's start-up is not what this test times: on a loaded machine (load 17 in one CI run) it took
    # more than half a second, so the first answer gets a minute and the short timeout applies after it.
    adapter = SubprocessAdapter([sys.executable, "-m", "reference_engine"], timeout=60, cwd=str(ROOT))
    adapter.start()
    try:
        assert adapter.request({"cmd": "hello", "protocol": 2})["ok"]  # started and warm
        adapter.timeout = 0.5  # read when a request is sent
        adapter.send({"cmd": "start", "setup": {"dealer": 0, "seed": "3"}})
        time.sleep(2.5)  # the caller is busy five times the timeout; the engine answered long ago
        assert adapter.receive() == {"ok": True}
        assert adapter.request({"cmd": "state"})["phase"] == "calling"
    finally:
        adapter.close()


def test_an_engine_that_never_answers_a_sent_request_still_times_out() -> None:
    adapter = SubprocessAdapter([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.3)
    adapter.start()
    try:
        adapter.send({"cmd": "hello", "protocol": 2})
        started = time.monotonic()
        with pytest.raises(EngineTimeout, match=r"no answer to 'hello' within 0\.3 s"):
            adapter.receive()
        assert time.monotonic() - started < 2
        assert not adapter.alive  # killed
    finally:
        adapter.close()


def test_an_in_process_engine_answers_a_sent_request_when_it_is_received() -> None:
    adapter = InProcessAdapter("<object>", "Session", timeout=None, target=Session)
    adapter.start()
    adapter.send({"cmd": "hello", "protocol": 2})
    assert adapter.receive()["protocol"] == 2
