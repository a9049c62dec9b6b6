"""The search: Hypothesis draws every choice of every hand, and shrinks a failure.

Each Hypothesis example is one hand: the setup (kind, Dealer, a 64-bit seed),
then one choice per step (probe or not, which action, which discard). The
first disagreement stops the generation; Hypothesis then shrinks the choice
sequence (shortlex: fewer choices first, then smaller ones), which means fewer
actions before the disagreement, explicit hands rather than a seed or deck
(the simplest setup kind), no probes and early legal actions. The shrunk hand
is replayed once more and returned.

Candidate crashes and hangs do not stop the search: they are recorded with
the hand so far, the candidate is restarted by the next request, and the
search goes on.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings, target
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from .driver import Lockstep
from .model import CandidateFailure, Disagreement, FuzzerError, HandOutcome

_UINT64 = (1 << 64) - 1


class HypothesisChooser:
    """Choices drawn through Hypothesis (a ``draw`` function or a ``data`` object), so that they shrink."""

    _cache: ClassVar[dict[int, Any]] = {}

    def __init__(self, draw: Any) -> None:
        self.draw = draw.draw if hasattr(draw, "draw") else draw

    def below(self, n: int) -> int:
        if n <= 1:
            return 0
        strategy = self._cache.get(n)
        if strategy is None:
            strategy = self._cache[n] = st.integers(0, n - 1)
        return int(self.draw(strategy))

    def seed(self) -> int:
        strategy = self._cache.get(-1)
        if strategy is None:
            strategy = self._cache[-1] = st.integers(0, _UINT64)
        return int(self.draw(strategy))

    def handoff(self) -> tuple[list[int], int | None]:
        return [], self.seed()  # a playout shrinks only as far as its seed

    def extend(self, choices: list[int]) -> None:
        pass


class _Found(Exception):
    """Raised inside the Hypothesis test to mark a disagreement."""

    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(disagreement.summary())
        self.disagreement = disagreement


@dataclass
class SearchResult:
    hands: int = 0  # hands played before the first disagreement was seen (generation phase)
    first_at: int | None = None  # 1-based index of the first hand that disagreed
    first: Disagreement | None = None  # as first seen
    shrunk: Disagreement | None = None  # after shrinking (None if shrinking failed)
    shrink_calls: int = 0
    failures: list[CandidateFailure] = field(default_factory=list)
    failure_count: int = 0
    actions: int = 0
    seconds: float = 0.0
    shrink_seconds: float = 0.0
    note: str = ""
    coverage: Counter[str] = field(default_factory=Counter)  # rule outcomes of the hands generated

    @property
    def disagreement(self) -> Disagreement | None:
        return self.shrunk or self.first


def search(
    lockstep: Lockstep,
    *,
    hands: int,
    seed_value: int,
    shrink: bool = True,
    max_failure_reports: int = 20,
    progress: Callable[[SearchResult], None] | None = None,
    shrink_seconds: float | None = 60.0,
) -> SearchResult:
    """Play up to ``hands`` hands; stop at the first disagreement and shrink it.

    Shrinking stops after ``shrink_seconds``; the smallest hand found so far is kept.
    """
    result = SearchResult()
    state = _State()
    started = time.perf_counter()

    @st.composite
    def hands_played(draw: Any) -> HandOutcome:
        # The hand is played inside the strategy: a composite's draws cost half those of st.data().
        return lockstep.play(HypothesisChooser(draw))

    def one_hand(outcome: HandOutcome) -> None:
        if state.phase == "generate":
            result.hands += 1
            result.actions += outcome.actions
            # Steer Hypothesis's targeted phase toward hands reaching outcomes met rarely so far.
            target(sum(1.0 / (1 + result.coverage[o]) for o in outcome.outcomes), label="rare rule outcomes")
            result.coverage.update(outcome.outcomes)
            if progress is not None:
                progress(result)
        else:
            result.shrink_calls += 1
            if shrink_seconds is not None and time.perf_counter() - started - result.seconds > shrink_seconds:
                raise _Budget()
        if outcome.failure is not None:
            if state.phase == "generate":
                result.failure_count += 1
                if len(result.failures) < max_failure_reports:
                    result.failures.append(outcome.failure)
            return
        found = outcome.disagreement
        if found is None:
            return
        if state.phase == "generate":
            result.first = found
            result.first_at = result.hands
            state.phase = "shrink"
            result.seconds = time.perf_counter() - started
            if not shrink:
                raise _Stop()
        if state.best is None or _size(found) <= _size(state.best):
            state.best = found
        raise _Found(found)

    test = given(hands_played())(one_hand)
    test = settings(
        max_examples=max(1, hands),
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.target, Phase.shrink] if shrink else [Phase.generate, Phase.target],
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )(test)
    try:
        _settle(seed(seed_value)(test), result, state, shrink_seconds)
    finally:
        end = time.perf_counter()
        if result.first is None:
            result.seconds = end - started
        else:
            result.shrink_seconds = end - (started + result.seconds)
    return result


def _settle(test: Callable[[], None], result: SearchResult, state: _State, shrink_seconds: float | None) -> None:
    """Run the search and keep the smallest disagreement it ends with, however it ends."""
    try:
        test()
    except _Found as exc:
        result.shrunk = exc.disagreement
    except _Stop:
        pass
    except _Budget:
        result.shrunk = state.best
        result.note = f"shrinking stopped after {shrink_seconds:g} s; the hand may not be minimal"
    except FuzzerError:
        raise
    except (HypothesisException, BaseExceptionGroup) as exc:  # e.g. a flaky candidate
        if isinstance(exc, BaseExceptionGroup):
            found = [e for e in exc.exceptions if isinstance(e, _Found)]
            if found:
                result.shrunk = found[0].disagreement
        if result.shrunk is None and state.best is not None:
            result.shrunk = state.best
            result.note = f"shrinking was cut short ({type(exc).__name__}): the candidate may be nondeterministic"


@dataclass
class _State:
    phase: str = "generate"
    best: Disagreement | None = None


class _Stop(Exception):
    """Ends the search without a shrink."""


class _Budget(BaseException):
    """Ends shrinking at once (a BaseException: Hypothesis lets it through instead of shrinking it)."""


def _size(d: Disagreement) -> tuple[int, int]:
    return (len(d.trace.steps), sum(1 for s in d.trace.steps if s.kind == "reject"))
