"""Which ``pattern`` questions describe a position some hand can reach (spec/PROTOCOL.md).

A ``beats`` question names the pattern winning the round, a challenger and
the Elders at that moment. Only some combinations occur in play: the two
patterns hold different cards, and a card is an Elder only once every higher
card of its suit has left play (ELD-1, ELD-2), so none of those higher cards
can be on the table. Protocol 2 asks only reachable questions; this module
says why a question is not one.

>>> from reference_engine.cards import parse_mask
>>> premise_problem(parse_mask("Sup8"), parse_mask("Sup9"), parse_mask("Sup1 Sup8 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"))
'Sup8 is an Elder only once Sup9 has left play, but Sup9 is on the table (ELD-2)'
>>> premise_problem(parse_mask("Sup8"), parse_mask("Sup7"), parse_mask("Sup1 Sup8 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin")) is None
True
"""

from __future__ import annotations

from .cards import card_index, mask_text
from .patterns import INITIAL_ELDERS, NEVER_BEAT_SINGLES
from .rules import elders_given


def _gone_for(elders: int) -> int:
    """The cards that must have left play for ``elders`` to be Elders: each suit's Elders but its lowest."""
    gone = 0
    for suit in range(4):
        numbers = [n for n in range(1, 10)
                   if elders >> card_index(suit, n) & 1 and not (1 << card_index(suit, n)) & NEVER_BEAT_SINGLES]
        if numbers:
            lowest = min(numbers)
            gone |= sum(1 << card_index(suit, n) for n in numbers if n != lowest)
    return gone


def premise_problem(current: int, challenger: int, elders: int) -> str | None:
    """Why no hand reaches this ``beats`` question, or ``None`` when one can."""
    if current & challenger:
        return f"{mask_text(current & challenger)} cannot be in both patterns (CARDS-1)"
    missing = INITIAL_ELDERS & ~elders
    if missing:
        return f"{mask_text(missing)} is an Elder from the start of every hand and stays one (ELD-1, ELD-2)"
    gone = _gone_for(elders)
    if elders_given(gone) != elders:
        return (f"the Elders {mask_text(elders)} are not a set the rules produce: each suit's Elders run "
                f"down from its 9 without a gap (ELD-2)")
    on_table = gone & (current | challenger)
    if on_table:
        for suit in range(4):
            for n in range(1, 10):
                card = 1 << card_index(suit, n)
                if on_table & card:
                    lower = min(m for m in range(1, 10) if elders >> card_index(suit, m) & 1
                                and not (1 << card_index(suit, m)) & NEVER_BEAT_SINGLES)
                    return (f"{mask_text(1 << card_index(suit, lower))} is an Elder only once "
                            f"{mask_text(card)} has left play, but {mask_text(card)} is on the table (ELD-2)")
    return None
