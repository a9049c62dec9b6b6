"""Running the corpus in several processes or shards.

``hakka-conformance run --jobs N`` runs the selected scenarios in N processes,
each with its own engine (started by the process; an engine is one
conversation), and reports the results in the order of the selection: the same
results as one process, durations aside. ``--shard I/N`` keeps every N-th
scenario of the selection starting at the I-th, so a CI matrix of N machines
runs the corpus once between them; ``hakka-conformance merge`` (:mod:`conformance.merge`) joins their
``--json`` reports (and the ``--report`` files of fuzz shards) into one.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from .engine import EngineInfo
from .errors import InputError
from .listeners import Listener
from .loader import Scenario
from .results import ERROR, Result
from .safety import Terminated, exit_status

PartRunner = Callable[[list[Scenario], Listener], object]
"""How a worker runs its part: the scenarios, and the listener that streams each one back.

:meth:`conformance.suite.Suite.run` hands one in (its own loop, for one engine from its spec), so
this module runs the one loop without knowing the suite, which imports it."""


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="run scenarios in N processes, each with its own engine (default 1; 0 = one per CPU)")
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="run only scenarios I, I+N, I+2N, … of the selection (0 <= I < N); "
                             "join the shards' --json reports with `hakka-conformance merge`")


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    index, sep, total = text.partition("/")
    try:
        i, n = int(index), int(total)
    except ValueError:
        i, n = -1, 0
    if not sep or n < 1 or not 0 <= i < n:
        raise InputError(f"--shard is I/N with 0 <= I < N (e.g. 0/4), not {text!r}")
    return i, n


def shard(selected: list[Scenario], text: str | None) -> list[Scenario]:
    """The scenarios of shard ``I/N``: every N-th of the selection, from the I-th."""
    parsed = parse_shard(text)
    return selected if parsed is None else selected[parsed[0]::parsed[1]]


def jobs_wanted(jobs: int) -> int:
    if jobs < 0:
        raise InputError(f"--jobs must be >= 0, not {jobs}")
    if jobs == 0:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not Linux
            return os.cpu_count() or 1
    return jobs


class _Stream(Listener):
    """In a worker: each scenario's start and result, sent to the main process as they happen."""

    def __init__(self, conn: Connection, index: Mapping[str, int]) -> None:
        self.conn = conn
        self.index = index

    def engine_started(self, info: EngineInfo) -> None:
        self.conn.send(("engine", info))

    def scenario_started(self, scenario: Scenario) -> None:
        self.conn.send(("started", self.index[scenario.id]))

    def scenario_finished(self, result: Result) -> None:
        self.conn.send(("result", self.index[result.id], result))


PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int, watch: int) -> None:
    """Make this worker end when the main process does, whatever ends it (even SIGKILL).

    Linux kills the worker itself (``PR_SET_PDEATHSIG``); everywhere, a thread waits
    on a pipe whose only writer is the main process and ends the worker at its EOF.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the main process is already gone
        os._exit(1)

    def watch_parent() -> None:
        with contextlib.suppress(OSError):
            os.read(watch, 1)  # returns at EOF: the main process has exited
        os._exit(1)

    threading.Thread(target=watch_parent, name="hakka-watch-parent", daemon=True).start()


STOP_SIGNALS = frozenset(s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                        if s is not None)
"""The signals that stop a worker: the first one raises in it, every later one is ignored."""
_Mask = set[int | signal.Signals]


class _StopOnce:
    """A worker's handler of :data:`STOP_SIGNALS`: the first signal raises ``KeyboardInterrupt``
    (:class:`Terminated` for SIGTERM/SIGHUP) and every later one does nothing.

    A signal to the whole group reaches a worker, and then the main process's
    ``terminate()`` sends it SIGTERM while it is still stopping; a second exception
    raised in its ``except`` clause (or in multiprocessing's exit code) escaped to
    ``Process._bootstrap``, which printed a traceback. Once stopping, nothing more is raised.
    """

    def __init__(self) -> None:
        self.stopping = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.stopping:
            return
        self.stopping = True
        raise KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def block_stop_signals() -> _Mask | None:
    """In the main process, before a fork: hold :data:`STOP_SIGNALS` pending (the worker inherits the
    mask), so that none lands in multiprocessing's bootstrap before the worker's handler is set."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def restore_signals(mask: _Mask | None) -> None:
    """Undo :func:`block_stop_signals` (in the main process after the fork, in the worker once its handlers are set)."""
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal held meanwhile is delivered now


def _worker(run_part: PartRunner, scenarios: list[Scenario], part: list[int], conn: Connection, parent: int,
            watch: tuple[int, int], mask: _Mask | None) -> None:
    # Forked with STOP_SIGNALS blocked: set the handler, then let a pending signal in, inside the try.
    stop = _StopOnce()
    for sig in STOP_SIGNALS:
        signal.signal(sig, stop)
    try:
        os.close(watch[1])  # only the main process may hold the writing end
        _die_with_parent(parent, watch[0])  # its thread keeps the signals blocked: they reach this one
        restore_signals(mask)
        index = {scenarios[i].id: i for i in part}
        run_part([scenarios[i] for i in part], _Stream(conn, index))
        stop.stopping = True  # a signal from here on (the run is over) is ignored
        conn.send(("done",))
    except KeyboardInterrupt as exc:  # SIGINT, SIGTERM or SIGHUP (the first one: later ones are ignored)
        os._exit(exit_status(exc))  # the engines are closed (Suite.run's finally); no traceback
    except (BrokenPipeError, EOFError):
        os._exit(1)  # the main process is gone


@dataclass
class _Worker:
    number: int
    process: BaseProcess
    conn: Connection
    part: list[int]
    running: int | None = None
    finished: bool = False


def _cause(worker: _Worker) -> str:
    worker.process.join(2.0)
    code = worker.process.exitcode
    if code is None:
        return "stopped answering"
    if code < 0:
        return f"was killed by {signal.Signals(-code).name}"
    if code > 128 and code - 128 in signal.valid_signals():
        return f"was stopped by {signal.Signals(code - 128).name}"
    return f"exited with status {code}"


def run_parallel(run_part: PartRunner, scenarios: list[Scenario], jobs: int, events: Listener,
                 fail_fast: bool = False) -> list[Result]:
    """Run ``scenarios`` in ``jobs`` forked workers; the results in the order of ``scenarios``.

    Each worker takes every ``jobs``-th scenario (so long and short areas are
    spread) and calls ``run_part`` on its part (which starts its own engine and runs :meth:`Suite.run`),
    sending each scenario's start and result back as it happens, so that the
    main process (and its listeners) holds every finished result at any time.
    A worker that dies leaves its unfinished scenarios as ``error`` results
    naming the cause; when the main process is interrupted, the results already
    sent are taken in, the workers are stopped, and ``KeyboardInterrupt``
    propagates. No worker outlives the main process.
    """
    parts = [p for p in (list(range(j, len(scenarios), jobs)) for j in range(jobs)) if p]
    ctx = multiprocessing.get_context("fork")
    results: dict[int, Result] = {}
    watch = os.pipe()
    workers: list[_Worker] = []
    try:
        for number, part in enumerate(parts):
            receiving, sending = ctx.Pipe(duplex=False)
            mask = block_stop_signals()
            try:
                process = ctx.Process(target=_worker, name=f"hakka-worker-{number}", daemon=True, args=(
                    run_part, scenarios, part, sending, os.getpid(), watch, mask))
                process.start()
            finally:
                restore_signals(mask)
            sending.close()
            workers.append(_Worker(number, process, receiving, part))
        os.close(watch[0])
        while not all(w.finished for w in workers):
            ready = wait([w.conn for w in workers if not w.finished])
            for worker in workers:
                if worker.conn in ready and _take(worker, scenarios, results, events) and fail_fast:
                    return [results[i] for i in sorted(results)]
    except KeyboardInterrupt:
        for worker in workers:  # what was sent before the interruption is kept
            with contextlib.suppress(Exception):
                while not worker.finished and worker.conn.poll(0):
                    _take(worker, scenarios, results, events, drain=False)
        raise
    finally:
        _stop(workers)
        with contextlib.suppress(OSError):
            os.close(watch[1])
        with contextlib.suppress(OSError):
            os.close(watch[0])
    return [results[i] for i in sorted(results)]


def _take(worker: _Worker, scenarios: list[Scenario], results: dict[int, Result], events: Listener,
          drain: bool = True) -> bool:
    """Take one message of ``worker``; True when it brought a result that fails the run."""
    try:
        message = worker.conn.recv()
    except (EOFError, OSError, pickle.UnpicklingError, AttributeError, ValueError, TypeError):
        message = ("gone",)
    if message[0] == "engine":
        events.engine_started(message[1])
        return False
    if message[0] == "started":
        worker.running = message[1]
        events.scenario_started(scenarios[message[1]])
        return False
    if message[0] == "result":
        index, result = message[1], message[2]
        results[index] = result
        worker.running = None
        events.scenario_finished(result)
        return bool(result.bad)
    worker.finished = True
    worker.conn.close()
    if message[0] == "done" or not drain:
        return False
    cause = _cause(worker)
    bad = False
    for i in worker.part:
        if i not in results:
            results[i] = _lost_result(worker, scenarios[i], i, cause)
            events.scenario_finished(results[i])
            bad = True
    return bad


def _lost_result(worker: _Worker, scenario: Scenario, index: int, cause: str) -> Result:
    """A scenario the worker did not finish: an ``error`` naming what became of the worker."""
    when = "while running this scenario" if worker.running == index else "before this scenario ran"
    return Result(id=scenario.id, status=ERROR, file=scenario.file, line=scenario.line, kind=scenario.kind,
                  area=scenario.area, clauses=scenario.clauses, tags=scenario.tags, at="worker",
                  reason=f"worker {worker.number} (pid {worker.process.pid}) {cause} {when}")


def _stop(workers: list[_Worker]) -> None:
    """Stop every worker still alive: SIGTERM (each closes its engine), then SIGKILL after a grace."""
    for worker in workers:
        if worker.process.is_alive():
            with contextlib.suppress(OSError):
                worker.process.terminate()
    deadline = time.monotonic() + 2.0
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.is_alive():
            with contextlib.suppress(OSError):
                worker.process.kill()
            worker.process.join(1.0)
        with contextlib.suppress(OSError):
            worker.conn.close()
