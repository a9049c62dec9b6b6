"""Comparing an engine's ``state`` with a step's expectations (spec/SCENARIOS.md).

Pure functions, no rules of the game. Whether an expectation is met is decided
in the forms of :mod:`conformance.normalize`, the one normaliser of a ``state``
answer that the fuzzer uses too: card lists as sets, legal actions as sets (a
discard option by its count and the set of ``from``), actions canonical, other
values exact; results and game records are compared as subsets; the events of
an action (capability ``events``) as text, in order. Each mismatch carries
readable diff lines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .normalize import Bad, action_form, card_form, discard_form, exact, round_form
from .notation import NotationError, action_cards, card_text, normalize_action


@dataclass(frozen=True)
class Mismatch:
    key: str
    diff: tuple[str, ...]
    fields: tuple[str, ...] = ()
    """For `result` and `game`: the fields that differ."""

    @property
    def rule_keys(self) -> tuple[str, ...]:
        """The keys of spec/expectations.yaml behind this mismatch (``result.deltas``, ``tricks``)."""
        return tuple(f"{self.key}.{f}" for f in self.fields) or (self.key.split(".")[0],)


def _fmt(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value else '""'
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


def _scalar(key: str, expected: Any, actual: Any) -> Mismatch | None:
    if exact(expected) == exact(actual):
        return None
    return Mismatch(key, (f"expected: {_fmt(expected)}", f"actual:   {_fmt(actual)}"))


def _card_set(value: Any, lists: bool = False) -> set[str] | None:
    form = card_form(value, lists=lists)
    return None if isinstance(form, Bad) else set(form)


def _cards_diff(key: str, expected: Any, actual: Any) -> Mismatch | None:
    exp, act = card_form(expected, lists=True), card_form(actual)
    if isinstance(exp, Bad) or isinstance(act, Bad):
        return _scalar(key, expected, actual)
    if exp == act:
        return None
    lines = []
    missing, extra = set(exp) - set(act), set(act) - set(exp)
    if missing:
        lines.append(f"missing: {card_text(list(missing))}")
    if extra:
        lines.append(f"extra:   {card_text(list(extra))}")
    lines.append(f"expected: {card_text(list(exp))}")
    lines.append(f"actual:   {card_text(list(act))}")
    return Mismatch(key, tuple(lines))


def _discard_allows(option: Mapping[str, Any] | None, action: str) -> bool:
    """Whether a concrete ``discard …`` is one of those the discard option stands for."""
    if not option:
        return False
    parsed = action_cards(action)
    if parsed is None or parsed[0] != "discard":
        return False
    chosen = parsed[1]
    pool = _card_set(option.get("from", ""))
    if pool is None or len(chosen) != option.get("count") or len(set(chosen)) != len(chosen):
        return False
    return all(c in pool for c in chosen)


def _legal_set(legal: Mapping[str, Any]) -> set[Any]:
    return {action_form(a) for a in legal.get("actions", [])}


def _discard_text(option: Mapping[str, Any] | None) -> str:
    if option is None:
        return "null"
    pool = card_form(option.get("from", ""))
    shown = option.get("from") if isinstance(pool, Bad) else card_text(list(pool))
    return f"{{count: {option.get('count')}, from: {shown}}}"


def _legal(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> Mismatch | None:
    lines = []
    exp_set, act_set = _legal_set(expected), _legal_set(actual)
    missing, extra = sorted(map(str, exp_set - act_set)), sorted(map(str, act_set - exp_set))
    if missing:
        lines.append("missing actions: " + "; ".join(missing))
    if extra:
        lines.append("extra actions:   " + "; ".join(extra))
    exp_d, act_d = expected.get("discard"), actual.get("discard")
    exp_form = discard_form(exp_d)
    if isinstance(exp_form, Bad) or exp_form != discard_form(act_d):
        lines.append(f"discard expected: {_discard_text(exp_d)}")
        lines.append(f"discard actual:   {_discard_text(act_d)}")
        if exp_d and act_d:
            e, a = _card_set(exp_d.get("from", "")) or set(), _card_set(act_d.get("from", "")) or set()
            if e - a:
                lines.append(f"discard from missing: {card_text(list(e - a))}")
            if a - e:
                lines.append(f"discard from extra:   {card_text(list(a - e))}")
    return Mismatch("legal", tuple(lines)) if lines else None


def _legal_includes(key: str, wanted: list[str], actual: Mapping[str, Any], include: bool) -> Mismatch | None:
    act_set = _legal_set(actual)
    option = actual.get("discard")
    wrong = []
    for action in wanted:
        norm = normalize_action(action)
        is_legal = norm in act_set or _discard_allows(option, norm)
        if is_legal != include:
            wrong.append(norm)
    if not wrong:
        return None
    label = "not legal but expected legal" if include else "legal but expected not legal"
    lines = [f"{label}: " + "; ".join(wrong),
             "legal actions: " + ("; ".join(sorted(act_set)) or "(none)"),
             f"discard option: {_discard_text(option)}"]
    return Mismatch(key, tuple(lines))


def _elders_membership(key: str, wanted: Any, actual: Any, include: bool) -> Mismatch | None:
    want = card_form(wanted, lists=True)
    have = _card_set(actual)
    if isinstance(want, Bad) or have is None:
        return _scalar(key, wanted, actual)
    wrong = [c for c in want if (c in have) != include]
    if not wrong:
        return None
    label = "not Elders but expected to be" if include else "Elders but expected not to be"
    return Mismatch(key, (f"{label}: {card_text(wrong)}", f"Elders: {card_text(list(have))}"))


def _subset(key: str, expected: Mapping[str, Any], actual: Any) -> Mismatch | None:
    if actual is None:
        return Mismatch(key, (f"expected: {_fmt_map(expected)}", "actual:   null"))
    if not isinstance(actual, Mapping):
        return Mismatch(key, (f"expected: {_fmt_map(expected)}", f"actual:   {_fmt(actual)}"))
    lines, fields = [], []
    for field, value in expected.items():
        if field not in actual:
            lines.append(f"{field}: expected {_fmt(value)}, absent from the engine's {key}")
        elif exact(actual[field]) != exact(value):
            lines.append(f"{field}: expected {_fmt(value)}, actual {_fmt(actual[field])}")
        else:
            continue
        fields.append(field)
    return Mismatch(key, tuple(lines), tuple(fields)) if lines else None


def _round(expected: Mapping[str, Any], state: Mapping[str, Any]) -> Mismatch | None:
    """The round in progress (defined in phase `playing` only): leader and plays, in order."""
    if state.get("phase") != "playing":
        return Mismatch("round", (f"`round` is defined in phase playing only, and the phase is "
                                  f"{_fmt(state.get('phase'))}: the scenario expects what the protocol leaves open",))
    actual = state.get("round")
    if not isinstance(actual, Mapping):
        return Mismatch("round", (f"expected: {_fmt_map(expected)}", f"actual:   {_fmt(actual)}"))
    if round_form(expected) == round_form(actual):
        return None
    return Mismatch("round", (f"expected: leader {expected['leader']}, plays {_plays_text(expected['plays'])}",
                              f"actual:   leader {actual.get('leader')}, plays {_plays_text(actual.get('plays', []))}"))


def _plays_text(plays: Any) -> str:
    return "[" + "; ".join(f"{p.get('seat')}: {p.get('action')}" for p in plays) + "]"


def _fmt_map(m: Mapping[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in m.items()) + "}"


def _hands(expected: Mapping[str, Any], actual: Any) -> Mismatch | None:
    lines: list[str] = []
    for seat_text, hand in sorted(expected.items()):
        seat = int(seat_text)
        have = actual[seat] if isinstance(actual, list) and seat < len(actual) else None
        m = _cards_diff(f"hands.{seat}", hand, have)
        if m:
            lines.extend(f"seat {seat} {line}" for line in m.diff)
    return Mismatch("hands", tuple(lines)) if lines else None


_OBSERVED_CARDS = ("hand", "elders")
_OPTIONAL_OBSERVED = ("legal", "result")
"""Observation fields an engine may leave out: compared only when both sides send them (spec/PROTOCOL.md)."""


def _history_entry(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    action = entry.get("action")
    if isinstance(action, str):
        try:
            action = normalize_action(action)
        except NotationError:
            pass
    return (entry.get("seat"), action, entry.get("count"))


def _observation(expected: Mapping[str, Any], actual: Any) -> Mismatch | None:
    """One seat's observation against a subset of its fields (OBS-1)."""
    seat = expected["seat"]
    key = f"observe.{seat}"
    if not isinstance(actual, Mapping):
        return Mismatch(key, (f"expected an observation, actual {_fmt(actual)}",))
    lines: list[str] = []
    for field, value in expected.items():
        if field == "seat":
            continue
        if field in _OPTIONAL_OBSERVED and field not in actual:
            continue
        have = actual.get(field)
        m: Mismatch | None
        if field == "legal" and value is not None:
            m = _legal(value, have if isinstance(have, Mapping) else {})
        elif field == "result" and value is not None:
            m = _subset(field, value, have)
        elif field in _OBSERVED_CARDS or (field == "dreamer_card" and value is not None):
            m = _cards_diff(field, value, have)
        elif field == "history":
            exp_h = [_history_entry(e) for e in value]
            act_h = [_history_entry(e) for e in have] if isinstance(have, list) else None
            m = None if exp_h == act_h else Mismatch(field, (f"expected: {value}", f"actual:   {have}"))
        else:
            m = _scalar(field, value, have)
        if m is not None:
            lines.extend(f"{field} {line}" for line in m.diff)
    return Mismatch(key, tuple(lines)) if lines else None


class _NotCompared:
    """The events of an engine that does not declare the `events` capability: not compared."""

    def __repr__(self) -> str:
        return "EVENTS_NOT_COMPARED"


EVENTS_NOT_COMPARED: Any = _NotCompared()
"""Pass as ``events`` to :func:`check_expectations` for an engine without the `events` capability."""


def events_mismatch(expected: list[str], actual: Any) -> Mismatch | None:
    """An `act` answer's ``events`` against a step's: the same texts in the same order (spec/PROTOCOL.md, "Events").

    The protocol fixes each event's text (canonical card lists, one space between
    words), so they are compared as text; the order is the order the rules made them.
    """
    if not isinstance(actual, list):
        return Mismatch("events", (f"expected: {_fmt(expected)}",
                                   "actual:   " + ("absent from the `act` answer, though the engine declares "
                                                   "the `events` capability" if actual is None else _fmt(actual))))
    if actual == expected:
        return None
    lines = [f"expected: {_fmt(expected)}", f"actual:   {_fmt(actual)}"]
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if e != a:
            lines.append(f"event {i + 1}: expected {e!r}, actual {a!r}")
            break
    else:
        shorter = "fewer" if len(actual) < len(expected) else "more"
        lines.append(f"{len(actual)} event(s), {shorter} than the {len(expected)} expected")
    return Mismatch("events", tuple(lines))


EVENTS_NOT_COMPARED_NOTE = "events not compared"


def events_not_compared_note(steps: int) -> str:
    """The reason a passed scenario carries when its `events` expectations were skipped (the closing line counts them)."""
    return (f"passed; {EVENTS_NOT_COMPARED_NOTE} at {steps} step(s): the engine does not declare "
            "the `events` capability")


_Check = Callable[[str, Any, Mapping[str, Any]], "Mismatch | None"]

_CHECKS: dict[str, _Check] = {
    "to_act": lambda k, v, st: _scalar(k, v, st.get(k)),
    "phase": lambda k, v, st: _scalar(k, v, st.get(k)),
    "privileged": lambda k, v, st: _scalar(k, v, st.get(k)),
    "tricks": lambda k, v, st: _scalar(k, list(v), st.get(k)),
    "legal": lambda k, v, st: _legal(v, st.get("legal") or {}),
    "legal_includes": lambda k, v, st: _legal_includes(k, v, st.get("legal") or {}, True),
    "legal_excludes": lambda k, v, st: _legal_includes(k, v, st.get("legal") or {}, False),
    "elders": lambda k, v, st: _cards_diff(k, v, st.get("elders")),
    "elders_include": lambda k, v, st: _elders_membership(k, v, st.get("elders"), True),
    "elders_exclude": lambda k, v, st: _elders_membership(k, v, st.get("elders"), False),
    "hands": lambda k, v, st: _hands(v, st.get("hands")),
    "result": lambda k, v, st: _scalar(k, None, st.get(k)) if v is None else _subset(k, v, st.get(k)),
    "game": lambda k, v, st: _scalar(k, None, st.get(k)) if v is None else _subset(k, v, st.get(k)),
    "round": lambda k, v, st: _round(v, st),
}
"""How each expectation key of spec/SCENARIOS.md is compared with `state`."""


def check_expectations(expect: Mapping[str, Any], state: Mapping[str, Any],
                       observations: Mapping[int, Any] | None = None,
                       events: Any = None) -> list[Mismatch]:
    """Every expectation of ``expect`` that ``state`` (and the seats' observations) does not meet.

    ``events`` is the step's `act` answer's ``events`` (None when absent), or
    :data:`EVENTS_NOT_COMPARED` for an engine that does not declare them.
    """
    out: list[Mismatch | None] = []
    for key, value in expect.items():
        if key == "events":
            if events is not EVENTS_NOT_COMPARED:
                out.append(events_mismatch(value, events))
        elif key == "observe":
            out.extend(_observation(entry, (observations or {}).get(entry["seat"])) for entry in value)
        elif key in _CHECKS:
            out.append(_CHECKS[key](key, value, state))
        else:  # the schema rules this out; kept so a new key is never silently ignored
            out.append(Mismatch(key, (f"the runner does not know the expectation {key!r}",)))
    return [m for m in out if m is not None]


def state_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Readable lines for the top-level fields of ``state`` that changed."""
    lines = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            lines.append(f"{key}: before {_fmt_json(before.get(key))}")
            lines.append(f"{' ' * len(key)}  after  {_fmt_json(after.get(key))}")
    return lines


def _fmt_json(value: Any) -> str:
    import json
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 400 else text[:400] + "…"
