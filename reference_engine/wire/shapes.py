"""The shapes of protocol requests, as checks the standard library can run.

The engine has no JSON Schema library (standard library only), so each shape
of ``spec/schema/protocol/*.request.schema.json`` is written once here, as a
small combinator (:func:`obj`, :func:`array`, ...), and the command table
(:mod:`.commands`) names the shape of each request. Every check returns why a
value does not fit, or ``None``. tests/engine/test_wire.py checks them against
the schema files themselves: what a schema refuses is refused here, and what
it accepts is accepted.

A check takes the protocol version of the session, for the one shape that
differs between versions: a seed is a decimal string from version 2 on
(``common.schema.json#/$defs/decimalSeed``), and a JSON integer or a decimal
string in version 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeGuard

from ..cards import parse_card_index, words
from ..errors import MalformedError

Check = Callable[[Any, int], "str | None"]
"""``check(value, protocol) -> why value does not fit, or None``."""

MAX_SEED: Final = 2**64 - 1
_DECISION = re.compile(r"D[1-9][0-9]*\Z")
_OPTION = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]{0,19})\Z")


def is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(value, Mapping)``, a ``dict`` (every JSON object) told first: compiled, a test against an
    abstract class runs the interpreter's ``__instancecheck__``, a third of a fuzz campaign's engine time."""
    return type(value) is dict or isinstance(value, Mapping)


def is_int(value: Any) -> bool:
    """A JSON integer: not a bool, not a float (PROTOCOL.md: integers are written without a fraction)."""
    return isinstance(value, int) and not isinstance(value, bool)


def integer(what: str, minimum: int | None = None, maximum: int | None = None) -> Check:
    def check(value: Any, _protocol: int) -> str | None:
        if is_int(value) and (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
            return None
        bounds = f" {minimum}-{maximum}" if minimum is not None and maximum is not None else \
            f" of at least {minimum}" if minimum is not None else ""
        return f"{what} is an integer{bounds}, not {value!r}"
    return check


def boolean(value: Any, _protocol: int) -> str | None:
    return None if isinstance(value, bool) else f"expected true or false, not {value!r}"


def text(value: Any, _protocol: int) -> str | None:
    return None if isinstance(value, str) else f"expected a string, not {type(value).__name__}"


def enum(*values: str) -> Check:
    def check(value: Any, _protocol: int) -> str | None:
        return None if isinstance(value, str) and value in values else \
            f"expected {', '.join(values[:-1])} or {values[-1]}, not {value!r}"
    return check


def card_text(value: Any, _protocol: int) -> str | None:
    """Card text as a person may write it (common.schema.json#/$defs/anyCards): every word a card."""
    if not isinstance(value, str):
        return f"expected card text, not {type(value).__name__}"
    split = words(value)
    if not split:
        return "expected at least one card"
    for word in split:
        try:
            parse_card_index(word)
        except MalformedError as exc:
            return exc.message
    return None


def elders(value: Any, protocol: int) -> str | None:
    return None if value == "" else card_text(value, protocol)


def options(value: Any, _protocol: int) -> str | None:
    """common.schema.json#/$defs/options: decision IDs to option IDs."""
    if not is_mapping(value):
        return "options map decision IDs to option IDs"
    for decision, option in value.items():
        if not isinstance(decision, str) or not _DECISION.match(decision):
            return f"{decision!r} is not a decision ID (D1, D2, …)"
        if not isinstance(option, str) or not _OPTION.match(option):
            return f"{option!r} is not an option ID"
    return None


def seed(value: Any, protocol: int) -> str | None:
    """common.schema.json#/$defs/seed: at most 20 decimal digits (the bound 2^64-1 is D33's, a bad setup)."""
    if isinstance(value, str) and _DECIMAL.match(value):
        return None
    if protocol < 2 and is_int(value) and 0 <= value <= MAX_SEED:
        return None
    if protocol >= 2 and is_int(value):
        return f"a seed is a decimal string under protocol {protocol} (\"{value}\"), not a JSON integer"
    return f"a seed is a decimal string of at most 20 digits, not {value!r}"


def array(item: Check, what: str, min_items: int = 0, max_items: int | None = None) -> Check:
    def check(value: Any, protocol: int) -> str | None:
        if not isinstance(value, list):
            return f"{what} is a list, not {type(value).__name__}"
        if len(value) < min_items or (max_items is not None and len(value) > max_items):
            size = f"{min_items}" if max_items == min_items else f"at least {min_items}"
            return f"{what} is a list of {size}, not {len(value)}"
        for i, element in enumerate(value):
            problem = item(element, protocol)
            if problem:
                return f"[{i}]: {problem}"
        return None
    return check


def obj(fields: Mapping[str, Check], required: tuple[str, ...] = (), *, one_of: tuple[str, ...] = (),
        what: str = "an object", also: Callable[[Mapping[str, Any]], str | None] | None = None) -> Check:
    """An object of exactly ``fields`` (``additionalProperties: false``), ``required`` among them.

    ``one_of``: exactly one of these fields is there. ``also``: a last check of the whole object.
    """
    def check(value: Any, protocol: int) -> str | None:
        if not is_mapping(value):
            return f"expected {what}"
        problem = fields_problem(value, fields, required, protocol)
        if problem:
            return problem
        if one_of and sum(name in value for name in one_of) != 1:
            return f"{what} has exactly one of {', '.join(one_of[:-1])} or {one_of[-1]}"
        return also(value) if also else None
    return check


def fields_problem(message: Mapping[str, Any], fields: Mapping[str, Check], required: tuple[str, ...],
                   protocol: int) -> str | None:
    for name in message:
        if name not in fields:
            return f"unknown field {name!r}"
    for name in required:
        if name not in message:
            return f"missing field {name!r}"
    for name, check in fields.items():
        if name in message:
            problem = check(message[name], protocol)
            if problem:
                return f"{name}{'' if problem.startswith('[') else ': '}{problem}"
    return None


# ------------------------------------------------------------------ the shapes of common.schema.json

SEAT: Final = integer("a seat", 0, 3)
_HANDS: Final = array(card_text, "hands", 4, 4)
_DEAL_FIELDS: Final[dict[str, Check]] = {"hands": _HANDS, "deck": card_text, "seed": seed}
DEAL: Final = obj(_DEAL_FIELDS, one_of=("hands", "deck", "seed"), what="a deal")
HAND_SETUP: Final = obj({"dealer": SEAT, **_DEAL_FIELDS}, ("dealer",), one_of=("hands", "deck", "seed"),
                        what="a hand setup")
GAME_SETUP: Final = obj({"game": obj({"first_dealer": SEAT, "deals": array(DEAL, "deals", 1)},
                                     ("first_dealer", "deals"), what="a game")}, ("game",), what="a game setup")


def setup(value: Any, protocol: int) -> str | None:
    """``oneOf`` handSetup, gameSetup: an object with ``game`` is a game setup."""
    if is_mapping(value) and "game" in value:
        return GAME_SETUP(value, protocol)
    return HAND_SETUP(value, protocol)
