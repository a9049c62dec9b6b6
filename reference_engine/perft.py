"""Perft: count the distinct legal action sequences from a state (PLAY-*, CALL-*).

Each concrete discard counts separately, as it leads to a different state.

>>> from reference_engine.hand import Hand
>>> perft(Hand.from_seed(dealer=0, seed=3), 1)
2
"""

from __future__ import annotations

from .hand import ENDED, Hand


def perft(hand: Hand, depth: int) -> int:
    """Number of legal action sequences of exactly ``depth`` actions (ended hands stop early)."""
    if depth == 0 or hand.phase == ENDED:
        return 1 if depth == 0 else 0
    seat = hand.to_act
    assert seat is not None
    legal = hand.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = hand.copy()
        child.apply(seat, action)
        total += perft(child, depth - 1)
    return total


def perft_counts(hand: Hand, depth: int) -> list[int]:
    """``[perft(hand, 1), ..., perft(hand, depth)]``."""
    return [perft(hand, d) for d in range(1, depth + 1)]
