"""Which rule outcomes a finished hand reached: the map a fuzzer steers by.

An *outcome class* is one way a rule can resolve: each row of the score table
(SCORE-1), each way a hand ends, the Five Tigers (TIG-1), each case of who pays
when there is a Privileged Player (SCORE-6, D29), each Dreamer count (SCORE-4),
a claim declined (CLAIM-1, D21) and one declined then taken, a Set of 1s
beaten (PAT-4, D16), each rule a refused action was refused by. A random
player meets most of them in a few hundred hands and some almost never (a
12-trick claim); a coverage-guided fuzzer counts which it has met and steers
toward the others.

Pure: it reads a hand's event log (:func:`event_outcomes`; the events a
harness parsed from the protocol's answers will do) and, for refusals, the
rules named by the errors the caller saw; it changes nothing.

>>> from reference_engine.hand import Hand
>>> hand = Hand.from_seed(dealer=0, seed=3)
>>> for seat in (0, 1, 3):
...     _ = hand.apply(seat, "pass")
>>> sorted(hand_outcomes(hand))
['end:void']
>>> len(outcome_classes()) > 30
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .cards import DECK_SIZE, FULL_DECK, NUMBER_MASKS, WAN_SIN_BIT
from .events import (
    Called,
    ClaimDeclined,
    ClaimMade,
    Discarded,
    Event,
    HandDealt,
    HandEnded,
    Played,
    RoundWon,
    TigersDeclined,
)
from .hand import Hand
from .patterns import SET, PatternTables, tables_for
from .profile import DEFAULT_PROFILE, Profile
from .scoring import SCORE_TABLE, HandResult, dreamer_count


@dataclass(frozen=True, slots=True)
class OutcomeClass:
    """One outcome a hand can reach, the clause (or decision) it belongs to, and what it means."""

    id: str
    rule: str
    description: str


END_KINDS: Final = ("claim", "five-tigers", "played-out", "void")
"""Every ``end`` of a hand result (spec/README.md "Hand results"; the protocol's handResult enum)."""

ONES: Final = NUMBER_MASKS[1] | WAN_SIN_BIT

REFUSAL_RULES: Final[tuple[tuple[str, str], ...]] = (
    ("DEAL-3", "the Dreamer tries to act"),
    ("CALL-1", "out of turn, or not call/pass, during Calling"),
    ("CALL-5", "call or pass after Calling"),
    ("PLAY-2", "a card not held, or a lead that discards"),
    ("PLAY-3", "out of turn, or a follow of another pattern or size"),
    ("PLAY-4", "a discard of the wrong size, or by a follower who can beat"),
    ("PAT-2", "a Run that does not beat the Run on the table"),
    ("PAT-4", "a Set that does not beat the Set on the table"),
    ("PAT-5", "a lead Single not from the top suit"),
    ("PAT-6", "a Single that does not beat the Single on the table"),
    ("PAT-7", "cards that are no pattern"),
    ("ELD-4", "an Elder led while non-Elders of the top suit remain"),
    ("ELD-5", "the Privileged Player leads an Elder its privilege does not cover (D11)"),
    ("D8", "a follower's discard outside the top suit (D8 followers-too)"),
    ("CLAIM-1", "claim or continue when no claim is open, or another action when one is"),
    ("TIG-1", "tigers or decline out of place, or another action when they are due"),
    ("CARDS-1", "a card named twice"),
    ("malformed", "text that is not an action"),
)
"""The rules an engine names when it refuses an action in a hand in progress (Hand._explain)."""


def _refusal_applies(rule: str, profile: Profile) -> bool:
    if rule == "ELD-5":
        return profile.privilege != "any-elder"  # D11: any Elder is covered by default
    if rule == "D8":
        return profile.follower_suit_rule == "followers-too"
    return True


def _dreamer_counts(profile: Profile) -> range:
    """SCORE-4, D25, D27: every count the Dreamer can wake with, as the rule itself counts it
    (:func:`~reference_engine.scoring.dreamer_count`): from a winning hand matching none of the
    Dreamer's card to one holding every other card of the deck."""
    fewest = min(dreamer_count(card, 0, profile) for card in range(DECK_SIZE))
    most = max(dreamer_count(card, FULL_DECK & ~(1 << card), profile) for card in range(DECK_SIZE))
    return range(fewest, most + 1)


def outcome_classes(profile: Profile = DEFAULT_PROFILE) -> tuple[OutcomeClass, ...]:
    """Every outcome class a hand can reach under ``profile``, in a stable order."""
    out = [OutcomeClass(f"end:{end}", rule, text) for end, rule, text in (
        ("claim", "CLAIM-2", "a claim ends the hand"),
        ("five-tigers", "TIG-1", "the Five Tigers win the hand"),
        ("played-out", "PLAY-8", "the cards run out with no claim"),
        ("void", "CALL-6", "nobody calls"),
    )]
    out += [OutcomeClass(f"score:{t}", "SCORE-1", f"a claim of {t} tricks scores {v}") for t, v in SCORE_TABLE.items()]
    out += [OutcomeClass(f"dreamer-count:{c}", "SCORE-4", f"the Dreamer wakes with {c}") for c in _dreamer_counts(profile)]
    out += [
        OutcomeClass("pp:none", "CALL-4", "a hand won when the Dealer called (no Privileged Player)"),
        OutcomeClass("pp:wins", "SCORE-6", "the Privileged Player wins"),
        OutcomeClass("pp:loses", "SCORE-6", "the Privileged Player loses and pays for the other loser (D29)"),
        OutcomeClass("claim:with-elders", "CLAIM-1", "a claim counting Elders in hand besides tricks (D22)"),
        OutcomeClass("follow:discard", "PLAY-4", "a follower discards face down"),
        OutcomeClass("set-of-ones:beaten", "PAT-4", "a Set of 1s is beaten (D16 below-nines)"),
    ]
    if profile.claim_mode == "optional":
        out += [
            OutcomeClass("claim:declined", "CLAIM-1", "a seat that may claim continues instead (D21)"),
            OutcomeClass("claim:declined-then-taken", "CLAIM-1", "a claim is taken after one was declined"),
        ]
    if profile.five_tigers != "automatic":
        out.append(OutcomeClass("tigers:declined", "TIG-1", "the Five Tigers holder declines (D24)"))
    out += [OutcomeClass(f"refusal:{rule}", rule, f"refused: {text}")
            for rule, text in REFUSAL_RULES if _refusal_applies(rule, profile)]
    return tuple(out)


def refusal_outcome(rule: str | None) -> str:
    """The outcome id of a refusal naming ``rule`` (``None``: a malformed action)."""
    return f"refusal:{rule or 'malformed'}"


def hand_outcomes(hand: Hand, refused_rules: Iterable[str | None] = ()) -> frozenset[str]:
    """The outcome ids ``hand`` reached (plus one per rule in ``refused_rules``): those of its events."""
    return event_outcomes(hand.events, hand.profile, refused_rules)


def event_outcomes(events: Iterable[Event], profile: Profile = DEFAULT_PROFILE,
                   refused_rules: Iterable[str | None] = ()) -> frozenset[str]:
    """The outcome ids a hand reached, read from its event log alone (plus one per rule in ``refused_rules``).

    ``events`` are a hand's (:attr:`Hand.events <reference_engine.hand.Hand.events>`, or the
    events of its moves parsed with :func:`~reference_engine.events.parse_event`), played under
    ``profile``. A game's log may be given whole: each deal starts afresh, and the outcomes of
    every hand are gathered.
    """
    reached = {refusal_outcome(rule) for rule in refused_rules}
    tables = tables_for(profile)
    _Reader(reached, tables).read(events)
    return frozenset(reached)


class _Reader:
    """Walks an event log once, hand by hand, adding the outcome ids it meets."""

    def __init__(self, reached: set[str], tables: PatternTables) -> None:
        self.reached = reached
        self.tables = tables
        self._new_hand()

    def _new_hand(self) -> None:
        self.privileged: int | None = None
        self.tricks = [0, 0, 0, 0]
        self.declined = False
        self.best: tuple[int, int] | None = None  # the round's best play so far: (mask, rank)

    def read(self, events: Iterable[Event]) -> None:
        add = self.reached.add
        for event in events:
            if isinstance(event, Played):
                self._played(event)
            elif isinstance(event, RoundWon):
                self.tricks[event.seat] += event.tricks
                self.best = None
            elif isinstance(event, Called):
                self.privileged = event.seat if event.privileged else None
            elif isinstance(event, Discarded):
                add("follow:discard")
            elif isinstance(event, ClaimDeclined):
                self.declined = True
                add("claim:declined")
            elif isinstance(event, ClaimMade) and self.declined:
                add("claim:declined-then-taken")
            elif isinstance(event, TigersDeclined):
                add("tigers:declined")
            elif isinstance(event, HandEnded):
                self._ended(event.result)
            elif isinstance(event, HandDealt):
                self._new_hand()

    def _played(self, event: Played) -> None:
        """PAT-4, D16: a Set of 1s, the round's best, beaten by a later Set of the round.

        A Set that follows beat what it had to (D13); whether it is now the round's best is
        a matter of rank. Nothing else follows a Set (PLAY-3), so no other best needs tracking.
        """
        rank = self.tables.classify(event.mask)[1]
        best = self.best
        if best is None:
            self.best = (event.mask, rank)
        elif event.kind == SET and self.tables.rank_beats(SET, rank, best[1]):
            if best[0] & ~ONES == 0 and best[0].bit_count() >= 2:
                self.reached.add("set-of-ones:beaten")
            self.best = (event.mask, rank)

    def _ended(self, result: HandResult) -> None:
        add = self.reached.add
        add(f"end:{result.end}")
        if result.winner is None:
            return
        if result.end == "claim" and result.tricks is not None:
            add(f"score:{result.tricks}")
            if result.tricks > self.tricks[result.winner]:
                add("claim:with-elders")
        if result.dreamer_count is not None:
            add(f"dreamer-count:{result.dreamer_count}")
        if self.privileged is None:
            add("pp:none")
        elif self.privileged == result.winner:
            add("pp:wins")
        else:
            add("pp:loses")
