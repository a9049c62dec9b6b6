"""``cmd:COMMAND``: an engine in its own process group, killed with its children whatever ends."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from typing import Any, NoReturn

from ..errors import EngineCrashed, EngineSpecError, EngineTimeout, ProtocolViolation
from .base import POLL_INTERVAL, Adapter, _parse_answer, _short, _StderrBuffer, engine_environment

MAX_ANSWER_BYTES = 4 * 1024 * 1024
"""The longest answer line taken from an engine by default. The reference's largest answer within its own
bounds (a ``batch`` of 10,000 answers) is about 3.2 MB, a whole game with every observation about 0.7 MB,
and any other answer a few kilobytes."""
MAX_ANSWER_ENV = "HAKKA_MAX_ANSWER_BYTES"
"""The environment variable that sets another bound (in bytes) for ``run``, ``fuzz`` and every tool."""


def max_answer_bytes() -> int:
    """The bound on one answer line: :data:`MAX_ANSWER_ENV` if set to a positive integer, else the default."""
    text = os.environ.get(MAX_ANSWER_ENV, "").strip()
    if not text:
        return MAX_ANSWER_BYTES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise EngineSpecError(f"{MAX_ANSWER_ENV}={text!r}: the bound on an answer line is a number of bytes above 0")
    return value

# --------------------------------------------------------------------------- subprocess


class SubprocessAdapter(Adapter):
    """An engine process speaking line-delimited JSON on stdin/stdout.

    ``env`` is the engine's whole environment; by default
    :func:`engine_environment` (a few harmless variables, never the runner's
    secrets). The engine runs in a process group of its own, which
    :meth:`kill` always signals, so children it started die with it.

    ``timeout`` is the time allowed for a whole answer line from the moment its
    request is written, however the bytes arrive (a trickle of small writes
    does not extend it); ``max_answer`` the longest answer line taken
    (default :func:`max_answer_bytes`): a longer one is a protocol error, read
    no further than the bound.
    """

    def __init__(self, argv: list[str], timeout: float | None = 10.0, cwd: str | None = None,
                 env: dict[str, str] | None = None, max_answer: int | None = None) -> None:
        if not argv:
            raise EngineSpecError("empty engine command")
        self.argv = list(argv)
        self.timeout = timeout
        self.max_answer = max_answer if max_answer is not None else max_answer_bytes()
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
        self._sent: tuple[Any, float | None] = (None, None)  # the cmd awaiting its answer, and its deadline

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
        self.send(message)
        return self.receive()

    def send(self, message: dict[str, Any]) -> None:
        """Write the request line; the time allowed for its answer starts now."""
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
        self._sent = (cmd, None if self.timeout is None else time.monotonic() + self.timeout)

    def receive(self) -> dict[str, Any]:
        """Read the answer to the request :meth:`send` wrote: one line, within the deadline and the size bound."""
        proc = self._proc
        if proc is None or self._selector is None:
            raise EngineCrashed("engine not started")
        cmd, deadline = self._sent
        end = self._await_line(proc, cmd, deadline)
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

    def _await_line(self, proc: subprocess.Popen[bytes], cmd: Any, deadline: float | None) -> int:
        """Read until the buffer holds a whole line; the index of its newline. One deadline for the whole line."""
        scanned = 0
        while True:
            end = self._buffer.find(b"\n", scanned)
            if end >= 0:
                if end > self.max_answer:
                    self._too_long(cmd)
                return end
            scanned = len(self._buffer)
            if scanned > self.max_answer:
                self._too_long(cmd)
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                # Time is up; an answer that came while the caller was busy still counts (read what is there).
                while self._buffer.find(b"\n") < 0 and len(self._buffer) <= self.max_answer and self._ready(0):
                    if not self._read_available():
                        break
                if self._buffer.find(b"\n") < 0:
                    self.kill()
                    raise EngineTimeout(f"no answer to {cmd!r} within {self.timeout:g} s"
                                        + (f" ({scanned} bytes of it had come)" if scanned else ""))
                continue
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

    def _too_long(self, cmd: Any) -> NoReturn:
        self.kill()
        raise ProtocolViolation(
            f"answer to {cmd!r} is longer than {self.max_answer} bytes, the runner's bound on one answer line "
            f"(set {MAX_ANSWER_ENV}=BYTES to raise it)")

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

