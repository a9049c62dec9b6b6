"""The base that every mutant subclasses.

A mutant embodies one misreading of the rules by overriding ONE method of the
reference :class:`~reference_engine.hand.Hand` (or of its
:class:`~reference_engine.patterns.PatternTables`, chosen through
``Hand.tables_class``). The reference engine states each rule in a small
method named after it (``next_seat``, ``_next_dealer``, ``_follow_pool``,
``_may_discard``, ``_update_elders``, ``_tigers_holder``, ``_claimed_count``,
``_matched_hand``, ``runs_in_hand``, ``rank_beats``, ``single_unbeatable``, ...),
so most mutants override one of those directly.

Two rules are single methods holding several clauses; for them this module
keeps parameterised copies with one switch per clause, so that a mutant flips
one switch rather than rewriting the method:

- :func:`leadable`: which Singles a leader may lead (PAT-5, ELD-4, ELD-5, D9-D11);
- :func:`score_with`: the payments of a won hand (SCORE-1..7, D28, D29, D34).

With no switch flipped, :class:`SeamHand` behaves exactly like the reference
``Hand``; ``tests/mutants/test_catalogue.py`` checks that by differential play,
and ``python -m tests.mutants.report`` runs it against the scenario corpus as
the ``control`` engine. Nothing here is imported by the reference engine or the
runner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from reference_engine.cards import WAN_SIN_BIT
from reference_engine.hand import (
    Hand,
    top_suit_mask,
)
from reference_engine.patterns import PatternTables
from reference_engine.profile import Profile
from reference_engine.scoring import SCORE_TABLE, HandResult, dreamer_count
from reference_engine.wire import Session

__all__ = ["SeamHand", "SeamTables", "leadable", "score_with", "session_for"]


class SeamTables(PatternTables):
    """The base of the pattern-table mutants (the reference tables, unchanged)."""

    __slots__ = ()


def leadable(
    hand: int,
    elders: int,
    profile: Profile,
    *,
    privileged: bool,
    top_suit_rule: bool = True,
    non_elder_first: bool = True,
    privilege: bool = True,
    wan_sin_exempt: bool | None = None,
    top_override: int | None = None,
) -> int:
    """The cards a leader may lead as a Single: the reference's ``leadable_singles``
    with one switch per rule (PAT-5, ELD-4, ELD-5, D9, D10, D11)."""
    exempt = profile.wan_sin_suit == "exempt" if wan_sin_exempt is None else wan_sin_exempt
    wan_sin = hand & WAN_SIN_BIT
    if top_override is not None:
        top = top_override
    elif top_suit_rule:
        top = top_suit_mask(hand)
        if exempt and top == wan_sin:
            top = 0
    else:  # every suit counts as the top suit
        top = hand & ~wan_sin if exempt else hand
    non_elders = top & ~elders
    if non_elders:
        allowed = non_elders
        may_lead_elder = False
        if not non_elder_first:
            allowed = top
            may_lead_elder = True
    elif not top:
        allowed = wan_sin
        may_lead_elder = True
    else:
        allowed = top if profile.elder_only_top_suit == "top-suit-elder" else hand & elders
        may_lead_elder = True
    if privileged and privilege:
        if profile.privilege == "any-elder":
            allowed |= hand & elders
            may_lead_elder = True
        else:
            allowed |= top & elders
    if exempt and may_lead_elder:
        allowed |= wan_sin
    return allowed


def score_with(
    *,
    end: str,
    winner: int,
    tricks: int,
    dealer: int,
    privileged: int | None,
    dreamer_card: int,
    winning_hand: int,
    next_dealer: int,
    profile: Profile,
    table: Mapping[int, int] = SCORE_TABLE,
    dreamer_base: int | None = None,
    dreamer_paid: bool = True,
    dreamer_pays_winner: bool = False,
    penalty_applies: bool = True,
) -> HandResult:
    """:func:`reference_engine.scoring.score_claim` with switches (SCORE-1..7, D28, D29, D34)."""
    dreamer = (dealer + 2) % 4
    losers = [s for s in (dealer, (dealer + 1) % 4, (dealer + 3) % 4) if s != winner]
    tigers_alone = end == "five-tigers" and profile.tigers_scoring == "winner-only"
    value = table.get(tricks, 0)
    count = dreamer_count(dreamer_card, winning_hand, profile)
    if dreamer_base is not None:
        count += dreamer_base - (5 if profile.dreamer_count == "five-plus-matches" else 0)
    dreamer_value = 0 if tigers_alone or not dreamer_paid else table.get(count, 0)
    penalty = penalty_applies and privileged is not None and privileged != winner and not tigers_alone
    deltas = [0, 0, 0, 0]

    def pay(payer: int, payee: int, amount: int) -> None:
        deltas[payer] -= amount
        deltas[payee] += amount

    for loser in losers:
        pay(privileged if penalty and privileged is not None else loser, winner, value)
    if dreamer_pays_winner:
        pay(dreamer, winner, value)
    payers = losers + ([winner] if profile.dreamer_payers == "all-three" else [])
    for payer in payers:
        if penalty and privileged is not None and payer in losers and profile.privileged_penalty == "all-shares":
            payer = privileged
        pay(payer, dreamer, dreamer_value)
    assert sum(deltas) == 0
    return HandResult(end, winner, tricks, count, (deltas[0], deltas[1], deltas[2], deltas[3]), next_dealer, True)


class SeamHand(Hand):
    """The reference :class:`Hand`, leading and scoring through the switchable copies above."""

    __slots__ = ()

    tables_class: ClassVar[type[PatternTables]] = SeamTables

    def leadable_singles(self, seat: int) -> int:
        return leadable(self.hands[seat], self.elders, self.profile, privileged=seat == self.privileged)

    def _score(self, **facts: Any) -> HandResult:
        return score_with(**facts)


MUTANT_COUNT_NODE_LIMIT = 250_000
"""A misreading can make perft explode (a discard always allowed multiplies every
level by up to 220); the reference needs far fewer positions for any count
scenario (tests/mutants/test_catalogue.py checks that), so past this bound the
mutant's `count` is an error, which kills it, instead of a run that never ends."""


def session_for(hand_class: type[Hand], name: str) -> Session:
    """A protocol session whose hands are ``hand_class``, named ``name`` in ``hello``."""
    session = Session(hand_class=hand_class)
    session.name = name  # type: ignore[misc]
    session.count_node_limit = MUTANT_COUNT_NODE_LIMIT
    return session
