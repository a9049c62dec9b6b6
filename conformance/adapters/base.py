"""What every transport shares: the :class:`Adapter` interface, answer parsing, bounds, the engine environment."""

from __future__ import annotations

import importlib
import json
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from ..errors import EngineCrashed, ProtocolViolation

MAX_LINE = 32 * 1024 * 1024
MAX_STDERR = 64 * 1024
MAX_DEPTH = 64
"""Deepest nesting of arrays/objects accepted in an answer (protocol messages nest a few levels)."""
POLL_INTERVAL = 0.1
"""How often a waiting subprocess request checks whether the engine has exited."""

ENGINE_ENV_NAMES = (
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ",
    "TMPDIR", "TEMP", "TMP", "PYTHONPATH", "VIRTUAL_ENV",
    "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT",  # Windows needs these to start anything
)
"""The runner's environment variables a subprocess engine gets by default (no tokens, no CI secrets)."""



def engine_environment(extra: tuple[str, ...] | list[str] = (),
                       source: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a subprocess engine: :data:`ENGINE_ENV_NAMES` plus ``extra``.

    Each item of ``extra`` is ``NAME`` (copied from the runner's environment if
    set) or ``NAME=VALUE``.
    """
    env_in = dict(os.environ if source is None else source)
    env = {name: env_in[name] for name in ENGINE_ENV_NAMES if name in env_in}
    for item in extra:
        name, sep, value = item.partition("=")
        if sep:
            env[name] = value
        elif name in env_in:
            env[name] = env_in[name]
    return env


def json_depth_problem(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """Why ``value`` nests too deeply to be a protocol message, or ``None`` (iterative, never recurses)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return f"nests deeper than {limit} levels"
        stack.extend((child, depth + 1) for child in children)
    return None


def _parse_answer(raw: bytes | str, cmd: Any) -> Any:
    """Decode one answer line; any failure is the engine's (ProtocolViolation), never the runner's."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, (bytes, bytearray)) else raw
        answer = json.loads(text)
    except RecursionError:
        raise ProtocolViolation(f"answer to {cmd!r} nests too deeply to be a protocol message") from None
    except (UnicodeDecodeError, ValueError):
        # ValueError includes integers of more than 4,300 digits.
        raise ProtocolViolation(f"answer to {cmd!r} is not JSON: {_short(raw)}") from None
    problem = json_depth_problem(answer)
    if problem:
        raise ProtocolViolation(f"answer to {cmd!r} {problem}")
    return answer


class Adapter(ABC):
    """A connection to one engine. ``request`` sends one message and returns its answer."""

    timeout: float | None

    @abstractmethod
    def start(self) -> None:
        """Start the engine (a no-op when already running)."""

    @abstractmethod
    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message``, return the engine's answer (a JSON object)."""

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` without waiting: :meth:`receive` returns its answer (one request at a time).

        Lets a caller work while a subprocess engine answers. By default nothing goes out before
        ``receive``: an in-process engine answers on the caller's thread in any case.
        """
        self._unsent = message

    def receive(self) -> dict[str, Any]:
        """The answer to the message :meth:`send` sent, as :meth:`request` returns it."""
        message = self._unsent
        del self._unsent
        return self.request(message)

    @abstractmethod
    def close(self) -> None:
        """Stop the engine; safe to call more than once."""

    @abstractmethod
    def take_stderr(self) -> str:
        """Diagnostics the engine wrote since the last call (its stderr)."""

    @property
    @abstractmethod
    def alive(self) -> bool:
        """Whether the engine is started and usable."""

    def kill(self) -> None:
        """Stop at once after a failure (default: :meth:`close`)."""
        self.close()


def resolve_factory(module_name: str, factory_name: str) -> Callable[[], Any]:
    """``MODULE:FACTORY`` imported; any failure is the engine's (EngineCrashed), never the runner's."""
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - the engine's import failed: its problem, reported as a crash
        raise EngineCrashed(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    target: Any = module
    for part in factory_name.split("."):
        if not hasattr(target, part):
            raise EngineCrashed(f"{module_name!r} has no attribute {factory_name!r}")
        target = getattr(target, part)
    if not callable(target):
        raise EngineCrashed(f"python:{module_name}:{factory_name} is not callable")
    return target  # type: ignore[no-any-return]


class SessionAdapter(Adapter):
    """An engine object in this process, ``factory().handle(message) -> dict``: what the in-process
    (:class:`~conformance.adapters.InProcessAdapter`) and direct (:class:`~conformance.adapters.DirectAdapter`)
    adapters share. A subclass says only how the engine is called (:meth:`_call`)."""

    def __init__(self, module: str, factory: str, target: Callable[[], Any] | None, label: str | None) -> None:
        self.module_name = module
        self.factory_name = factory
        self._target = target
        self._label = label
        self._session: Any = None
        self._stderr = _StderrBuffer()

    @property
    def label(self) -> str:
        return self._label or f"python:{self.module_name}:{self.factory_name}"

    @abstractmethod
    def _call(self, fn: Callable[[], Any], what: str) -> Any:
        """``fn()`` run as the engine; an exception of the engine ends the session as :class:`EngineCrashed`."""

    def start(self) -> None:
        if self._session is not None:
            return
        factory = self._target or resolve_factory(self.module_name, self.factory_name)
        session = self._call(factory, f"{self.label}()")
        if not callable(getattr(session, "handle", None)):
            raise EngineCrashed(f"{self.label}() returned {type(session).__name__}, which has no handle(message) method")
        self._session = session

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self._handle(message, message)

    def _handle(self, message: dict[str, Any], sent: Any) -> dict[str, Any]:
        """The session's answer to ``sent`` (``message`` itself or a copy of it), which must be a dict."""
        session = self._session
        if session is None:
            raise EngineCrashed("engine not started")
        answer = self._call(lambda: session.handle(sent), f"handle({message.get('cmd')!r})")
        if not isinstance(answer, dict):
            self._session = None
            raise ProtocolViolation(f"answer to {message.get('cmd')!r} is not a JSON object: {_short(answer)}")
        return answer

    def take_stderr(self) -> str:
        return self._stderr.take()

    @property
    def alive(self) -> bool:
        return self._session is not None


class _StderrBuffer:
    """A bounded text buffer: keeps the head and the most recent output."""

    def __init__(self, limit: int = MAX_STDERR) -> None:
        self.limit = limit
        self._parts: list[str] = []
        self._size = 0
        self._dropped = 0
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self._parts.append(text)
            self._size += len(text)
            if self._size > 2 * self.limit:
                joined = "".join(self._parts)
                self._dropped += len(joined) - self.limit
                self._parts = [joined[-self.limit:]]
                self._size = self.limit
        return len(text)

    def flush(self) -> None:
        pass

    def take(self) -> str:
        with self._lock:
            text = "".join(self._parts)
            dropped = self._dropped
            if len(text) > self.limit:
                dropped += len(text) - self.limit
                text = text[-self.limit:]
            self._parts, self._size, self._dropped = [], 0, 0
        if dropped:
            text = f"[… {dropped} characters dropped …]\n" + text
        return text



def _clip(value: Any, limit: int = 500) -> str:
    """``str(value)``, cut to ``limit`` characters (an engine's message can be megabytes)."""
    try:
        text = str(value)
    except Exception:  # noqa: BLE001 - an engine's exception may fail even to print
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + f"… [{len(text) - limit} more characters]"


def _short(data: Any, limit: int = 200) -> str:
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else str(data)
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")


