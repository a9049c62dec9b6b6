"""A guided campaign's lanes played in forked worker processes, every finished hand streamed back.

Each worker plays its share of the lanes (:func:`~conformance.fuzz.guided.play_lanes`)
on engines of its own and sends each hand's record over a pipe as soon as it
is settled, so that the parent always holds every finished hand: an
interrupted campaign (SIGINT, SIGTERM, to the parent or to the whole process
group) still reports them, marked incomplete. What may end a worker, and what
the campaign then does:

- the campaign ends normally: each worker says ``done`` and exits;
- the parent is interrupted or ends: every worker is terminated (SIGTERM, then
  SIGKILL), and a worker whose parent dies is sent SIGTERM by the kernel
  (``PR_SET_PDEATHSIG`` on Linux) and exits when it sees its parent gone: no
  worker outlives the parent;
- SIGINT or SIGTERM to a worker alone stops it (closing its engines), as it
  stops a ``run --jobs`` worker: it has died;
- a worker that dies (killed, stopped, crashed) ends the campaign at once: its
  unfinished lanes are reported as errored, named with how it died, the other
  workers are terminated and their unfinished lanes errored as ended by that
  death; the parent never waits on a dead worker, nor plays on without it.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from ..parallel import block_stop_signals, restore_signals
from .driver import Lockstep
from .guided import HandRecord, LaneResult, play_lanes, trim

MakeLockstep = Callable[[], tuple[Lockstep, Callable[[], None]]]
TERMINATE_GRACE = 2.0
"""Seconds a terminated worker has to close its engines before it is killed."""


def _die_with_parent(parent: int) -> None:
    """Have the kernel send SIGTERM to this process when its parent dies (Linux), and exit if it already has."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def _worker(make: MakeLockstep, campaign: tuple[int, int, int, tuple[str, ...]], lane_ids: list[int],
            stop: Any, conn: Connection, parent: int, mask: Any = None) -> None:
    def _terminated(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # once stopping, a later signal raises nothing more
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(128 + signum)  # unwinds: the engines of this worker are closed on the way out

    signal.signal(signal.SIGINT, _terminated)
    signal.signal(signal.SIGTERM, _terminated)
    restore_signals(mask)  # forked with the stop signals held: a pending one lands now, on these handlers
    _die_with_parent(parent)
    seed, hands, lanes, goals = campaign

    def send_hand(lane: LaneResult, record: HandRecord) -> None:
        found = (lane.found_at, lane.found, lane.choices) if lane.found_at == record.index else None
        conn.send(("hand", lane.lane, record, found))

    try:
        lockstep, close = make()
        try:
            play_lanes(lockstep, seed, hands, lanes, lane_ids, stop, goals=goals, on_hand=send_hand)
        finally:
            close()
        conn.send(("done", None, None, None))
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - told to the parent, which reports the lanes as errored
        with contextlib.suppress(Exception):
            conn.send(("error", None, f"{type(exc).__name__}: {exc}", None))
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def _how_it_died(process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"its worker process was killed by {signal.Signals(-code).name}"
    if code is not None and code > 128 and code - 128 in signal.valid_signals():
        return f"its worker process was stopped by {signal.Signals(code - 128).name}"
    return f"its worker process exited with status {code}"


def play_parallel(make: MakeLockstep, seed: int, hands: int, lanes: int, lane_ids: list[int], jobs: int,
                  goals: tuple[str, ...] = (), results: dict[int, LaneResult] | None = None,
                  progress: Callable[[int], None] | None = None) -> list[LaneResult]:
    """``play_lanes`` with the lanes spread over ``jobs`` forked processes (each opens its own engines).

    ``results`` is filled as hands arrive: what the caller keeps if the campaign is interrupted.
    """
    groups = [g for g in (lane_ids[j::jobs] for j in range(jobs)) if g]
    results = {} if results is None else results
    results.update({lane: LaneResult(lane) for lane in lane_ids})
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Value("q", hands)
    workers: dict[Connection, tuple[Any, list[int]]] = {}
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        for group in groups:
            reader, writer = ctx.Pipe(duplex=False)
            mask = block_stop_signals()  # none may land in multiprocessing's bootstrap, before _worker's handlers
            try:
                process = ctx.Process(target=_worker, args=(make, (seed, hands, lanes, goals), group, stop, writer,
                                                            os.getpid(), mask), daemon=True)
                process.start()
            finally:
                restore_signals(mask)
            writer.close()
            workers[reader] = (process, group)
        _collect(workers, results, progress)
    finally:
        _end(workers)
    return trim([results[lane] for lane in lane_ids])


def _collect(workers: dict[Connection, tuple[Any, list[int]]], results: dict[int, LaneResult],
             progress: Callable[[int], None] | None) -> None:
    """Read every worker's messages until each has said ``done``, failed, or died.

    The first worker to fail or die ends the campaign: the others are terminated,
    the hands they sent meanwhile are still taken in, and their unfinished lanes are errored.
    """
    open_readers = set(workers)
    ended: str | None = None  # once a worker has died: why the others' lanes did not finish
    while open_readers:
        ready = wait(list(open_readers), None if ended is None else TERMINATE_GRACE)
        if not ready:  # terminated workers that do not stop: _end kills them
            for late in open_readers:
                _errored(results, workers[late][1], ended or "")
            return
        for reader in ready:
            assert isinstance(reader, Connection)
            process, group = workers[reader]
            try:
                kind, lane, payload, found = reader.recv()
            except (EOFError, OSError, pickle.UnpicklingError, AttributeError, ValueError, TypeError):
                # the pipe closed (or broke) without `done`: the worker died
                process.join(TERMINATE_GRACE)
                why = ended or _how_it_died(process)
                _errored(results, group, why)
                open_readers.discard(reader)
                ended = ended or _ended_by(why, workers, open_readers)
                continue
            if kind == "hand":
                result = results[lane]
                result.hands.append(payload)
                if found is not None:
                    result.found_at, result.found, result.choices = found
                if progress is not None:
                    progress(payload.index)
            elif kind == "error":
                why = ended or f"its worker process failed: {payload}"
                _errored(results, group, why)
                open_readers.discard(reader)
                ended = ended or _ended_by(why, workers, open_readers)
            else:  # done
                for number in group:
                    results[number].done = True
                open_readers.discard(reader)


def _ended_by(why: str, workers: dict[Connection, tuple[Any, list[int]]], running: set[Connection]) -> str:
    """A worker has died: terminate the others (each closes its engines); why their lanes end unfinished."""
    for reader in running:
        with contextlib.suppress(OSError):
            workers[reader][0].terminate()
    return f"the campaign ended when another worker died ({why.removeprefix('its ')})"


def _errored(results: dict[int, LaneResult], group: list[int], why: str) -> None:
    for number in group:
        if not results[number].done:
            results[number].error = why


def _end(workers: dict[Connection, tuple[Any, list[int]]]) -> None:
    """Terminate every worker still running, kill those that do not stop, and reap them all."""
    processes = [process for process, _group in workers.values()]
    for process in processes:
        if process.is_alive():
            with contextlib.suppress(OSError):
                process.terminate()
    for process in processes:
        process.join(TERMINATE_GRACE)
        if process.is_alive():
            with contextlib.suppress(OSError):
                process.kill()
            process.join(TERMINATE_GRACE)
    for reader in workers:
        with contextlib.suppress(OSError):
            reader.close()
