"""An engine under test: an adapter plus the protocol rules common to every transport.

:class:`Engine` performs the ``hello`` handshake (protocol version check),
validates every response against its JSON Schema (compiled once), restarts the
adapter after any failure, and stops retrying after repeated start failures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reference_engine.wire.commands import offered

from . import ASKING_ORDER
from .adapters import Adapter, EngineSpec
from .errors import AdapterError, EngineUnavailable, ProtocolViolation
from .schemas import Schemas, best_errors, describe_error
from .setups import with_seeds
from .yamlsource import pointer_of

MAX_START_FAILURES = 3
V1_IMPLIED_CAPABILITIES = ("hands", "deck", "seed")
"""Protocol 1 had no word for these: every protocol-1 engine was sent hands, decks and seeds."""


@dataclass(frozen=True)
class EngineInfo:
    """What the engine said in ``hello``."""

    name: str
    version: str
    language: str | None
    protocol: int
    options: dict[str, str]
    configurable: bool
    capabilities: tuple[str, ...]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    follows: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Protocol 3's partial configurability: each decision named, every option the engine can follow."""

    def can_follow(self, decision: str, option: str, default: str | None) -> bool:
        """Whether the engine plays ``decision`` by ``option`` when asked (``default``: the spec's)."""
        if self.configurable or option in self.follows.get(decision, ()):
            return True
        own = self.options.get(decision) or default
        return own is None or own == option

    @property
    def takes_options(self) -> bool:
        """Whether ``start`` and ``pattern`` may carry ``options`` (all of them, or some decisions')."""
        return self.configurable or bool(self.follows)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "language": self.language,
                "protocol": self.protocol, "options": self.options, "configurable": self.configurable,
                "capabilities": list(self.capabilities)}


def schema_reason(schemas: Schemas, cmd: str, response: Any, variant: str | None = None) -> str | None:
    """Why ``response`` is not a valid answer to ``cmd``, or ``None`` when it is."""
    errors = best_errors(schemas.response_errors(cmd, response, variant))
    if not errors:
        return None
    parts = []
    for error in errors[:3]:
        where = pointer_of(list(error.absolute_path)) or "/"
        parts.append(f"{where}: {describe_error(error)}")
    more = f" (+{len(errors) - 3} more)" if len(errors) > 3 else ""
    return "; ".join(parts) + more


class Engine:
    """One engine for a whole run: started lazily, restarted after failures."""

    def __init__(self, spec: EngineSpec, schemas: Schemas, timeout: float | None = 10.0,
                 adapter: Adapter | None = None, validate: bool = True) -> None:
        self.spec = spec
        self.schemas = schemas
        self.validate = validate
        """Check every answer against its schema; only an engine known to answer in the
        reference's own shapes (a variant of it) may skip this, to save time."""
        self.adapter = adapter or spec.make_adapter(timeout)
        self.info: EngineInfo | None = None
        self.starts = 0
        self.start_failures = 0
        self.last_start_failure = ""
        self.last_start_status = "error"
        self.requests = 0
        self.restarts = 0
        """Starts after the first: each follows a failure (a crash, a hang, a broken answer)."""

    @property
    def label(self) -> str:
        return self.spec.text

    @property
    def alive(self) -> bool:
        """Whether the engine is started (the handshake done) and usable."""
        return self.adapter.alive and self.info is not None

    def ensure_started(self) -> EngineInfo:
        """Start the engine and shake hands if needed. Raises AdapterError on failure."""
        if self.adapter.alive and self.info is not None:
            return self.info
        if self.start_failures >= MAX_START_FAILURES:
            unavailable = EngineUnavailable(
                f"engine failed to start {self.start_failures} times in a row; not retried "
                f"(last: {self.last_start_failure})")
            unavailable.status = self.last_start_status  # a hang stays a timeout, a crash an error
            raise unavailable
        try:
            self.adapter.start()
            self.starts += 1
            if self.info is not None:
                self.restarts += 1
            self.info = self._handshake()
        except AdapterError as exc:
            self.start_failures += 1
            self.last_start_failure = str(exc)
            self.last_start_status = exc.status
            self.adapter.kill()
            raise type(exc)(f"engine start failed: {exc}") from None
        self.start_failures = 0
        return self.info

    def _handshake(self) -> EngineInfo:
        """``hello`` for the newest version first; an engine that refuses it is asked for the next."""
        for version in ASKING_ORDER:
            self.requests += 1
            answer = self.adapter.request({"cmd": "hello", "protocol": version})
            refused = answer.get("ok") is False and isinstance(answer.get("error"), dict) \
                and answer["error"].get("kind") == "unsupported"
            if not refused:
                return self._engine_info(answer, version)
        raise ProtocolViolation(
            f"the engine refused every protocol version the runner speaks ({', '.join(map(str, ASKING_ORDER))})")

    def _engine_info(self, answer: dict[str, Any], asked: int) -> EngineInfo:
        # The version first: another version may well have another message shape.
        if answer.get("ok") is True and answer.get("protocol") not in ASKING_ORDER:
            raise ProtocolViolation(
                f"engine speaks protocol {answer.get('protocol')!r}; the runner speaks "
                f"{' or '.join(map(str, ASKING_ORDER))}")
        if answer.get("ok") is True and answer.get("protocol") in ASKING_ORDER:
            asked = answer["protocol"]  # an engine of an older version may answer with its own
        reason = schema_reason(self.schemas, "hello", answer)
        if reason is not None:
            raise ProtocolViolation(f"invalid answer to 'hello': {reason}")
        if answer["ok"] is False:
            err = answer["error"]
            raise ProtocolViolation(f"hello refused: {err['kind']}: {err['message']}")
        engine = answer["engine"]
        configurable = answer["configurable"]
        if not isinstance(configurable, bool) and answer["protocol"] < 3:
            raise ProtocolViolation(f"invalid answer to 'hello': configurable is true or false under protocol "
                                    f"{answer['protocol']}; a map of decisions to options is protocol 3's")
        capabilities = tuple(answer["capabilities"])
        if asked == 1:
            capabilities += tuple(c for c in V1_IMPLIED_CAPABILITIES if c not in capabilities)
        # A capability whose requests the version does not have (batch under protocol 1) is never used.
        known = offered(answer["protocol"])
        capabilities = tuple(c for c in capabilities if c in known or c.startswith("x-"))
        return EngineInfo(
            name=engine["name"], version=engine["version"], language=engine.get("language"),
            protocol=answer["protocol"], options=dict(answer["options"]),
            configurable=configurable is True, capabilities=capabilities, raw=answer,
            follows={} if isinstance(configurable, bool) else {d: tuple(o) for d, o in configurable.items()})

    def outgoing(self, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` with its setup's seeds as this engine's protocol sends them: integers under
        protocol 1, decimal strings under 2 (only integer seeds are turned into strings: a seed that is
        wrong on purpose is sent as it is)."""
        if message.get("cmd") not in ("start", "batch") or "setup" not in message or self.info is None:
            return message
        if self.info.protocol == 1:
            return {**message, "setup": with_seeds(message["setup"], int)}
        return {**message, "setup": with_seeds(message["setup"], lambda s: str(s) if type(s) is int else s)}

    def check_answer(self, cmd: str, answer: Any, variant: str | None = None) -> None:
        """Raise ProtocolViolation (and stop the engine) if ``answer`` is not a valid answer to ``cmd``."""
        reason = schema_reason(self.schemas, cmd, answer, variant)
        if reason is not None:
            self.adapter.kill()
            raise ProtocolViolation(f"invalid answer to {cmd!r}: {reason}")

    def send(self, message: dict[str, Any]) -> None:
        """Send one request (starting the engine if needed) without waiting for its answer: :meth:`receive`
        reads it, so that the caller may work meanwhile (a subprocess engine answers on its own core)."""
        self.ensure_started()
        self.requests += 1
        try:
            self.adapter.send(self.outgoing(message))
        except AdapterError:
            self.adapter.kill()
            raise

    def receive(self, message: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
        """The answer to ``message``, sent by :meth:`send`: schema-valid when :attr:`validate` is on, and
        in any case a JSON object with a boolean ``ok``. Raises AdapterError (the engine is then stopped)."""
        try:
            answer = self.adapter.receive()
        except AdapterError:
            self.adapter.kill()
            raise
        if self.validate or not isinstance(answer.get("ok"), bool):
            self.check_answer(message["cmd"], answer, variant)
        return answer

    def call(self, message: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
        """Send one request (starting the engine if needed) and return its schema-valid answer."""
        self.send(message)
        return self.receive(message, variant)

    def kill(self) -> None:
        """Stop the engine at once (after an answer the caller found broken); the next request restarts it."""
        self.adapter.kill()

    def take_stderr(self) -> str:
        return self.adapter.take_stderr()

    def close(self) -> None:
        self.adapter.close()

