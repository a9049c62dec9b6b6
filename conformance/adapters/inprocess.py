"""``python:MODULE:FACTORY``: an engine object in the runner's own process (see the package's docstring for what that can promise)."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

from ..errors import EngineCrashed, EngineTimeout, EngineUnavailable, ProtocolViolation
from .base import SessionAdapter, _clip, _parse_answer

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


class InProcessAdapter(SessionAdapter):
    """An engine object in this Python process: ``factory().handle(message) -> dict``.

    Messages are deep-copied through JSON both ways, so the engine sees exactly
    what a subprocess would and may return only JSON-shaped data. With a
    ``timeout`` each request runs on a worker thread, so a hang becomes a
    timeout; with ``timeout=None`` the engine is called directly on the
    caller's thread (faster, and nothing is bounded).
    """

    def __init__(self, module: str, factory: str, timeout: float | None = 10.0, *, copy: bool = True,
                 target: Callable[[], Any] | None = None, label: str | None = None) -> None:
        super().__init__(module, factory, target, label)
        self.timeout = timeout
        self.copy = copy
        """Copy every message through JSON both ways (the default); without, answers are taken as they are
        (faster; the engine may then return non-JSON data or keep and change what it was sent)."""
        self._worker: threading.Thread | None = None
        self._stuck: threading.Thread | None = None  # a worker that timed out and could not be stopped
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], queue.SimpleQueue[Any]] | None] = queue.SimpleQueue()

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

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if not self.copy:
            return self._handle(message, message)
        answer = self._handle(message, json.loads(json.dumps(message)))
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
        return copied  # type: ignore[no-any-return]  # a dict copied through JSON is a dict

    def close(self) -> None:
        self._session = None
        if self._worker is not None and self._worker.is_alive():
            self._jobs.put(None)
            self._worker.join(1.0)
            if self._worker.is_alive():  # still in the engine: try to stop it, as after a timeout
                self._abandon_worker()
        self._worker = None

