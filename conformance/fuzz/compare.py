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

STATE_FIELDS = ("phase", "to_act", "privileged", "hands", "elders", "tricks", "legal", "result")
"""The fields of ``state`` compared at every step: each is an expectation a scenario can hold."""

RESULT_FIELDS = ("end", "winner", "tricks", "dreamer_count", "deltas", "next_dealer", "counts")


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
    return tuple((f, _freeze(result.get(f, Bad("absent")))) for f in RESULT_FIELDS)


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def _exact(value: Any) -> Any:
    # bool is an int in Python: keep the type so that 0 != False.
    return (type(value).__name__, _freeze(value))


def state_form(state: Mapping[str, Any]) -> dict[str, Any]:
    """The comparable form of every field of :data:`STATE_FIELDS`."""
    hands = state.get("hands")
    if isinstance(hands, list) and len(hands) == 4:
        hands_form: Any = tuple(card_set(h) for h in hands)
    else:
        hands_form = Bad(hands)
    return {
        "phase": _exact(state.get("phase")),
        "to_act": _exact(state.get("to_act")),
        "privileged": _exact(state.get("privileged")),
        "hands": hands_form,
        "elders": card_set(state.get("elders")),
        "tricks": _exact(state.get("tricks")),
        "legal": legal_form(state.get("legal")),
        "result": result_form(state.get("result")),
    }


def state_differences(reference: Mapping[str, Any], candidate: Mapping[str, Any]) -> list[str]:
    """The fields of :data:`STATE_FIELDS` on which the two states disagree, in that order."""
    ref, cand = state_form(reference), state_form(candidate)
    return [f for f in STATE_FIELDS if ref[f] != cand[f]]


def differing_seats(reference: Mapping[str, Any], candidate: Mapping[str, Any]) -> list[int]:
    ref, cand = state_form(reference)["hands"], state_form(candidate)["hands"]
    if isinstance(ref, Bad) or isinstance(cand, Bad):
        return [0, 1, 2, 3]
    return [s for s in range(4) if ref[s] != cand[s]]


def differing_result_fields(reference: Any, candidate: Any) -> list[str]:
    if not isinstance(reference, Mapping) or not isinstance(candidate, Mapping):
        return list(RESULT_FIELDS)
    return [f for f in RESULT_FIELDS if _freeze(reference.get(f)) != _freeze(candidate.get(f, Bad("absent")))
            or type(reference.get(f)) is not type(candidate.get(f))]


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
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out)
        return
    if observation_form(a, key) != observation_form(b, key):
        out.append(path or "observation")
