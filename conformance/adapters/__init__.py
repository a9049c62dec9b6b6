"""Adapters: how the runner reaches an engine. One interface, three transports.

An :class:`Adapter` moves JSON-shaped messages; it knows nothing of their
meaning (the handshake and schema checks live in :mod:`conformance.engine`).

- :class:`InProcessAdapter` (``python:MODULE:FACTORY``): ``FACTORY()`` returns
  an object with ``handle(message: dict) -> dict``. Each request runs on a
  worker thread so that a hang becomes a timeout; stdout and stderr written
  during a request are captured as the engine's diagnostics.
- :class:`DirectAdapter` (``reference-direct``, or :meth:`EngineSpec.called_directly`):
  ``factory().handle`` called on the caller's thread, answers taken as they
  are (no JSON copies, no thread, no timeout): for the reference and its
  variants, which the fuzzer and the mutation report call most.
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

from .base import ENGINE_ENV_NAMES, MAX_DEPTH, MAX_LINE, Adapter, engine_environment, json_depth_problem
from .direct import DirectAdapter
from .inprocess import EngineStillRunning, InProcessAdapter
from .process import SubprocessAdapter, kill_all_engines, kill_engines_started_after, live_engines
from .spec import ENGINE_SPEC_HELP, REFERENCE_FACTORY, EngineSpec, object_spec, parse_engine_spec

__all__ = [
    "ENGINE_ENV_NAMES", "ENGINE_SPEC_HELP", "MAX_DEPTH", "MAX_LINE", "REFERENCE_FACTORY", "Adapter", "DirectAdapter",
    "EngineSpec",
    "EngineStillRunning", "InProcessAdapter", "SubprocessAdapter", "engine_environment", "json_depth_problem",
    "kill_all_engines", "kill_engines_started_after", "live_engines", "object_spec", "parse_engine_spec",
]
