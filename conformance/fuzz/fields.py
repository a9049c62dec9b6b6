"""Which response fields the fuzzer compares: read from the protocol schemas, never typed here.

The protocol defines every field of every response as *required* or
*optional* (``spec/schema/protocol/*.response.schema.json``). Two engines are
compared on the fields the schemas define and on nothing else:

- a required field always (an engine that leaves it out disagrees);
- an optional field only when both engines send it;
- a field no schema defines (an engine's extra) never;
- a field whose schema says ``"x-compare": false`` never (defined, but not
  normative: compared by neither the runner nor the fuzzer), and one with
  ``"x-compare-when": {"phase": ["playing"]}`` only while the reference's
  answer has one of those values.

This module is the one place that list lives; when the schemas change, the
fuzzer follows.

>>> f = compared_fields()
>>> "phase" in f.state.required and "hand" in f.observation.required
True
>>> "end" in f.result.required
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..normalize import ABSENT
from ..paths import default_spec_dir

IGNORED = frozenset({"ok"})
"""Not a field of the answer's content: whether the request succeeded is compared on its own."""


@dataclass(frozen=True)
class FieldSet:
    """The fields one object of a response defines: required, then optional, in schema order."""

    required: tuple[str, ...]
    optional: tuple[str, ...]
    when: tuple[tuple[str, tuple[tuple[str, tuple[Any, ...]], ...]], ...] = ()
    """Fields compared only under conditions on the reference's answer (``x-compare-when``)."""

    def compared(self, a: Any, b: Any) -> tuple[str, ...]:
        """The fields to compare between ``a`` (the reference's) and ``b``: every required one,
        each optional one both hold, less those whose ``x-compare-when`` ``a`` does not meet."""
        both = tuple(f for f in self.optional if isinstance(a, dict) and isinstance(b, dict) and f in a and f in b)
        fields = self.required + both
        if self.when and isinstance(a, dict):
            skip = {f for f, conds in self.when if not all(a.get(k) in values for k, values in conds)}
            fields = tuple(f for f in fields if f not in skip)
        return fields


@dataclass(frozen=True)
class ComparedFields:
    state: FieldSet
    observation: FieldSet
    result: FieldSet
    game: FieldSet
    act: FieldSet


def _load(protocol_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((protocol_dir / name).read_text(encoding="utf-8"))
    return data


def _resolve(node: Any, protocol_dir: Path) -> Any:
    """Follow ``$ref``, ``allOf`` (first object branch) and ``oneOf``/``anyOf`` (the object branch)."""
    for _ in range(16):
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"]
            file, _sep, pointer = ref.partition("#")
            doc = _load(protocol_dir, Path(file).name) if file else None
            if doc is None:
                return node
            target: Any = doc
            for part in (p for p in pointer.split("/") if p):
                target = target[part]
            node = target
            continue
        if "properties" in node:
            return node
        for key in ("oneOf", "anyOf", "allOf"):
            branches = [b for b in node.get(key, ()) if not (isinstance(b, dict) and b.get("type") == "null")]
            if branches:
                node = branches[0]
                break
        else:
            return node
    return node


def _success(schema: dict[str, Any]) -> dict[str, Any]:
    """The success branch of a response schema (``else`` of its ``if ok is false``)."""
    branch = schema.get("else", schema)
    return branch if isinstance(branch, dict) else {}


def field_set(node: Any, protocol_dir: Path) -> FieldSet:
    node = _resolve(node, protocol_dir)
    if not isinstance(node, dict):
        return FieldSet((), ())
    props: dict[str, Any] = node.get("properties", {})
    skipped = {p for p, sub in props.items() if isinstance(sub, dict) and sub.get("x-compare") is False} | IGNORED
    required = [p for p in node.get("required", ()) if p not in skipped]
    optional = [p for p in props if p not in required and p not in skipped]
    when = tuple((p, tuple((k, tuple(v if isinstance(v, list) else [v])) for k, v in sub["x-compare-when"].items()))
                 for p, sub in props.items() if isinstance(sub, dict) and isinstance(sub.get("x-compare-when"), dict))
    return FieldSet(tuple(required), tuple(optional), when)


@lru_cache(maxsize=4)
def compared_fields(spec_dir: Path | None = None) -> ComparedFields:
    """The fields of ``state``, ``observe``, a hand result, a game and ``act`` that the schemas define."""
    protocol_dir = (spec_dir or default_spec_dir()) / "schema" / "protocol"
    state = _success(_load(protocol_dir, "state.response.schema.json"))
    observe = _success(_load(protocol_dir, "observe.response.schema.json"))
    act = _success(_load(protocol_dir, "act.response.schema.json"))
    props = state.get("properties", {})
    return ComparedFields(
        state=field_set(state, protocol_dir),
        observation=field_set(observe.get("properties", {}).get("observation", {}), protocol_dir),
        result=field_set(props.get("result", {}), protocol_dir),
        game=field_set(props.get("game", {}), protocol_dir),
        act=field_set(act, protocol_dir),
    )


__all__ = ["ABSENT", "ComparedFields", "FieldSet", "compared_fields", "project", "scenario_observe_fields"]


def project(value: Any, fields: FieldSet, other: Any) -> dict[str, Any]:
    """The defined part of ``value`` to compare against ``other`` (a missing required field is ``Absent``)."""
    if not isinstance(value, dict):
        return {"": value}
    return {f: value.get(f, ABSENT) for f in fields.compared(value, other)}


@lru_cache(maxsize=4)
def scenario_observe_fields(spec_dir: Path | None = None) -> frozenset[str]:
    """The observation fields a scenario's ``observe`` expectation can hold (spec/schema/scenario.schema.json)."""
    schema = json.loads(((spec_dir or default_spec_dir()) / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            observe = node.get("properties", {}).get("observe") if isinstance(node.get("properties"), dict) else None
            if isinstance(observe, dict) and isinstance(observe.get("items"), dict):
                found.update(p for p in observe["items"].get("properties", {}) if p != "seat")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return frozenset(found)
