"""Why an action is illegal: the message, the rule it breaks and the position (for errors).

>>> from reference_engine.hand import Hand
>>> hand = Hand.from_seed(dealer=0, seed=1)
>>> error = explain(hand, 1, Action.parse("call"))
>>> str(error), error.position == hand.notation()
("seat 1 'call': it is seat 0's turn, not seat 1's [CALL-1]", True)
"""

from __future__ import annotations

from typing import Final

from .actions import CALL, CLAIM, CONTINUE, DECLINE, DISCARD, PASS, TIGERS, Action
from .cards import NAMES, NUMBER_MASKS, WAN_SIN, WAN_SIN_BIT, mask_text
from .errors import IllegalActionError
from .hand import Hand, Phase, top_suit_mask
from .patterns import NONE, RUN, SET, SINGLE

_BEAT_RULE: Final = {RUN: "PAT-2", SET: "PAT-4", SINGLE: "PAT-6"}


Why = tuple[str, str]
"""A message and the rule it names."""


def explain(hand: Hand, seat: object, action: Action) -> IllegalActionError:
    """Why ``action`` is not legal for ``seat`` now, naming the rule and quoting the position.

    ``seat`` is whatever the caller passed (``object``: compiled, an ``int`` parameter would refuse a
    str with a bare TypeError and take a bool for a seat).
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        return IllegalActionError(f"there is no such seat as {seat!r} (seats are 0-3)", rule="GAME-5",
                                  action=str(action), position=hand.notation())
    why = _turn(hand, seat) or _verb(hand, seat, action.verb)
    if why is None:
        cards = hand.hands[seat]
        if action.mask & ~cards:
            why = f"seat {seat} does not hold {mask_text(action.mask & ~cards)}", "PLAY-2"
        elif hand.acted == 0:
            why = _lead(hand, seat, action)
        else:
            why = _follow(hand, action)
    message, rule = why
    return IllegalActionError(message, rule=rule, seat=seat, action=str(action), position=hand.notation())


def _turn(hand: Hand, seat: int) -> Why | None:
    """GAME-5, DEAL-3, CALL-1, PLAY-3: is it ``seat``'s turn at all?"""
    if hand.phase == Phase.ENDED:
        return "the hand is over", "CLAIM-2" if hand.result and hand.result.winner is not None else "PLAY-8"
    if seat == hand.dreamer:
        return "the Dreamer takes no part in Calling or Playing", "DEAL-3"
    if seat != hand.to_act:
        return f"it is seat {hand.to_act}'s turn, not seat {seat}'s", "CALL-1" if hand.phase == Phase.CALLING else "PLAY-3"
    return None


def _verb(hand: Hand, seat: int, verb: str) -> Why | None:
    """Is ``verb`` an action of the phase (CALL-1, CALL-5, CLAIM-1, TIG-1)?"""
    if hand.phase == Phase.CALLING:
        return f"during Calling the only actions are call and pass, not {verb}", "CALL-1"
    if verb in (CALL, PASS):
        return "Calling is over: the first Call ended it", "CALL-5"
    if hand.phase == Phase.CLAIMING:
        return f"seat {seat} won the round and may claim: the only actions are claim and continue", "CLAIM-1"
    if hand.phase == Phase.TIGERS:
        return "the Five Tigers holder must first answer tigers or decline", "TIG-1"
    if verb == CLAIM:
        return ("a claim is allowed only right after winning a round with tricks plus Elders in hand of 6 or more",
                "CLAIM-1")
    if verb in (CONTINUE, TIGERS, DECLINE):
        return f"{verb} is not an action of the Playing phase now", "CLAIM-1" if verb == CONTINUE else "TIG-1"
    return None


def _lead(hand: Hand, seat: int, action: Action) -> Why:
    """A lead the rules refuse (PLAY-2, PAT-7, ELD-4, ELD-5, PAT-5)."""
    if action.verb == DISCARD:
        return "the leader must play a Run, a Set or a Single, not discard", "PLAY-2"
    kind, _rank = hand.rules.classify(hand.tables, action.mask)
    if kind == NONE:
        return _not_a_pattern(action.mask), "PAT-7"
    # a Single that the lead rules forbid
    index = action.mask.bit_length() - 1
    top = top_suit_mask(hand.hands[seat])
    if action.mask & top:  # in the top suit, so an Elder while non-Elders remain
        return (f"{NAMES[index]} is an Elder: a Single must be a non-Elder of the top suit "
                f"({mask_text(top & ~hand.elders)}) before an Elder, unless you are the Privileged Player", "ELD-4")
    if action.mask & hand.elders and seat == hand.privileged:
        return f"the Privileged Player's privilege (D11) does not cover {NAMES[index]}", "ELD-5"
    wan_sin = " (Wan Sin counts as a suit below Sin, D9)" if index == WAN_SIN else ""
    return f"a Single must come from the highest-ranking suit in hand ({mask_text(top)}){wan_sin}", "PAT-5"


def _follow(hand: Hand, action: Action) -> Why:
    """A follow the rules refuse (PLAY-3, PLAY-4, D8, PAT-7, and what beats what)."""
    target, _r, _e = hand.target()
    size = target.bit_count()
    if action.verb == DISCARD:
        discard = hand.legal_actions().discard
        if action.mask.bit_count() != size:
            return f"a discard must be exactly {size} card(s), as many as the pattern led", "PLAY-4"
        if discard is None:
            return "a player who can beat the pattern on the table may not discard", "PLAY-4"
        return f"under D8 followers-too a discard must come from the top suit ({mask_text(discard.allowed)})", "D8"
    kind, _rank = hand.rules.classify(hand.tables, action.mask)
    if kind == NONE:
        return _not_a_pattern(action.mask), "PAT-7"
    if action.mask.bit_count() != size or kind != hand.round.kind:
        return ("a follower must play the same pattern with the same number of cards as the lead "
                f"({mask_text(hand.round.lead_mask)})", "PLAY-3")
    return f"{mask_text(action.mask)} does not beat {mask_text(target)}", _BEAT_RULE[kind]


def _not_a_pattern(mask: int) -> str:
    cards = mask_text(mask)
    if mask & WAN_SIN_BIT and mask.bit_count() >= 3 and mask & ~WAN_SIN_BIT & NUMBER_MASKS[1] != mask & ~WAN_SIN_BIT:
        return f"{cards} is not a pattern: Wan Sin has no suit and is never part of a Run (D18)"
    if mask.bit_count() == 2:
        return f"{cards} is not a pattern: Runs and Sets need at least 3 cards"
    return f"{cards} is neither a Run (same suit, consecutive), a Set (same number) nor a Single"
