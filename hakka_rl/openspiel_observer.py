"""The OpenSpiel game's observer: a seat's tensors and strings of a state (issue 18 §2, issue 28 §3).

:class:`HakkaObserver` is pyspiel's observer interface (``tensor``, ``dict``,
``set_from``, ``string_from``); :func:`tensor_view` and :func:`state_string`
are what it and the state's own Python-level methods read, each call its own
tensor: no buffer is shared between states or calls (threads may observe at
once). The tensors are :mod:`hakka_rl.encoding`'s, laid out by
:mod:`hakka_rl.layout`; ``observer.dict`` holds a named view of the tensor
for each piece of the layout.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from reference_engine import Hand
from reference_engine.cards import NAMES, mask_text

from .encoding import DEALER, DEALT, HAND, INFORMATION_STATE_SIZE, OBSERVATION_SIZE, EncodedHand
from .layout import INFORMATION_STATE, OBSERVATION
from .legal import PendingDiscard

__all__ = ["ObservedState", "HakkaObserver", "state_string", "tensor_view"]

Tensor = npt.NDArray[np.float32]


# What the observer reads of a state, declared here so that it imports nothing back from
# openspiel_game.py, whose HakkaCardsState is the one state that has these (issue 28 §1).
class _GameView(Protocol):
    @property
    def dealer(self) -> int: ...
    @property
    def episode(self) -> str: ...


class _CoreView(Protocol):
    @property
    def encoded(self) -> EncodedHand | None: ...
    @property
    def deck(self) -> list[int]: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def game(self) -> _GameView: ...
    @property
    def seen(self) -> list[tuple[int, str]]: ...
    def progress(self) -> str: ...


class ObservedState(Protocol):
    """The parts of :class:`hakka_rl.openspiel_game.HakkaCardsState` that the observer reads."""

    @property
    def _core(self) -> _CoreView: ...
    @property
    def hand(self) -> Hand | None: ...
    @property
    def pending(self) -> PendingDiscard | None: ...
    def dealt_to(self, seat: int) -> int: ...


def tensor_view(state: ObservedState, seat: int, perfect_recall: bool) -> Tensor:
    """``seat``'s information-state tensor (``perfect_recall``) or observation tensor of ``state``: a new array,
    or a read-only view of bytes no one changes (the encoder's cache of the observation)."""
    core = state._core
    encoded = core.encoded
    if encoded is None:  # still dealing: the seat's own cards so far (pyspiel asks this of a new initial state
        row = np.zeros(INFORMATION_STATE_SIZE if perfect_recall else OBSERVATION_SIZE, np.float32)  # at every
        if core.deck:  # tensor it writes, so it must be cheap)
            dealt = state.dealt_to(seat)
            cards = [c for c in range(37) if dealt >> c & 1]
            row[[HAND + c for c in cards]] = 1.0
            if perfect_recall:
                row[[DEALT + c for c in cards]] = 1.0
        if core.dealer is not None and core.game.dealer < 0:  # a Dealer drawn by chance: public once drawn
            row[DEALER + (core.dealer - seat) % 4] = 1.0
        return row
    return encoded.information_state_tensor(seat) if perfect_recall else encoded.observation_view(seat)


class HakkaObserver:
    """pyspiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``) for one seat."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        layout = INFORMATION_STATE if perfect_recall else OBSERVATION
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict: dict[str, Any] = OBSERVATION.views(self.tensor[:OBSERVATION.size])
        """A named view of the tensor for each piece of the layout, in its shape (the information state's: the
        observation's pieces, then ``dealt`` and ``history``). pyspiel's C++ side reads the tensor as these views
        joined in this order, so that they partition the tensor exactly."""
        if perfect_recall:
            views = INFORMATION_STATE.views(self.tensor)
            del views["observation"]
            self.dict.update(views)

    def set_from(self, state: ObservedState, player: int) -> None:
        self.tensor[:] = tensor_view(state, player, self.perfect_recall)

    def string_from(self, state: ObservedState, player: int) -> str:
        return state_string(state, player, self.perfect_recall)


def state_string(state: ObservedState, player: int, perfect_recall: bool) -> str:
    """``player``'s information-state string (``perfect_recall``) or observation string of ``state`` (a game's
    starts with its progress)."""
    progress = state._core.progress()
    return progress + _hand_string(state, player, perfect_recall) if progress else _hand_string(
        state, player, perfect_recall)


def _hand_string(state: ObservedState, player: int, perfect_recall: bool) -> str:
    hand = state.hand
    if hand is None:
        core = state._core
        drawn = "" if core.game.dealer >= 0 and core.game.episode == "hand" else (
            f" dealer {'-' if core.dealer is None else core.dealer}")
        return f"seat {player}{drawn} dealing: {mask_text(state.dealt_to(player))}"
    pending = state.pending
    picked = f" | picked {mask_text(pending.picked)}" if (
        pending is not None and pending.picked and hand.to_act == player) else ""
    if perfect_recall:
        events = _seen_events(state, hand, player)
        return f"seat {player} dealer {hand.dealer} dealt {mask_text(hand.dealt[player])} | {events}{picked}"
    seen = hand.observation(player)
    round_text = "; ".join(str(p) for p in seen.round)
    return (f"seat {player} {seen.phase} to act {seen.to_act} | hand {seen.hand} | round {round_text} "
            f"| tricks {' '.join(map(str, seen.tricks))} | elders {seen.elders} | PP {seen.privileged}"
            f" | Dreamer's card {'-' if seen.dreamer_card is None else NAMES[seen.dreamer_card]}{picked}")


def _seen_events(state: ObservedState, hand: Hand, seat: int) -> str:
    """Every event of the hand as ``seat`` sees it, ``"; "`` between them (only the new ones are written; the
    text is kept per state and seat)."""
    core = state._core
    count, text = core.seen[seat]
    events = hand.events
    if count < len(events):
        new = "; ".join([str(event.seen_by(seat)) for event in events[count:]])
        text = text + "; " + new if count else new
        core.seen[seat] = (len(events), text)
    return text
