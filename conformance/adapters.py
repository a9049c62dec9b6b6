"""Adapters: how the runner reaches an engine. One interface, two transports.

An :class:`Adapter` moves JSON-shaped messages; it knows nothing of their
meaning (the handshake and schema checks live in :mod:`conformance.engine`).

- :class:`InProcessAdapter` (``python:MODULE:FACTORY``): ``FACTORY()`` returns
  an object with ``handle(message: dict) -> dict``. Each request runs on a
  worker thread so that a hang becomes a timeout; stdout and stderr written
  during a request are captured as the engine's diagnostics.
- :class:`SubprocessAdapter` (``cmd:COMMAND``): one process per run, started
  from an argument list (never a shell), line-delimited JSON on stdin/stdout,
  per-request timeout with ``selectors``, stderr drained continuously by a
  thread.

Failures raise :class:`~conformance.errors.EngineCrashed`,
:class:`~conformance.errors.EngineTimeout` or
:class:`~conformance.errors.ProtocolViolation`; after any of them the adapter
is closed and must be started again.

What each transport can promise against a hostile engine
--------------------------------------------------------
``cmd:`` (subprocess) is the isolated path: the engine runs in its own process
group with a minimal environment (:data:`ENGINE_ENV_NAMES`, more with
``--engine-env``); a timeout, a crash or the end of the run kills the whole
group, children included, even when the engine itself has already exited; a
runner ended by SIGTERM/SIGINT or a normal exit kills every engine it started
(:func:`kill_all_engines`). Answers are bounded in size (:data:`MAX_LINE`)
and nesting (:data:`MAX_DEPTH`).

``python:`` (in-process) runs the engine's code inside the runner, with the
runner's rights: it is for engines you trust (your own, the reference). What
is bounded: a request that times out is interrupted if it is running Python
code (an asynchronous exception); if it cannot be (a blocking C call such as
``sleep``), no new session is started while that thread lives and the engine
is reported unavailable, so hung threads never pile up. ``os._exit`` called by
the engine becomes a crash of the engine. What cannot be bounded in-process:
memory (an engine that exhausts it takes the runner down), a hard crash of the
interpreter (a segfault in a C extension, ``os.kill`` of the runner), and a
thread that never returns to Python. For an engine you do not trust, or that
may do any of these, use ``cmd:`` (e.g. ``cmd:python -m my_engine``).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib
import json
import os
import queue
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import EngineCrashed, EngineSpecError, EngineTimeout, EngineUnavailable, ProtocolViolation

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


# --------------------------------------------------------------------------- in-process


class _EngineInterrupted(BaseException):
    """Raised inside a timed-out in-process engine to stop it (a BaseException: ``except Exception`` lets it by)."""


class _EngineExit(BaseException):
    """``os._exit`` called by an in-process engine, turned into an exception of its thread."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class EngineStillRunning(EngineUnavailable):
    """An in-process engine whose timed-out request still runs: no new session until it ends."""

    status = "timeout"


_ENGINE_THREADS: set[int] = set()
_REAL_EXIT = os._exit
_GUARD_PID: int | None = None


def _guarded_exit(status: int) -> None:
    if os.getpid() == _GUARD_PID and threading.get_ident() in _ENGINE_THREADS:
        raise _EngineExit(status)
    _REAL_EXIT(status)


def _install_exit_guard() -> None:
    """Make ``os._exit`` from an in-process engine's thread end the engine, not the runner."""
    global _GUARD_PID
    if _GUARD_PID is None:
        _GUARD_PID = os.getpid()
        os._exit = _guarded_exit  # type: ignore[assignment]


def _attempt(fn: Callable[[], Any]) -> tuple[bool, Any]:
    try:
        return True, fn()
    except Exception as exc:  # noqa: BLE001 - any engine exception becomes a result
        return False, exc


class InProcessAdapter(Adapter):
    """An engine object in this Python process: ``factory().handle(message) -> dict``.

    Messages are deep-copied through JSON both ways, so the engine sees exactly
    what a subprocess would and may return only JSON-shaped data. With a
    ``timeout`` each request runs on a worker thread, so a hang becomes a
    timeout; with ``timeout=None`` the engine is called directly on the
    caller's thread (faster, and nothing is bounded).
    """

    def __init__(self, module: str, factory: str, timeout: float | None = 10.0) -> None:
        self.module_name = module
        self.factory_name = factory
        self.timeout = timeout
        self._session: Any = None
        self._stderr = _StderrBuffer()
        self._worker: threading.Thread | None = None
        self._stuck: threading.Thread | None = None  # a worker that timed out and could not be stopped
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], queue.SimpleQueue[Any]] | None] = queue.SimpleQueue()

    @property
    def label(self) -> str:
        return f"python:{self.module_name}:{self.factory_name}"

    def _resolve_factory(self) -> Callable[[], Any]:
        try:
            module = importlib.import_module(self.module_name)
        except Exception as exc:  # noqa: BLE001 - the engine's import failed: its problem, reported as a crash
            raise EngineCrashed(f"cannot import {self.module_name!r}: {type(exc).__name__}: {exc}",
                                ) from None
        target: Any = module
        for part in self.factory_name.split("."):
            if not hasattr(target, part):
                raise EngineCrashed(f"{self.module_name!r} has no attribute {self.factory_name!r}")
            target = getattr(target, part)
        if not callable(target):
            raise EngineCrashed(f"{self.label} is not callable")
        return target  # type: ignore[no-any-return]

    def _ensure_worker(self) -> None:
        if self._stuck is not None:
            if self._stuck.is_alive():
                raise EngineStillRunning(
                    "the in-process engine is still running a request that timed out, and Python cannot stop "
                    "a thread blocked outside Python code: no new session is started; run the engine as a "
                    "subprocess (cmd:...) to have hung engines killed")
            self._stuck = None
        if self._worker is None or not self._worker.is_alive():
            _install_exit_guard()
            self._jobs = queue.SimpleQueue()
            jobs = self._jobs
            self._worker = threading.Thread(target=self._work, args=(jobs,), name="hakka-engine", daemon=True)
            self._worker.start()

    def _abandon_worker(self, grace: float = 0.5) -> None:
        """Stop a worker stuck in the engine: interrupt it if it runs Python code, else remember it as stuck."""
        worker, jobs = self._worker, self._jobs
        self._worker = None
        self._session = None
        if worker is None:
            return
        jobs.put(None)  # once interrupted, the worker's loop ends here
        if worker.ident is not None:
            with contextlib.suppress(AttributeError):  # CPython only: elsewhere the thread is left to end
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident),
                                                           ctypes.py_object(_EngineInterrupted))
        worker.join(grace)
        if worker.is_alive():
            self._stuck = worker

    @staticmethod
    def _work(jobs: queue.SimpleQueue[tuple[Callable[[], Any], queue.SimpleQueue[Any]] | None]) -> None:
        _ENGINE_THREADS.add(threading.get_ident())
        try:
            while True:
                try:
                    job = jobs.get()
                    if job is None:
                        return
                    fn, reply = job
                    try:
                        reply.put((True, fn()))
                    except BaseException as exc:  # noqa: BLE001 - any engine exception becomes a result
                        reply.put((False, exc))
                except _EngineInterrupted:
                    continue  # arrived after the request ended: the None sentinel follows
        finally:
            _ENGINE_THREADS.discard(threading.get_ident())

    def _call(self, fn: Callable[[], Any], what: str) -> Any:
        out, err = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = self._stderr
        try:
            if self.timeout is None:
                # No time bound: the engine is called on the runner's own thread (no worker to wait on).
                ok, value = _attempt(fn)
            else:
                self._ensure_worker()
                reply: queue.SimpleQueue[Any] = queue.SimpleQueue()
                self._jobs.put((fn, reply))
                try:
                    ok, value = reply.get(timeout=self.timeout)
                except queue.Empty:
                    # The worker is stuck in the engine: interrupt it if possible, abandon the session.
                    self._abandon_worker()
                    raise EngineTimeout(f"no answer to {what} within {self.timeout:g} s") from None
        finally:
            sys.stdout, sys.stderr = out, err
        if not ok:
            exc = value
            self._session = None
            if isinstance(exc, _EngineExit):
                raise EngineCrashed(f"{what} called os._exit({exc.status}): the engine ended (in-process, the "
                                    "runner stays)")
            if isinstance(exc, RecursionError):
                raise EngineCrashed(f"{what} raised RecursionError: the engine recursed too deeply")
            with contextlib.suppress(Exception):
                self._stderr.write("".join(traceback.format_exception(exc)))
            raise EngineCrashed(f"{what} raised {type(exc).__name__}: {_clip(exc)}")
        return value

    def start(self) -> None:
        if self._session is not None:
            return
        factory = self._resolve_factory()
        session = self._call(factory, f"{self.label}()")
        if not callable(getattr(session, "handle", None)):
            raise EngineCrashed(f"{self.label}() returned {type(session).__name__}, which has no handle(message) method")
        self._session = session

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if self._session is None:
            raise EngineCrashed("engine not started")
        session = self._session
        sent = json.loads(json.dumps(message))
        answer = self._call(lambda: session.handle(sent), f"handle({message.get('cmd')!r})")
        try:
            copied = _parse_answer(json.dumps(answer, allow_nan=False), message.get("cmd"))
        except RecursionError:
            self._session = None
            raise ProtocolViolation(f"answer to {message.get('cmd')!r} nests too deeply to be a protocol message") from None
        except (TypeError, ValueError) as exc:
            self._session = None
            raise ProtocolViolation(f"answer to {message.get('cmd')!r} is not JSON data: {_clip(exc)}") from None
        except ProtocolViolation:
            self._session = None
            raise
        if not isinstance(copied, dict):
            self._session = None
            raise ProtocolViolation(f"answer to {message.get('cmd')!r} is not a JSON object: {_short(answer)}")
        return copied

    def close(self) -> None:
        self._session = None
        if self._worker is not None and self._worker.is_alive():
            self._jobs.put(None)
            self._worker.join(1.0)
            if self._worker.is_alive():  # still in the engine: try to stop it, as after a timeout
                self._abandon_worker()
        self._worker = None

    def take_stderr(self) -> str:
        return self._stderr.take()

    @property
    def alive(self) -> bool:
        return self._session is not None


# --------------------------------------------------------------------------- subprocess


class SubprocessAdapter(Adapter):
    """An engine process speaking line-delimited JSON on stdin/stdout.

    ``env`` is the engine's whole environment; by default
    :func:`engine_environment` (a few harmless variables, never the runner's
    secrets). The engine runs in a process group of its own, which
    :meth:`kill` always signals, so children it started die with it.
    """

    def __init__(self, argv: list[str], timeout: float | None = 10.0, cwd: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        if not argv:
            raise EngineSpecError("empty engine command")
        self.argv = list(argv)
        self.timeout = timeout
        self.cwd = cwd
        self.env = env
        self._proc: subprocess.Popen[bytes] | None = None
        self._pgid: int | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = bytearray()
        self._stderr = _StderrBuffer()
        self._stderr_thread: threading.Thread | None = None
        self._wake_r = self._wake_w = -1
        self._flushed = threading.Event()
        self._stopping = threading.Event()

    @property
    def label(self) -> str:
        return "cmd:" + shlex.join(self.argv)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def start(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                return
            self.kill()
        env = self.env if self.env is not None else engine_environment()
        try:
            proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.cwd, env=env, start_new_session=True, bufsize=0)
        except (OSError, ValueError) as exc:
            raise EngineCrashed(f"cannot start {shlex.join(self.argv)}: {exc}") from None
        self._proc = proc
        self._pgid = proc.pid  # start_new_session: the engine leads a new process group
        _LIVE.add(self)
        self._buffer = bytearray()
        assert proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdout.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(proc.stdout, selectors.EVENT_READ)
        self._wake_r, self._wake_w = os.pipe()
        self._flushed = threading.Event()
        self._stopping = threading.Event()
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(proc.stderr.fileno(), self._wake_r, self._flushed, self._stopping),
            name=f"hakka-stderr-{proc.pid}", daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self, fd: int, wake: int, flushed: threading.Event, stopping: threading.Event) -> None:
        """Read the engine's stderr until EOF; on a wake byte, read what is pending and signal (or stop)."""
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ, "err")
        sel.register(wake, selectors.EVENT_READ, "wake")
        try:
            while True:
                events = sel.select()
                if any(key.data == "wake" for key, _ in events):
                    try:
                        os.read(wake, 4096)
                    except OSError:
                        return
                    # Read everything already in the pipe, then say so.
                    while any(k.data == "err" for k, _ in sel.select(0)):
                        if not self._read_err(fd):
                            return
                    flushed.set()
                    if stopping.is_set():
                        return  # kill(): someone outside the group still holds the pipe
                    continue
                if not self._read_err(fd):
                    return
        finally:
            flushed.set()
            sel.close()

    def _read_err(self, fd: int) -> bool:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        self._stderr.write(data.decode("utf-8", errors="replace"))
        return True

    def _flush_stderr(self, wait: float = 1.0) -> None:
        thread = self._stderr_thread
        if thread is None:
            return
        if not thread.is_alive():
            thread.join(wait)
            return
        self._flushed.clear()
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            return
        self._flushed.wait(wait)

    def take_stderr(self) -> str:
        self._flush_stderr()
        return self._stderr.take()

    def _fail_exit(self, what: str) -> EngineCrashed:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(0.5)
            except subprocess.TimeoutExpired:
                code = None
        self.kill()
        how = f"exited with status {code}" if code is not None else "closed its stdout"
        if code is not None and code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                pass
        return EngineCrashed(f"engine {how} {what}")

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        proc = self._proc
        if proc is None or self._selector is None:
            raise EngineCrashed("engine not started")
        cmd = message.get("cmd")
        assert proc.stdin is not None and proc.stdout is not None
        if self._buffer.strip() or self._ready(0):
            # Output nobody asked for: read it to show it, then fail.
            self._read_available()
            extra = bytes(self._buffer)
            if extra.strip():
                self.kill()
                raise ProtocolViolation(f"engine wrote to stdout without a request: {_short(extra)}")
            if proc.poll() is not None:
                raise self._fail_exit(f"before {cmd!r}")
        line = json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"
        try:
            proc.stdin.write(line)
            proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, OSError, ValueError):
            raise self._fail_exit(f"before {cmd!r} (its stdin is closed)") from None
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        scanned = 0
        while self._buffer.find(b"\n", scanned) < 0:
            scanned = len(self._buffer)
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                self.kill()
                raise EngineTimeout(f"no answer to {cmd!r} within {self.timeout:g} s")
            wait = POLL_INTERVAL if remaining is None else min(remaining, POLL_INTERVAL)
            if not self._ready(wait):
                if proc.poll() is not None and not self._ready(0):
                    # The engine is gone, but something it started may hold its stdout open.
                    partial = f" after writing {_short(self._buffer)}" if self._buffer else ""
                    raise self._fail_exit(f"while answering {cmd!r}{partial}")
                continue
            if not self._read_available():
                partial = f" after writing {_short(self._buffer)}" if self._buffer else ""
                raise self._fail_exit(f"while answering {cmd!r}{partial}")
            if len(self._buffer) > MAX_LINE:
                self.kill()
                raise ProtocolViolation(f"answer to {cmd!r} is longer than {MAX_LINE} bytes")
        end = self._buffer.index(b"\n")
        raw = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        try:
            answer = _parse_answer(raw, cmd)
        except ProtocolViolation:
            self.kill()
            raise
        if not isinstance(answer, dict):
            self.kill()
            raise ProtocolViolation(f"answer to {cmd!r} is not a JSON object: {_short(raw)}")
        if self._buffer.strip():
            extra = bytes(self._buffer)
            self.kill()
            raise ProtocolViolation(f"engine wrote more than one line for {cmd!r}: extra {_short(extra)}")
        return answer

    def _ready(self, timeout: float | None) -> bool:
        assert self._selector is not None
        return bool(self._selector.select(timeout))

    def _read_available(self) -> bool:
        """Read what stdout has; False at end of file."""
        assert self._proc is not None and self._proc.stdout is not None
        try:
            data = os.read(self._proc.stdout.fileno(), 1 << 20)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not data:
            return False
        self._buffer += data
        return True

    def close(self, grace: float = 1.0) -> None:
        """Ask the engine to stop (``stop``), then end it if it does not exit in time."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                saved, self.timeout = self.timeout, grace
                try:
                    self.request({"cmd": "stop"})
                finally:
                    self.timeout = saved
                proc.wait(grace)
            except Exception:  # noqa: BLE001 - any failure to stop politely ends in kill()
                pass
        self.kill()

    def kill(self) -> None:
        """End the engine and its whole process group, stop the stderr reader, close every descriptor."""
        proc = self._proc
        if proc is None:
            return
        # The group is signalled even when the engine has exited: children it started may live on.
        if self._pgid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._pgid, signal.SIGKILL)
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        # Let the stderr thread read what the process wrote before it died; if something outside the
        # group still holds the pipe, stop the thread rather than leave it (and the descriptors) behind.
        thread = self._stderr_thread
        if thread is not None:
            thread.join(0.5)
            if thread.is_alive():
                self._stopping.set()
                with contextlib.suppress(OSError):
                    os.write(self._wake_w, b"q")
                thread.join(1.0)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.close()
        if self._selector is not None:
            self._selector.close()
        for fd in (self._wake_r, self._wake_w):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._wake_r = self._wake_w = -1
        self._proc = None
        self._pgid = None
        self._selector = None
        self._stderr_thread = None
        self._buffer = bytearray()
        _LIVE.discard(self)


_LIVE: set[SubprocessAdapter] = set()


def live_engines() -> frozenset[SubprocessAdapter]:
    """The subprocess adapters whose engine is started and not yet killed."""
    return frozenset(_LIVE)


def kill_engines_started_after(before: frozenset[SubprocessAdapter] = frozenset()) -> None:
    """Kill every engine process (and its group) started and not ended, except those in ``before``."""
    for adapter in list(_LIVE - before):
        with contextlib.suppress(Exception):
            adapter.kill()


def kill_all_engines() -> None:
    """Kill every engine process (and its group) this process started and has not yet ended."""
    kill_engines_started_after()


atexit.register(kill_all_engines)


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


# --------------------------------------------------------------------------- engine specs

REFERENCE_FACTORY = ("reference_engine.wire", "Session")

ENGINE_SPEC_HELP = """\
ENGINE is one of:
  reference                 the reference engine in this process
                            (python:reference_engine.wire:Session)
  reference-subprocess      the reference engine as a subprocess
                            (cmd:<this python> -m reference_engine)
  python:MODULE:FACTORY     in-process: FACTORY() returns an object whose
                            handle(message: dict) -> dict speaks the protocol.
                            This imports and runs MODULE's code inside the
                            runner with its rights: only for code you trust.
                            A hung or memory-hungry engine cannot be fully
                            contained in-process; cmd: can.
  cmd:COMMAND               a subprocess speaking line-delimited JSON;
                            COMMAND is split like a shell would (shlex) but
                            never run through a shell, e.g.
                            "cmd:node my-engine/adapter.js --fast".
                            It runs in its own process group (killed, children
                            too, on timeout, crash or end of run) with a
                            minimal environment (PATH, HOME, locale, TMPDIR,
                            PYTHONPATH, VIRTUAL_ENV); add more with
                            --engine-env NAME or --engine-env NAME=VALUE.
"""


@dataclass(frozen=True)
class EngineSpec:
    """A parsed ``--engine`` value."""

    text: str
    kind: str  # "python" | "cmd"
    module: str = ""
    factory: str = ""
    argv: tuple[str, ...] = ()

    env: tuple[str, ...] = ()  # more environment for a cmd: engine: NAME or NAME=VALUE (--engine-env)

    def make_adapter(self, timeout: float | None) -> Adapter:
        if self.kind == "python":
            return InProcessAdapter(self.module, self.factory, timeout)
        return SubprocessAdapter(list(self.argv), timeout, env=engine_environment(self.env))


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse an engine spec (see :data:`ENGINE_SPEC_HELP`); raise EngineSpecError if bad."""
    spec = text.strip()
    if spec == "reference":
        return EngineSpec(text, "python", *REFERENCE_FACTORY)
    if spec == "reference-subprocess":
        return EngineSpec(text, "cmd", argv=(sys.executable, "-m", "reference_engine"))
    if spec.startswith("python:"):
        rest = spec[len("python:"):]
        module, sep, factory = rest.rpartition(":")
        if not sep or not module or not factory:
            raise EngineSpecError(f"bad engine spec {text!r}: expected python:MODULE:FACTORY")
        if not all(p.isidentifier() for p in module.split(".") + factory.split(".")):
            raise EngineSpecError(f"bad engine spec {text!r}: {module!r} / {factory!r} is not a Python module / name")
        return EngineSpec(text, "python", module, factory)
    if spec.startswith("cmd:"):
        try:
            argv = shlex.split(spec[len("cmd:"):])
        except ValueError as exc:
            raise EngineSpecError(f"bad engine spec {text!r}: {exc}") from None
        if not argv:
            raise EngineSpecError(f"bad engine spec {text!r}: no command after cmd:")
        return EngineSpec(text, "cmd", argv=tuple(argv))
    raise EngineSpecError(
        f"bad engine spec {text!r}: expected reference, reference-subprocess, python:MODULE:FACTORY or cmd:COMMAND")
