"""The JSON Schemas of ``spec/schema/``, loaded once and compiled once.

They are the single source of the scenario format and of every protocol
message: the runner validates scenario files against ``scenario.schema.json``
and every engine response against ``protocol/<cmd>.response.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from reference_engine.wire.commands import COMMANDS

from .errors import InputError

PROTOCOL_COMMANDS = tuple(COMMANDS)
"""Every request of the protocol, from the one command table (:mod:`reference_engine.wire.commands`)."""


class Schemas:
    """Compiled validators for one ``spec/schema`` directory."""

    def __init__(self, schema_dir: Path) -> None:
        self.dir = schema_dir
        resources: list[tuple[str, Resource[Any]]] = []
        self._by_name: dict[str, dict[str, Any]] = {}
        files = sorted(schema_dir.glob("*.schema.json")) + sorted((schema_dir / "protocol").glob("*.schema.json"))
        if not (schema_dir / "scenario.schema.json").exists():
            raise InputError(f"{schema_dir}: no scenario.schema.json (is --spec pointing at the spec/ directory?)")
        for path in files:
            try:
                contents = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise InputError(f"{path}: cannot load JSON Schema: {exc}") from None
            rel = path.relative_to(schema_dir).as_posix()
            self._by_name[rel] = contents
            resources.append((contents.get("$id", path.resolve().as_uri()), Resource.from_contents(contents)))
        self.registry: Registry[Any] = Registry().with_resources(resources)
        self.scenario = self._validator("scenario.schema.json")
        self._responses: dict[tuple[str, str | None], Draft202012Validator] = {}
        self._requests: dict[str, Draft202012Validator] = {}
        for cmd, command in COMMANDS.items():
            self._responses[(cmd, None)] = self._validator(f"protocol/{command.response_schema}")
            self._requests[cmd] = self._validator(f"protocol/{command.request_schema}")
        for variant in ("classify", "beats"):
            self._responses[("pattern", variant)] = self._validator(
                "protocol/pattern.response.schema.json", f"#/$defs/{variant}")
        self.any_request = self._validator("protocol/request.schema.json")

    def _validator(self, name: str, fragment: str = "") -> Draft202012Validator:
        if name not in self._by_name:
            raise InputError(f"{self.dir / name}: JSON Schema not found")
        schema = self._by_name[name]
        if fragment:
            schema = {"$ref": schema["$id"] + fragment}
        base = self._by_name[name].get("$id", "")
        # Inline every $ref once, here: validating then needs no reference
        # resolution, which halves the cost of checking each engine answer.
        flat = _inline(schema, self.registry.resolver(base), 0)
        if isinstance(flat, dict):
            flat = {"$schema": "https://json-schema.org/draft/2020-12/schema", **flat}
        return Draft202012Validator(flat)

    def response_errors(self, cmd: str, response: Any, variant: str | None = None) -> Iterator[jsonschema.ValidationError]:
        errors: Iterator[jsonschema.ValidationError] = self._responses[(cmd, variant)].iter_errors(response)
        return errors

    def request_errors(self, request: Any) -> Iterator[jsonschema.ValidationError]:
        errors: Iterator[jsonschema.ValidationError] = self.any_request.iter_errors(request)
        return errors


_NOT_SCHEMAS = frozenset({"const", "enum", "x-error", "description", "title", "$comment", "required",
                          "dependentRequired", "examples", "default"})


def _inline(node: Any, resolver: Any, depth: int) -> Any:
    """``node`` with every ``$ref`` replaced by a copy of its target (the schemas are not recursive).

    ``{"$ref": r, ...siblings}`` becomes ``{"allOf": [target], ...siblings}``, which
    2020-12 defines as the same thing (``unevaluatedProperties`` sees through ``allOf``).
    """
    if depth > 64:
        raise InputError("JSON Schema references nest too deeply (a recursive schema?)")
    if isinstance(node, list):
        return [_inline(item, resolver, depth) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$ref", "$defs", "$id", "$schema"):
            continue
        if key in ("properties", "patternProperties", "dependentSchemas") and isinstance(value, dict):
            out[key] = {name: _inline(sub, resolver, depth) for name, sub in value.items()}
        elif key in _NOT_SCHEMAS:
            out[key] = value
        else:
            out[key] = _inline(value, resolver, depth)
    if "$ref" in node:
        resolved = resolver.lookup(node["$ref"])
        target = _inline(resolved.contents, resolved.resolver, depth + 1)
        if not out:
            return target
        out = {"allOf": [target], **out}
    return out


@lru_cache(maxsize=8)
def load_schemas(schema_dir: Path) -> Schemas:
    return Schemas(schema_dir)


_VERBS = ("call", "pass", "play", "discard", "claim", "continue", "tigers", "decline")
_CARD_HELP = "cards are Sup1..Sup9, Gon1..Gon9, Zok1..Zok9, Sin1..Sin9 and WanSin (short forms S9 G7 Z3 N1 W)"


def card_text_problem(text: str) -> str:
    """Name the words of a card list or action text that are not cards (spec/README.md notation)."""
    from .notation import NotationError, card

    def is_card(word: str) -> bool:
        try:
            card(word)
        except NotationError:
            return False
        return True

    if not text.strip():
        return "an empty card list"
    words = text.split()
    if words[0].lower() in _VERBS:
        words = words[1:]
    elif not is_card(words[0]) and len(words) > 1:
        return f"{text!r}: {words[0]!r} is not a verb (verbs are {', '.join(_VERBS)})"
    bad = [w for w in words if not is_card(w)]
    if bad:
        verb = "is" if len(bad) == 1 else "are"
        return f"{text!r}: {', '.join(repr(b) for b in bad)} {verb} not a card ({_CARD_HELP})"
    return f"{text!r} is not a valid action or card list: verbs are {', '.join(_VERBS)}; {_CARD_HELP}"


def describe_error(error: jsonschema.ValidationError) -> str:
    """A one-line message for a schema error, using the schema's ``x-error`` hints."""
    hints = error.schema.get("x-error") if isinstance(error.schema, dict) else None
    if isinstance(hints, dict) and error.validator in hints:
        return str(hints[error.validator])
    if error.validator == "pattern" and isinstance(error.schema, dict) and error.schema.get("x-card-text"):
        return card_text_problem(str(error.instance))
    if error.validator is None or (error.schema is False):
        key = error.path[-1] if error.path else "value"
        return f"`{key}` is not allowed here"
    message = str(error.message)
    if len(message) > 300:
        message = message[:300] + "…"
    return message


def best_errors(errors: Iterator[jsonschema.ValidationError]) -> list[jsonschema.ValidationError]:
    """The errors worth reporting: for each oneOf/anyOf, the most relevant branch error.

    jsonschema reports a failing ``oneOf`` as a single vague error; when one branch
    came close we report that branch's precise error instead.
    """
    out: list[jsonschema.ValidationError] = []
    for error in errors:
        hints = error.schema.get("x-error") if isinstance(error.schema, dict) else None
        if error.validator in ("oneOf", "anyOf") and error.context and not (isinstance(hints, dict) and error.validator in hints):
            out.append(jsonschema.exceptions.best_match(error.context) or error)
        else:
            out.append(error)
    # The same value may fail the same kind of check twice (a general rule and a
    # narrower one inside if/then): keep the narrower, deeper one.
    deepest: dict[tuple[Any, ...], jsonschema.ValidationError] = {}
    for error in out:
        if error.validator in ("enum", "const", "type", "pattern"):
            key = (tuple(error.absolute_path), error.validator)
            if key not in deepest or len(error.absolute_schema_path) > len(deepest[key].absolute_schema_path):
                deepest[key] = error
    return [e for e in out if e.validator not in ("enum", "const", "type", "pattern")
            or deepest[(tuple(e.absolute_path), e.validator)] is e]
