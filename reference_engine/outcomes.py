"""Which rule outcomes a finished hand reached: the map a fuzzer steers by.

An *outcome class* is one way a rule can resolve: each row of the score table
(SCORE-1), each way a hand ends, the Five Tigers (TIG-1), each case of who pays
when there is a Privileged Player (SCORE-6, D29), each Dreamer count (SCORE-4),
a claim declined (CLAIM-1, D21) and one declined then taken, a Set of 1s
beaten (PAT-4, D16), each rule a refused action was refused by. A random
player meets most of them in a few hundred hands and some almost never (a
12-trick claim); a coverage-guided fuzzer counts which it has met and steers
toward the others.

Pure: it reads a finished :class:`~reference_engine.hand.Hand` (its result,
roles, history) and, for refusals, the rules named by the errors the caller
saw; it changes nothing.

>>> from reference_engine.hand import Hand
>>> hand = Hand.from_seed(dealer=0, seed=3)
>>> for seat in (0, 1, 3):
...     hand.apply(seat, "pass")
>>> sorted(hand_outcomes(hand))
['end:void']
>>> len(outcome_classes()) > 30
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .actions import CLAIM, CONTINUE, DECLINE, DISCARD, PLAY
from .cards import NUMBER_MASKS, WAN_SIN_BIT
from .hand import Hand
from .patterns import SET
from .profile import DEFAULT_PROFILE, Profile
from .scoring import SCORE_TABLE


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
    """SCORE-4, D25, D27: 5 (or 0) plus 0-3 matching cards, 0-4 when the Dreamer's card is a 1 or Wan Sin."""
    base = 5 if profile.dreamer_count == "five-plus-matches" else 0
    most = 4 if profile.dreamer_wan_sin == "number-one" else 3
    return range(base, base + most + 1)


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
    """The outcome ids ``hand`` reached (plus one per rule in ``refused_rules``)."""
    reached = {refusal_outcome(rule) for rule in refused_rules}
    result = hand.result
    history = hand.history
    declined = False
    for _seat, action in history:
        verb = action.verb
        if verb == CONTINUE:
            declined = True
            reached.add("claim:declined")
        elif verb == CLAIM and declined:
            reached.add("claim:declined-then-taken")
        elif verb == DISCARD:
            reached.add("follow:discard")
        elif verb == DECLINE:
            reached.add("tigers:declined")
    if result is not None:
        reached.add(f"end:{result.end}")
        if result.winner is not None:
            if result.end == "claim" and result.tricks is not None:
                reached.add(f"score:{result.tricks}")
                if result.tricks > hand.tricks[result.winner]:
                    reached.add("claim:with-elders")
            if result.dreamer_count is not None:
                reached.add(f"dreamer-count:{result.dreamer_count}")
            if hand.privileged is None:
                reached.add("pp:none")
            elif hand.privileged == result.winner:
                reached.add("pp:wins")
            else:
                reached.add("pp:loses")
    if _set_of_ones_beaten(hand):
        reached.add("set-of-ones:beaten")
    return frozenset(reached)


def _set_of_ones_beaten(hand: Hand) -> bool:
    """Was a Set of 1s the best play of a round and then beaten in it? Replays the hand (rarely needed)."""
    tables = hand.tables
    if not any(a.verb == PLAY and a.mask & ~ONES == 0 and a.mask.bit_count() >= 2
               and tables.classify(a.mask)[0] == SET for _s, a in hand.history):
        return False
    replay = type(hand).deal(hand.dealer, list(hand.dealt), hand.profile)
    for seat, action in hand.history:
        following = replay.phase == "playing" and replay.acted > 0
        ones_best = following and replay.best_mask & ~ONES == 0 and replay.best_mask.bit_count() >= 2
        replay.apply(seat, action)  # best_mask keeps the round's best even once the round is over
        if ones_best and action.verb == PLAY and replay.best_mask == action.mask:
            return True
    return False
