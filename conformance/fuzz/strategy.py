"""How a campaign searches for hands that disagree: one interface, one table of strategies.

A :class:`Strategy` gets a :class:`Plan` (the lockstep of two engines, the
lanes to play, the outcome classes to steer toward) and returns the
:class:`~conformance.fuzz.search.SearchResult`; the lanes it plays are filled
into ``plan.lanes`` as hands finish, which is what an interrupted campaign
reports. :data:`STRATEGIES` maps ``--search`` to a strategy:

- ``guided`` (:class:`Guided`): lanes of random hands steered toward rule
  outcomes not yet reached, split over ``--jobs`` processes and ``--shard``
  machines with the same results; the reference plays whole hands itself
  (playout); a disagreement is shrunk over the hand's recorded choices;
- ``hypothesis`` (:class:`HypothesisSearch`): Hypothesis draws and shrinks
  every choice, in one process, the reference asked at every step.

>>> sorted(STRATEGIES)
['guided', 'hypothesis']
>>> STRATEGIES["hypothesis"].playout, STRATEGIES["guided"].parallel
(False, True)
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from .config import FuzzConfig, FuzzConfigError
from .driver import Lockstep
from .guided import LaneResult, combine, play_lanes, shrink
from .model import CandidateFailure
from .search import SearchResult, search


@dataclass
class Plan:
    """What a strategy plays with."""

    config: FuzzConfig
    lockstep: Lockstep
    lane_ids: list[int]
    goals: tuple[str, ...]
    """The outcome classes a hand can reach under the options played (what to steer toward)."""
    fresh: Callable[[], tuple[Lockstep, Callable[[], None]]]
    """A lockstep on engines of its own, and how to close them (for a worker process)."""
    progress: Callable[[SearchResult], None] | None = None
    lanes: dict[int, LaneResult] = field(default_factory=dict)
    """Filled as hands finish: every finished hand, whatever ends the campaign."""


class Strategy(ABC):
    """A way to search for disagreeing hands."""

    name: ClassVar[str]
    parallel: ClassVar[bool]
    """Whether the campaign may be split over processes (``--jobs``) and shards (``--shard``)."""
    playout: ClassVar[bool]
    """Whether the reference may play whole hands itself (``batch`` with ``playout``)."""

    def check(self, config: FuzzConfig) -> None:
        """Refuse a configuration this strategy cannot play (FuzzConfigError)."""
        if not self.parallel and (config.split.jobs != 1 or config.split.shard is not None):
            raise FuzzConfigError(f"--jobs and --shard need the guided search (not --search {self.name})")

    @abstractmethod
    def search(self, plan: Plan) -> SearchResult:
        """Play the campaign (filling ``plan.lanes`` if it has lanes); stop at the first disagreement, shrunk."""


class Guided(Strategy):
    name = "guided"
    parallel = True
    playout = True

    def search(self, plan: Plan) -> SearchResult:
        config, result = plan.config, SearchResult()
        campaign = config.campaign
        started = time.perf_counter()
        jobs = max(1, min(config.split.jobs, len(plan.lane_ids)))

        def tick(_index: int) -> None:
            if plan.progress is not None:
                result.hands += 1
                plan.progress(result)

        if jobs > 1:
            from .workers import play_parallel

            lanes = play_parallel(plan.fresh, campaign.seed, campaign.hands, campaign.lanes, plan.lane_ids, jobs,
                                  plan.goals, results=plan.lanes, progress=tick)
        else:
            lanes = play_lanes(plan.lockstep, campaign.seed, campaign.hands, campaign.lanes, plan.lane_ids,
                               progress=tick, goals=plan.goals, results=plan.lanes)
        plan.lanes.update({lane.lane: lane for lane in lanes})
        fill(result, lanes)
        result.seconds = time.perf_counter() - started
        first, choices = result.first, combine(lanes).choices
        if first is not None and config.strategy.shrink:
            shrink_started = time.perf_counter()
            budget = config.strategy.shrink_seconds
            result.shrunk, result.shrink_calls = shrink(plan.lockstep, choices, first, budget)
            result.shrink_seconds = time.perf_counter() - shrink_started
            if budget is not None and result.shrink_seconds > budget:
                result.note = f"shrinking stopped after {budget:g} s; the hand may not be minimal"
        return result


def fill(result: SearchResult, lanes: list[LaneResult]) -> None:
    """``result``'s counts from the lanes (cut at their first disagreement, as one process stops them)."""
    campaign = combine(lanes)
    result.hands, result.actions = campaign.hands, campaign.actions
    result.first_at, result.first = campaign.first_at, campaign.first
    result.failures = [f for f in campaign.failures if isinstance(f, CandidateFailure)]
    result.failure_count = campaign.failure_count


class HypothesisSearch(Strategy):
    name = "hypothesis"
    parallel = False
    playout = False

    def search(self, plan: Plan) -> SearchResult:
        config = plan.config
        return search(plan.lockstep, hands=config.campaign.hands, seed_value=config.campaign.seed,
                      shrink=config.strategy.shrink, progress=plan.progress,
                      shrink_seconds=config.strategy.shrink_seconds)


STRATEGIES: dict[str, type[Strategy]] = {s.name: s for s in (Guided, HypothesisSearch)}
"""``--search`` → its strategy."""


def strategy_for(name: str) -> Strategy:
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise FuzzConfigError(f"no search strategy {name!r} (one of {', '.join(sorted(STRATEGIES))})") from None
