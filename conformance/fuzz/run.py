"""One differential fuzzing run: options, search, shrink, write, verify, report."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import AdapterError, ConformanceError
from ..paths import default_spec_dir
from ..setups import start_request
from ..specdata import load_spec_data
from .cli import DEFAULT_OUT
from .driver import Lockstep
from .endpoints import Candidate, Reference, default_schemas, open_candidate
from .guided import (
    DEFAULT_LANES,
    Campaign,
    LaneResult,
    combine,
    play_lanes,
    play_parallel,
    shard_lanes,
    shrink,
)
from .model import CandidateFailure, Disagreement
from .model import observe_mode as driver_observe_mode
from .moves import GAME_KIND, SETUP_KINDS
from .scenario import (
    Verifier,
    Written,
    disagreement_needs_original_setup,
    disagreement_scenario,
    failure_scenario,
    write_trace,
    write_verified,
)
from .search import SearchResult, search


class FuzzConfigError(ConformanceError):
    """Options that the candidate or the reference cannot play under."""


@dataclass
class FuzzConfig:
    engine: Any  # engine spec text, EngineSpec, Engine, Adapter or a factory callable
    hands: int = 200
    seed: int = 0
    options: Mapping[str, str] | None = None  # None: the candidate's declared options
    out: Path | None = DEFAULT_OUT  # None: write nothing
    verify: bool = True
    shrink: bool = True
    observe: bool | str | None = None  # None: every step if the candidate has the capability; or every/last/none
    probe_percent: int = 15
    setup_kinds: tuple[str, ...] = SETUP_KINDS
    timeout: float | None = 10.0
    validate: bool = False
    max_failure_scenarios: int = 3
    shrink_seconds: float | None = 60.0
    spec_dir: Path | None = None  # default: the repository's spec/
    reference_factory: Callable[[], Any] | None = None
    label: str | None = None
    search: str = "guided"  # "guided" (lanes, pool of rare outcomes) | "hypothesis"
    lanes: int = DEFAULT_LANES
    jobs: int = 1
    shard: tuple[int, int] | None = None
    batch: bool | None = None  # None: if the candidate declares it
    direct: bool = True  # call an in-process candidate directly (no thread, no JSON copies)
    report: Path | None = None  # write the JSON report here
    game: bool = False  # whole four-hand games instead of single hands
    states: str = "every"  # compare `state` after every step, or at the end of each hand only (faster)
    playout: bool = True  # guided search: the reference plays 3 hands in 4 in one `batch` with `playout`


@dataclass
class FuzzReport:
    engine: str
    options: dict[str, str]
    config: FuzzConfig
    search: SearchResult
    candidate_info: dict[str, Any] = field(default_factory=dict)
    written: list[Written] = field(default_factory=list)
    traces: list[Path] = field(default_factory=list)
    restarts: int = 0
    seconds: float = 0.0
    observe: bool = False
    unwritable: str = ""
    coverage: Counter[str] = field(default_factory=Counter)
    classes: tuple[Any, ...] = ()  # reference_engine.outcomes.OutcomeClass, under the options played
    lanes: list[LaneResult] = field(default_factory=list)
    lane_ids: list[int] = field(default_factory=list)
    observe_mode: str = "none"
    batch: bool = False

    @property
    def unreached(self) -> list[Any]:
        return [c for c in self.classes if not self.coverage.get(c.id)]

    def coverage_lines(self) -> list[str]:
        if not self.classes:
            return ["outcome coverage: not measured (the reference reports no outcomes)"]
        reached = len(self.classes) - len(self.unreached)
        lines = [f"outcome coverage: {reached}/{len(self.classes)} rule outcome classes reached in "
                 f"{self.search.hands} {'game' if self.config.game else 'hand'}(s)"]
        rare = sorted((self.coverage[c.id], c.id) for c in self.classes if 0 < self.coverage.get(c.id, 0) < 5)
        if rare:
            lines.append("  rarely reached: " + ", ".join(f"{cid} ×{n}" for n, cid in rare))
        if self.unreached:
            lines.append("  UNREACHED: " + ", ".join(f"{c.id} ({c.rule})" for c in self.unreached))
        return lines

    @property
    def disagreement(self) -> Disagreement | None:
        return self.search.disagreement

    @property
    def failures(self) -> list[CandidateFailure]:
        return self.search.failures

    @property
    def ok(self) -> bool:
        return self.disagreement is None and self.search.failure_count == 0

    @property
    def hands_to_first_disagreement(self) -> int | None:
        return self.search.first_at

    def format(self) -> str:
        s = self.search
        lines = [f"fuzz: {self.engine} against the reference, seed {self.config.seed}, "
                 f"options {_options_text(self.options)}"
                 + ("" if self.observe else " (observations not compared)")]
        rate = s.hands / s.seconds if s.seconds else 0.0
        unit = "games" if self.config.game else "hands"
        lines.append(f"{unit}: {s.hands}  actions: {s.actions}  time: {s.seconds:.2f} s  ({rate:,.0f} {unit}/s)"
                     + (f"  [{self.config.search}: lanes {_lanes_text(self.lane_ids, self.config.lanes)}"
                        f", jobs {self.config.jobs}" if self.config.search == "guided" else "  [hypothesis")
                     + f", observations {self.observe_mode}{', batch' if self.batch else ''}]")
        if s.failure_count:
            lines.append(f"candidate failures (crash, hang, protocol): {s.failure_count}; "
                         f"restarted {self.restarts} time(s)")
            for f in s.failures[:5]:
                lines.append(f"  hand with {len(f.trace.steps)} action(s), setup {f.trace.setup}: {f.summary()}")
                if f.trace.steps:
                    lines.append("    actions: " + "; ".join(
                        f"{st.seat}:{st.action}" + (" (reject)" if st.kind == "reject" else "") for st in f.trace.steps))
        d = self.disagreement
        if d is None:
            lines.append("no disagreement" if s.failure_count == 0 else "no disagreement besides the failures above")
        else:
            lines.append(f"first disagreement in hand {s.first_at}: {s.first.summary() if s.first else ''}")
            if s.shrunk is not None and s.first is not None:
                lines.append(f"shrunk from {s.first.actions} to {s.shrunk.actions} action(s) in "
                             f"{s.shrink_calls} replays ({s.shrink_seconds:.1f} s): {s.shrunk.summary()}")
            if s.note:
                lines.append(f"note: {s.note}")
            if d.detail:
                lines.append("  differing: " + ", ".join(d.detail))
        for w in self.written:
            status = "verified" if w.verified else "NOT verified"
            ref = w.reference.status if w.reference else "-"
            cand = w.candidate.status if w.candidate else "-"
            lines.append(f"wrote {w.path} ({status}: reference {ref}, candidate {cand}; clauses {', '.join(w.clauses)})")
            if w.candidate is not None and w.candidate.diff:
                lines.extend("    " + line for line in w.candidate.diff[:8])
            lines.extend("    problem: " + p for p in w.problems)
        for t in self.traces:
            lines.append(f"wrote {t}")
        if self.unwritable:
            lines.append(self.unwritable)
        lines.extend(self.coverage_lines())
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        """The campaign as JSON: enough to merge shards (every hand's outcomes and the first disagreement)."""
        return campaign_json(self.engine, self.config, self.options, self.observe_mode, self.lane_ids,
                             self.lanes, [c.id for c in self.classes])


def _lanes_text(ids: list[int], lanes: int) -> str:
    return f"all {lanes}" if ids == list(range(lanes)) else ",".join(map(str, ids)) + f" of {lanes}"


def campaign_json(engine: str, config: FuzzConfig, options: Mapping[str, str], observe: str,
                  lane_ids: list[int], lanes: list[LaneResult], classes: list[str]) -> dict[str, Any]:
    def disagreement(r: LaneResult) -> dict[str, Any] | None:
        d = r.found
        if d is None:
            return None
        return {"index": r.found_at, "summary": d.summary(), "where": d.where, "fields": d.fields,
                "detail": d.detail, "seat": d.seat, "trace": d.trace.as_json(), "choices": r.choices}

    return {
        "format": "hakka-fuzz-report",
        "version": 1,
        "engine": engine,
        "seed": config.seed,
        "hands": config.hands,
        "lanes": config.lanes,
        "options": dict(options),
        "observe": observe,
        "probe_percent": config.probe_percent,
        "playout": config.playout,
        "setup_kinds": list(config.setup_kinds),
        "classes": classes,
        "lane_results": [{
            "lane": r.lane,
            "found": disagreement(r),
            "hands": [[h.index, list(h.outcomes), h.actions,
                       None if h.failure is None else h.failure.summary()] for h in r.hands],
        } for r in sorted(lanes, key=lambda r: r.lane)],
        "shard_lanes": list(lane_ids),
    }


def _options_text(options: Mapping[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def _decide_options(config: FuzzConfig, candidate: Candidate, reference: Reference) -> tuple[dict[str, str], bool]:
    """The options to play under (non-default only) and whether to send them to the candidate."""
    info = candidate.info
    defaults: dict[str, str] = dict(reference.info.get("options", {}))
    if config.options is None:
        chosen = {k: v for k, v in info.options.items() if defaults.get(k) != v}
    else:
        chosen = {k: v for k, v in config.options.items() if defaults.get(k) != v}
        if not info.configurable:
            follows = {**defaults, **info.options}
            conflicts = [f"{k}={v} (the engine follows {follows.get(k)})" for k, v in chosen.items()
                         if follows.get(k) != v]
            conflicts += [f"{k}={v} (the engine follows it, the options given do not)"
                          for k, v in info.options.items() if defaults.get(k) != v and k not in chosen]
            if conflicts:
                raise FuzzConfigError("the engine is not configurable and follows other options: "
                                      + ", ".join(conflicts))
    chosen = dict(sorted(chosen.items(), key=lambda kv: int(kv[0][1:]) if kv[0][1:].isdigit() else 0))
    probe = reference.handle(start_request({"dealer": 0, "seed": 0}, chosen))
    if not probe.get("ok"):
        raise FuzzConfigError(f"the reference refuses the options {_options_text(chosen)}: "
                              f"{probe.get('error', {}).get('message')}")
    return chosen, info.configurable


def fuzz(config: FuzzConfig, progress: Callable[[SearchResult], None] | None = None) -> FuzzReport:
    """Fuzz ``config.engine`` against the reference; write and verify a scenario for what it finds."""
    started = time.perf_counter()
    reference = Reference(config.reference_factory)

    def open_it() -> Candidate:
        return open_candidate(config.engine, timeout=config.timeout, validate=config.validate, label=config.label,
                              schemas=default_schemas(config.spec_dir), direct=config.direct)

    candidate = open_it()
    try:
        try:
            info = candidate.info
        except AdapterError as exc:
            raise FuzzConfigError(f"cannot start {candidate.label}: {exc}") from None
        options, send = _decide_options(config, candidate, reference)
        can_observe = "observe" in info.capabilities
        observe: bool | str = can_observe if config.observe is None else config.observe
        observe_mode = driver_observe_mode(observe)
        if observe_mode != "none" and not can_observe and config.observe is not None:
            raise FuzzConfigError(f"{candidate.label} does not declare the capability observe")
        batch = ("batch" in info.capabilities) if config.batch is None else config.batch

        def lockstep_for(ref: Reference, cand: Candidate) -> Lockstep:
            kinds = (GAME_KIND,) if config.game else config.setup_kinds
            return Lockstep(ref, cand, options, send_options=send, observe=observe_mode,
                            probe_percent=config.probe_percent, setup_kinds=kinds, batch=batch,
                            states=config.states, playout=config.playout and config.search == "guided")

        lockstep = lockstep_for(reference, candidate)
        lanes: list[LaneResult] = []
        try:
            lane_ids = shard_lanes(config.lanes, config.shard)
        except ValueError as exc:
            raise FuzzConfigError(str(exc)) from None
        if config.search == "hypothesis":
            if config.jobs != 1 or config.shard is not None:
                raise FuzzConfigError("--jobs and --shard need the guided search (not --search hypothesis)")
            result = search(lockstep, hands=config.hands, seed_value=config.seed, shrink=config.shrink,
                            progress=progress, shrink_seconds=config.shrink_seconds)
        else:
            goals = tuple(c.id for c in reference.outcome_classes(options))
            result, lanes = _guided(config, lockstep, lane_ids, lambda: _fresh(lockstep_for, config, open_it),
                                    progress, goals)
        report = FuzzReport(engine=candidate.label, options=options, config=config, search=result,
                            candidate_info=info.as_json(), observe=observe_mode != "none")
        report.observe_mode, report.batch = observe_mode, batch
        report.lanes, report.lane_ids = lanes, lane_ids
        report.classes = reference.outcome_classes(options)
        report.coverage = _coverage(result, lanes)
        report.restarts = candidate.restarts
        if config.out is not None:
            _write(report, reference, candidate)
        report.seconds = time.perf_counter() - started
        if config.report is not None:
            config.report.parent.mkdir(parents=True, exist_ok=True)
            config.report.write_text(json.dumps(report.as_json(), indent=1) + "\n", encoding="utf-8")
        return report
    finally:
        candidate.close()


def _fresh(lockstep_for: Callable[[Reference, Candidate], Lockstep], config: FuzzConfig,
           open_it: Callable[[], Candidate]) -> tuple[Lockstep, Callable[[], None]]:
    """A lockstep on engines of its own (for a worker process)."""
    candidate = open_it()
    return lockstep_for(Reference(config.reference_factory), candidate), candidate.close


def _guided(config: FuzzConfig, lockstep: Lockstep, lane_ids: list[int],
            make: Callable[[], tuple[Lockstep, Callable[[], None]]],
            progress: Callable[[SearchResult], None] | None,
            goals: tuple[str, ...] = ()) -> tuple[SearchResult, list[LaneResult]]:
    result = SearchResult()
    started = time.perf_counter()
    jobs = max(1, min(config.jobs, len(lane_ids)))
    if jobs > 1:
        lanes = play_parallel(make, config.seed, config.hands, config.lanes, lane_ids, jobs, goals)
    else:
        def tick(_index: int) -> None:
            if progress is not None:
                result.hands += 1
                progress(result)

        lanes = play_lanes(lockstep, config.seed, config.hands, config.lanes, lane_ids, progress=tick, goals=goals)
    campaign = combine(lanes)
    _fill(result, campaign)
    result.seconds = time.perf_counter() - started
    if campaign.first is not None and config.shrink:
        shrink_started = time.perf_counter()
        result.shrunk, result.shrink_calls = shrink(lockstep, campaign.choices, campaign.first, config.shrink_seconds)
        result.shrink_seconds = time.perf_counter() - shrink_started
        if config.shrink_seconds is not None and result.shrink_seconds > config.shrink_seconds:
            result.note = f"shrinking stopped after {config.shrink_seconds:g} s; the hand may not be minimal"
    return result, lanes


def _fill(result: SearchResult, campaign: Campaign) -> None:
    result.hands, result.actions = campaign.hands, campaign.actions
    result.first_at, result.first = campaign.first_at, campaign.first
    result.failures = [f for f in campaign.failures if isinstance(f, CandidateFailure)]
    result.failure_count = campaign.failure_count


def _coverage(result: SearchResult, lanes: list[LaneResult]) -> Counter[str]:
    if lanes:
        return combine(lanes).coverage
    return Counter(result.coverage)


def _write(report: FuzzReport, reference: Reference, candidate: Candidate) -> None:
    config = report.config
    out = config.out
    assert out is not None
    spec = load_spec_data(config.spec_dir or default_spec_dir())
    verifier = Verifier(candidate, config.spec_dir) if config.verify else None
    name = report.candidate_info.get("name", "the candidate")
    header = (f"# Generated by `python -m conformance.fuzz` (seed {config.seed}) against {report.engine}.\n"
              "# The expectations are the reference engine's answers: a regression vector, not a worked example.\n")
    try:
        d = report.disagreement
        if d is not None:
            provenance = (f"Found by the differential fuzzer (seed {config.seed}) in hand {report.search.first_at}"
                          + (f", shrunk to {d.actions} action(s)." if report.search.shrunk is not None else "."))

            def build(explicit: bool) -> dict[str, Any] | None:
                return disagreement_scenario(d, spec, explicit=explicit, engine_name=f"The engine {name!r}",
                                             provenance=provenance)

            written = write_verified(build, out, verifier, explicit_first=not disagreement_needs_original_setup(d),
                                     header=header)
            if written is not None:
                report.written.append(written)
            else:
                report.unwritable = ("the scenario format cannot express this disagreement "
                                     f"({d.where}); its trace is written instead")
                report.traces.append(write_trace(
                    f"fuzz-{d.where}-seed{config.seed}", {
                        "summary": d.summary(), "where": d.where, "fields": d.fields, "detail": d.detail,
                        "seat": d.seat, "trace": d.trace.as_json(), "reference": d.reference,
                        "candidate": d.candidate}, out))
        seen: set[str] = set()
        for f in report.failures:
            if len(seen) >= config.max_failure_scenarios:
                break
            key = f"{f.request.get('cmd')}:{f.status}:{f.message.split(':')[0]}"
            if key in seen:
                continue
            seen.add(key)

            def build_failure(explicit: bool, f: CandidateFailure = f) -> dict[str, Any] | None:
                return failure_scenario(f, spec, explicit=explicit, engine_name=f"The engine {name!r}",
                                        provenance=f"Found by the differential fuzzer (seed {config.seed}).")

            written = write_verified(build_failure, out, verifier, header=header)
            if written is not None:
                report.written.append(written)
            else:
                report.traces.append(write_trace(
                    f"fuzz-failure-{f.request.get('cmd')}-seed{config.seed}",
                    {"summary": f.summary(), "trace": f.trace.as_json(), "request": f.request,
                     "stderr": f.stderr}, out))
    finally:
        if verifier is not None:
            verifier.close()
