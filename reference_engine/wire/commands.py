"""The one table of protocol commands (spec/PROTOCOL.md).

Each :class:`Command` row gives a request's name, the JSON Schemas of its
request and response, the shape the engine checks (:mod:`.shapes`), the
:class:`~.session.Session` method that answers it, the capability that
offers it, and the protocol versions that know it. A :class:`Feature` is an
optional part of a request with a capability of its own (``divide`` in
``count``, ``playout`` in ``batch``, a setup's ``hands``, ``deck``, ``seed``
or ``game``). Dispatch, request checks and the handshake's capability list
all derive from :data:`COMMANDS`; tests/engine/test_wire.py checks the table
against the schema files.

>>> [c.name for c in COMMANDS.values() if 1 not in c.versions]
['batch']
>>> capabilities(1)
('game', 'observe', 'pattern', 'count')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from . import shapes
from .shapes import Check

PROTOCOL_VERSIONS: Final = (1, 2, 3)
"""Every version of the protocol, oldest first: the reference speaks each, and the runner asks for the
newest first (:data:`conformance.ASKING_ORDER` is this list newest first)."""
PROTOCOL_VERSION: Final = PROTOCOL_VERSIONS[-1]
"""The newest version."""
SINCE_2: Final = frozenset(v for v in PROTOCOL_VERSIONS if v >= 2)
EVERY: Final = frozenset(PROTOCOL_VERSIONS)


@dataclass(frozen=True)
class Feature:
    """An optional part of a request that has a capability of its own."""

    capability: str
    present: Callable[[Mapping[str, Any]], bool]
    """Whether a (well-formed) request uses it."""
    versions: frozenset[int] = EVERY
    """The versions whose requests may use it."""
    declared: frozenset[int] = EVERY
    """The versions whose ``hello`` names it (protocol 1 had no word for a setup's form)."""


@dataclass(frozen=True)
class Command:
    """One request of the protocol."""

    name: str
    fields: Mapping[str, Check]
    required: tuple[str, ...]
    handler: str
    """The :class:`~.session.Session` method that answers it (by name: a subclass may override it)."""
    capability: str | None = None
    """``None``: every engine answers it (``hello``, ``start``, ``act``, ``state``, ``stop``)."""
    versions: frozenset[int] = EVERY
    features: tuple[Feature, ...] = ()
    also: Callable[[Mapping[str, Any]], str | None] | None = None
    """A check of the whole request beyond its fields (``pattern``'s two forms)."""
    checks: Mapping[str, Check] = field(init=False, repr=False, compare=False)
    """``fields`` and ``cmd``: every field of the request, made once (every request is checked)."""
    needed: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """``required`` and ``cmd``."""

    @property
    def request_schema(self) -> str:
        return f"{self.name}.request.schema.json"

    @property
    def response_schema(self) -> str:
        return f"{self.name}.response.schema.json"

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", {"cmd": shapes.text, **self.fields})
        object.__setattr__(self, "needed", ("cmd", *self.required))

    def problem(self, message: Mapping[str, Any], protocol: int) -> str | None:
        """Why ``message`` does not fit this command's request schema, or ``None``."""
        problem = shapes.fields_problem(message, self.checks, self.needed, protocol)
        if problem is None and self.also is not None:
            problem = self.also(message)
        return problem


def _pattern_form(message: Mapping[str, Any]) -> str | None:
    if "classify" in message:
        if any(k in message for k in ("current", "challenger")):
            return "classify is asked alone, without current or challenger"
        return None
    if not all(k in message for k in ("current", "challenger", "elders", "led")):
        return "a beats question needs current, challenger, elders and led"
    return None


def _deals(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    setup = message.get("setup")
    if not shapes.is_mapping(setup):
        return []
    return list(setup["game"]["deals"]) if "game" in setup else [setup]


def _setup_form(form: str) -> Feature:
    """A setup's form: protocol 1 took every form from every engine, and named only ``game``."""
    if form == "game":
        return Feature(form, lambda m: shapes.is_mapping(m.get("setup")) and "game" in m["setup"])
    return Feature(form, lambda m: any(form in deal for deal in _deals(m)), declared=SINCE_2)


_SETUP_FEATURES: Final = tuple(_setup_form(form) for form in ("hands", "deck", "seed", "game"))
_BATCH_STEP: Final = shapes.obj({"seat": shapes.SEAT, "action": shapes.text}, ("seat", "action"), what="a step")
_PLAYOUT: Final = shapes.obj({"choices": shapes.array(shapes.integer("a choice", 0), "choices"), "seed": shapes.seed},
                             what="a playout: choices and seed")

EVENTS: Final = Feature("events", lambda _message: False, versions=SINCE_2, declared=SINCE_2)
"""An answer's part with a capability of its own: an accepted ``act`` carries the move's events (spec/PROTOCOL.md,
"Events"). No request asks for it; a runner never requires it."""

COMMANDS: Final[Mapping[str, Command]] = {c.name: c for c in (
    Command("hello", {"protocol": shapes.integer("protocol", 1)}, ("protocol",), "_hello"),
    Command("start", {"setup": shapes.setup, "options": shapes.options}, ("setup",), "_start",
            features=_SETUP_FEATURES),
    Command("act", {"seat": shapes.SEAT, "action": shapes.text}, ("seat", "action"), "_act", features=(EVENTS,)),
    Command("state", {}, (), "_state"),
    Command("observe", {"seat": shapes.SEAT}, ("seat",), "_observe", capability="observe"),
    Command("pattern", {"options": shapes.options, "classify": shapes.card_text, "current": shapes.card_text,
                        "challenger": shapes.card_text, "elders": shapes.elders, "led": shapes.boolean}, (),
            "_pattern", capability="pattern", also=_pattern_form),
    Command("count", {"depth": shapes.integer("depth", 1), "divide": shapes.boolean}, ("depth",), "_count",
            capability="count",
            features=(Feature("divide", lambda m: m.get("divide") is True, versions=SINCE_2, declared=SINCE_2),)),
    Command("stop", {}, (), "_stop"),
    Command("batch", {"setup": shapes.setup, "options": shapes.options, "steps": shapes.array(_BATCH_STEP, "steps"),
                      "observe": shapes.enum("every", "last", "none"), "state": shapes.enum("every", "last"),
                      "playout": _PLAYOUT}, ("setup", "steps"), "_batch",
            capability="batch", versions=SINCE_2,
            features=(*_SETUP_FEATURES, Feature("playout", lambda m: "playout" in m, versions=SINCE_2,
                                                declared=SINCE_2))),
)}
"""Every request of the protocol, in the order of spec/PROTOCOL.md."""


CAPABILITY_ORDER: Final = ("hands", "deck", "seed", "game", "observe", "pattern", "count", "divide", "batch",
                           "playout", "events")
"""The capabilities in the order hello.response.schema.json lists them."""


def offered(protocol: int) -> tuple[str, ...]:
    """Every capability whose requests ``protocol`` has, declared in its ``hello`` or not (protocol 1 took
    hands, decks and seeds from every engine, and had no batch, playout or divide)."""
    named: set[str] = set()
    for command in COMMANDS.values():
        if protocol in command.versions and command.capability:
            named.add(command.capability)
        if protocol in command.versions:
            named.update(f.capability for f in command.features if protocol in f.versions)
    return tuple(c for c in CAPABILITY_ORDER if c in named)


def capabilities(protocol: int) -> tuple[str, ...]:
    """What the reference declares in ``hello`` under ``protocol``: every capability of the table it knows."""
    named: set[str] = set()
    for command in COMMANDS.values():
        if protocol in command.versions and command.capability:
            named.add(command.capability)
        named.update(f.capability for f in command.features if protocol in f.declared and protocol in f.versions)
    return tuple(c for c in CAPABILITY_ORDER if c in named)
