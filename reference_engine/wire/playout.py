"""The random player of a ``batch`` with ``playout`` (spec/PROTOCOL.md, "Playout")."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..actions import DISCARD, Action
from ..cards import indices
from ..events import Event

if TYPE_CHECKING:
    from ..game import Game
    from ..hand import Hand


class PlayoutTooLong(Exception):
    """A playout did not end within the actions its batch had room for."""


class Playout:
    """Every choice is a *draw* below some ``n``: the next given choice modulo
    ``n``; past the given ones, a number from ``random.Random(seed)``; with no
    seed, 0. A draw below 1 is 0 and uses no random number. Each action takes
    one draw over the legal actions in the order ``state`` lists them, plus one
    slot for the discard option when there is one; a discard then takes one
    draw per card over the option's cards still unchosen, in canonical order.
    """

    def __init__(self, given: list[int], seed: int | None) -> None:
        self.given = given
        self.rng = None if seed is None else random.Random(seed)
        self.choices: list[int] = []

    @classmethod
    def from_request(cls, value: Mapping[str, Any]) -> Playout:
        """From a ``playout`` field the request's shape check has passed."""
        seed = value.get("seed")
        return cls(list(value.get("choices", [])), None if seed is None else int(seed))

    def draw(self, n: int) -> int:
        i = len(self.choices)
        if n <= 1:
            value = 0
        elif i < len(self.given):
            value = self.given[i] % n
        elif self.rng is not None:
            value = self.rng.randrange(n)
        else:
            value = 0
        self.choices.append(value)
        return value

    def play(self, hand: Hand, game: Game | None, room: int) -> Iterator[tuple[int, str, tuple[Event, ...]]]:
        """Take random legal actions in ``game`` (else in ``hand``, a hand alone) until nobody is to act; yield
        each (seat, action text, events).

        Raises :class:`PlayoutTooLong` before an action past the first ``room``.
        """
        taken = 0
        while True:
            if game is not None:
                hand = game.hand  # the hand in play: a move that ends one deals the next
            seat = hand.to_act if game is None or not game.over else None
            if seat is None:
                return
            if taken >= room:
                raise PlayoutTooLong(f"a playout did not end within {room} actions")
            legal = hand.legal_actions()
            actions = legal.sorted()
            option = legal.discard
            pick = self.draw(len(actions) + (option is not None))
            if pick < len(actions):
                action = actions[pick]
            else:
                assert option is not None
                pool = list(indices(option.allowed))
                mask = 0
                for _card in range(option.count):
                    mask |= 1 << pool.pop(self.draw(len(pool)))
                action = Action(DISCARD, mask)
            events = game.apply(seat, action) if game is not None else hand.apply(seat, action)
            taken += 1
            yield seat, str(action), events
