"""Tensors of what one seat may see, and a hand played by action ids (issue 18).

Every tensor is built from :meth:`Hand.observation(seat) <reference_engine.Hand.observation>`
(:func:`encode_observation`, from scratch) or, identically and much faster,
from the events each move returns as that seat sees them (:class:`EncodedHand`,
incremental); ``tests/rl/test_encoding.py`` checks the two agree at every step.
The action ids are those of :mod:`hakka_rl.actions`.

Seats in a tensor are **relative** to the observing seat: relative seat ``r``
is absolute seat ``(observer + r) % 4`` (0 is the observer, 1 the next seat
counterclockwise). Cards are indexed 0-36 (Sup1..Sup9, Gon1..Gon9, Zok1..Zok9,
Sin1..Sin9, WanSin). Values are float32: 0/1 flags, or counts where said.

The observation tensor (``OBSERVATION_SIZE`` = 408):

=========  ====  =============================================================
offset     size  content
=========  ====  =============================================================
0          37    the observer's cards now (the Dreamer: its one card)
37         37    the cards picked so far in the observer's partial discard
74         37    every card played face up so far in the hand
111        37    the observer's own face-down discards so far
148        37    the Elders now (ELD-1, ELD-2)
185        37    the Dreamer's card, when the observer may see it (OBS-1)
222        148   the current round's face-up plays, 37 cards per relative seat
370        4     the current round's face-down discards: cards per relative seat
374        5     the phase, one-hot: calling, tigers, playing, claim, ended
379        4     the seat to act, one-hot by relative seat (none: all 0)
383        4     the Dealer, one-hot by relative seat (the Dreamer sits opposite)
387        4     the Privileged Player, one-hot by relative seat (none: all 0)
391        4     the seat that called, one-hot by relative seat (none: all 0)
395        4     the leader of the round in play, one-hot (phase playing only)
399        4     cards in hand, per relative seat (counts; the Dreamer 1)
403        4     tricks won, per relative seat (counts)
407        1     picks still to make in the observer's partial discard (count)
=========  ====  =============================================================

The information-state tensor (``INFORMATION_STATE_SIZE`` = 3095) is the
observation tensor followed by what perfect recall adds:

=========  ====  =============================================================
offset     size  content
=========  ====  =============================================================
0          408   the observation tensor above
408        37    the observer's dealt hand (the Dreamer: its one card)
445        2650  the hand's actions in order, ``MAX_HISTORY`` = 53 slots of 50
=========  ====  =============================================================

Each history slot (all 0 while unused): relative seat one-hot (4), verb
one-hot in the engine's order ``call pass play discard claim continue
tigers decline`` (8), the cards (37; empty for another seat's face-down
discard, PLAY-5), the number of cards (1, a count). 53 bounds any hand: at
most 3 Calling actions (CALL-3), 1 Five Tigers answer (TIG-1), 36 plays or
discards (12 rounds of 3, each taking a card at least from each 12-card
hand), 12 claim answers (one a round) and 1 claim.

>>> from reference_engine import Hand
>>> hand = EncodedHand(Hand.from_seed(dealer=0, seed=7))
>>> hand.to_act, [describe(i) for i in hand.legal_ids()]
(0, ['call', 'pass'])
>>> tensor = hand.observation_tensor(0)
>>> tensor.shape, int(tensor[HAND : HAND + 37].sum()), int(tensor[PHASE])
((408,), 12, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from reference_engine import Action, Event, Hand, Observation, Phase
from reference_engine.actions import DISCARD, VERBS
from reference_engine.events import Called, Discarded, EldersPromoted, HandEnded, Played, RoundWon

from .actions import (
    ID_ACTION,
    NUM_ACTIONS,
    PICK_BASE,
    PLAY_ID,
    VERB_ID,
    EncodingError,
    check_id,
    describe,
    next_picks,
)

Tensor = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

HAND: Final = 0
PICKED: Final = 37
PLAYED: Final = 74
OWN_DISCARDS: Final = 111
ELDERS: Final = 148
DREAMER_CARD: Final = 185
ROUND_CARDS: Final = 222
ROUND_DISCARDS: Final = 370
PHASE: Final = 374
TO_ACT: Final = 379
DEALER: Final = 383
PRIVILEGED: Final = 387
CALLER: Final = 391
LEADER: Final = 395
HAND_SIZES: Final = 399
TRICKS: Final = 403
PICKS_LEFT: Final = 407
OBSERVATION_SIZE: Final = 408
DEALT: Final = 408
HISTORY: Final = 445
MAX_HISTORY: Final = 53
SLOT: Final = 50
SLOT_VERB: Final = 4
SLOT_CARDS: Final = 12
SLOT_COUNT: Final = 49
INFORMATION_STATE_SIZE: Final = HISTORY + MAX_HISTORY * SLOT

PHASES: Final = (Phase.CALLING, Phase.TIGERS, Phase.PLAYING, Phase.CLAIMING, Phase.ENDED)
_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(PHASES)}
_VERB_INDEX: Final = {verb: i for i, verb in enumerate(VERBS)}
_DISCARD_VERB: Final = _VERB_INDEX[DISCARD]
_ONE_HOTS: Final = (PHASE, TO_ACT, DEALER, PRIVILEGED, CALLER, LEADER)

assert INFORMATION_STATE_SIZE == 3095

__all__ = [
    "INFORMATION_STATE_SIZE", "MAX_HISTORY", "NUM_ACTIONS", "OBSERVATION_SIZE", "EncodedHand", "EncodingError",
    "PendingDiscard", "encode_observation", "legal_ids_of",
]

_CARD_INDICES: dict[int, npt.NDArray[np.intp]] = {}


def card_indices(mask: int) -> npt.NDArray[np.intp]:
    """The card indices of a mask, as an index array (cached: the same masks recur)."""
    found = _CARD_INDICES.get(mask)
    if found is None:
        bits = []
        m = mask
        while m:
            low = m & -m
            bits.append(low.bit_length() - 1)
            m ^= low
        found = np.array(bits, dtype=np.intp)
        if len(_CARD_INDICES) < 1 << 16:
            _CARD_INDICES[mask] = found
    return found


class PendingDiscard:
    """A discard in progress above the engine: ``count`` cards of ``allowed``, ``picked`` so far."""

    __slots__ = ("allowed", "count", "picked")

    def __init__(self, allowed: int, count: int, picked: int = 0) -> None:
        self.allowed, self.count, self.picked = allowed, count, picked

    @property
    def left(self) -> int:
        return self.count - self.picked.bit_count()

    def next_picks(self) -> int:
        return next_picks(self.allowed, self.count, self.picked)

    def __repr__(self) -> str:
        return f"PendingDiscard(allowed={self.allowed:#x}, count={self.count}, picked={self.picked:#x})"


def legal_ids_of(hand: Hand, pending: PendingDiscard | None = None) -> list[int]:
    """The legal ids of the seat to act, ascending (a partial discard allows its next picks only)."""
    if pending is not None and pending.picked:
        return [PICK_BASE + c for c in card_indices(pending.next_picks()).tolist()]
    legal = hand.legal_actions()
    ids = []
    for action in legal.actions:
        verb, mask = action
        found = PLAY_ID.get(mask) if mask else VERB_ID.get(verb)
        if found is None:
            raise EncodingError(f"the engine allows {action}, which the action table has no id for "
                                f"(hakka_rl.actions): seat {hand.to_act}, {hand.notation()}")
        ids.append(found)
    option = legal.discard
    if option is not None:
        first = next_picks(option.allowed, option.count, 0)
        ids.extend(PICK_BASE + c for c in card_indices(first).tolist())
    ids.sort()
    return ids


def _set_cards(row: Tensor, offset: int, mask: int) -> None:
    if mask:
        row[offset + card_indices(mask)] = 1.0


def _slot(row: Tensor, index: int, rel: int, verb: str, mask: int, size: int) -> None:
    if index >= MAX_HISTORY:
        raise EncodingError(f"a hand of more than {MAX_HISTORY} actions: the history slots are full")
    base = HISTORY + index * SLOT
    row[base + rel] = 1.0
    row[base + SLOT_VERB + _VERB_INDEX[verb]] = 1.0
    _set_cards(row, base + SLOT_CARDS, mask)
    row[base + SLOT_COUNT] = size


def encode_observation(seen: Observation, pending: PendingDiscard | None = None) -> Tensor:
    """The information-state tensor of ``seen`` (its first ``OBSERVATION_SIZE`` values are the observation
    tensor), from scratch; ``pending``: the observer's partial discard, if any."""
    me = seen.seat
    row = np.zeros(INFORMATION_STATE_SIZE, dtype=np.float32)
    _set_cards(row, HAND, seen.hand.mask)
    if pending is not None and seen.to_act == me:
        _set_cards(row, PICKED, pending.picked)
        row[PICKS_LEFT] = pending.left if pending.picked else 0
    played = own = 0
    for event in seen.events:
        if isinstance(event, Played):
            played |= event.mask
            if event.seat == me:
                own |= event.mask
        elif isinstance(event, Discarded) and event.seat == me:
            own |= event.mask
            _set_cards(row, OWN_DISCARDS, event.mask)
        elif isinstance(event, Called):
            row[CALLER + (event.seat - me) % 4] = 1.0
    _set_cards(row, PLAYED, played)
    _set_cards(row, ELDERS, seen.elders.mask)
    if seen.dreamer_card is not None:
        row[DREAMER_CARD + seen.dreamer_card] = 1.0
    for play in seen.round:
        rel = (play.seat - me) % 4
        if isinstance(play, Played):
            _set_cards(row, ROUND_CARDS + 37 * rel, play.mask)
        else:
            row[ROUND_DISCARDS + rel] += play.count
    row[PHASE + _PHASE_INDEX[seen.phase]] = 1.0
    for offset, seat in ((TO_ACT, seen.to_act), (DEALER, seen.dealer), (PRIVILEGED, seen.privileged),
                         (LEADER, seen.leader)):
        if seat is not None:
            row[offset + (seat - me) % 4] = 1.0
    for rel in range(4):
        row[HAND_SIZES + rel] = seen.hand_sizes[(me + rel) % 4]
        row[TRICKS + rel] = seen.tricks[(me + rel) % 4]
    _set_cards(row, DEALT, seen.hand.mask | own)
    for index, item in enumerate(seen.history):
        verb, mask = (DISCARD, 0) if item.action is None else item.action
        _slot(row, index, (item.seat - me) % 4, verb, mask, item.size)
    return row


class EncodedHand:
    """A :class:`~reference_engine.Hand` played by action ids, with every seat's tensors kept up to date
    from the events of each move (as that seat sees them), and a partial discard held above the engine.

    ``apply_id`` takes one id for the seat to act; a pick that does not finish a discard changes only
    this object (the engine sees the whole ``discard`` at the last pick) and returns no events.
    """

    __slots__ = ("hand", "pending", "_rows", "_history", "_legal")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.pending: PendingDiscard | None = None
        self._rows: Tensor = np.stack([encode_observation(hand.observation(seat)) for seat in range(4)])
        self._history = sum(1 for e in hand.events if e.seat is not None and (
            e.action is not None or isinstance(e, Discarded)))
        self._legal: list[int] | None = None

    def copy(self) -> EncodedHand:
        """An independent copy (the engine's hand copied too), for search."""
        o = object.__new__(EncodedHand)
        o.hand = self.hand.copy()
        o.pending = None if self.pending is None else PendingDiscard(
            self.pending.allowed, self.pending.count, self.pending.picked)
        o._rows, o._history, o._legal = self._rows.copy(), self._history, self._legal
        return o

    @property
    def to_act(self) -> int | None:
        return self.hand.to_act

    @property
    def over(self) -> bool:
        return self.hand.to_act is None

    def legal_ids(self) -> list[int]:
        """The legal ids of the seat to act, ascending (empty when the hand is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.hand.to_act is None else legal_ids_of(self.hand, self.pending)
        return legal

    def legal_mask(self) -> Mask:
        """A 0/1 vector of ``NUM_ACTIONS`` int8: 1 for each legal id."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_ids()] = 1
        return mask

    def observation_tensor(self, seat: int) -> Tensor:
        """``seat``'s observation tensor (a new array, ``OBSERVATION_SIZE`` float32)."""
        row: Tensor = self._rows[seat, :OBSERVATION_SIZE]
        return row.copy()

    def information_state_tensor(self, seat: int) -> Tensor:
        """``seat``'s information-state tensor (a new array, ``INFORMATION_STATE_SIZE`` float32)."""
        row: Tensor = self._rows[seat]
        return row.copy()

    def apply_id(self, action: int) -> tuple[Event, ...]:
        """Make the move of id ``action`` for the seat to act; return the events the engine reported."""
        seat = self.hand.to_act
        if seat is None:
            raise EncodingError(f"the hand is over: no seat may act (id {action})")
        if check_id(action) not in self.legal_ids():
            raise EncodingError(f"id {action} ({describe(action)}) is not legal for seat {seat} now; legal: "
                                + ", ".join(describe(i) for i in self.legal_ids()))
        self._legal = None
        if action >= PICK_BASE:
            return self._pick(seat, action - PICK_BASE)
        engine_action = ID_ACTION[action]
        assert engine_action is not None
        return self._apply(seat, engine_action)

    def _pick(self, seat: int, card: int) -> tuple[Event, ...]:
        pending = self.pending
        if pending is None:
            option = self.hand.legal_actions().discard
            assert option is not None  # a pick is legal only with a discard option
            pending = self.pending = PendingDiscard(option.allowed, option.count)
        pending.picked |= 1 << card
        row = self._rows[seat]
        if pending.left:
            row[PICKED + card] = 1.0
            row[PICKS_LEFT] = pending.left
            return ()
        picked = pending.picked
        self.pending = None
        row[PICKED:PICKED + 37] = 0.0
        row[PICKS_LEFT] = 0.0
        return self._apply(seat, Action(DISCARD, picked))

    def _apply(self, seat: int, action: Action) -> tuple[Event, ...]:
        events = self.hand.apply(seat, action)
        self.update(events)
        return events

    def update(self, events: Iterable[Event]) -> None:
        """Bring every seat's tensors up to date with ``events`` (those a move just returned)."""
        rows = self._rows
        for event in events:
            if isinstance(event, Played):
                self._played(event)
            elif isinstance(event, Discarded):
                self._discarded(event)
            elif isinstance(event, RoundWon):
                rows[_SEATS, TRICKS + _REL[event.seat]] += event.tricks
                rows[:, ROUND_CARDS:ROUND_DISCARDS + 4] = 0.0
                rows[:, LEADER:LEADER + 4] = 0.0
            elif isinstance(event, EldersPromoted):
                rows[:, ELDERS + card_indices(event.mask)] = 1.0
            elif isinstance(event, Called):
                self._called(event)
            elif isinstance(event, HandEnded):
                self._ended(event)
            if event.seat is not None and event.action is not None and not isinstance(event, (Played, Discarded)):
                self._history_slot(event.seat, event.action[0], 0, 0)
        self._after_move()

    def _called(self, event: Called) -> None:
        rows, rel = self._rows, _REL[event.seat]
        rows[_SEATS, CALLER + rel] = 1.0
        if event.privileged:
            rows[_SEATS, PRIVILEGED + rel] = 1.0

    def _played(self, event: Played) -> None:
        rows, seat, mask = self._rows, event.seat, event.mask
        cards = card_indices(mask)
        rel = _REL[seat]
        rows[:, PLAYED + cards] = 1.0
        rows[_SEATS_COLUMN, (ROUND_CARDS + 37 * rel)[:, None] + cards] = 1.0
        rows[_SEATS, HAND_SIZES + rel] -= len(cards)
        rows[seat, HAND + cards] = 0.0
        self._history_slot(seat, "play", mask, len(cards))

    def _discarded(self, event: Discarded) -> None:
        rows, seat, mask = self._rows, event.seat, event.mask
        rel = _REL[seat]
        rows[_SEATS, ROUND_DISCARDS + rel] += event.count
        rows[_SEATS, HAND_SIZES + rel] -= event.count
        cards = card_indices(mask)
        rows[seat, HAND + cards] = 0.0
        rows[seat, OWN_DISCARDS + cards] = 1.0
        base = HISTORY + self._history * SLOT
        if self._history >= MAX_HISTORY:
            raise EncodingError(f"a hand of more than {MAX_HISTORY} actions: the history slots are full")
        rows[_SEATS, base + rel] = 1.0
        rows[:, base + SLOT_VERB + _DISCARD_VERB] = 1.0
        rows[seat, base + SLOT_CARDS + cards] = 1.0  # the cards show to their owner only (PLAY-5)
        rows[:, base + SLOT_COUNT] = event.count
        self._history += 1

    def _history_slot(self, seat: int, verb: str, mask: int, size: int) -> None:
        index = self._history
        if index >= MAX_HISTORY:
            raise EncodingError(f"a hand of more than {MAX_HISTORY} actions: the history slots are full")
        base = HISTORY + index * SLOT
        rows = self._rows
        rows[_SEATS, base + _REL[seat]] = 1.0
        rows[:, base + SLOT_VERB + _VERB_INDEX[verb]] = 1.0
        if mask:
            rows[:, base + SLOT_CARDS + card_indices(mask)] = 1.0
        rows[:, base + SLOT_COUNT] = size
        self._history = index + 1

    def _ended(self, event: HandEnded) -> None:
        rows = self._rows
        rows[:, ROUND_CARDS:ROUND_DISCARDS + 4] = 0.0
        if event.result.winner is not None:  # OBS-1: a won hand shows the Dreamer's card to all, which the
            dreamer = self.hand.dreamer      # Dreamer's own observation held from the deal
            rows[:, DREAMER_CARD:DREAMER_CARD + 37] = rows[dreamer, DREAMER_CARD:DREAMER_CARD + 37]

    def _after_move(self) -> None:
        """The phase, the seat to act and the round's leader, as every seat's observation shows them."""
        hand, rows = self.hand, self._rows
        rows[:, PHASE:PHASE + 5] = 0.0
        rows[:, PHASE + _PHASE_INDEX[hand.phase]] = 1.0
        rows[:, TO_ACT:TO_ACT + 4] = 0.0
        if hand.phase != Phase.PLAYING:
            rows[:, LEADER:LEADER + 4] = 0.0
        seat = hand.to_act
        if seat is not None:
            rows[_SEATS, TO_ACT + _REL[seat]] = 1.0
            if hand.phase == Phase.PLAYING and not rows[0, LEADER:LEADER + 4].any():
                rows[_SEATS, LEADER + _REL[seat]] = 1.0  # a new round: its leader is the first to act


_SEATS: Final = np.arange(4)
_SEATS_COLUMN: Final = _SEATS[:, None]
_REL: Final = tuple((seat - _SEATS) % 4 for seat in range(4))
"""``_REL[seat][observer]``: where ``seat`` sits relative to ``observer``."""
