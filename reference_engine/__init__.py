"""The Hakka Cards reference engine: pure Python, standard library only, no I/O.

>>> from reference_engine import Hand, Profile
>>> hand = Hand.from_seed(dealer=0, seed=2024, profile=Profile())
>>> hand.apply(0, "call")   # a move returns the events it caused
(Event.parse('0 call'),)
>>> hand.privileged is None   # CALL-4: a Dealer who calls is never the PP
True
"""

__version__ = "0.1.0"

from .actions import Action, DiscardOption, LegalActions
from .cards import COMPILED as COMPILED  # which build is loaded (setup.py)
from .cards import Card, Cards, seeded_deck
from .errors import HakkaError, IllegalActionError, MalformedError, SetupError
from .events import Event, parse_event
from .game import Game
from .hand import Hand, Phase, deal_sequence
from .observation import Observation
from .outcomes import event_outcomes
from .patterns import Kind
from .perft import perft, perft_counts
from .profile import DECISIONS, DEFAULT_PROFILE, Profile
from .rounds import Round
from .rules import DEFAULT_RULES, Rules, beats, classify
from .sampling import NoConsistentDeal, Resampler, SeatView, resample
from .scoring import SCORE_TABLE, HandResult, table_value

__all__ = [
    "Action", "Card", "Cards", "DECISIONS", "DEFAULT_PROFILE", "DEFAULT_RULES", "DiscardOption", "Event", "Game",
    "Hand", "HandResult", "HakkaError", "IllegalActionError", "Kind", "LegalActions",
    "MalformedError", "NoConsistentDeal", "Observation", "Phase", "Profile", "Resampler", "Round", "Rules",
    "SCORE_TABLE", "SeatView", "SetupError", "beats",
    "classify", "deal_sequence", "event_outcomes", "parse_event", "perft", "perft_counts", "resample", "seeded_deck",
    "table_value",
]
