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

The layouts are declared once, piece by piece, in :mod:`hakka_rl.layout`
(``OBSERVATION``, ``INFORMATION_STATE`` and ``HISTORY_SLOT``): each piece's
name, shape and content, in the tensor's order; the offsets below (``HAND``,
``PICKED`` ...) are derived from it, and so is the order of the bytes
:class:`EncodedHand` joins. The information-state tensor is the observation
tensor followed by what perfect recall adds: the dealt hand and the hand's
actions in order, one slot of ``SLOT`` values each (all 0 while unused).
``MAX_HISTORY`` slots bound any hand (:data:`hakka_rl.layout.MAX_HISTORY`).

>>> from reference_engine import Hand
>>> hand = EncodedHand(Hand.from_seed(dealer=0, seed=7))
>>> hand.to_act, [describe(i) for i in hand.legal_ids()]
(0, ['call', 'pass'])
>>> tensor = hand.observation_tensor(0)
>>> tensor.shape == (OBSERVATION_SIZE,), int(tensor[HAND : HAND + 37].sum()), int(tensor[PHASE])
(True, 12, 1)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from reference_engine import Event, Game, Hand, Observation, Phase
from reference_engine.actions import DISCARD, VERBS, discard_action
from reference_engine.cards import indices
from reference_engine.events import Called, Discarded, EldersPromoted, HandEnded, Played, RoundWon, SeatEvent

from .actions import ID_ACTION, NUM_ACTIONS, PICK_BASE, EncodingError, check_id, describe
from .layout import HISTORY_SLOT, INFORMATION_STATE, MAX_HISTORY, OBSERVATION
from .legal import PendingDiscard, ids_of_bits, legal_bits_of, legal_ids_of

Tensor = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

_O, _I, _S = OBSERVATION, INFORMATION_STATE, HISTORY_SLOT
HAND: Final = _O["hand"].offset
PICKED: Final = _O["picked"].offset
PLAYED: Final = _O["played"].offset
OWN_DISCARDS: Final = _O["own_discards"].offset
ELDERS: Final = _O["elders"].offset
DREAMER_CARD: Final = _O["dreamer_card"].offset
ROUND_CARDS: Final = _O["round_cards"].offset
ROUND_DISCARDS: Final = _O["round_discards"].offset
PHASE: Final = _O["phase"].offset
TO_ACT: Final = _O["to_act"].offset
DEALER: Final = _O["dealer"].offset
PRIVILEGED: Final = _O["privileged"].offset
CALLER: Final = _O["caller"].offset
LEADER: Final = _O["leader"].offset
HAND_SIZES: Final = _O["hand_sizes"].offset
TRICKS: Final = _O["tricks"].offset
PICKS_LEFT: Final = _O["picks_left"].offset
OBSERVATION_SIZE: Final = _O.size
DEALT: Final = _I["dealt"].offset
HISTORY: Final = _I["history"].offset
SLOT: Final = _S.size
SLOT_VERB: Final = _S["verb"].offset
SLOT_CARDS: Final = _S["cards"].offset
SLOT_COUNT: Final = _S["count"].offset
INFORMATION_STATE_SIZE: Final = _I.size

PHASES: Final = (Phase.CALLING, Phase.TIGERS, Phase.PLAYING, Phase.CLAIMING, Phase.ENDED)
_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(PHASES)}
_VERB_INDEX: Final = {verb: i for i, verb in enumerate(VERBS)}
_DISCARD_VERB: Final = _VERB_INDEX[DISCARD]
_CALLING: Final = Phase.CALLING
_PLAYING: Final = Phase.PLAYING

assert _I["observation"].size == OBSERVATION_SIZE and HISTORY + MAX_HISTORY * SLOT == INFORMATION_STATE_SIZE

__all__ = [
    "INFORMATION_STATE_SIZE", "MAX_HISTORY", "NUM_ACTIONS", "OBSERVATION_SIZE", "EncodedHand", "EncodingError",
    "PendingDiscard", "encode_observation", "legal_ids_of",
]

_CARD_INDICES: dict[int, npt.NDArray[np.intp]] = {}


def card_indices(mask: int) -> npt.NDArray[np.intp]:
    """The card indices of a mask, as an index array (cached: the same masks recur)."""
    found = _CARD_INDICES.get(mask)
    if found is None:
        found = np.fromiter(indices(mask), dtype=np.intp)
        if len(_CARD_INDICES) < 1 << 16:
            _CARD_INDICES[mask] = found
    return found


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
        verb, mask = (DISCARD, 0) if item.action is None else (item.action.verb, item.action.mask)
        _slot(row, index, (item.seat - me) % 4, verb, mask, item.size)
    return row


class EncodedHand:
    """A :class:`~reference_engine.Hand` played by action ids, with every seat's tensors kept up to date
    from the events of each move (as that seat sees them), and a partial discard held above the engine.

    ``apply_id`` takes one id for the seat to act; a pick that does not finish a discard changes only
    this object (the engine sees the whole ``discard`` at the last pick) and returns no events.
    Given ``game`` (a :class:`~reference_engine.Game` whose current hand is ``hand``), each move goes through
    ``game.apply``, so that the game scores the hand and deals the next when it ends (its events end with
    the next deal or the end of the game); this object stays with ``hand``: the next hand is a new one's.

    What each seat has seen is kept as card masks and counts, updated from the events (a few integer
    operations a move); a tensor is made when asked, as the bytes of its float32 values joined from
    tables (one numpy call reads them), and kept until the next move; the legal ids are kept as a
    legal-id mask (:mod:`hakka_rl.legal`). ``tests/rl/test_encoding.py`` checks every tensor against
    :func:`encode_observation` of ``observation(seat)``.
    """

    __slots__ = (
        "hand", "pending", "_hands", "_dealt", "_own", "_played", "_elders", "_dreamer_card", "_shown",
        "_round_cards", "_round_discards", "_caller", "_privileged", "_leader", "_sizes", "_tricks",
        "_history", "_cache", "_slots", "_legal", "game",
    )

    def __init__(self, hand: Hand, game: Game | None = None) -> None:
        if game is not None and game.hand is not hand:
            raise ValueError("EncodedHand(hand, game): hand must be the game's current hand (game.hand)")
        self.hand = hand
        self.game = game
        self.pending: PendingDiscard | None = None
        self._cache: list[bytes | None] = [None, None, None, None]
        """Each seat's observation tensor as the bytes of its values, until the next move."""
        self._slots: list[tuple[Tensor, int] | None] = [None, None, None, None]
        self._legal: int | None = None
        """The legal-id mask of the seat to act (:mod:`hakka_rl.legal`), until the next move."""
        self._round_cards = [0, 0, 0, 0]
        self._round_discards = [0, 0, 0, 0]
        self._history: list[tuple[int, int, int, int]] = []
        self._caller: int | None = None
        self._leader: int | None = None
        if not hand.events and hand.phase is _CALLING:
            self._dealt_now(hand)
        else:
            self._seen_so_far(hand)

    def _dealt_now(self, hand: Hand) -> None:
        """A hand just dealt (no event yet): each seat sees its dealt cards and nothing else has happened,
        so every view is the deal's (``tests/rl/test_fast_encoding.py`` checks it against ``observation``)."""
        self._hands = list(hand.dealt)  # the Dreamer's: its one card, as observation(dreamer).hand
        self._dealt = list(hand.dealt)
        self._own = [0, 0, 0, 0]
        self._played = 0
        self._elders = hand.elders
        self._dreamer_card = hand.dreamer_card
        self._shown = False  # OBS-1: shown to all only once a hand is won
        self._privileged = hand.privileged
        self._sizes = [1 if s == hand.dreamer else self._hands[s].bit_count() for s in range(4)]
        self._tricks = list(hand.tricks)

    def _seen_so_far(self, hand: Hand) -> None:
        """A hand under way: every view read from ``observation(seat)``."""
        views = [hand.observation(seat) for seat in range(4)]
        public = views[(hand.dreamer + 1) % 4]  # a seat that sees the Dreamer's card only when all do
        self._hands = [view.hand.mask for view in views]
        self._own = [0, 0, 0, 0]
        self._played = 0
        for event in public.events:
            if isinstance(event, Played):
                self._played |= event.mask
            elif isinstance(event, Called):
                self._caller = event.seat
        for seat, view in enumerate(views):
            for event in view.events:
                if isinstance(event, Discarded) and event.seat == seat:
                    self._own[seat] |= event.mask
        self._dealt = [self._hands[s] | self._own[s] | _own_plays(public, s) for s in range(4)]
        self._elders = public.elders.mask
        card = views[hand.dreamer].dreamer_card
        assert card is not None  # the Dreamer always sees its card (OBS-1)
        self._dreamer_card = card
        self._shown = public.dreamer_card is not None
        for play in public.round:
            if isinstance(play, Played):
                self._round_cards[play.seat] |= play.mask
            else:
                self._round_discards[play.seat] += play.count
        self._privileged, self._leader = public.privileged, public.leader
        self._sizes, self._tricks = list(public.hand_sizes), list(public.tricks)
        for index, item in enumerate(public.history):
            own = views[item.seat].history[index].action  # a discard's cards, as their owner sees them
            verb, mask = (DISCARD, 0) if own is None else (own.verb, own.mask)
            self._history.append((item.seat, _VERB_INDEX[verb], mask, item.size))

    def copy(self) -> EncodedHand:
        """An independent copy (the engine's hand copied too), for search."""
        o = object.__new__(EncodedHand)
        game = self.game
        if game is None:
            o.hand, o.game = self.hand.copy(), None
        else:  # the game copied whole (its hand, scores and deals); its hand is this one's while it is played
            o.game = copy.deepcopy(game)
            o.hand = o.game.hand if game.hand is self.hand else self.hand.copy()
        o.pending = None if self.pending is None else PendingDiscard(
            self.pending.allowed, self.pending.count, self.pending.picked)
        o._hands, o._dealt, o._own = list(self._hands), self._dealt, list(self._own)
        o._played, o._elders, o._dreamer_card, o._shown = self._played, self._elders, self._dreamer_card, self._shown
        o._round_cards, o._round_discards = list(self._round_cards), list(self._round_discards)
        o._caller, o._privileged, o._leader = self._caller, self._privileged, self._leader
        o._sizes, o._tricks, o._history = list(self._sizes), list(self._tricks), list(self._history)
        o._cache, o._slots, o._legal = list(self._cache), [None, None, None, None], self._legal
        return o

    @property
    def to_act(self) -> int | None:
        return self.hand.to_act

    @property
    def over(self) -> bool:
        return self.hand.to_act is None

    def legal_bits(self) -> int:
        """The legal ids of the seat to act as a legal-id mask (:mod:`hakka_rl.legal`; 0 when the hand is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = 0 if self.hand.to_act is None else legal_bits_of(self.hand, self.pending)
        return legal

    def legal_ids(self) -> list[int]:
        """The legal ids of the seat to act, ascending (a new list; empty when the hand is over)."""
        legal = self._legal
        return ids_of_bits(self.legal_bits() if legal is None else legal)

    def legal_mask(self) -> Mask:
        """A 0/1 vector of ``NUM_ACTIONS`` int8: 1 for each legal id (a new array)."""
        legal = self._legal
        return mask_of_bits(self.legal_bits() if legal is None else legal)

    # ------------------------------------------------------------ tensors

    def observation_tensor(self, seat: int) -> Tensor:
        """``seat``'s observation tensor (a new array, ``OBSERVATION_SIZE`` float32, its own buffer)."""
        data = self._cache[seat]
        if data is None:
            data = self._cache[seat] = self._observation(seat)
        return np.frombuffer(bytearray(data), _F32)  # a writable copy of the bytes: cheaper than ndarray.copy

    def observation_view(self, seat: int) -> Tensor:
        """``seat``'s observation tensor, read-only (no copy: to copy from)."""
        data = self._cache[seat]
        if data is None:
            data = self._cache[seat] = self._observation(seat)
        return np.frombuffer(data, _F32)  # read-only: the bytes are immutable

    def _observation(self, seat: int) -> bytes:
        """The tensor as the bytes of its float32 values (from tables: every value is a small count),
        joined and read by numpy at once: a conversion of each value would cost more than the rest."""
        hand = self.hand
        pending = self.pending
        if pending is not None and pending.picked and hand.to_act == seat:
            picked, left = mask_bytes(pending.picked), pending.left
        else:
            picked, left = _NO_CARDS, 0
        dreamer = 1 << self._dreamer_card if self._shown or seat == hand.dreamer else 0
        rc, discards, sizes, tricks = self._round_cards, self._round_discards, self._sizes, self._tricks
        s1, s2, s3 = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
        f, known, oh, c, top = _FLOAT, _MASK_BYTES.get, _SEEN_FROM[seat], _BYTE_BITS, _TOP_BITS
        # the hand and the cards played change at nearly every move: joined from 8-card chunks
        h0, h1, h2, h3, h4 = self._hands[seat].to_bytes(5, "little")
        p0, p1, p2, p3, p4 = self._played.to_bytes(5, "little")
        parts = (  # the other masks recur: mask_bytes(), its cache asked directly first
            c[h0], c[h1], c[h2], c[h3], top[h4], picked, c[p0], c[p1], c[p2], c[p3], top[p4],
            known(self._own[seat]) or mask_bytes(self._own[seat]),
            known(self._elders) or mask_bytes(self._elders), known(dreamer) or mask_bytes(dreamer),
            known(rc[seat]) or mask_bytes(rc[seat]), known(rc[s1]) or mask_bytes(rc[s1]),
            known(rc[s2]) or mask_bytes(rc[s2]), known(rc[s3]) or mask_bytes(rc[s3]),
            f[discards[seat]], f[discards[s1]], f[discards[s2]], f[discards[s3]],
            _PHASE_BYTES[hand.phase],
            oh[hand.to_act], oh[hand.dealer], oh[self._privileged], oh[self._caller], oh[self._leader],
            f[sizes[seat]], f[sizes[s1]], f[sizes[s2]], f[sizes[s3]],
            f[tricks[seat]], f[tricks[s1]], f[tricks[s2]], f[tricks[s3]], f[left],
        )
        return b"".join(parts)

    JOINED: Final = ("hand", "picked", "played", "own_discards", "elders", "dreamer_card", "round_cards",
                     "round_discards", "phase", "to_act", "dealer", "privileged", "caller", "leader", "hand_sizes",
                     "tricks", "picks_left")
    """The pieces :meth:`_observation` joins, in its order: the layout's (``tests/rl/test_layout.py``)."""

    def information_state_tensor(self, seat: int) -> Tensor:
        """``seat``'s information-state tensor (a new array, ``INFORMATION_STATE_SIZE`` float32)."""
        row = np.empty(INFORMATION_STATE_SIZE, dtype=np.float32)
        row[:OBSERVATION_SIZE] = self.observation_view(seat)
        row[DEALT:HISTORY] = np.frombuffer(mask_bytes(self._dealt[seat]), dtype=np.float32)
        row[HISTORY:] = self._history_slots(seat)
        return row

    def _history_slots(self, seat: int) -> Tensor:
        """``seat``'s history slots, written only for the actions made since it last asked."""
        slots = self._slots[seat]
        if slots is None:
            table, done = np.zeros((MAX_HISTORY, SLOT), dtype=np.float32), 0
        else:
            table, done = slots
        for index in range(done, len(self._history)):
            who, verb, mask, size = self._history[index]
            slot = table[index]
            slot[(who - seat) & 3] = 1.0
            slot[SLOT_VERB + verb] = 1.0
            if mask and (verb != _DISCARD_VERB or who == seat):  # a discard's cards show to their owner only
                slot[SLOT_CARDS + card_indices(mask)] = 1.0
            slot[SLOT_COUNT] = size
        self._slots[seat] = (table, len(self._history))
        return table.reshape(MAX_HISTORY * SLOT)

    # ------------------------------------------------------------ moves

    def apply_id(self, action: int) -> tuple[Event, ...]:
        """Make the move of id ``action`` for the seat to act; return the events the engine reported."""
        seat = self.hand.to_act
        if seat is None:
            raise EncodingError(f"the hand is over: no seat may act (id {action})")
        legal = self._legal
        if legal is None:
            legal = self.legal_bits()
        if type(action) is not int or not 0 <= action < NUM_ACTIONS or not legal >> action & 1:
            action = self._checked(seat, action, legal)
        self._legal = None
        if action >= PICK_BASE:
            return self._pick(seat, action - PICK_BASE)
        engine_action = ID_ACTION[action]
        assert engine_action is not None
        events = self.hand.apply(seat, engine_action) if self.game is None else self.game.apply(seat, engine_action)
        self.update(events)
        return events

    def _checked(self, seat: int, action: int, legal: int) -> int:
        """``action`` as a plain ``int`` if it is a legal id (an ``int`` subclass), else the error saying why."""
        legal_text = ", ".join(f"{i} ({describe(i)})" for i in self.legal_ids())
        try:
            action = check_id(action)
        except EncodingError as error:
            raise EncodingError(f"seat {seat}: {error}; legal ids: {legal_text}") from None
        if legal >> action & 1:
            return action
        raise EncodingError(f"id {action} ({describe(action)}) is not legal for seat {seat} now; legal ids: "
                            + legal_text)

    def _pick(self, seat: int, card: int) -> tuple[Event, ...]:
        pending = self.pending
        if pending is None:
            option = self.hand.legal_actions().discard
            assert option is not None  # a pick is legal only with a discard option
            pending = self.pending = PendingDiscard(option.allowed, option.count)
        pending.picked |= 1 << card
        left = pending.left
        if left:  # only the picker's tensor shows its picks: two values of it change, the last one included
            cached = self._cache[seat]
            if cached is not None:
                at = 4 * (PICKED + card)
                cached = cached[:at] + _FLOAT[1] + cached[at + 4:_PICKS_LEFT_AT] + _FLOAT[left]
            self._cache[seat] = cached
            return ()
        picked = pending.picked
        self.pending = None
        action = discard_action(picked)  # the engine's own cached action
        events = self.hand.apply(seat, action) if self.game is None else self.game.apply(seat, action)
        self.update(events)
        return events

    def update(self, events: Iterable[Event]) -> None:
        """Bring every seat's view up to date with ``events`` (those a move just returned)."""
        history = self._history
        for event in events:
            if isinstance(event, Played):  # the commonest event first
                seat, mask = event.seat, event.mask
                size = mask.bit_count()
                self._hands[seat] &= ~mask
                self._played |= mask
                self._round_cards[seat] |= mask
                self._sizes[seat] -= size
                history.append((seat, _PLAY_VERB, mask, size))
            elif isinstance(event, Discarded):
                seat, mask, size = event.seat, event.mask, event.count
                self._hands[seat] &= ~mask
                self._own[seat] |= mask
                self._round_discards[seat] += size
                self._sizes[seat] -= size
                history.append((seat, _DISCARD_VERB, mask, size))
            elif isinstance(event, RoundWon):
                self._tricks[event.seat] += event.tricks
                self._new_round()
                self._leader = None
            elif isinstance(event, EldersPromoted):
                self._elders |= event.mask
            elif isinstance(event, HandEnded):
                self._new_round()
                self._shown = self._shown or event.result.winner is not None  # OBS-1: a won hand shows it
            else:
                if isinstance(event, Called):
                    self._caller = event.seat
                    if event.privileged:
                        self._privileged = event.seat
                action = event.action
                if action is not None and isinstance(event, SeatEvent):
                    history.append((event.seat, _VERB_INDEX[action.verb], 0, 0))
        if len(history) > MAX_HISTORY:
            raise EncodingError(f"a hand of more than {MAX_HISTORY} actions: the history slots are full")
        hand = self.hand
        if hand.phase is not _PLAYING:
            self._leader = None
        elif self._leader is None:
            self._leader = hand.to_act  # a new round: its leader is the first to act
        self._cache = [None, None, None, None]

    def _new_round(self) -> None:
        self._round_cards, self._round_discards = [0, 0, 0, 0], [0, 0, 0, 0]


_FLOAT: Final = tuple(np.float32(n).tobytes() for n in range(256))
"""``_FLOAT[n]``: the 4 bytes of float32 ``n`` (every value of a tensor is a count below 256)."""
_BYTE_BITS: Final = tuple(b"".join(_FLOAT[(b >> i) & 1] for i in range(8)) for b in range(256))
"""``_BYTE_BITS[b]``: 8 cards' float32 0/1 values, card ``i`` of the 8 set when bit ``i`` of ``b`` is."""
_TOP_BITS: Final = tuple(chunk[:20] for chunk in _BYTE_BITS[:32])
"""The same for the last 5 cards (32-36)."""
_MASK_BYTES: dict[int, bytes] = {}


def mask_bytes(mask: int) -> bytes:
    """A card mask as 37 float32 values (0 or 1, one a card in card order), as bytes (cached: masks recur)."""
    found = _MASK_BYTES.get(mask)
    if found is None:
        bits = _BYTE_BITS
        found = (bits[mask & 255] + bits[mask >> 8 & 255] + bits[mask >> 16 & 255] + bits[mask >> 24 & 255]
                 + _TOP_BITS[mask >> 32])
        if len(_MASK_BYTES) >= 1 << 16:
            _MASK_BYTES.clear()
        _MASK_BYTES[mask] = found
    return found


_ONE_HOT: Final = tuple(b"".join(_FLOAT[int(i == rel)] for i in range(4)) for rel in range(4))
_NOBODY: Final = _FLOAT[0] * 4
_PHASE_BYTES: Final = {phase: b"".join(_FLOAT[int(i == j)] for j in range(len(PHASES)))
                       for i, phase in enumerate(PHASES)}
_MASKS: dict[int, Mask] = {}
"""Read-only legal masks by their legal-id masks (copied out: a copy costs a quarter of making one)."""


def mask_of_bits(bits: int) -> Mask:
    """The 0/1 int8 vector of ``NUM_ACTIONS`` values of a legal-id mask (a new array)."""
    flags = _MASKS.get(bits)
    if flags is None:
        picks = bits >> PICK_BASE
        if picks and not bits & _BELOW_PICKS:  # picks only (4 in 5 never seen before): made, not cached
            c = _INT8_BITS
            return np.frombuffer(bytearray(b"".join((
                _NO_PLAYS, c[picks & 255], c[picks >> 8 & 255], c[picks >> 16 & 255], c[picks >> 24 & 255],
                c[picks >> 32][:5]))), _I8)
        flags = np.zeros(NUM_ACTIONS, dtype=np.int8)
        flags[ids_of_bits(bits)] = 1
        flags.flags.writeable = False
        if len(_MASKS) >= 1 << 14:
            _MASKS.clear()
        _MASKS[bits] = flags
    return flags.copy()
_F32: Final = np.dtype(np.float32)
_I8: Final = np.dtype(np.int8)
_INT8_BITS: Final = tuple(bytes((b >> i) & 1 for i in range(8)) for b in range(256))
"""``_INT8_BITS[b]``: 8 int8 0/1 values, value ``i`` set when bit ``i`` of ``b`` is."""
_NO_PLAYS: Final = bytes(PICK_BASE)
_BELOW_PICKS: Final = (1 << PICK_BASE) - 1


_SEEN_FROM: Final = tuple({who: _NOBODY if who is None else _ONE_HOT[(who - seat) & 3] for who in (0, 1, 2, 3, None)}
                          for seat in range(4))
"""``_SEEN_FROM[seat][who]``: the one-hot bytes of seat ``who`` relative to ``seat`` (``None``: nobody)."""


def _own_plays(seen: Observation, seat: int) -> int:
    mask = 0
    for event in seen.events:
        if isinstance(event, Played) and event.seat == seat:
            mask |= event.mask
    return mask


_PLAY_VERB: Final = _VERB_INDEX["play"]
_PICKS_LEFT_AT: Final = 4 * PICKS_LEFT
_NO_CARDS: Final = mask_bytes(0)
assert _PICKS_LEFT_AT + 4 == 4 * OBSERVATION_SIZE  # the count of picks left is the tensor's last value
