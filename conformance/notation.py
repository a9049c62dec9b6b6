"""Card and action notation (spec/README.md "Card notation", "Actions").

Only the *notation*: parsing card names (case-insensitive, short forms),
canonical order, and normalising action text so that two spellings of the same
action compare equal. No rule of the game is here.

>>> cards("s3 Sup4 z9 W")
['Sup3', 'Sup4', 'Zok9', 'WanSin']
>>> normalize_action("play  sup5 S4 Sup3")
'play Sup3 Sup4 Sup5'
"""

from __future__ import annotations

import re
from collections import Counter

SUITS = ("Sup", "Gon", "Zok", "Sin")
CANONICAL_DECK: tuple[str, ...] = tuple(f"{s}{n}" for s in SUITS for n in range(1, 10)) + ("WanSin",)
ORDER = {card: i for i, card in enumerate(CANONICAL_DECK)}
INITIAL_ELDERS = "Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin"
"""The default ``elders`` of a pattern scenario (spec/SCENARIOS.md)."""

VERBS_WITH_CARDS = ("play", "discard")
VERBS_ALONE = ("call", "pass", "claim", "continue", "tigers", "decline")
VERB_ORDER = ("call", "pass", "play", "discard", "claim", "continue", "tigers", "decline")
"""The verbs in the canonical order of actions (spec/README.md)."""

_SUIT_OF = {"sup": "Sup", "gon": "Gon", "zok": "Zok", "sin": "Sin",
            "s": "Sup", "g": "Gon", "z": "Zok", "n": "Sin"}
_CARD_RE = re.compile(r"^(sup|gon|zok|sin|s|g|z|n)([1-9])$")


class NotationError(ValueError):
    """Text that is not a card, card list or action."""


def card(token: str) -> str:
    """The canonical name of one card token."""
    t = token.strip().lower()
    if t in ("w", "wansin"):
        return "WanSin"
    m = _CARD_RE.match(t)
    if not m:
        raise NotationError(f"not a card: {token!r}")
    return f"{_SUIT_OF[m.group(1)]}{m.group(2)}"


def cards(text: str | list[str]) -> list[str]:
    """Canonical names of a space-separated card list (or a list of tokens), in the given order."""
    tokens = text.split() if isinstance(text, str) else [t for item in text for t in item.split()]
    return [card(t) for t in tokens]


def sort_cards(names: list[str]) -> list[str]:
    return sorted(names, key=ORDER.__getitem__)


def card_text(names: list[str] | Counter[str]) -> str:
    """Canonical text of a card collection, in canonical order."""
    if isinstance(names, Counter):
        names = list(names.elements())
    return " ".join(sort_cards(list(names)))


def card_multiset(text: str | list[str]) -> Counter[str]:
    return Counter(cards(text))


def normalize_action(text: str) -> str:
    """Canonical text of an action; text that does not parse is returned stripped.

    The cards of ``play``/``discard`` are a set, so they are put in canonical order.
    """
    parts = text.split()
    if not parts:
        return text.strip()
    verb = parts[0].lower()
    try:
        if verb in VERBS_ALONE and len(parts) == 1:
            return verb
        if verb in VERBS_WITH_CARDS and len(parts) > 1:
            return " ".join([verb] + sort_cards(cards(parts[1:])))
    except NotationError:
        pass
    return " ".join(parts)


def action_cards(text: str) -> tuple[str, list[str]] | None:
    """``(verb, cards)`` of a well-formed action, else ``None``."""
    parts = text.split()
    if not parts:
        return None
    verb = parts[0].lower()
    try:
        if verb in VERBS_ALONE and len(parts) == 1:
            return verb, []
        if verb in VERBS_WITH_CARDS and len(parts) > 1:
            return verb, cards(parts[1:])
    except NotationError:
        return None
    return None


def action_order_key(text: str) -> tuple[int, int, tuple[int, ...]] | None:
    """Where an action stands in the canonical order of actions (spec/README.md): its verb's place in
    :data:`VERB_ORDER`, then its number of cards, then its cards' canonical positions as a sequence
    (Sup1 is 0, WanSin 36); ``None`` for text that is not an action.

    >>> sorted(["play Gon9 Zok9 Sin9", "pass", "play Zok5 Zok6 Zok7", "play Sup5"], key=action_order_key)
    ['pass', 'play Sup5', 'play Gon9 Zok9 Sin9', 'play Zok5 Zok6 Zok7']
    """
    parsed = action_cards(text) if isinstance(text, str) else None
    if parsed is None:
        return None
    verb, names = parsed
    return VERB_ORDER.index(verb), len(names), tuple(sorted(ORDER[n] for n in names))


def out_of_order(actions: list[str]) -> tuple[str, str] | None:
    """The first two neighbours of ``actions`` not in the canonical order of actions (the earlier one
    listed first), or ``None`` when the list is in that order. Text that is not an action is left to
    the comparison of ``legal`` and never out of order here.

    >>> out_of_order(["call", "pass"]), out_of_order(["play Sup3 Sup4 Sup5", "play Sup3"])
    (None, ('play Sup3 Sup4 Sup5', 'play Sup3'))
    """
    keys = [action_order_key(a) for a in actions]
    for i in range(len(actions) - 1):
        a, b = keys[i], keys[i + 1]
        if a is not None and b is not None and a >= b:
            return actions[i], actions[i + 1]
    return None
