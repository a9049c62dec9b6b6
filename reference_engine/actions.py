"""Actions and the compact form of the legal actions.

>>> a = Action.parse("play gon5 gon3 gon4")
>>> a
Action.parse('play Gon3 Gon4 Gon5')
>>> Action.parse(str(a)) == a
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Final

from .cards import FULL_DECK, Cards, indices, mask_text, parse_mask
from .errors import MalformedError

CALL: Final = "call"
PASS: Final = "pass"
PLAY: Final = "play"
DISCARD: Final = "discard"
CLAIM: Final = "claim"
CONTINUE: Final = "continue"
TIGERS: Final = "tigers"
DECLINE: Final = "decline"

VERBS_WITH_CARDS: Final = frozenset({PLAY, DISCARD})
VERBS: Final = (CALL, PASS, PLAY, DISCARD, CLAIM, CONTINUE, TIGERS, DECLINE)
_ORDER: Final = {verb: i for i, verb in enumerate(VERBS)}


def _problem(verb: object, mask: object) -> str | None:
    """Why ``(verb, mask)`` is not an action, or ``None``."""
    if not isinstance(verb, str) or verb not in _ORDER:
        return f"unknown verb {verb!r}; verbs: {', '.join(VERBS)}"
    if not isinstance(mask, int) or isinstance(mask, bool) or not 0 <= mask <= FULL_DECK:
        return f"{mask!r} is not a set of cards of the 37-card deck"
    if verb in VERBS_WITH_CARDS and not mask:
        return f"{verb!r} needs at least one card"
    if verb not in VERBS_WITH_CARDS and mask:
        return f"{verb!r} takes no cards"
    return None


class Action(tuple[str, int]):
    """A verb and, for ``play`` and ``discard``, a card mask; refuses anything else.

    >>> Action("play", 0)
    Traceback (most recent call last):
    ...
    reference_engine.errors.MalformedError: 'play <mask 0>': 'play' needs at least one card
    """

    __slots__ = ()

    def __new__(cls, verb: str, mask: int = 0) -> Action:
        problem = _problem(verb, mask)
        if problem is not None:
            raise MalformedError(problem, action=f"{verb} <mask {mask!r}>")
        return tuple.__new__(cls, (verb, mask))

    @classmethod
    def _trusted(cls, verb: str, mask: int) -> Action:
        """An action from values known to be valid (no checks: the discards of a discard option)."""
        return tuple.__new__(cls, (verb, mask))

    @property
    def verb(self) -> str:
        return self[0]

    @property
    def mask(self) -> int:
        return self[1]

    def __getnewargs__(self) -> tuple[str, int]:
        return (self[0], self[1])

    @classmethod
    def parse(cls, text: str) -> Action:
        words = text.split(None, 1)
        if not words:
            raise MalformedError("an empty action", action=text)
        verb = words[0].lower()
        if verb not in _ORDER:
            raise MalformedError(
                f"unknown verb {words[0]!r}; verbs: {', '.join(VERBS)}", action=text
            )
        rest = words[1] if len(words) > 1 else ""
        if verb in VERBS_WITH_CARDS:
            try:
                mask = parse_mask(rest)
            except MalformedError as exc:
                raise MalformedError(exc.message, rule=exc.rule, action=text) from None
            if not mask:
                raise MalformedError(f"{verb!r} needs at least one card", action=text)
            return cls(verb, mask)
        if rest.strip():
            raise MalformedError(f"{verb!r} takes no cards", action=text)
        return cls(verb)

    @property
    def cards(self) -> Cards:
        return Cards(self.mask)

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        """Canonical order: by verb, then fewer cards, then card order."""
        return (_ORDER[self.verb], self.mask.bit_count(), tuple(indices(self.mask)))

    def __str__(self) -> str:
        verb, mask = self
        # only play and discard have cards (a mask of 0 otherwise): see _problem
        return f"{verb} {mask_text(mask)}" if mask else verb

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """"Discard any ``count`` distinct cards of ``allowed``": one entry for up to 924 actions."""

    count: int
    allowed: int

    def allows(self, mask: int) -> bool:
        return mask.bit_count() == self.count and mask & ~self.allowed == 0

    def expand(self) -> Iterator[Action]:
        """Every concrete discard, in canonical order."""
        bits = [1 << i for i in indices(self.allowed)]
        for combo in combinations(bits, self.count):
            yield Action._trusted(DISCARD, sum(combo))

    def size(self) -> int:
        """How many concrete discards this option stands for."""
        return comb(self.allowed.bit_count(), self.count)

    def __str__(self) -> str:
        return f"discard any {self.count} of {mask_text(self.allowed)}"


class LegalActions:
    """The legal actions of one moment: concrete actions plus at most one discard option.

    Supports ``in`` for concrete actions (discards included), ``len`` (the
    number of concrete actions they stand for) and iteration over every
    concrete action.
    """

    __slots__ = ("actions", "discard", "_play_masks")

    def __init__(self, actions: tuple[Action, ...], discard: DiscardOption | None = None) -> None:
        self.actions = actions
        self.discard = discard
        self._play_masks: frozenset[Action] | None = None

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if action[0] == DISCARD and self.discard is not None and self.discard.allows(action[1]):
            return True
        actions = self.actions
        if len(actions) <= 16:  # a scan is quicker than building a set (and the engine's own actions are
            return action in actions  # the very objects listed, found by identity)
        if self._play_masks is None:
            self._play_masks = frozenset(actions)
        return action in self._play_masks

    def __iter__(self) -> Iterator[Action]:
        yield from self.actions
        if self.discard is not None:
            yield from self.discard.expand()

    def __len__(self) -> int:
        return len(self.actions) + (self.discard.size() if self.discard else 0)

    def __bool__(self) -> bool:
        return bool(self.actions) or self.discard is not None

    def sorted(self) -> list[Action]:
        """The concrete actions (without the discard option) in canonical order."""
        return sorted(self.actions, key=Action.sort_key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return set(self.actions) == set(other.actions) and self.discard == other.discard

    def __hash__(self) -> int:
        return hash((frozenset(self.actions), self.discard))

    def __repr__(self) -> str:
        shown = ", ".join(str(a) for a in self.sorted())
        extra = f"; {self.discard}" if self.discard else ""
        return f"<LegalActions [{shown}]{extra}>"
