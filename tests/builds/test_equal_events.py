"""Compiled code compares events by value, as the pure build does (issue 17).

Compiled with mypyc, ``a != b`` between two values whose static type is one
native class with no ``__eq__`` of its own (``Event``) is an identity test:
mypyc cannot see the ``__eq__`` that ``@dataclass`` gives each kind of event.
``reference_engine.sampling`` compared a replayed event with the seat's view
that way, so, compiled, a hand's end (a new ``HandEnded`` in every replay)
never matched, and the real state itself was called inconsistent. These run on
whichever build is imported (``.ci/run`` runs tests/builds on the compiled wheel).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from reference_engine import Hand
from reference_engine.play_events import HandEnded
from reference_engine.sampling import Resampler


def _ended(seed: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand.from_seed(seed % 4, seed)
    while hand.result is None:
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions())))
    return hand


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_the_real_state_of_an_ended_hand_is_consistent_with_each_seats_view(seed: int, seat: int) -> None:
    hand = _ended(seed)
    end = hand.events[-1]
    seen = hand.observation(seat).events
    assert seen is not None
    # the case at stake: the view's hand end is equal to the replay's, not the same object
    assert isinstance(end, HandEnded) and seen[-1] == end and seen[-1] is not HandEnded(end.result)
    sampler = Resampler.of_hand(hand, seat)
    assert sampler.replay(sampler.cards) is not None, "the real state replays as consistent with its own view"


def test_the_chain_starts_from_the_real_state_of_an_ended_hand() -> None:
    hand = _ended(0)
    sampler = Resampler.of_hand(hand, 1, tries=0, steps=20)
    world = sampler.sample(random.Random(0))  # compiled, without the fix: the chain's start assertion failed
    assert sampler.fallbacks == 1
    assert world.observation(1) == hand.observation(1)


ROOT = Path(__file__).resolve().parents[2]


def _engine_modules() -> list[str]:
    spec = importlib.util.spec_from_file_location("hakka_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)  # not as __main__: setup() does not run
    modules: list[str] = setup.engine_modules()
    return modules


def _identity_comparisons(paths: list[str]) -> list[str]:
    """Every ``==``/``!=`` of the compiled modules that mypyc makes an identity test (its ``translate_eq_cmp``):
    both operands of one engine class that is no dataclass and has no ``__eq__`` in its bases but ``object``'s."""
    from mypy import build
    from mypy.modulefinder import BuildSource
    from mypy.nodes import ComparisonExpr
    from mypy.options import Options
    from mypy.types import Instance, get_proper_type

    options = Options()
    options.export_types, options.incremental, options.python_version = True, False, (3, 11)
    sources = [BuildSource(str(ROOT / p), p.removesuffix(".py").replace("/", ".")) for p in paths]
    result = build.build(sources, options)
    assert not result.errors, result.errors[:5]
    lines = {p: (ROOT / p).read_text().splitlines() for p in paths}
    found = []
    for expr, _ in result.types.items():  # the expressions of every module (an expression does not name its file)
        if not isinstance(expr, ComparisonExpr):
            continue
        for index, op in enumerate(expr.operators):
            left, right = (get_proper_type(result.types.get(e)) for e in expr.operands[index:index + 2])
            if (op in ("==", "!=") and isinstance(left, Instance) and isinstance(right, Instance)
                    and left.type == right.type and left.type.fullname.startswith("reference_engine.")
                    and "dataclass" not in left.type.metadata
                    and not any("__eq__" in base.names for base in left.type.mro[:-1])):
                files = [p for p in paths if len(lines[p]) >= expr.line and op in lines[p][expr.line - 1]]
                found.append(f"{' or '.join(files)} line {expr.line}: {left.type.name} {op} {left.type.name}")
    return found


@pytest.mark.skipif(not (ROOT / "setup.py").is_file(), reason="not a checkout (.ci/run tests wheels from a copy)")
def test_no_compiled_module_compares_two_events_or_alike_by_identity() -> None:
    """The same trap anywhere else: compare such values typed ``object`` (as reference_engine.sampling does)."""
    assert _identity_comparisons(_engine_modules()) == []
