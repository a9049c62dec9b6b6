"""The direct and in-process adapters share one way to start a session and ask it (adapters/base.py).

Whatever the transport inside the process (the caller's thread, a worker thread, copies through JSON
or none), an engine that fails is reported the same: the same error class, the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from conformance.adapters import DirectAdapter, InProcessAdapter
from conformance.adapters.base import SessionAdapter
from conformance.errors import EngineCrashed, ProtocolViolation

MAKERS: dict[str, Callable[[Callable[[], Any]], SessionAdapter]] = {
    "direct": lambda target: DirectAdapter("fake", "Engine", target=target),
    "in-process, on the caller's thread": lambda target: InProcessAdapter("fake", "Engine", None, target=target),
    "in-process, worker thread, no copies": lambda target: InProcessAdapter("fake", "Engine", 5.0, copy=False,
                                                                            target=target),
    "in-process, copies": lambda target: InProcessAdapter("fake", "Engine", 5.0, target=target),
}


class _Answers:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def handle(self, message: dict[str, Any]) -> Any:
        if message["cmd"] == "boom":
            raise ValueError("the engine broke")
        return self.answer


def _boom() -> Any:
    raise RuntimeError("cannot start")


@pytest.fixture(params=list(MAKERS))
def make(request: pytest.FixtureRequest) -> Callable[[Callable[[], Any]], SessionAdapter]:
    return MAKERS[request.param]


def test_a_session_answers_and_reports_a_request_before_start(make: Callable[..., SessionAdapter]) -> None:
    adapter = make(lambda: _Answers({"ok": True}))
    with pytest.raises(EngineCrashed, match=r"^engine not started$"):
        adapter.request({"cmd": "hello"})
    adapter.start()
    assert adapter.alive and adapter.label == "python:fake:Engine"
    assert adapter.request({"cmd": "hello"}) == {"ok": True}
    adapter.close()
    assert not adapter.alive


def test_a_factory_that_fails_or_makes_no_engine_is_a_crash(make: Callable[..., SessionAdapter]) -> None:
    adapter = make(_boom)
    with pytest.raises(EngineCrashed, match=r"^python:fake:Engine\(\) raised RuntimeError: cannot start$"):
        adapter.start()
    assert "RuntimeError: cannot start" in adapter.take_stderr()  # the engine's traceback is its stderr
    with pytest.raises(EngineCrashed, match=r"returned int, which has no handle\(message\) method"):
        make(lambda: 3).start()


def test_an_answer_that_is_no_object_or_an_exception_ends_the_session(make: Callable[..., SessionAdapter]) -> None:
    adapter = make(lambda: _Answers([1, 2]))
    adapter.start()
    with pytest.raises(ProtocolViolation, match=r"^answer to 'hello' is not a JSON object: '\[1, 2\]'$"):
        adapter.request({"cmd": "hello"})
    assert not adapter.alive
    adapter = make(lambda: _Answers({"ok": True}))
    adapter.start()
    with pytest.raises(EngineCrashed, match=r"^handle\('boom'\) raised ValueError: the engine broke$"):
        adapter.request({"cmd": "boom"})
    assert not adapter.alive
    assert "ValueError: the engine broke" in adapter.take_stderr()
