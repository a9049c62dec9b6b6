"""Comparing two engines' answers, field by field, after normalisation.

Card lists are compared as sets, legal actions as sets (the discard option by
its count and the set of ``from``), actions by their canonical text. A value
whose shape is wrong normalises to a marker that never equals a good value,
so a malformed answer is a disagreement, never a crash of the fuzzer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..notation import NotationError, card_text, cards, normalize_action
from .fields import ABSENT, compared_fields


def state_fields() -> tuple[str, ...]:
    """The fields of ``state`` the protocol defines as required (spec/schema/protocol/state.response.schema.json)."""
    return compared_fields().state.required


def result_fields() -> tuple[str, ...]:
    """The fields of a hand result the protocol defines as required."""
    return compared_fields().result.required


class Bad:
    """A value that could not be normalised; equal only to an identical bad value."""

    __slots__ = ("raw",)

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bad) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(repr(self.raw))

    def __repr__(self) -> str:
        return f"Bad({self.raw!r})"


def card_set(text: Any) -> frozenset[str] | Bad:
    if not isinstance(text, str):
        return Bad(text)
    try:
        names = cards(text)
    except NotationError:
        return Bad(text)
    if len(set(names)) != len(names):
        return Bad(text)
    return frozenset(names)


def legal_form(legal: Any) -> tuple[frozenset[str], tuple[int, frozenset[str]] | None] | Bad:
    if not isinstance(legal, Mapping) or not isinstance(legal.get("actions"), list):
        return Bad(legal)
    actions = legal["actions"]
    if not all(isinstance(a, str) for a in actions):
        return Bad(legal)
    option = legal.get("discard")
    discard: tuple[int, frozenset[str]] | None = None
    if option is not None:
        if not isinstance(option, Mapping) or not isinstance(option.get("count"), int):
            return Bad(legal)
        pool = card_set(option.get("from"))
        if isinstance(pool, Bad):
            return Bad(legal)
        discard = (option["count"], pool)
    return frozenset(normalize_action(a) for a in actions), discard


def result_form(result: Any) -> Any:
    if result is None:
        return None
    if not isinstance(result, Mapping):
        return Bad(result)
    return tuple((f, _exact(result.get(f, ABSENT))) for f in result_fields())


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def _exact(value: Any) -> Any:
    # bool is an int in Python: keep the type so that 0 != False.
    return (type(value).__name__, _freeze(value))


def _hands_form(hands: Any) -> Any:
    if isinstance(hands, list) and len(hands) == 4:
        return tuple(card_set(h) for h in hands)
    return Bad(hands)


def _round_form(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return _exact(value)
    plays = value.get("plays")
    if isinstance(plays, list):
        plays = tuple((p.get("seat"), _action(p.get("action"))) if isinstance(p, Mapping) else Bad(p) for p in plays)
    return (_exact(value.get("leader")), plays)


def _game_form(value: Any) -> Any:
    if not isinstance(value, Mapping):
        return _exact(value)
    fields = compared_fields().game.required
    return tuple((f, tuple(result_form(r) for r in value[f]) if f == "results" and isinstance(value.get(f), list)
                  else _exact(value.get(f, ABSENT))) for f in fields)


def _action(value: Any) -> Any:
    if not isinstance(value, str):
        return Bad(value)
    try:
        return normalize_action(value)
    except NotationError:
        return Bad(value)


_FORMS: dict[str, Any] = {
    "hands": _hands_form,
    "elders": card_set,
    "legal": legal_form,
    "result": result_form,
    "round": _round_form,
    "game": _game_form,
}


def field_form(name: str, value: Any) -> Any:
    """The comparable form of one field of ``state`` (card lists as sets, actions canonical)."""
    if value is ABSENT:
        return value
    form = _FORMS.get(name)
    return _exact(value) if form is None else form(value)


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
    ref, cand = _hands_form(reference.get("hands")), _hands_form(candidate.get("hands"))
    if isinstance(ref, Bad) or isinstance(cand, Bad):
        return [0, 1, 2, 3]
    return [s for s in range(4) if ref[s] != cand[s]]


def differing_result_fields(reference: Any, candidate: Any) -> list[str]:
    if not isinstance(reference, Mapping) or not isinstance(candidate, Mapping):
        return list(result_fields())
    return [f for f in result_fields() if _exact(reference.get(f, ABSENT)) != _exact(candidate.get(f, ABSENT))]


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
    return _exact(value)


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
