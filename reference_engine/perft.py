"""Perft: count the distinct legal action sequences from a state (PLAY-*, CALL-*).

Each concrete discard counts separately, as it leads to a different state.

>>> from reference_engine.hand import Hand
>>> perft(Hand.from_seed(dealer=0, seed=3), 1)
2
>>> perft_counts(Hand.from_seed(dealer=0, seed=3), 2)[0]
2
"""

from __future__ import annotations

from .errors import HakkaError
from .hand import Hand, Phase


class PerftLimitExceeded(HakkaError):
    """A count needed more positions than the budget allowed."""


def perft(hand: Hand, depth: int, max_nodes: int | None = None) -> int:
    """Number of legal action sequences of exactly ``depth`` actions (ended hands stop early)."""
    if depth == 0:
        return 1  # the empty sequence
    return perft_counts(hand, depth, max_nodes)[-1]


def perft_counts(hand: Hand, depth: int, max_nodes: int | None = None) -> list[int]:
    """``[perft(hand, 1), ..., perft(hand, depth)]`` in one walk of the tree.

    ``max_nodes`` bounds the positions visited; past it :class:`PerftLimitExceeded`
    is raised (an engine with a rule wrong can make the tree explode).
    """
    counts = [0] * depth
    budget = max_nodes

    def walk(node: Hand, level: int) -> None:
        nonlocal budget
        if node.phase == Phase.ENDED:
            return
        legal = node.legal_actions()
        counts[level] += len(legal)
        if level + 1 == depth:
            return
        seat = node.to_act
        assert seat is not None
        for action in legal:
            if budget is not None:
                budget -= 1
                if budget < 0:
                    raise PerftLimitExceeded(
                        f"counting to depth {depth} visits more than {max_nodes} positions"
                    )
            child = node.copy()
            child.apply(seat, action)
            walk(child, level + 1)

    walk(hand, 0)
    return counts


def perft_divide(hand: Hand, depth: int, max_nodes: int | None = None) -> dict[str, int]:
    """Perft *divide*: for each legal first action, the sequences of ``depth`` actions it starts.

    The values add up to ``perft(hand, depth)``; comparing two engines' divides
    shows which first action leads to the wrong count, as chess perft tools do.

    >>> hand = Hand.from_seed(dealer=0, seed=3)
    >>> divide = perft_divide(hand, 2)
    >>> sorted(divide), sum(divide.values()) == perft(hand, 2)
    (['call', 'pass'], True)
    """
    divide: dict[str, int] = {}
    if hand.phase == Phase.ENDED:
        return divide
    seat = hand.to_act
    assert seat is not None
    for action in hand.legal_actions():
        child = hand.copy()
        child.apply(seat, action)
        divide[str(action)] = perft(child, depth - 1, max_nodes)
    return divide
