"""Comparing two engines' answers, field by field, in the forms of :mod:`conformance.normalize`.

Card lists are compared as sets, legal actions as sets (the discard option by
its count and the set of ``from``), actions by their canonical text: the one
normaliser the runner uses too. A value whose shape is wrong normalises to a
marker that never equals a good value, so a malformed answer is a difference,
never a crash of the fuzzer (and, once its schema is checked, a protocol
error: conformance.fuzz.driver).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..compare import events_mismatch
from ..normalize import ABSENT, Bad, exact, hands_form
from ..normalize import field_form as _field_form
from ..notation import NotationError, card_text, cards, normalize_action
from .fields import compared_fields


def state_fields() -> tuple[str, ...]:
    """The fields of ``state`` the protocol defines as required (spec/schema/protocol/state.response.schema.json)."""
    return compared_fields().state.required


def result_fields() -> tuple[str, ...]:
    """The fields of a hand result the protocol defines as required."""
    return compared_fields().result.required


def field_form(name: str, value: Any) -> Any:
    """The comparable form of one field of ``state`` (card lists as sets, actions canonical)."""
    fields = compared_fields()
    return _field_form(name, value, fields.result.required, fields.game.required)


def state_form(state: Mapping[str, Any], fields: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The comparable form of each field of ``fields`` (default: the required fields of ``state``)."""
    return {f: field_form(f, state.get(f, ABSENT)) for f in (fields or state_fields())}


def state_differences(reference: Mapping[str, Any], candidate: Mapping[str, Any]) -> list[str]:
    """The defined fields of ``state`` on which the two states disagree, in schema order: every
    required field, and each optional one when both engines send it (conformance.fuzz.fields)."""
    fields = compared_fields().state.compared(dict(reference), dict(candidate))
    ref, cand = state_form(reference, fields), state_form(candidate, fields)
    return [f for f in fields if ref[f] != cand[f]]


def differing_seats(reference: Mapping[str, Any], candidate: Mapping[str, Any]) -> list[int]:
    ref, cand = hands_form(reference.get("hands")), hands_form(candidate.get("hands"))
    if isinstance(ref, Bad) or isinstance(cand, Bad):
        return [0, 1, 2, 3]
    return [s for s in range(4) if ref[s] != cand[s]]


def differing_result_fields(reference: Any, candidate: Any) -> list[str]:
    if not isinstance(reference, Mapping) or not isinstance(candidate, Mapping):
        return list(result_fields())
    return [f for f in result_fields() if exact(reference.get(f, ABSENT)) != exact(candidate.get(f, ABSENT))]


def observation_form(value: Any, key: str = "") -> Any:
    """A comparable form of an observation: card lists as sets, actions canonical,
    legal action lists as sets; everything else exact and in order."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, observation_form(v, k)) for k, v in value.items()))
    if isinstance(value, list):
        items = [observation_form(v) for v in value]
        if key == "actions":
            return ("set", frozenset(items))
        return tuple(items)
    if isinstance(value, str):
        normal = normalize_action(value)
        if normal.split(" ", 1)[0] in ("play", "discard"):
            return ("action", normal)
        try:
            names = cards(value) if value.strip() else []
        except NotationError:
            return ("text", value)
        return ("cards", card_text(names))
    return exact(value)


def observation_differences(reference: Any, candidate: Any, path: str = "") -> list[str]:
    """Paths (``history[3].action``) where two observations differ, at most a few."""
    out: list[str] = []
    _diff(reference, candidate, path, out)
    return out[:8]


def _diff(a: Any, b: Any, path: str, out: list[str], key: str = "") -> None:
    if len(out) >= 8:
        return
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in list(a) + [k for k in b if k not in a]:
            _diff(a.get(k, Bad("absent")), b.get(k, Bad("absent")), f"{path}.{k}" if path else str(k), out, k)
        return
    if isinstance(a, list) and isinstance(b, list) and key != "actions" and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{path}[{i}]", out)
        return
    if observation_form(a, key) != observation_form(b, key):
        out.append(path or "observation")


def event_differences(reference: Any, candidate: Any) -> list[str]:
    """Where two `act` answers' events part: the first differing event, or how many more or fewer."""
    found = events_mismatch(reference if isinstance(reference, list) else [], candidate)
    return [] if found is None else [" ".join(found.diff[-1].split())]


def observed_fields(answer: Any) -> Any:
    return answer.get("observation") if isinstance(answer, Mapping) and answer.get("ok") is True else None


def observation_field_differences(reference: Any, candidate: Any) -> list[str]:
    """The defined fields of two ``observe`` answers that differ (every required field, each optional
    field both send; see conformance.fuzz.fields), as paths such as ``history[3].action``."""
    ref, cand = observed_fields(reference), observed_fields(candidate)
    if not isinstance(cand, Mapping) or not isinstance(ref, Mapping):
        return [] if ref == cand else ["observation"]
    out: list[str] = []
    for f in compared_fields().observation.compared(dict(ref), dict(cand)):
        a, b = ref.get(f, ABSENT), cand.get(f, ABSENT)
        if a is ABSENT or b is ABSENT:
            if a is not b:
                out.append(f)
            continue
        if observation_form(a, f) != observation_form(b, f):
            found: list[str] = []
            _diff(a, b, f, found, f)
            out.extend(found or [f])
    return out[:8]
