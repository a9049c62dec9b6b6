"""``reference-direct``: an engine object called directly, the fastest road to an in-process engine.

``factory().handle(message)`` runs on the caller's own thread and its answer
is returned as it is: no JSON copies either way, no worker thread, no
timeout, no capture of ``print``. What it keeps from the other adapters: the
:class:`~conformance.adapters.Adapter` interface (so it sits behind
:class:`~conformance.engine.Engine` like every engine), an exception of the
engine becomes :class:`~conformance.errors.EngineCrashed` (its traceback is
the engine's stderr) and an answer that is not a dict a
:class:`~conformance.errors.ProtocolViolation`.

It is for engines that cannot hang and answer in the protocol's shapes: the
reference engine (``reference-direct``) and its variants (the mutant
catalogue), which the fuzzer and the mutation report call tens of thousands of
times. A caller must not change an answer it was given, nor a message after
sending it: nothing is copied.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from ..errors import EngineCrashed, ProtocolViolation
from .base import Adapter, _clip, _short, _StderrBuffer
from .inprocess import resolve_factory


class DirectAdapter(Adapter):
    """``factory().handle`` called on the caller's thread; see the module's docstring."""

    timeout = None

    def __init__(self, module: str, factory: str, *, target: Callable[[], Any] | None = None,
                 label: str | None = None) -> None:
        self.module_name = module
        self.factory_name = factory
        self._target = target
        self.label = label or f"python:{module}:{factory}"
        self._session: Any = None
        self._stderr = _StderrBuffer()

    def _crash(self, exc: Exception, what: str) -> EngineCrashed:
        self._session = None
        self._stderr.write("".join(traceback.format_exception(exc)))
        return EngineCrashed(f"{what} raised {type(exc).__name__}: {_clip(exc)}")

    def start(self) -> None:
        if self._session is not None:
            return
        factory = self._target or resolve_factory(self.module_name, self.factory_name)
        try:
            session = factory()
        except Exception as exc:  # noqa: BLE001 - the engine's failure to start is a crash of the engine
            raise self._crash(exc, f"{self.label}()") from None
        if not callable(getattr(session, "handle", None)):
            raise EngineCrashed(f"{self.label}() returned {type(session).__name__}, which has no handle(message) method")
        self._session = session

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        session = self._session
        if session is None:
            raise EngineCrashed("engine not started")
        try:
            answer = session.handle(message)
        except Exception as exc:  # noqa: BLE001 - any engine exception is a crash of the engine
            raise self._crash(exc, f"handle({message.get('cmd')!r})") from None
        if not isinstance(answer, dict):
            self._session = None
            raise ProtocolViolation(f"answer to {message.get('cmd')!r} is not a JSON object: {_short(answer)}")
        return answer

    def close(self) -> None:
        self._session = None

    def take_stderr(self) -> str:
        return self._stderr.take()

    @property
    def alive(self) -> bool:
        return self._session is not None
