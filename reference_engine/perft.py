"""Perft: count the distinct legal action sequences from a state (PLAY-*, CALL-*).

Each concrete discard counts separately, as it leads to a different state.

>>> from reference_engine.hand import Hand
>>> perft(Hand.from_seed(dealer=0, seed=3), 1)
2
>>> perft_counts(Hand.from_seed(dealer=0, seed=3), 2)[0]
2
"""

from __future__ import annotations

from .errors import HakkaError, SetupError
from .hand import Hand, Phase


class PerftLimitExceeded(HakkaError):
    """A count needed more positions than the budget allowed."""


def checked(hand: object, depth: object, max_nodes: object) -> tuple[Hand, int, int | None]:
    """The arguments of a count, or a :class:`SetupError` naming the wrong one.

    Read as ``object``: compiled, typed parameters would refuse a wrong type with a bare TypeError
    and take ``True`` for a depth of 1 (setup.py); both builds raise this error instead.
    """
    if not isinstance(hand, Hand):
        raise SetupError(f"perft counts from a Hand, not {hand!r}")
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise SetupError(f"a perft depth is an integer of at least 0, not {depth!r}")
    if max_nodes is not None and (not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 0):
        raise SetupError(f"max_nodes is None or an integer of at least 0, not {max_nodes!r}")
    return hand, depth, max_nodes


def perft(hand: object, depth: object, max_nodes: object = None) -> int:
    """Number of legal action sequences of exactly ``depth`` actions (ended hands stop early)."""
    checked(hand, depth, max_nodes)
    if depth == 0:
        return 1  # the empty sequence
    return perft_counts(hand, depth, max_nodes)[-1]


def perft_counts(hand: object, depth: object, max_nodes: object = None) -> list[int]:
    """``[perft(hand, 1), ..., perft(hand, depth)]`` in one walk of the tree.

    ``max_nodes`` bounds the positions visited; past it :class:`PerftLimitExceeded`
    is raised (an engine with a rule wrong can make the tree explode). A position
    visited is one reached by 1 to ``depth - 1`` actions, each concrete action
    (discards included) once, an ended hand too; neither ``hand`` itself nor the
    positions at exactly ``depth`` actions (counted from their parent's legal
    actions) are visited: the sum of the first ``depth - 1`` counts
    (spec/PROTOCOL.md, "Bounds on one request").
    """
    root, levels, budget = checked(hand, depth, max_nodes)
    counts = [0] * levels

    def walk(node: Hand, level: int) -> None:
        nonlocal budget
        if node.phase == Phase.ENDED:
            return
        legal = node.legal_actions()
        counts[level] += len(legal)
        if level + 1 == levels:
            return
        seat = node.to_act
        assert seat is not None
        for action in legal:
            if budget is not None:
                budget -= 1
                if budget < 0:
                    raise PerftLimitExceeded(
                        f"counting to depth {levels} visits more than {max_nodes} positions"
                    )
            child = node.copy()
            child.apply(seat, action)
            walk(child, level + 1)

    if levels:
        walk(root, 0)
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
