"""The two engines a differential run talks to.

- :class:`Reference`: the reference engine in this process, called directly
  (``Session().handle``): the same dict-in/dict-out messages as any adapter,
  without threads or JSON copies, because it is called for every step.
- :class:`Candidate`: any engine, through the runner's own
  :class:`~conformance.engine.Engine` (handshake, restart after a crash) and
  adapters (in-process ``python:MODULE:FACTORY`` or a subprocess ``cmd:…``),
  so that the fuzzer reaches a third-party engine exactly as the runner does.

Schema validation of every answer costs about half a millisecond per
``state``; the fuzzer checks the shape of what it compares itself (a bad
shape is reported as a protocol error) and validates fully only when asked.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..adapters import Adapter, EngineSpec, InProcessAdapter, parse_engine_spec
from ..engine import Engine, EngineInfo, schema_reason
from ..errors import AdapterError, EngineCrashed, ProtocolViolation
from ..paths import default_spec_dir
from ..schemas import Schemas, load_schemas
from ..setups import with_seeds

Message = dict[str, Any]


class Reference:
    """The reference engine (or any object with ``handle``) called in-process."""

    def __init__(self, factory: Callable[[], Any] | None = None) -> None:
        if factory is None:
            from reference_engine.wire import Session

            factory = Session
        self.factory = factory
        self.session = factory()
        # Protocol 2 for its capabilities (`playout` among them); a reference speaking only 1 answers that.
        hello = self.session.handle({"cmd": "hello", "protocol": 2})
        if not hello.get("ok"):
            hello = self.session.handle({"cmd": "hello", "protocol": 1})
        self.info: Message = hello

    @property
    def playout(self) -> bool:
        """Whether the reference plays random hands itself (``batch`` with ``playout``): the fast path."""
        return "playout" in (self.info.get("capabilities") or ())

    def handle(self, message: Message) -> Message:
        if message.get("cmd") in ("start", "batch") and "setup" in message and self.info.get("protocol", 1) >= 2:
            # Protocol 2 takes seeds as decimal strings only (spec/PROTOCOL.md, Versions).
            message = {**message, "setup": with_seeds(message["setup"], lambda s: str(s) if type(s) is int else s)}
        answer: Message = self.session.handle(message)
        return answer

    def outcomes(self, refused_rules: list[str | None]) -> frozenset[str]:
        """The rule outcomes the reference's last hand reached (reference_engine.outcomes)."""
        hand = getattr(self.session, "hand", None)
        if hand is None or getattr(hand, "result", None) is None:
            return frozenset()
        from reference_engine.outcomes import hand_outcomes

        return hand_outcomes(hand, refused_rules)

    def outcome_classes(self, options: dict[str, str]) -> tuple[Any, ...]:
        """Every outcome class under ``options`` (reference_engine.outcomes)."""
        from reference_engine.outcomes import outcome_classes
        from reference_engine.profile import Profile

        return outcome_classes(Profile.from_options(options))


class ObjectAdapter(InProcessAdapter):
    """An in-process adapter around a Python callable rather than a ``module:factory`` name.

    Lets tests and the mutant catalogue fuzz an engine object without making
    it importable by name; everything else (worker thread, timeout, JSON
    copies, crash capture) is the runner's :class:`InProcessAdapter`.
    """

    def __init__(self, factory: Callable[[], Any], timeout: float | None = 10.0, label: str | None = None) -> None:
        name = label or getattr(factory, "__qualname__", None) or repr(factory)
        super().__init__("<object>", name, timeout)
        self._factory = factory
        self._label = label or f"python-object:{name}"

    @property
    def label(self) -> str:
        return self._label

    def _resolve_factory(self) -> Callable[[], Any]:
        return self._factory


class _Direct(InProcessAdapter):
    """A Python engine whose answers are compared as they are: no JSON copies either way.

    The fast path for an in-process candidate (``reference``, ``python:…``, a
    mutant factory). It still runs in the runner's worker thread with the
    timeout, an exception is still a crash, and an answer must still be a
    dict; what it gives up is the check that the answer is JSON data and the
    isolation from a candidate that keeps and changes what it was sent
    (``--isolate`` restores both). With no timeout (``--timeout 0``) it does
    not need the worker thread either, and calls the engine in this thread.
    """

    def _call(self, fn: Callable[[], Any], what: str) -> Any:
        if self.timeout is not None:
            return super()._call(fn, what)
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - an engine exception is a crash of the candidate
            self._stderr.write("".join(traceback.format_exception(exc)))
            self._session = None
            raise EngineCrashed(f"{what} raised {type(exc).__name__}: {exc}") from None

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        session = self._session
        if session is None:
            raise EngineCrashed("engine not started")
        answer = self._call(lambda: session.handle(message), f"handle({message.get('cmd')!r})")
        if not isinstance(answer, dict):
            self._session = None
            raise ProtocolViolation(f"answer to {message.get('cmd')!r} is not a JSON object: {answer!r:.200}")
        return answer


class DirectAdapter(_Direct, ObjectAdapter):
    """A Python engine object from a factory callable, called directly (see :class:`_Direct`)."""


class DirectNamedAdapter(_Direct):
    """A ``python:MODULE:FACTORY`` engine called directly (see :class:`_Direct`)."""


CandidateLike = "str | EngineSpec | Callable[[], Any] | Engine"


class Candidate:
    """The engine under test, restarted after any failure.

    ``call`` returns the engine's answer or raises
    :class:`~conformance.errors.AdapterError` (crash, timeout, protocol
    violation); the next call starts a fresh engine process or object.
    """

    def __init__(self, engine: Engine, validate: bool = False) -> None:
        self.engine = engine
        self.validate = validate
        self.restarts = 0

    @property
    def label(self) -> str:
        return self.engine.label

    @property
    def info(self) -> EngineInfo:
        return self.engine.ensure_started()

    @property
    def capabilities(self) -> tuple[str, ...]:
        return self.info.capabilities

    def call(self, message: Message) -> Message:
        """One request; raises AdapterError on a crash, a hang or a bad answer."""
        self.send(message)
        return self.receive(message)

    def send(self, message: Message) -> None:
        """Send one request (its seeds as the engine's protocol version wants them) without waiting."""
        engine = self.engine
        if not (engine.adapter.alive and engine.info is not None):
            if engine.info is not None:
                self.restarts += 1
            engine.ensure_started()
        try:
            engine.requests += 1
            engine.adapter.send(engine.outgoing(message))
        except AdapterError:
            engine.adapter.kill()
            raise

    def receive(self, message: Message) -> Message:
        """The answer to ``message``, sent by :meth:`send`; raises AdapterError as :meth:`call` does."""
        engine = self.engine
        try:
            answer = engine.adapter.receive()
        except AdapterError:
            engine.adapter.kill()
            raise
        if self.validate or not isinstance(answer.get("ok"), bool):
            self.check_schema(message["cmd"], answer)
        return answer

    def check_schema(self, cmd: str, answer: Any) -> None:
        """Raise ProtocolViolation (and stop the engine) if ``answer`` is not a valid answer to ``cmd``."""
        reason = schema_reason(self.engine.schemas, cmd, answer)
        if reason is not None:
            self.engine.adapter.kill()
            raise ProtocolViolation(f"invalid answer to {cmd!r}: {reason}")

    def take_stderr(self) -> str:
        return self.engine.take_stderr()

    def close(self) -> None:
        self.engine.close()


def default_schemas(spec_dir: Path | None = None) -> Schemas:
    return load_schemas((spec_dir or default_spec_dir()) / "schema")


def open_candidate(
    engine: Any,
    *,
    timeout: float | None = 10.0,
    validate: bool = False,
    schemas: Schemas | None = None,
    label: str | None = None,
    direct: bool = False,
) -> Candidate:
    """A :class:`Candidate` from an engine spec text, an :class:`EngineSpec`, an
    :class:`Engine`, an :class:`Adapter` or a zero-argument callable returning an
    object with ``handle(message) -> dict``.
    """
    if isinstance(engine, Candidate):
        return engine
    if isinstance(engine, Engine):
        return Candidate(engine, validate)
    schemas = schemas or default_schemas()
    adapter: Adapter | None = None
    if isinstance(engine, str):
        spec = parse_engine_spec(engine)
    elif isinstance(engine, EngineSpec):
        spec = engine
    elif isinstance(engine, Adapter):
        adapter = engine
        spec = EngineSpec(str(label or getattr(engine, "label", "adapter")), "python")
    elif callable(engine):
        adapter = (DirectAdapter if direct else ObjectAdapter)(engine, timeout, label)
        spec = EngineSpec(adapter.label, "python")
    else:
        raise TypeError(f"cannot make a candidate engine from {engine!r}")
    if direct and adapter is None and spec.kind == "python":
        adapter = DirectNamedAdapter(spec.module, spec.factory, timeout)
    return Candidate(Engine(spec, schemas, timeout, adapter=adapter), validate)
