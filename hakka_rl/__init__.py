"""Hakka Cards for game-AI research: stable action ids, tensors, and environments (issue 18).

A product of the top layer of the project's architecture: it uses the reference
engine's public API only (``Hand``, ``observation(seat)``, the events a move
returns, the legal actions). Installed with the ``[rl]`` extra (numpy,
pettingzoo, gymnasium, open_spiel); :mod:`hakka_rl.actions` and
:mod:`hakka_rl.encoding` need numpy only.

>>> from reference_engine import Hand
>>> from hakka_rl import EncodedHand, describe
>>> hand = EncodedHand(Hand.from_seed(dealer=0, seed=7))
>>> [describe(i) for i in hand.legal_ids()]
['call', 'pass']
"""

from .actions import (
    NUM_ACTIONS,
    EncodingError,
    action_id,
    action_of,
    describe,
    discard_ids,
    encode_action,
    engine_actions,
    is_pick,
    pick_card,
)
from .encoding import (
    INFORMATION_STATE_SIZE,
    MAX_HISTORY,
    OBSERVATION_SIZE,
    EncodedHand,
    PendingDiscard,
    encode_observation,
    legal_ids_of,
)

__all__ = [
    "INFORMATION_STATE_SIZE", "MAX_HISTORY", "NUM_ACTIONS", "OBSERVATION_SIZE", "EncodedHand", "EncodingError",
    "PendingDiscard", "action_id", "action_of", "describe", "discard_ids", "encode_action", "encode_observation", "engine_actions",
    "is_pick", "legal_ids_of", "pick_card",
]
