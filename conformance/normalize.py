"""The comparable form of an engine's ``state`` answer: one normaliser for the runner and the fuzzer.

What the protocol leaves free is normalised away, and nothing else:

- a card list is a set (its order is free); the same card twice is no card list;
- an action is its canonical text (the cards of ``play``/``discard`` in canonical order);
- the legal list is a set of actions, and the discard option its count and the set of ``from``;
- every other value is exact, type included (``0`` is not ``false``, ``1`` not ``1.0``).

A value of the wrong shape normalises to :class:`Bad`, which equals only the
same bad value, so a malformed answer is a difference, never a crash. The
runner (:mod:`conformance.compare`) decides with these forms whether an
expectation is met, then words the diff; the fuzzer
(:mod:`conformance.fuzz.compare`) compares two engines' answers field by field
in the same forms.

>>> card_form("Gon2 Sup1") == card_form("S1 G2")
True
>>> legal_form({"actions": ["play Gon2 Sup1"], "discard": None}) == legal_form({"actions": ["play S1 G2"]})
True
>>> card_form("Sup1 Sup1"), exact(0) == exact(False)
(Bad('Sup1 Sup1'), False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .notation import NotationError, cards, normalize_action, sort_cards


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


class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()
"""A field the engine did not send: equal to nothing an engine can send."""


def card_form(value: Any, *, lists: bool = False) -> tuple[str, ...] | Bad:
    """A card list as its cards in canonical order (a set: the order given is free); :class:`Bad` for
    what is not a card list (``lists``: a list of card texts is one too, as in a scenario)."""
    if not isinstance(value, str) and not (lists and isinstance(value, list)
                                           and all(isinstance(v, str) for v in value)):
        return Bad(value)
    try:
        names = cards(value)
    except NotationError:
        return Bad(value)
    if len(set(names)) != len(names):
        return Bad(value)
    return tuple(sort_cards(names))


def action_form(value: Any) -> str | Bad:
    """An action as its canonical text."""
    if not isinstance(value, str):
        return Bad(value)
    try:
        return normalize_action(value)
    except NotationError:
        return Bad(value)


def discard_form(option: Any) -> tuple[int, frozenset[str]] | Bad | None:
    """The discard option of a legal list: its count and the set of ``from`` (None: no discard)."""
    if option is None:
        return None
    if not isinstance(option, Mapping) or type(option.get("count")) is not int:
        return Bad(option)
    pool = card_form(option.get("from"))
    if isinstance(pool, Bad):
        return Bad(option)
    return option["count"], frozenset(pool)


def legal_form(legal: Any) -> tuple[frozenset[str], tuple[int, frozenset[str]] | None] | Bad:
    """The legal list as a set of canonical actions and its discard option."""
    if not isinstance(legal, Mapping) or not isinstance(legal.get("actions"), list):
        return Bad(legal)
    actions = legal["actions"]
    if not all(isinstance(a, str) for a in actions):
        return Bad(legal)
    discard = discard_form(legal.get("discard"))
    if isinstance(discard, Bad):
        return Bad(legal)
    return frozenset(normalize_action(a) for a in actions), discard


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def exact(value: Any) -> Any:
    """A value compared exactly, its type included (bool is an int in Python: 0 != False here)."""
    return (type(value).__name__, _freeze(value))


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same, their types included at every depth (Python's ``==`` takes
    ``1``, ``1.0`` and ``True`` for one another; a JSON Schema does not)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def hands_form(hands: Any) -> tuple[tuple[str, ...] | Bad, ...] | Bad:
    """The four seats' hands, each a card set."""
    if isinstance(hands, list) and len(hands) == 4:
        return tuple(card_form(h) for h in hands)
    return Bad(hands)


def play_form(play: Any) -> Any:
    """One play of a round: its seat and its action, canonical."""
    if not isinstance(play, Mapping):
        return Bad(play)
    return exact(play.get("seat")), action_form(play.get("action"))


def round_form(value: Any) -> Any:
    """The round in play: its leader and its plays in order."""
    if not isinstance(value, Mapping):
        return exact(value)
    plays = value.get("plays")
    return (exact(value.get("leader")),
            tuple(play_form(p) for p in plays) if isinstance(plays, list) else Bad(plays))


def record_form(value: Any, fields: Sequence[str]) -> Any:
    """A hand result (or any record) by ``fields``, each exact (a missing one is :data:`ABSENT`)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        return Bad(value)
    return tuple((f, exact(value.get(f, ABSENT))) for f in fields)


def game_form(value: Any, fields: Sequence[str], result_fields: Sequence[str]) -> Any:
    """A game record by ``fields``, its ``results`` each a hand result by ``result_fields``."""
    if not isinstance(value, Mapping):
        return exact(value)
    return tuple((f, tuple(record_form(r, result_fields) for r in value[f])
                  if f == "results" and isinstance(value.get(f), list) else exact(value.get(f, ABSENT)))
                 for f in fields)


def field_form(name: str, value: Any, result_fields: Sequence[str], game_fields: Sequence[str]) -> Any:
    """The comparable form of one field of ``state``."""
    if value is ABSENT:
        return value
    if name == "hands":
        return hands_form(value)
    if name == "elders":
        return card_form(value)
    if name == "legal":
        return legal_form(value)
    if name == "result":
        return record_form(value, result_fields)
    if name == "round":
        return round_form(value)
    if name == "game":
        return game_form(value, game_fields, result_fields)
    return exact(value)
