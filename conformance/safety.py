"""Guards of the command line: option values, output paths, engine commands, signals.

Everything here runs *before* a run starts, so that a mistake costs nothing
(a bad ``--timeout``, an unwritable ``--json``), or wraps the run so that an
interruption still ends in a report and no engine left running.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .adapters import EngineSpec, kill_engines_started_after, live_engines
from .errors import InputError
from .paths import make_own_folder

MAX_TIMEOUT = 3600.0
"""Longest per-request timeout accepted (an hour): every request is bounded."""

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


def timeout_value(text: str) -> float:
    """argparse type of ``--timeout``: a finite number of seconds, > 0 and <= :data:`MAX_TIMEOUT`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}")
    return value


def positive_int(text: str) -> int:
    """argparse type of a count (``--hands``): an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def check_output_paths(paths: dict[str, Path | None]) -> None:
    """Refuse, before anything runs, output paths that are the same file or cannot be written.

    ``paths`` maps an option (``--json``) to its value. A file that does not
    exist yet is created to prove it can be, then removed.
    """
    problems: list[str] = []
    seen: dict[Path, str] = {}
    for option, path in paths.items():
        if path is None:
            continue
        resolved = path.resolve()
        if resolved in seen:
            problems.append(f"{option} {path}: the same file as {seen[resolved]}; give each report its own path")
            continue
        seen[resolved] = option
        problem = _writable_problem(path)
        if problem:
            problems.append(f"{option} {path}: {problem}")
    if problems:
        raise InputError(problems)  # type: ignore[arg-type]


def _writable_problem(path: Path) -> str | None:
    if path.is_dir():
        return "is a directory"
    existed = path.exists()
    created = False
    try:
        created = make_own_folder(path)
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return f"cannot be written ({exc.strerror or exc})"
    if not existed:
        with contextlib.suppress(OSError):
            path.unlink()
            if created:  # the run creates it again when it writes: nothing is left behind by a refusal
                path.parent.rmdir()
    return None


def check_writable_dir(option: str, path: Path) -> None:
    """Refuse a folder that cannot be created or written (``fuzz --out``); leave nothing behind."""
    created: list[Path] = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        created.append(probe)
        probe = probe.parent
    try:
        path.mkdir(parents=True, exist_ok=True)
        if not path.is_dir():
            raise InputError(f"{option} {path}: not a folder")
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise InputError(f"{option} {path}: not a writable folder ({exc.strerror or exc})") from None
    finally:
        for folder in created:  # deepest first: the run creates what it needs when it writes
            with contextlib.suppress(OSError):
                folder.rmdir()


def check_engine_command(spec: EngineSpec) -> None:
    """Refuse a ``cmd:`` engine whose program does not exist (bad input, exit 2), before running."""
    if spec.kind != "cmd" or not spec.argv:
        return
    program = spec.argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not Path(program).is_file():
            raise InputError(f"engine {spec.text!r}: {program}: no such file")
        if not os.access(program, os.X_OK):
            raise InputError(f"engine {spec.text!r}: {program}: not executable")
    elif shutil.which(program) is None:
        raise InputError(f"engine {spec.text!r}: {program!r} not found on PATH")


class Terminated(KeyboardInterrupt):
    """SIGTERM (or SIGHUP), raised in the main thread like Ctrl-C so that ``finally`` blocks run."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def signal_name(exc: BaseException) -> str:
    return signal.Signals(exc.signum).name if isinstance(exc, Terminated) else "SIGINT"


def exit_status(exc: BaseException) -> int:
    return 128 + exc.signum if isinstance(exc, Terminated) else EXIT_INTERRUPTED


@contextlib.contextmanager
def terminable() -> Iterator[None]:
    """Turn SIGTERM/SIGHUP into :class:`Terminated` while the block runs; on the way out, kill every
    engine process started in the block and still alive."""
    def _raise(signum: int, frame: object) -> None:
        raise Terminated(signum)

    before = live_engines()
    saved: dict[int, object] = {}
    for sig in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)):
        if sig is None:
            continue
        try:
            saved[sig] = signal.signal(sig, _raise)
        except ValueError:  # not the main thread: leave signals alone
            pass
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
        kill_engines_started_after(before)
