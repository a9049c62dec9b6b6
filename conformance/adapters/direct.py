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

from ..errors import EngineCrashed
from .base import SessionAdapter, _clip


class DirectAdapter(SessionAdapter):
    """``factory().handle`` called on the caller's thread; see the module's docstring."""

    timeout = None

    def __init__(self, module: str, factory: str, *, target: Callable[[], Any] | None = None,
                 label: str | None = None) -> None:
        super().__init__(module, factory, target, label)

    def _call(self, fn: Callable[[], Any], what: str) -> Any:
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - any engine exception is a crash of the engine
            self._session = None
            self._stderr.write("".join(traceback.format_exception(exc)))
            raise EngineCrashed(f"{what} raised {type(exc).__name__}: {_clip(exc)}") from None

    def close(self) -> None:
        self._session = None
