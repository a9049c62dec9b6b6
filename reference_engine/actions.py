"""Actions and the compact form of the legal actions.

>>> a = Action.parse("play gon5 gon3 gon4")
>>> a
Action.parse('play Gon3 Gon4 Gon5')
>>> Action.parse(str(a)) == a
True
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Final

from .cards import FULL_DECK, Cards, indices, mask_text, parse_mask, words
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


class Action:
    """A verb and, for ``play`` and ``discard``, a card mask; refuses anything else.

    A small immutable value (not a tuple: mypyc compiles no subclass of
    ``tuple``); it compares and hashes as its ``(verb, mask)`` and unpacks as
    them (``verb, mask = action``).

    >>> Action("play", 0)
    Traceback (most recent call last):
    ...
    reference_engine.errors.MalformedError: 'play <mask 0>': 'play' needs at least one card
    """

    __slots__ = ("verb", "mask", "_text")
    verb: str
    mask: int
    _text: str
    """Its text once :meth:`__str__` made it ("" before): it is written into every history an observation shapes."""

    def __init__(self, verb: object, mask: object = 0) -> None:
        # ``object``: a compiled build would refuse other types with a bare TypeError
        problem = _problem(verb, mask)
        if problem is not None:
            raise MalformedError(problem, action=f"{verb} <mask {mask!r}>")
        object.__setattr__(self, "verb", verb)  # __setattr__ below refuses every other change
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "_text", "")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.mask == self.mask and other.verb == self.verb

    def __hash__(self) -> int:
        return hash((self.verb, self.mask))

    def __iter__(self) -> Iterator[str | int]:
        yield self.verb
        yield self.mask

    def __reduce__(self) -> tuple[type[Action], tuple[str, int]]:
        return (Action, (self.verb, self.mask))

    @classmethod
    def parse(cls, text: object) -> Action:
        # ``object``: compiled, a ``str`` parameter would refuse ``None`` with a bare TypeError
        if not isinstance(text, str):
            raise MalformedError(f"an action is text, such as 'call' or 'play Sup3 Sup4 Sup5', not {text!r}")
        if cls is Action and type(text) is str:  # the texts of a hand's actions repeat (each act request parses one)
            action = _PARSED.get(text)
            if action is None:
                if len(_PARSED) >= 1 << 16:
                    _PARSED.clear()
                action = _PARSED[text] = cls._parse(text)
            return action
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Action:
        split = words(text)
        if not split:
            raise MalformedError("an empty action", action=text)
        verb = split[0].lower()
        if verb not in _ORDER:
            raise MalformedError(
                f"unknown verb {split[0]!r}; verbs: {', '.join(VERBS)}", action=text
            )
        rest = split[1:]
        if verb in VERBS_WITH_CARDS:
            try:
                mask = parse_mask(rest)
            except MalformedError as exc:
                raise MalformedError(exc.message, rule=exc.rule, action=text) from None
            if not mask:
                raise MalformedError(f"{verb!r} needs at least one card", action=text)
            return cls(verb, mask)
        if rest:
            raise MalformedError(f"{verb!r} takes no cards", action=text)
        return cls(verb)

    @property
    def cards(self) -> Cards:
        return Cards(self.mask)

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        """Canonical order: by verb, then fewer cards, then card order."""
        return (_ORDER[self.verb], self.mask.bit_count(), tuple(indices(self.mask)))

    def __str__(self) -> str:
        text = self._text
        if not text:
            # only play and discard have cards (a mask of 0 otherwise): see _problem
            text = f"{self.verb} {mask_text(self.mask)}" if self.mask else self.verb
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


_PARSED: dict[str, Action] = {}
"""Text → the action it reads as: :meth:`Action.parse`'s cache (successful parses only)."""
_PLAYS: dict[int, Action] = {}
_DISCARDS: dict[int, Action] = {}


def play_action(mask: int) -> Action:
    """The action ``play <mask>`` (cached: the plays of a hand repeat; their number is bounded by the
    patterns of the deck)."""
    action = _PLAYS.get(mask)
    if action is None:
        action = _PLAYS[mask] = Action(PLAY, mask)
    return action


def discard_action(mask: int) -> Action:
    """The action ``discard <mask>`` (cached: a search expands the same discards again and again)."""
    action = _DISCARDS.get(mask)
    if action is None:
        if len(_DISCARDS) >= 1 << 16:
            _DISCARDS.clear()
        action = _DISCARDS[mask] = Action(DISCARD, mask)
    return action


class DiscardOption:
    """"Discard any ``count`` distinct cards of ``allowed``": one entry for up to 924 actions.

    A small immutable value, like :class:`Action` (not a frozen dataclass: compiled, a
    dataclass's ``__init__`` stays interpreted, and a follower who cannot beat makes one
    at nearly every turn). It compares and hashes as its ``(count, allowed)``.

    >>> DiscardOption(2, 0b111)
    DiscardOption(count=2, allowed=7)
    """

    __slots__ = ("count", "allowed")
    count: int
    allowed: int

    def __init__(self, count: int, allowed: int) -> None:
        object.__setattr__(self, "count", count)  # __setattr__ below refuses every other change
        object.__setattr__(self, "allowed", allowed)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("DiscardOption is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiscardOption) and other.count == self.count and other.allowed == self.allowed

    def __hash__(self) -> int:
        return hash((self.count, self.allowed))

    def __reduce__(self) -> tuple[type[DiscardOption], tuple[int, int]]:
        return (DiscardOption, (self.count, self.allowed))

    def __repr__(self) -> str:
        return f"DiscardOption(count={self.count}, allowed={self.allowed})"

    def allows(self, mask: int) -> bool:
        return mask.bit_count() == self.count and mask & ~self.allowed == 0

    def expand(self) -> Iterator[Action]:
        """Every concrete discard, in canonical order."""
        bits = [1 << i for i in indices(self.allowed)]
        for combo in combinations(bits, self.count):
            yield discard_action(sum(combo))

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
        if action.verb == DISCARD and self.discard is not None and self.discard.allows(action.mask):
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

    def __reduce__(self) -> tuple[type[LegalActions], tuple[tuple[Action, ...], DiscardOption | None]]:
        # pickled and copied as its two values: compiled, pickle's default would call __init__ without them
        return (LegalActions, (self.actions, self.discard))

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
