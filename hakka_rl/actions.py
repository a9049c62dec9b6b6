"""Stable action ids for learning environments: 248 ids, one table (issue 18).

An id is an ``int`` in ``0 .. NUM_ACTIONS - 1``; the table never changes
with the decision options (an id that a profile never allows is simply never
legal under it):

=========  =====  ==============================================================
ids        count  meaning
=========  =====  ==============================================================
0 - 5      6      verbs without cards: ``call``, ``pass``, ``claim``,
                  ``continue``, ``tigers``, ``decline`` (in that order)
6 - 42     37     ``play`` of a Single: id ``6 + card`` (card index 0-36:
                  Sup1..Sup9, Gon1..Gon9, Zok1..Zok9, Sin1..Sin9, WanSin)
43 - 154   112    ``play`` of a Run (PAT-1): by suit (Sup, Gon, Zok, Sin), then
                  length 3..9, then lowest number (28 a suit)
155 - 199  45     ``play`` of a Set of number 1..9 (PAT-3): for each number
                  its four 3-card Sets (the suit left out: Sup, Gon, Zok, Sin),
                  then the 4-card Set
200 - 210  11     ``play`` of a Set of 1s holding Wan Sin (D17 ``yes`` only):
                  Wan Sin with 2, 3 then 4 suited 1s, in canonical card order
211 - 247  37     a discard *pick*: id ``211 + card`` (see below)
=========  =====  ==============================================================

A discard (PLAY-4) is "any k of these n cards": up to 924 concrete choices.
Here it is k successive picks of one card each by the same seat, **in
increasing card order**, so that each concrete discard is exactly one
sequence of picks (the mask after j picks allows only cards above the last
one picked and leaves enough cards for the picks still to come: the C(n, k)
discards and the pick sequences are in one-to-one correspondence). The first
pick commits the seat to discarding; the engine sees one ``discard`` action
when the k-th pick is made. A partial discard is a state held *above* the
engine, by :class:`hakka_rl.encoding.EncodedHand`.

>>> from reference_engine import Action, LegalActions
>>> action_id(Action.parse("call")), action_id(Action.parse("play Gon5"))
(0, 19)
>>> action_id(Action.parse("play Sup1 Sup2 Sup3")), str(action_of(43))
(43, 'play Sup1 Sup2 Sup3')
>>> discard_ids(Action.parse("discard Gon7 Sup2"))
(212, 226)
>>> describe(247)
'pick WanSin'
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable
from itertools import combinations
from typing import Final

from reference_engine import Action, LegalActions
from reference_engine.actions import CALL, CLAIM, CONTINUE, DECLINE, DISCARD, PASS, PLAY, TIGERS
from reference_engine.cards import NAMES, WAN_SIN, card_index

VERB_ACTIONS: Final = (CALL, PASS, CLAIM, CONTINUE, TIGERS, DECLINE)
"""The verbs without cards, in id order (ids 0-5)."""
SINGLE_BASE: Final = len(VERB_ACTIONS)
RUN_BASE: Final = SINGLE_BASE + 37


def _runs() -> list[int]:
    runs = []
    for suit in range(4):
        for length in range(3, 10):
            for low in range(1, 11 - length):
                runs.append(sum(1 << card_index(suit, n) for n in range(low, low + length)))
    return runs


def _sets() -> list[int]:
    sets = []
    for number in range(1, 10):
        suited = [1 << card_index(suit, number) for suit in range(4)]
        for left_out in range(4):  # the 3-card Sets, by the suit left out (Sup first)
            sets.append(sum(bit for s, bit in enumerate(suited) if s != left_out))
        sets.append(sum(suited))
    return sets


def _wan_sin_sets() -> list[int]:
    ones = [1 << card_index(suit, 1) for suit in range(4)]
    return [(1 << WAN_SIN) | sum(combo) for k in (2, 3, 4) for combo in combinations(ones, k)]


_RUNS: Final = _runs()
SET_BASE: Final = RUN_BASE + len(_RUNS)
_SETS: Final = _sets()
WAN_SIN_SET_BASE: Final = SET_BASE + len(_SETS)
_WAN_SIN_SETS: Final = _wan_sin_sets()
PICK_BASE: Final = WAN_SIN_SET_BASE + len(_WAN_SIN_SETS)
NUM_ACTIONS: Final = PICK_BASE + 37

PLAY_MASKS: Final[tuple[int, ...]] = (*(1 << c for c in range(37)), *_RUNS, *_SETS, *_WAN_SIN_SETS)
"""``PLAY_MASKS[id - SINGLE_BASE]``: the card mask of each play id."""
PLAY_ID: Final[dict[int, int]] = {mask: SINGLE_BASE + i for i, mask in enumerate(PLAY_MASKS)}
"""A play's card mask → its id."""
VERB_ID: Final[dict[str, int]] = {verb: i for i, verb in enumerate(VERB_ACTIONS)}
ID_ACTION: Final[tuple[Action | None, ...]] = (
    *(Action(verb) for verb in VERB_ACTIONS), *(Action(PLAY, mask) for mask in PLAY_MASKS), *([None] * 37))
"""``ID_ACTION[id]``: the engine action of a verb or play id; ``None`` for a pick."""

assert (SINGLE_BASE, RUN_BASE, SET_BASE, WAN_SIN_SET_BASE, PICK_BASE, NUM_ACTIONS) == (6, 43, 155, 200, 211, 248)
assert len(PLAY_ID) == len(PLAY_MASKS)  # no mask twice


class EncodingError(ValueError):
    """An id or an action outside the table, or a move the encoding cannot express."""


def action_id(action: Action) -> int:
    """The id of a verb or a play; a discard has several (:func:`discard_ids`)."""
    verb, mask = action.verb, action.mask
    if verb == PLAY:
        found = PLAY_ID.get(mask)
        if found is None:
            raise EncodingError(f"{action} is no Run, Set or Single of the action table (PAT-1, PAT-3, PAT-5)")
        return found
    if verb == DISCARD:
        raise EncodingError(f"{action} is a discard: it is {mask.bit_count()} picks (discard_ids), not one id")
    return VERB_ID[verb]


def discard_ids(action: Action) -> tuple[int, ...]:
    """The picks of a discard, in the increasing card order the encoding requires."""
    verb, mask = action.verb, action.mask
    if verb != DISCARD:
        raise EncodingError(f"{action} is not a discard")
    ids = []
    while mask:
        low = mask & -mask
        ids.append(PICK_BASE + low.bit_length() - 1)
        mask ^= low
    return tuple(ids)


def encode_action(action: Action) -> tuple[int, ...]:
    """Every id that makes ``action``: one for a verb or a play, k picks for a discard of k cards."""
    return discard_ids(action) if action.verb == DISCARD else (action_id(action),)


def as_int(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is an integer (``int`` or a numpy integer, never a ``bool``), else ``None``."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__") or type(value).__name__ == "bool_":
        return None
    return operator.index(value)  # type: ignore[arg-type]  # it has __index__


def check_id(action: object) -> int:
    """``action`` as a plain ``int`` if it is an id 0 .. NUM_ACTIONS - 1 (numpy integers too), else the error."""
    found = as_int(action)
    if found is None or not 0 <= found < NUM_ACTIONS:
        raise EncodingError(f"{action!r} is not an action id (an integer 0-{NUM_ACTIONS - 1})")
    return found


def action_of(action: int) -> Action:
    """The engine action of a verb or play id (a pick is no action on its own: :func:`pick_card`)."""
    found = ID_ACTION[check_id(action)]
    if found is None:
        raise EncodingError(f"id {action} is a discard pick ({describe(action)}), not an action on its own")
    return found


def is_pick(action: int) -> bool:
    return action >= PICK_BASE


def pick_card(action: int) -> int:
    """The card index (0-36) a pick id picks."""
    if not PICK_BASE <= check_id(action) < NUM_ACTIONS:
        raise EncodingError(f"id {action} is not a discard pick ({PICK_BASE}-{NUM_ACTIONS - 1})")
    return action - PICK_BASE


def describe(action: int) -> str:
    """A human-readable text for an id: the action's text, or ``pick CARD``."""
    if is_pick(check_id(action)):
        return f"pick {NAMES[action - PICK_BASE]}"
    return str(ID_ACTION[action])


def next_picks(allowed: int, count: int, picked: int) -> int:
    """The cards (a mask) that may be picked next in a discard of ``count`` cards of ``allowed``,
    ``picked`` being the cards picked so far: above the last one picked, and leaving enough for the rest."""
    left = count - picked.bit_count()
    if left <= 0:
        return 0
    above = allowed & ~((1 << picked.bit_length()) - 1)
    for _ in range(left - 1):  # the highest left - 1 candidates must stay for the later picks
        if not above:
            break
        above &= ~(1 << (above.bit_length() - 1))
    return above


def engine_actions(steps: Iterable[tuple[int, int]]) -> list[tuple[int, Action]]:
    """The engine's ``(seat, action)`` moves of a sequence of ``(seat, id)`` steps: each run of picks by
    one seat is one ``discard`` (a seat that discards is never the next to act, so runs cannot merge)."""
    moves: list[tuple[int, Action]] = []
    picking: int | None = None
    picked = 0
    for seat, step in steps:
        if picking is not None and (seat != picking or not is_pick(step)):
            moves.append((picking, Action(DISCARD, picked)))
            picking, picked = None, 0
        if is_pick(check_id(step)):
            picking = seat
            picked |= 1 << pick_card(step)
        else:
            moves.append((seat, action_of(step)))
    if picking is not None:
        moves.append((picking, Action(DISCARD, picked)))
    return moves


def random_action(legal: LegalActions, rng: random.Random) -> Action:
    """One of ``legal``, each action and the discard option equally likely (the discard's cards at random)."""
    count = len(legal.actions) + (legal.discard is not None)
    pick = rng.randrange(count)
    if pick < len(legal.actions):
        return legal.actions[pick]
    option = legal.discard
    assert option is not None
    cards = [c for c in range(37) if option.allowed >> c & 1]
    return Action(DISCARD, sum(1 << c for c in rng.sample(cards, option.count)))
