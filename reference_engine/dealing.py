"""Dealing: the cards each seat receives, from explicit holdings or a deck order (DEAL-2..5).

Checks the setup and gives the four holdings as card masks; a
:class:`~reference_engine.hand.Hand` is made from them.

>>> deal_sequence(0)[:8]
[0, 1, 2, 3, 0, 1, 3, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeGuard

from .cards import DECK_SIZE, FULL_DECK, Cards, mask_text, parse_card_index, parse_mask, words
from .errors import MalformedError, SetupError
from .profile import DEFAULT_PROFILE, Profile

HAND_SIZE: Final = 12
_DECK: Final = frozenset(range(DECK_SIZE))


def is_seat(seat: object) -> TypeGuard[int]:
    """GAME-5: a seat is 0-3, an ``int`` (not a bool): the one test, for a setup's seats and an event's."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 4


def check_seat(seat: object, what: str) -> int:
    """``seat`` if it is a seat 0-3 (:func:`is_seat`), else a SetupError (GAME-5).

    Public entry points take their seats as ``object`` and pass them here: compiled by mypyc, an ``int``
    parameter would refuse a str with a bare TypeError and take ``True`` for seat 1 (setup.py).
    """
    if not is_seat(seat):
        raise SetupError(f"{what} must be a seat 0-3, not {seat!r}", rule="GAME-5")
    return seat


def _to_mask(holding: object) -> int:
    if isinstance(holding, Cards):
        return holding.mask
    if isinstance(holding, str):
        return parse_mask(holding)
    if not isinstance(holding, int) or isinstance(holding, bool) or not 0 <= holding <= FULL_DECK:
        raise MalformedError(f"{holding!r} is not a set of cards of the 37-card deck", rule="CARDS-1")
    return holding


def holdings(dealer: object, hands: object) -> list[int]:
    """The masks of explicit holdings by seat, checked (DEAL-2, DEAL-4, CARDS-1).

    The Dreamer (``dealer + 2``) holds exactly 1 card, the others 12, and the
    four holdings together are the 37 cards. ``hands`` is read as an ``object``
    (a sequence of 4 holdings, each a mask, :class:`Cards` or card text):
    compiled, a typed parameter would refuse anything else with a bare TypeError.
    """
    dealer = check_seat(dealer, "dealer")
    if not isinstance(hands, Sequence) or isinstance(hands, (str, bytes, bytearray)):
        raise SetupError(f"hands are a list of 4 holdings by seat, not {hands!r}", rule="DEAL-4")
    if len(hands) != 4:
        raise SetupError(f"hands must list 4 seats, got {len(hands)}", rule="DEAL-4")
    masks = []
    for seat, holding in enumerate(hands):
        try:
            masks.append(_to_mask(holding))
        except MalformedError as exc:
            raise SetupError(f"seat {seat}'s hand: {exc.message}", rule="CARDS-1", seat=seat) from None
    dreamer = (dealer + 2) % 4
    seen = 0
    for seat, mask in enumerate(masks):
        want = 1 if seat == dreamer else HAND_SIZE
        role = "the Dreamer (opposite the Dealer)" if seat == dreamer else "an active player"
        if mask.bit_count() != want:
            raise SetupError(
                f"seat {seat} is {role} and must hold {want} card(s), "
                f"not {mask.bit_count()}: {mask_text(mask)}",
                rule="DEAL-4", seat=seat,
            )
        if seen & mask:
            raise SetupError(
                f"seat {seat} holds {mask_text(seen & mask)}, already dealt to another seat",
                rule="CARDS-1", seat=seat,
            )
        seen |= mask
    return masks


def dealt_from(dealer: object, deck: object, profile: Profile) -> list[int]:
    """The masks a deck order deals (DEAL-4, D2); ``deck[0]`` is dealt first. Checks the order (CARDS-1).

    ``deck`` is card text or a sequence of card indices, read as an ``object`` (see :func:`holdings`).
    """
    dealer = check_seat(dealer, "dealer")
    items: list[object]
    if isinstance(deck, str):
        try:
            items = [parse_card_index(word) for word in words(deck)]
        except MalformedError as exc:
            raise SetupError(f"deck: {exc.message}", rule="CARDS-1") from None
    elif isinstance(deck, Sequence) and not isinstance(deck, (bytes, bytearray)):
        items = list(deck)
    else:
        raise SetupError(f"a deck order is a list of the 37 card indices or card text, not {deck!r}", rule="CARDS-1")
    try:
        cards = set(items)
    except TypeError:  # an unhashable item (a list): no card index, and no deck
        cards = set()
    if len(items) != DECK_SIZE or cards != _DECK:
        missing = FULL_DECK & ~sum(1 << i for i in cards if isinstance(i, int) and 0 <= i < DECK_SIZE)
        raise SetupError(
            f"a deck order must hold each of the 37 cards once; got {len(items)} cards"
            + (f", missing {mask_text(missing)}" if missing else ", some twice"),
            rule="CARDS-1",
        )
    order: list[int] = []
    for position, index in enumerate(items):
        if type(index) is not int:  # a bool or a float is no card index, even where it equals one
            raise SetupError(f"deck: position {position} holds {index!r}, not a card index 0-36", rule="CARDS-1")
        order.append(index)
    masks = [0, 0, 0, 0]
    for seat, index in zip(_sequence(dealer, profile.deal_order), order, strict=True):
        masks[seat] |= 1 << index
    return masks


_SEQUENCES: dict[tuple[int, str], tuple[int, ...]] = {}


def _sequence(dealer: int, deal_order: str) -> tuple[int, ...]:
    sequence = _SEQUENCES.get((dealer, deal_order))
    if sequence is None:
        dreamer = (dealer + 2) % 4
        start = dealer if deal_order == "dealer-first" else (dealer + 1) % 4
        first_pass = [(start + i) % 4 for i in range(4)]
        actives = [s for s in first_pass if s != dreamer]
        sequence = _SEQUENCES[dealer, deal_order] = tuple(first_pass + actives * (HAND_SIZE - 1))
    return sequence


def deal_sequence(dealer: object, profile: Profile = DEFAULT_PROFILE) -> list[int]:
    """The seat that receives each card of a deck order, in order (DEAL-4, D2)."""
    # checked: a float seat (1.0) would otherwise be cached as the sequence of seat 1
    return list(_sequence(check_seat(dealer, "dealer"), profile.deal_order))
