"""Cards, card sets and their canonical text (CARDS-1..3).

A card is one of 37 values: four suits (Sup > Gon > Zok > Sin, CARDS-2) of
numbers 1-9, plus the suitless Wan Sin (CARDS-3). Internally a card is an index
0..36 in canonical order (Sup1..Sup9, Gon1..Gon9, Zok1..Zok9, Sin1..Sin9,
WanSin) and a set of cards is an ``int`` bitmask over those indices; the
:class:`Card` and :class:`Cards` value objects wrap them for the public API.

>>> Cards.parse("sup5 S3 Sup4")
Cards.parse('Sup3 Sup4 Sup5')
>>> str(Card.parse("W"))
'WanSin'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

from ._mypyc import i64
from .errors import MalformedError, SetupError

COMPILED: Final = not __file__.endswith(".py")
"""Is this the engine's compiled build (mypyc, setup.py) rather than the pure one? ``reference_engine.COMPILED``."""

SUITS: Final = ("Sup", "Gon", "Zok", "Sin")
"""Suit names, highest first (CARDS-2): suit index 0 is the highest."""

SHORT_SUITS: Final = ("S", "G", "Z", "N")
WAN_SIN: Final = 36
DECK_SIZE: Final = 37
FULL_DECK: Final = (1 << DECK_SIZE) - 1
SUIT_MASKS: Final = tuple(0x1FF << (9 * s) for s in range(4))
WAN_SIN_BIT: Final = 1 << WAN_SIN


def card_index(suit: int, number: int) -> int:
    """Index of the suited card ``number`` (1-9) of suit ``suit`` (0 = Sup)."""
    return suit * 9 + number - 1


def suit_of(index: int) -> int | None:
    """Suit index of a card index, ``None`` for Wan Sin."""
    return None if index == WAN_SIN else index // 9


def number_of(index: int) -> int:
    """Number of a card index; Wan Sin counts as 1 (CARDS-3)."""
    return 1 if index == WAN_SIN else index % 9 + 1


NUMBER_MASKS: Final = tuple(
    0 if n == 0 else sum(1 << card_index(s, n) for s in range(4)) for n in range(10)
)
"""``NUMBER_MASKS[n]``: the four suited cards of number ``n`` (Wan Sin excluded)."""


def _name(index: int) -> str:
    if index == WAN_SIN:
        return "WanSin"
    return f"{SUITS[index // 9]}{index % 9 + 1}"


NAMES: Final = tuple(_name(i) for i in range(DECK_SIZE))
_LOOKUP: dict[str, int] = {}
for _i, _n in enumerate(NAMES):
    _LOOKUP[_n.lower()] = _i
    if _i != WAN_SIN:
        _LOOKUP[f"{SHORT_SUITS[_i // 9]}{_i % 9 + 1}".lower()] = _i
_LOOKUP["w"] = WAN_SIN
_LOOKUP["wan sin"] = WAN_SIN


WHITE_SPACE: Final = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + \
    "\u2028\u2029\u202f\u205f\u3000"
"""What separates the words of card and action text: the characters of Unicode's White_Space property
(spec/PROTOCOL.md, "Action text"). Any other character is part of a word, U+FEFF and U+001C-U+001F among them."""
_SPLIT_TOO: Final = re.compile("[\x1c-\x1f]")
"""Where ``str.split()`` splits and White_Space does not: nowhere else (tests/engine/test_cards.py)."""
_WHITE_RUN: Final = re.compile(f"[{re.escape(WHITE_SPACE)}]+")


def words(text: str) -> list[str]:
    r"""The words of card or action text: split at runs of :data:`WHITE_SPACE`, which may also lead or trail.

    >>> words("  Sup1\tS2\u00a0 W\n"), words("Sup1\x1fSup2")
    (['Sup1', 'S2', 'W'], ['Sup1\x1fSup2'])
    """
    if text.isprintable() or _SPLIT_TOO.search(text) is None:  # no U+001C-U+001F (printable: the usual text)
        return text.split()  # the same split, quicker
    return [word for word in _WHITE_RUN.split(text) if word]


def parse_card_index(text: object) -> int:
    """Parse one card's text (case-insensitive, long or short form); anything but text is malformed.

    ``object``, not ``str``, in this and every public parser: compiled, a ``str`` parameter would
    refuse ``None`` with a bare TypeError (setup.py), where the pure build refuses it with this error.
    """
    if not isinstance(text, str):
        raise MalformedError(f"{text!r} is not a card: a card is text, such as Sup9 or W", rule="CARDS-1")
    try:
        return _LOOKUP[text.strip(WHITE_SPACE).lower()]
    except KeyError:
        raise MalformedError(
            f"{text!r} is not a card: write Sup1..Sup9, Gon1..Gon9, Zok1..Zok9, "
            "Sin1..Sin9 or WanSin (short forms S9, G7, Z3, N1, W)",
            rule="CARDS-1",
        ) from None


def parse_mask(text: object) -> int:
    """Parse a card list (its cards separated by white space, :func:`words`; or an iterable of card texts) to a mask.

    A card named twice is malformed: a play or a hand never holds a card twice.
    """
    items: list[object]
    if isinstance(text, str):
        items = list(words(text))
    elif isinstance(text, list):  # an action's words (Action.parse): quicker than the Iterable check
        items = text
    elif isinstance(text, Iterable):
        items = list(text)
    else:
        raise MalformedError(f"{text!r} is not a card list: write the cards' names, such as 'Sup3 Sup4 Sup5'",
                             rule="CARDS-1")
    mask = 0
    for item in items:
        bit = 1 << parse_card_index(item)
        if mask & bit:
            raise MalformedError(f"card {NAMES[bit.bit_length() - 1]} is listed twice", rule="CARDS-1")
        mask |= bit
    return mask


def indices(mask: int) -> Iterator[int]:
    """Card indices of a mask in canonical order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_CHUNK_BITS: Final = 10
_CHUNK_TEXT: list[dict[int, str]] = [{} for _ in range((DECK_SIZE + _CHUNK_BITS - 1) // _CHUNK_BITS)]


_TEXT: dict[int, str] = {}
_TEXT_LIMIT: Final = 1 << 16


def mask_text(mask: int) -> str:
    """Canonical text of a card mask: names in canonical order, space-separated.

    Cached, and built from the (cached) text of each 10-card slice of the mask:
    the text of every hand is asked for at every step, and most do not change.
    """
    text = _TEXT.get(mask)
    if text is None:
        if len(_TEXT) >= _TEXT_LIMIT:
            _TEXT.clear()
        text = _TEXT[mask] = _slices_text(mask)
    return text


def _slices_text(mask: int) -> str:
    parts = []
    for chunk, cache in enumerate(_CHUNK_TEXT):
        bits = (mask >> (chunk * _CHUNK_BITS)) & ((1 << _CHUNK_BITS) - 1)
        if bits:
            text = cache.get(bits)
            if text is None:
                base = chunk * _CHUNK_BITS
                text = cache[bits] = " ".join(NAMES[base + i] for i in indices(bits))
            parts.append(text)
    return " ".join(parts)


_INTERNED: list[Card] = []
"""The 37 cards, once built (below the class)."""


class Card:
    """One card. Instances are interned: ``Card.parse('Sup9') is Card.parse('S9') is Card(8)``."""

    __slots__ = ("index",)
    index: int

    def __new__(cls, index: object) -> Card:
        # ``object``, not ``int``: a compiled build would refuse a str with a bare TypeError; and a bool is no index
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < DECK_SIZE:
            raise MalformedError(f"{index!r} is not a card index (0-36)", rule="CARDS-1")
        if index < len(_INTERNED):
            return _INTERNED[index]
        card = super().__new__(cls)  # only while the 37 are built (both builds allow this, not object.__new__)
        object.__setattr__(card, "index", index)
        return card

    @classmethod
    def parse(cls, text: object) -> Card:
        return _CARDS[parse_card_index(text)]

    @property
    def suit(self) -> str | None:
        """Suit name, or ``None`` for Wan Sin."""
        s = suit_of(self.index)
        return None if s is None else SUITS[s]

    @property
    def number(self) -> int:
        return number_of(self.index)

    @property
    def bit(self) -> int:
        return 1 << self.index

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __str__(self) -> str:
        return NAMES[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({NAMES[self.index]!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))


_INTERNED.extend(Card(i) for i in range(DECK_SIZE))
_CARDS: Final = tuple(_INTERNED)
ALL_CARDS: Final = _CARDS


class Cards:
    """An immutable set of cards with a canonical text form.

    >>> hand = Cards.parse("Gon7 Sup9 WanSin")
    >>> str(hand), len(hand), Card.parse("Sup9") in hand
    ('Sup9 Gon7 WanSin', 3, True)
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, mask: int = 0) -> None:
        if not 0 <= mask <= FULL_DECK:
            raise ValueError(f"not a card mask: {mask}")
        object.__setattr__(self, "mask", mask)

    @classmethod
    def parse(cls, text: object) -> Cards:
        """The cards of a space-separated card list, or of a list of card texts."""
        return cls(parse_mask(text))

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Cards:
        mask = 0
        for card in cards:
            mask |= card.bit
        return cls(mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Cards is immutable")

    def __reduce__(self) -> tuple[type[Cards], tuple[int]]:
        return (Cards, (self.mask,))

    def __iter__(self) -> Iterator[Card]:
        return (_CARDS[i] for i in indices(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("Cards", self.mask))

    def __or__(self, other: Cards) -> Cards:
        return Cards(self.mask | other.mask)

    def __and__(self, other: Cards) -> Cards:
        return Cards(self.mask & other.mask)

    def __sub__(self, other: Cards) -> Cards:
        return Cards(self.mask & ~other.mask)

    def __str__(self) -> str:
        return mask_text(self.mask)

    def __repr__(self) -> str:
        return f"Cards.parse({mask_text(self.mask)!r})"


def canonical_deck() -> list[int]:
    """Card indices in canonical order, the order a seeded shuffle starts from."""
    return list(range(DECK_SIZE))


_M64: Final = (1 << 64) - 1


def seeded_deck(seed: object) -> list[int]:
    """The deck order for ``seed`` (DEAL-5, D33): SplitMix64 + Fisher-Yates.

    Fixed so that every engine, in any language, deals the same cards:

    >>> mask_text(sum(1 << i for i in seeded_deck(7)[:4])) != ""
    True
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _M64:
        raise SetupError(f"a seed is a 64-bit unsigned integer, not {seed!r}", rule="DEAL-5")
    return _shuffled_on_words(seed) if COMPILED else _shuffled(seed)


def _shuffled(seed: int) -> list[int]:
    """D33's shuffle as the spec writes it, on unsigned 64-bit values (the one to read)."""
    state = seed
    deck = canonical_deck()
    for i in range(DECK_SIZE - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# The same shuffle on signed 64-bit machine words (``i64``), for the compiled build, where the
# unsigned version computes on 128-bit Python ints (the deal's dearest step, 6x slower). A word
# holds an unsigned value u as u - 2**64 when u >= 2**63. Compiled, + and * wrap, which is
# arithmetic mod 2**64, so _WORD (-1) masks nothing; interpreted (a test compares the two
# shuffles in either build), _WORD is 2**64 - 1 and does the wrapping. >> copies the sign bit,
# so each shift masks off what the unsigned shift leaves zero; a negative word's unsigned
# remainder adds 2**64 mod n.
_WORD: Final[i64] = -1 if COMPILED else (1 << 64) - 1
_GAMMA: Final[i64] = 0x9E3779B97F4A7C15 - (1 << 64)
_MIX1: Final[i64] = 0xBF58476D1CE4E5B9 - (1 << 64)
_MIX2: Final[i64] = 0x94D049BB133111EB - (1 << 64)
_TWO64_MOD: Final = tuple((1 << 64) % n if n else 0 for n in range(DECK_SIZE + 1))


def _shuffled_on_words(seed: int) -> list[int]:
    state: i64 = seed - (1 << 64) if seed >= 1 << 63 else seed
    deck = canonical_deck()
    i: i64 = DECK_SIZE - 1
    while i > 0:
        state = (state + _GAMMA) & _WORD
        z: i64 = state
        z = ((z ^ (z >> 30 & 0x3_FFFF_FFFF)) * _MIX1) & _WORD
        z = ((z ^ (z >> 27 & 0x1F_FFFF_FFFF)) * _MIX2) & _WORD
        z ^= z >> 31 & 0x1_FFFF_FFFF
        n: i64 = i + 1
        j = z % n if z >= 0 else (z % n + _TWO64_MOD[n]) % n
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck
