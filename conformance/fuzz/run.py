"""One differential fuzzing run: options, search, shrink, write, verify, report.

The campaign is played by the strategy ``--search`` names (conformance.fuzz.strategy) on two
:class:`~conformance.engine.Engine` s: the reference (``reference-direct``) and the candidate.
Whatever ends it (the last hand, a disagreement, SIGINT or SIGTERM), the ``--report`` holds every
finished hand; an interrupted campaign's is marked incomplete and the interruption goes on up.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..engine import Engine, EngineInfo
from ..errors import AdapterError
from ..paths import default_spec_dir, make_own_folder
from ..safety import signal_name
from ..setups import start_request
from ..specdata import load_spec_data
from .checks import Mix
from .config import FuzzConfig, FuzzConfigError
from .driver import Lockstep, sends_batch
from .endpoints import default_schemas, open_candidate, reference_engine
from .faults import faults_for, other_options
from .guided import LaneResult, combine, shard_lanes, trim
from .model import CandidateFailure
from .model import observe_mode as driver_observe_mode
from .moves import GAME_KIND, HAND_KINDS, SETUP_KINDS
from .outcomes import GAME_CLASSES, Outcomes
from .report import FuzzReport, _options_text
from .scenario import (
    Verifier,
    disagreement_needs_original_setup,
    disagreement_scenario,
    failure_scenario,
    side_scenario,
    write_trace,
    write_verified,
)
from .search import SearchResult
from .strategy import Plan, Strategy, fill, strategy_for

__all__ = ["FuzzConfig", "FuzzConfigError", "FuzzReport", "fuzz"]


def _decide_options(config: FuzzConfig, candidate: Engine, reference: Engine) -> tuple[dict[str, str], bool]:
    """The options to play under (non-default only) and whether to send them to the candidate."""
    info = candidate.ensure_started()
    defaults: dict[str, str] = dict(reference.ensure_started().options)
    asked = config.campaign.options
    if asked is None:
        chosen = {k: v for k, v in info.options.items() if defaults.get(k) != v}
    else:
        chosen = {k: v for k, v in asked.items() if defaults.get(k) != v}
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
    probe = reference.call(start_request({"dealer": 0, "seed": 0}, chosen))
    if not probe.get("ok"):
        raise FuzzConfigError(f"the reference refuses the options {_options_text(chosen)}: "
                              f"{probe.get('error', {}).get('message')}")
    return chosen, info.configurable


KIND_NEEDS = {"hands": ("hands",), "tigers": ("hands",), "deck": ("deck",), "seed": ("seed",),
              GAME_KIND: ("game", "seed")}
"""The capabilities a setup kind needs (a game's later deals are seeded)."""


def setup_kinds(config: FuzzConfig, capabilities: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The setup kinds to play, and the hand kinds a game's first deal may take: those asked (``--game``:
    games only) that the candidate's capabilities allow. The default mix leaves out what it does not
    declare; a kind asked for by name that it does not declare is a FuzzConfigError."""
    asked = (GAME_KIND,) if config.campaign.game else config.campaign.setup_kinds
    takes = {k for k, needs in KIND_NEEDS.items() if all(c in capabilities for c in needs)}
    hand_kinds = tuple(k for k in HAND_KINDS if k in takes)
    missing = [k for k in asked if k not in takes]
    if missing and (config.campaign.game or asked != SETUP_KINDS):
        raise FuzzConfigError("the candidate does not declare what these setups need: " + ", ".join(
            f"{k} ({' and '.join(KIND_NEEDS[k])})" for k in missing))
    kinds = tuple(k for k in asked if k in takes)
    if not kinds or not hand_kinds:
        raise FuzzConfigError("the candidate declares none of the setups hands, deck or seed")
    return kinds, hand_kinds


def side_checks(config: FuzzConfig, info: EngineInfo, options: dict[str, str], send: bool, observe: bool,
                batch: bool, games: bool) -> Mix:
    """What the side checks may send the candidate (conformance.fuzz.checks): faults its capabilities and
    protocol allow, options if it takes them (or under protocol 3), counts if it declares ``count``."""
    spec = load_spec_data(config.output.spec_dir or default_spec_dir())
    takes_options = info.configurable or bool(info.follows)
    sendable = takes_options or info.protocol >= 3

    def follows(decision: str, option: str) -> bool:
        return info.configurable or option in info.follows.get(decision, ())

    other = other_options(spec.decisions or {}, options, lambda _d, _o: True) if sendable else []
    checks = config.campaign.checks
    return Mix(faults=faults_for(info.capabilities, info.protocol, sendable) if "setup" in checks else (),
               count="count" in info.capabilities and "count" in checks,
               divide="divide" in info.capabilities and info.protocol >= 2, variants="variant" in checks,
               pattern="pattern" in info.capabilities and "pattern" in checks and (send or not options),
               batch_setups=batch and info.protocol >= 3 and "setup" in checks,
               explicit_deals=games and "hands" in info.capabilities and info.protocol >= 2 and "deals" in checks,
               observe=observe, batch=batch, games=games, count_games=info.protocol >= 3, options=dict(options),
               send_options=send,
               other_options=tuple(other), unfollowed=frozenset((d, o) for d, o in other if not follows(d, o)))


class _Campaign:
    """One campaign's engines and lockstep, decided from the config and the candidate's handshake."""

    def __init__(self, config: FuzzConfig, strategy: Strategy) -> None:
        self.config, self.strategy = config, strategy
        self.reference = self.new_reference()
        self.candidate = self.new_candidate()

    def new_reference(self) -> Engine:
        return reference_engine(self.config.engine.reference_factory, default_schemas(self.config.output.spec_dir))

    def new_candidate(self) -> Engine:
        e = self.config.engine
        return open_candidate(e.engine, timeout=e.timeout, validate=e.validate, label=e.label,
                              schemas=default_schemas(self.config.output.spec_dir), direct=e.direct)

    def decide(self) -> None:
        config, candidate = self.config, self.candidate
        try:
            info = candidate.ensure_started()
        except AdapterError as exc:
            raise FuzzConfigError(f"cannot start {candidate.label}: {exc}") from None
        self.info = info
        self.options, self.send = _decide_options(config, candidate, self.reference)
        can_observe = "observe" in info.capabilities
        asked = config.compare.observe
        self.observe_mode = driver_observe_mode(can_observe if asked is None else asked)
        if self.observe_mode != "none" and not can_observe and asked is not None:
            raise FuzzConfigError(f"{candidate.label} does not declare the capability observe")
        self.batch = sends_batch(info, config.engine.batch)
        self.kinds, self.hand_kinds = setup_kinds(config, info.capabilities)
        self.mix = side_checks(config, info, self.options, self.send, self.observe_mode != "none", self.batch,
                               GAME_KIND in self.kinds)

    def lockstep(self, reference: Engine, candidate: Engine) -> Lockstep:
        config = self.config
        return Lockstep(reference, candidate, self.options, send_options=self.send, observe=self.observe_mode,
                        probe_percent=config.campaign.probe_percent, setup_kinds=self.kinds,
                        hand_kinds=self.hand_kinds, batch=self.batch, mix=self.mix,
                        states=config.compare.states, playout=config.strategy.playout and self.strategy.playout)

    def fresh(self) -> tuple[Lockstep, Callable[[], None]]:
        """A lockstep on engines of its own (for a worker process)."""
        reference, candidate = self.new_reference(), self.new_candidate()

        def close() -> None:
            candidate.close()
            reference.close()

        return self.lockstep(reference, candidate), close


def fuzz(config: FuzzConfig, progress: Callable[[SearchResult], None] | None = None) -> FuzzReport:
    """Fuzz ``config.engine`` against the reference; write and verify a scenario for what it finds."""
    started = time.perf_counter()
    strategy = strategy_for(config.strategy.search)
    strategy.check(config)
    run = _Campaign(config, strategy)
    try:
        run.decide()
        try:
            lane_ids = shard_lanes(config.campaign.lanes, config.split.shard)
        except ValueError as exc:
            raise FuzzConfigError(str(exc)) from None
        classes = plan_outcomes(run.options, GAME_KIND in run.kinds)
        kind_classes = run.mix.classes()
        plan = Plan(config, run.lockstep(run.reference, run.candidate), lane_ids, tuple(c.id for c in classes),
                    run.fresh, progress)
        report = FuzzReport(engine=run.candidate.label, options=run.options, config=config,
                            search=SearchResult(), candidate_info=run.info.as_json(),
                            observe=run.observe_mode != "none")
        report.observe_mode, report.batch, report.lane_ids, report.classes = (
            run.observe_mode, run.batch, lane_ids, classes)
        report.kind_classes, report.kinds = kind_classes, run.kinds
        try:
            report.search = strategy.search(plan)
        except KeyboardInterrupt as exc:  # SIGINT, or SIGTERM as conformance.safety.Terminated
            report.interrupted = signal_name(exc)
            _keep_finished(report, plan, started)
            raise
        _finish(report, plan, run, started)
        return report
    finally:
        run.candidate.close()
        run.reference.close()


def plan_outcomes(options: dict[str, str], games: bool = False) -> tuple[Any, ...]:
    """The rule outcome classes under ``options``, and with ``games`` the game classes."""
    return Outcomes(options).classes() + (GAME_CLASSES if games else ())


def _keep_finished(report: FuzzReport, plan: Plan, started: float) -> None:
    """An interrupted campaign: its finished hands into the report, the report written."""
    lanes = trim(list(plan.lanes.values()))
    report.lanes = sorted(lanes, key=lambda r: r.lane)
    if report.lanes:
        fill(report.search, report.lanes)
    report.coverage = combine(report.lanes).coverage if report.lanes else Counter(report.search.coverage)
    report.seconds = time.perf_counter() - started
    write_report(report)


def _finish(report: FuzzReport, plan: Plan, run: _Campaign, started: float) -> None:
    report.lanes = sorted(plan.lanes.values(), key=lambda r: r.lane) if plan.lanes else []
    report.lanes = trim(report.lanes) if report.lanes else []
    report.coverage = _coverage(report.search, report.lanes)
    report.restarts = run.candidate.restarts
    if report.config.output.out is not None:
        _write(report, run.candidate)
    report.seconds = time.perf_counter() - started
    write_report(report)


def write_report(report: FuzzReport) -> None:
    """The JSON ``--report``, if one is asked for."""
    path = report.config.output.report
    if path is not None:
        make_own_folder(path)
        path.write_text(json.dumps(report.as_json(), indent=1) + "\n", encoding="utf-8")


def _coverage(result: SearchResult, lanes: list[LaneResult]) -> Counter[str]:
    if lanes:
        return combine(lanes).coverage
    return Counter(result.coverage)


def _write(report: FuzzReport, candidate: Engine) -> None:
    output, seed = report.config.output, report.config.campaign.seed
    out = output.out
    assert out is not None
    spec = load_spec_data(output.spec_dir or default_spec_dir())
    verifier = Verifier(candidate, output.spec_dir) if output.verify else None
    name = report.candidate_info.get("name", "the candidate")
    header = (f"# Generated by `python -m conformance.fuzz` (seed {seed}) against {report.engine}.\n"
              "# The expectations are the reference engine's answers: a regression vector, not a worked example.\n")
    try:
        d = report.disagreement
        if d is not None:
            provenance = (f"Found by the differential fuzzer (seed {seed}) in hand {report.search.first_at}"
                          + (f", shrunk to {d.actions} action(s)." if report.search.shrunk is not None else "."))

            why: list[str] = []

            def build(explicit: bool) -> dict[str, Any] | None:
                if d.check is None:
                    return disagreement_scenario(d, spec, explicit=explicit, engine_name=f"The engine {name!r}",
                                                 provenance=provenance)
                made = side_scenario(d, spec, explicit=explicit, engine_name=f"The engine {name!r}",
                                     provenance=provenance)  # the side check replayed as a scenario of its kind
                if isinstance(made, str):
                    why.append(made)
                    return None
                return made

            written = write_verified(build, out, verifier, explicit_first=not disagreement_needs_original_setup(d),
                                     header=header)
            if written is not None and d.check is not None and written.reference is None and written.problems:
                written.path.unlink(missing_ok=True)  # a side check's setup no scenario can write: the loader says why
                why.append(written.problems[0])
                written = None
            if written is not None:
                report.written.append(written)
            if written is None or (d.check is not None and not written.verified):
                report.unwritable = (
                    f"the scenario format cannot express this disagreement ({d.where}"
                    + (f": {why[0]}" if why else "") + "); its trace is written instead" if written is None else
                    f"the scenario written does not prove this disagreement ({d.where}); its trace is written too")
                report.traces.append(write_trace(
                    f"fuzz-{d.where}-seed{seed}", {
                        "summary": d.summary(), "where": d.where, "fields": d.fields, "detail": d.detail,
                        "seat": d.seat, "trace": d.trace.as_json(), "request": d.request, "reference": d.reference,
                        "candidate": d.candidate}, out))
        seen: set[str] = set()
        for f in report.failures:
            if len(seen) >= output.max_failure_scenarios:
                break
            key = f"{f.request.get('cmd')}:{f.status}:{f.message.split(':')[0]}"
            if key in seen:
                continue
            seen.add(key)

            def build_failure(explicit: bool, f: CandidateFailure = f) -> dict[str, Any] | None:
                return failure_scenario(f, spec, explicit=explicit, engine_name=f"The engine {name!r}",
                                        provenance=f"Found by the differential fuzzer (seed {seed}).")

            # a schema-breaking answer is a protocol error: its trace is kept, no scenario of the rules is written
            written = None if f.invalid else write_verified(build_failure, out, verifier, header=header)
            if written is not None:
                report.written.append(written)
            else:
                report.traces.append(write_trace(
                    f"fuzz-failure-{f.request.get('cmd')}-seed{seed}",
                    {"summary": f.summary(), "trace": f.trace.as_json(), "request": f.request,
                     "stderr": f.stderr}, out))
    finally:
        if verifier is not None:
            verifier.close()
