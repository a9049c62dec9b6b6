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


def explain(hand: Hand, seat: int, action: Action) -> IllegalActionError:
    """Why ``action`` is not legal for ``seat`` now, naming the rule and quoting the position."""
    text = str(action)

    def illegal(message: str, rule: str) -> IllegalActionError:
        return IllegalActionError(message, rule=rule, seat=seat, action=text, position=hand.notation())

    if not 0 <= seat < 4:
        return illegal("there is no such seat (seats are 0-3)", "GAME-5")
    if hand.phase == Phase.ENDED:
        return illegal("the hand is over", "CLAIM-2" if hand.result and hand.result.winner is not None else "PLAY-8")
    if seat == hand.dreamer:
        return illegal("the Dreamer takes no part in Calling or Playing", "DEAL-3")
    if seat != hand.to_act:
        rule = "CALL-1" if hand.phase == Phase.CALLING else "PLAY-3"
        return illegal(f"it is seat {hand.to_act}'s turn, not seat {seat}'s", rule)
    verb = action.verb
    if hand.phase == Phase.CALLING:
        return illegal(f"during Calling the only actions are call and pass, not {verb}", "CALL-1")
    if verb in (CALL, PASS):
        return illegal("Calling is over: the first Call ended it", "CALL-5")
    if hand.phase == Phase.CLAIMING:
        return illegal(f"seat {seat} won the round and may claim: the only actions are claim and continue", "CLAIM-1")
    if hand.phase == Phase.TIGERS:
        return illegal("the Five Tigers holder must first answer tigers or decline", "TIG-1")
    if verb == CLAIM:
        return illegal(
            "a claim is allowed only right after winning a round with tricks plus Elders in hand of 6 or more",
            "CLAIM-1",
        )
    if verb in (CONTINUE, TIGERS, DECLINE):
        return illegal(f"{verb} is not an action of the Playing phase now", "CLAIM-1" if verb == CONTINUE else "TIG-1")
    cards = hand.hands[seat]
    if action.mask & ~cards:
        return illegal(f"seat {seat} does not hold {mask_text(action.mask & ~cards)}", "PLAY-2")
    kind, _rank = hand.rules.classify(hand.tables, action.mask)
    if hand.acted == 0:  # leading
        if verb == DISCARD:
            return illegal("the leader must play a Run, a Set or a Single, not discard", "PLAY-2")
        if kind == NONE:
            return illegal(_not_a_pattern(action.mask), "PAT-7")
        # a Single that the lead rules forbid
        index = action.mask.bit_length() - 1
        top = top_suit_mask(cards)
        if action.mask & top:  # in the top suit, so an Elder while non-Elders remain
            return illegal(
                f"{NAMES[index]} is an Elder: a Single must be a non-Elder of the top suit "
                f"({mask_text(top & ~hand.elders)}) before an Elder, unless you are the Privileged Player",
                "ELD-4",
            )
        if action.mask & hand.elders and seat == hand.privileged:
            return illegal(f"the Privileged Player's privilege (D11) does not cover {NAMES[index]}", "ELD-5")
        wan_sin = " (Wan Sin counts as a suit below Sin, D9)" if index == WAN_SIN else ""
        return illegal(
            f"a Single must come from the highest-ranking suit in hand ({mask_text(top)}){wan_sin}", "PAT-5"
        )
    target, _r, _e = hand.target()
    size = target.bit_count()
    legal = hand.legal_actions()
    if verb == DISCARD:
        if action.mask.bit_count() != size:
            return illegal(f"a discard must be exactly {size} card(s), as many as the pattern led", "PLAY-4")
        if legal.discard is None:
            return illegal("a player who can beat the pattern on the table may not discard", "PLAY-4")
        return illegal(
            f"under D8 followers-too a discard must come from the top suit ({mask_text(legal.discard.allowed)})",
            "D8",
        )
    if kind == NONE:
        return illegal(_not_a_pattern(action.mask), "PAT-7")
    if action.mask.bit_count() != size or kind != hand.best_kind:
        return illegal(
            f"a follower must play the same pattern with the same number of cards as the lead ({mask_text(hand.lead_mask)})",
            "PLAY-3",
        )
    return illegal(f"{mask_text(action.mask)} does not beat {mask_text(target)}", _BEAT_RULE[kind])


def _not_a_pattern(mask: int) -> str:
    cards = mask_text(mask)
    if mask & WAN_SIN_BIT and mask.bit_count() >= 3 and mask & ~WAN_SIN_BIT & NUMBER_MASKS[1] != mask & ~WAN_SIN_BIT:
        return f"{cards} is not a pattern: Wan Sin has no suit and is never part of a Run (D18)"
    if mask.bit_count() == 2:
        return f"{cards} is not a pattern: Runs and Sets need at least 3 cards"
    return f"{cards} is neither a Run (same suit, consecutive), a Set (same number) nor a Single"
