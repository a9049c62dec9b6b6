"""The guided search: lanes of random hands steered toward rule outcomes not yet reached.

A campaign of ``hands`` hands with a ``seed`` is split into ``lanes``
independent streams: hand ``i`` (0-based) belongs to lane ``i % lanes``. Each
lane has its own random generator (from the seed and the lane number) and its
own *pool*, as coverage-guided fuzzers do: a hand whose rule outcomes
(reference_engine.outcomes: score rows, end kinds, Five Tigers, Dreamer counts,
refusals, ...) include one the lane had not met, or had met fewer than
:data:`RARE` times, is kept; most later hands replay a kept hand's setup and
first choices (the rarer its outcomes, the likelier it is picked) and then go
their own random way. A 12-trick claim is one more trick than an 11-trick
claim away, and so on.

Because lanes never share anything, the campaign is the same whichever
process plays which lane: ``--jobs N`` spreads the lanes over N processes and
``--shard I/N`` plays lanes ``I, I+N, ...`` only; both give the results of one
process, and merged shard reports equal the whole campaign (:func:`merge`). The
first disagreement is the one of the lowest hand index over all lanes; every
lane stops at that index, so the counts do not depend on timing either.

A lane's pool learns from the reference's outcomes only, so its hands never
depend on the candidate's answers; that lets :func:`play_lanes` keep one hand
in flight: a candidate that declares ``batch`` answers hand *i* while the
reference prepares hand *i + 1* (a subprocess engine then works on a core of
its own), with the same results as one hand at a time.

A disagreement is shrunk by replaying the hand's recorded choices with parts
deleted or lowered (the fewest actions, then the simplest choices), as
Hypothesis shrinks, within a time budget.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .checks import FULL_RATES, Rates, is_side
from .driver import Lockstep, Prepared
from .model import CandidateFailure, Disagreement, HandOutcome, Trace
from .moves import GAME_KIND

RARE = 3
"""An outcome met fewer times than this makes its hand worth keeping in the pool."""
MUTATE_PERCENT = 70
"""Share of hands (once the pool holds something) that start from a kept hand."""
POOL_LIMIT = 400
QUIET_AFTER = 2
"""An extra kind (a refused setup, a count, respelled actions, a whole game) whose last this many hands in a lane
reached no class of its own the lane had not met is drawn at its quiet rate (checks.Rates) until it finds
again: the extra kinds cost in proportion to what they find."""
OPENING_PERCENT = 30
"""Share of hands that, while a game opening waits (below), play it."""
GAME_OPENINGS = {"end:void": "game:end:void", "end:five-tigers": "game:end:five-tigers",
                 "score:12": "game:score:12"}
"""A single hand that reached one of these outcomes, while the lane's games have not reached its game
class, becomes a game's first hand: the same setup as the game's first deal, the reference's own draws
replayed (:meth:`Moves.game_opening`). The guidance is the reference's outcomes, never a rule of the fuzzer's."""


class RecordingChooser:
    """Replays ``prefix``, then draws from ``rng`` (or 0 when there is none); records every choice."""

    def __init__(self, prefix: list[int], rng: random.Random | None) -> None:
        self.prefix = prefix
        self.rng = rng
        self.choices: list[int] = []

    def below(self, n: int) -> int:
        i = len(self.choices)
        if i < len(self.prefix):
            value = self.prefix[i] % n if n > 1 else 0
        elif self.rng is not None and n > 1:
            value = self.rng.randrange(n)
        else:
            value = 0
        self.choices.append(value)
        return value

    def seed(self) -> int:
        i = len(self.choices)
        if i < len(self.prefix):
            value = self.prefix[i]
        elif self.rng is not None:
            value = self.rng.getrandbits(64)
        else:
            value = 0
        self.choices.append(value)
        return value

    def handoff(self) -> tuple[list[int], int | None]:
        return self.prefix[len(self.choices):], None if self.rng is None else self.rng.getrandbits(64)

    def extend(self, choices: list[int]) -> None:
        self.choices.extend(choices)


@dataclass
class _Entry:
    choices: list[int]
    setup_len: int
    outcomes: frozenset[str]


@dataclass
class HandRecord:
    """What one hand of a lane left: its index, its outcomes, and whether it failed or disagreed."""

    index: int
    outcomes: tuple[str, ...]
    actions: int
    failure: CandidateFailure | None = None


@dataclass
class LaneResult:
    lane: int
    hands: list[HandRecord] = field(default_factory=list)
    found_at: int | None = None  # hand index of the lane's first disagreement
    found: Disagreement | None = None
    choices: list[int] = field(default_factory=list)  # of the disagreeing hand
    done: bool = False  # played to its end (or to the campaign's first disagreement)
    error: str | None = None  # why the lane could not be played to its end (its worker process died)


class Lane:
    """One independent stream of guided hands."""

    def __init__(self, seed: int, lane: int, goals: tuple[str, ...] = ()) -> None:
        self.lane = lane
        self.goals = frozenset(goals)
        self.rng = random.Random(f"hakka-fuzz:{seed}:{lane}")
        self.pool: list[_Entry] = []
        self.counts: Counter[str] = Counter()
        self.openings: dict[str, list[int]] = {}
        """Game class → the choices of a game opening with a hand that reached its single-hand outcome."""
        self.fruitless: Counter[str] = Counter()
        """Extra kind → the hands in a row that carried it and reached nothing new with it."""

    def rates(self) -> Rates:
        """The rates of the lane's next hand: each extra kind that stopped finding at its quiet share."""
        quiet = [kind for kind in ("setup", "count", "variant", "game", "pattern", "probe")
                 if self.fruitless[kind] >= QUIET_AFTER]
        return FULL_RATES.quieted(quiet) if quiet else FULL_RATES

    def _learn(self, outcomes: frozenset[str]) -> None:
        """Whether each extra kind the hand carried found anything new (before ``counts`` take the hand in)."""
        carried = {_extra_kind(o) for o in outcomes} - {None}
        found = {_extra_kind(o) for o in outcomes if not self.counts[o]}
        for kind in carried:
            assert kind is not None
            self.fruitless[kind] = 0 if kind in found else self.fruitless[kind] + 1

    def _weight(self, outcome: str) -> float:
        """(1 / times met)²; as much as a first meeting when the next of its family (``score:11`` →
        ``score:12``) is a goal not met yet."""
        weight = (1.0 / (self.counts[outcome] or 1)) ** 2
        family, sep, number = outcome.rpartition(":")
        if sep and number.isdigit():
            after = f"{family}:{int(number) + 1}"
            if after in self.goals and not self.counts[after]:
                weight = 1.0
        return weight

    def _frontier(self, entry: _Entry) -> bool:
        """Whether the entry reached an outcome whose next of family (``score:11`` → ``score:12``) is an unmet goal."""
        for outcome in entry.outcomes:
            family, sep, number = outcome.rpartition(":")
            if sep and number.isdigit():
                after = f"{family}:{int(number) + 1}"
                if after in self.goals and not self.counts[after]:
                    return True
        return False

    def _mutate(self, entry: _Entry) -> list[int]:
        """A new choice prefix from a kept hand: cut it anywhere after the setup, cut it late,
        or change one to three late choices and keep the rest (the hand mostly replays). A hand one step
        from an unmet goal (an 11-trick claim, say) is, half the time, replayed with its last choice turned
        to the next option (the claim declined: the hand goes on, and may end one higher)."""
        rng, choices = self.rng, entry.choices
        if len(choices) > entry.setup_len and rng.randrange(2) and self._frontier(entry):
            # turn one choice, the last or any, to the next option, and replay the rest
            at = len(choices) - 1 if rng.randrange(2) else rng.randrange(entry.setup_len, len(choices))
            return [*choices[:at], choices[at] + 1, *choices[at + 1:]]
        op = rng.randrange(4)
        if op == 0 or len(choices) <= entry.setup_len:
            return choices[:rng.randint(entry.setup_len, len(choices))]
        if op == 1:
            return choices[:_late(rng, entry)]
        changed = list(choices)
        if op == 2:
            for _ in range(rng.randint(1, 3)):
                changed[_late(rng, entry)] = rng.randrange(1 << 16)
        else:  # one of the last few choices (how the hand ended: claim or go on, which card)
            changed[max(entry.setup_len, len(choices) - 1 - rng.randrange(4))] = rng.randrange(1 << 16)
        return changed

    def prepare_hand(self, lockstep: Lockstep) -> tuple[Prepared | HandOutcome, list[int]]:
        """The lane's next hand, played by the reference (:meth:`Lockstep.prepare`), and its choices.

        The pool learns from the reference's outcomes alone, so a lane's hands never depend on the
        candidate's answers (and the candidate may still be answering the previous hand). A hand played
        step by step (no playout) is compared already; it is kept only if it was clean.
        """
        rng = self.rng
        prefix: list[int] = []
        waiting = [target for target in self.openings if not self.counts[target]]
        if waiting and rng.randrange(100) < OPENING_PERCENT:
            prefix = self.openings.pop(waiting[0])
        elif self.pool and rng.randrange(100) < MUTATE_PERCENT:
            # the rarer an entry's rarest outcome, the likelier it is picked
            weight = {o: self._weight(o) for o in set().union(*(e.outcomes for e in self.pool))}
            weights = [max(map(weight.__getitem__, e.outcomes)) for e in self.pool]
            entry = rng.choices(self.pool, weights)[0]
            prefix = self._mutate(entry)
            if len(prefix) > entry.setup_len:  # the seed of the side checks (Lockstep.prepare): drawn afresh
                prefix[entry.setup_len] = rng.getrandbits(64)
        chooser = RecordingChooser(prefix, random.Random(rng.getrandbits(64)))
        lockstep.rates = self.rates()
        mode = lockstep.draw_mode(chooser)
        mode_len = len(chooser.choices)
        kind, setup = lockstep.draw_setup(chooser)
        setup_len = len(chooser.choices)
        prepared = lockstep.prepare(kind, setup, chooser, mode)
        if isinstance(prepared, Prepared) or prepared.clean:
            outcomes = prepared.outcomes
            # a game is never kept: it reaches many classes at once (its every hand's), so its replays would
            # crowd out single hands; its own classes come from fresh games and openings (below)
            fresh = [o for o in outcomes if self.counts[o] < RARE and not is_side(o)] if kind != GAME_KIND else []
            self._learn(outcomes)
            self.counts.update(outcomes)
            if fresh and len(self.pool) < POOL_LIMIT:
                self.pool.append(_Entry(chooser.choices, setup_len, frozenset(o for o in outcomes if not is_side(o))))
            if mode == "playout" and kind != GAME_KIND:
                self._keep_opening(lockstep, outcomes, chooser.choices, (mode_len, setup_len), kind)
        return prepared, chooser.choices

    def _keep_opening(self, lockstep: Lockstep, outcomes: frozenset[str], choices: list[int],
                      lengths: tuple[int, int], kind: str) -> None:
        """Keep a game opening with this hand for each game class its outcomes lead to (:data:`GAME_OPENINGS`)."""
        for outcome in sorted(outcomes):
            target = GAME_OPENINGS.get(outcome)
            if target is None or self.counts[target] or target in self.openings:
                continue
            opening = lockstep.moves.game_opening(choices, *lengths, kind, self.rng.getrandbits(64))
            if opening is not None:
                self.openings[target] = opening


def _extra_kind(outcome: str) -> str | None:
    """The extra kind an outcome id says a hand carried (``game`` for a rule or game class of a game's hand is
    told by ``kind:game``), or None."""
    if outcome == "kind:game" or outcome.startswith("game:"):
        return "game"
    if outcome == "kind:probes" or outcome.startswith("refusal:"):  # a refused action's rule: what probes find
        return "probe"
    if not is_side(outcome) or outcome in ("kind:hand", "observe:after-refused-action"):
        return None
    return {"count": "count", "variant": "variant", "pattern": "pattern", "deals": "game"}.get(
        outcome.split(":")[0], "setup")


def _late(rng: random.Random, entry: _Entry) -> int:
    """A position in the last quarter of the entry's choices (after its setup)."""
    return rng.randint(max(entry.setup_len, len(entry.choices) * 3 // 4), max(entry.setup_len, len(entry.choices) - 1))


HandListener = Callable[[LaneResult, HandRecord], None]
"""Told of every hand as it finishes (its lane's result, already holding it): progress, streaming."""


def play_lanes(lockstep: Lockstep, seed: int, hands: int, lanes: int, lane_ids: list[int],
               stop: Any = None, progress: Callable[[int], None] | None = None,
               goals: tuple[str, ...] = (), results: dict[int, LaneResult] | None = None,
               on_hand: HandListener | None = None) -> list[LaneResult]:
    """Play the hands of ``lane_ids`` in global index order; stop every lane at the first disagreement.

    ``stop`` (a shared ``multiprocessing.Value``) holds the lowest disagreeing hand index any
    process has found, so that lanes in other processes stop there too. ``results`` (filled as hands
    finish) is what the caller keeps if the campaign is interrupted.
    """
    state = {lane: Lane(seed, lane, goals) for lane in lane_ids}
    if results is None:
        results = {}
    results.update({lane: LaneResult(lane) for lane in lane_ids})
    limit = hands
    # A pipeline one hand deep: the candidate answers hand i while the reference prepares hand i + 1.
    pending: tuple[int, Prepared | HandOutcome, list[int], Rates] | None = None

    def settle(index: int, prepared: Prepared | HandOutcome, choices: list[int], rates: Rates) -> bool:
        """Record the hand's outcome; True if it disagreed (every lane then stops at its index)."""
        nonlocal limit
        outcome = lockstep.finish(prepared)
        result = results[index % lanes]
        record = HandRecord(index, tuple(sorted(outcome.outcomes)), outcome.actions, outcome.failure)
        result.hands.append(record)
        found = outcome.disagreement is not None
        if outcome.disagreement is not None:
            outcome.disagreement.rates = rates
            result.found_at, result.found, result.choices = index, outcome.disagreement, choices
            limit = min(limit, index)
            if stop is not None:
                with stop.get_lock():
                    stop.value = min(stop.value, index)
        if on_hand is not None:
            on_hand(result, record)
        if progress is not None:
            progress(index)
        return found

    for index in range(hands):
        lane = index % lanes
        if lane not in state:
            continue
        if stop is not None:
            limit = min(limit, stop.value)
        if index > limit:
            break
        prepared, choices = state[lane].prepare_hand(lockstep)
        if pending is not None:
            found = settle(*pending)
            pending = None
            if found:
                break  # this hand comes after the disagreement: dropped, as if never played
        lockstep.send(prepared)
        pending = (index, prepared, choices, lockstep.rates)
    if pending is not None:
        settle(*pending)
    for lane in lane_ids:
        results[lane].done = True
    return [results[lane] for lane in lane_ids]


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


# ------------------------------------------------------------------ shrinking


def shrink(lockstep: Lockstep, choices: list[int], found: Disagreement, seconds: float | None) -> tuple[Disagreement, int]:
    """The smallest disagreeing hand found by deleting and lowering ``choices``; and the replays made."""
    started = time.perf_counter()
    best, best_choices = found, list(choices)
    kept, lockstep.rates = lockstep.rates, found.rates or FULL_RATES  # the hand replays at the rates it was found at
    try:
        return _shrink(lockstep, best, best_choices, seconds, started)
    finally:
        lockstep.rates = kept


def _shrink(lockstep: Lockstep, best: Disagreement, best_choices: list[int], seconds: float | None,
            started: float) -> tuple[Disagreement, int]:
    calls = 0

    def size(d: Disagreement, c: list[int]) -> tuple[int, int, int, int]:
        return (len(d.trace.steps), sum(1 for s in d.trace.steps if s.kind == "reject"), len(c), sum(c))

    def attempt(candidate: list[int]) -> bool:
        nonlocal best, best_choices, calls
        calls += 1
        chooser = RecordingChooser(candidate, None)
        outcome = lockstep.play(chooser)
        d = outcome.disagreement
        used = chooser.choices
        if d is not None and size(d, used) < size(best, best_choices):
            d.rates = best.rates
            best, best_choices = d, used
            return True
        return False

    def out_of_time() -> bool:
        return seconds is not None and time.perf_counter() - started > seconds

    improved = True
    while improved and not out_of_time():
        improved = False
        # delete blocks of choices, largest first
        for block in (16, 8, 4, 2, 1):
            i = 0
            while i < len(best_choices) and not out_of_time():
                candidate = best_choices[:i] + best_choices[i + block:]
                if attempt(candidate):
                    improved = True
                else:
                    i += block
        # lower single choices: to 0, then halve
        i = 0
        while i < len(best_choices) and not out_of_time():
            value = best_choices[i]
            for lower in (0, value // 2, value - 1):
                if 0 <= lower < value and attempt(best_choices[:i] + [lower] + best_choices[i + 1:]):
                    improved = True
                    break
            i += 1
    return best, calls


# ------------------------------------------------------------------ the campaign's outcome


@dataclass
class Campaign:
    """Every lane's result merged: what a whole campaign (or a merge of its shards) found."""

    hands: int  # hands played up to and including the first disagreement (or all)
    actions: int
    first_at: int | None  # 1-based, as in SearchResult
    first: Disagreement | None
    choices: list[int]
    failures: list[CandidateFailure]
    failure_count: int
    coverage: Counter[str]


def trim(lanes: list[LaneResult]) -> list[LaneResult]:
    """The lanes cut at the first disagreement over all of them, as one process would have stopped them
    (a lane in another process may have played on before it heard of the disagreement)."""
    found = [r.found_at for r in lanes if r.found_at is not None]
    if not found:
        return lanes
    cutoff = min(found)
    out = []
    for r in lanes:
        kept = LaneResult(r.lane, [h for h in r.hands if h.index <= cutoff], done=r.done, error=r.error)
        if r.found_at is not None and r.found_at <= cutoff:
            kept.found_at, kept.found, kept.choices = r.found_at, r.found, r.choices
        out.append(kept)
    return out


def combine(lanes: list[LaneResult], max_failures: int = 20) -> Campaign:
    found = [r for r in lanes if r.found_at is not None]
    first = min(found, key=lambda r: r.found_at or 0) if found else None
    cutoff = first.found_at if first is not None and first.found_at is not None else None
    records = sorted((h for r in lanes for h in r.hands if cutoff is None or h.index <= cutoff),
                     key=lambda h: h.index)
    coverage: Counter[str] = Counter()
    for h in records:
        coverage.update(h.outcomes)
    failures = [h.failure for h in records if h.failure is not None]
    return Campaign(
        hands=len(records), actions=sum(h.actions for h in records),
        first_at=None if cutoff is None else cutoff + 1,
        first=None if first is None else first.found, choices=[] if first is None else first.choices,
        failures=failures[:max_failures], failure_count=len(failures), coverage=coverage)


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` (0 <= I < N) as a pair; raises ValueError with a readable message."""
    index, sep, total = text.partition("/")
    try:
        i, n = int(index), int(total)
    except ValueError:
        raise ValueError(f"--shard is I/N with 0 <= I < N (e.g. 0/4), not {text!r}") from None
    if not sep or n < 1 or not 0 <= i < n:
        raise ValueError(f"--shard is I/N with 0 <= I < N (e.g. 0/4), not {text!r}")
    return i, n


def shard_lanes(lanes: int, shard: tuple[int, int] | None) -> list[int]:
    if shard is None:
        return list(range(lanes))
    i, n = shard
    if n > lanes:
        raise ValueError(f"--shard {i}/{n}: a campaign of {lanes} lanes splits into at most {lanes} shards "
                         "(raise --lanes)")
    return list(range(i, lanes, n))


def trace_json(trace: Trace) -> dict[str, Any]:
    return trace.as_json()
