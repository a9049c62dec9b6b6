"""In-process fakes for ``python:MODULE:FACTORY`` (this directory on sys.path)."""

from __future__ import annotations

import sys
import time
from typing import Any

from scripted import ConfigurableSession, ScriptedSession

__all__ = ["ScriptedSession", "ConfigurableSession", "Raising", "Hanging", "NotJson", "Printing",
           "broken_factory"]


class Raising(ScriptedSession):
    """Raises inside `state`."""

    def cmd_state(self, message: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("engine bug in state()")


class Hanging(ScriptedSession):
    """Never returns from `state`."""

    def cmd_state(self, message: dict[str, Any]) -> dict[str, Any]:
        time.sleep(3600)
        return {}


class NotJson(ScriptedSession):
    """Returns a Python object that is not JSON data."""

    def cmd_state(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "phase": object()}


class Printing(ScriptedSession):
    """Writes diagnostics to stderr and stdout (captured, not shown on the runner's output)."""

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        print(f"debug: {message.get('cmd')}", file=sys.stderr)
        print("stray stdout")
        return super().handle(message)


def broken_factory() -> Any:
    raise ImportError("the engine's native module is missing")
