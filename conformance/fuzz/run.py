"""One differential fuzzing run: options, search, shrink, write, verify, report."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import AdapterError, ConformanceError
from .cli import DEFAULT_OUT
from .driver import SETUP_KINDS, CandidateFailure, Disagreement, Lockstep
from .endpoints import Candidate, Reference, default_schemas, open_candidate
from .scenario import (
    Verifier,
    Written,
    disagreement_needs_original_setup,
    disagreement_scenario,
    failure_scenario,
    reference_classifier,
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
    observe: bool | None = None  # None: if the candidate has the capability
    probe_percent: int = 15
    setup_kinds: tuple[str, ...] = SETUP_KINDS
    timeout: float | None = 10.0
    validate: bool = False
    max_failure_scenarios: int = 3
    shrink_seconds: float | None = 60.0
    spec_dir: Path | None = None  # default: the repository's spec/
    reference_factory: Callable[[], Any] | None = None
    label: str | None = None


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
        lines.append(f"hands: {s.hands}  actions: {s.actions}  time: {s.seconds:.2f} s  ({rate:,.0f} hands/s)")
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
        return "\n".join(lines)


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
    probe = reference.handle({"cmd": "start", "options": chosen, "setup": {"dealer": 0, "seed": 0}})
    if not probe.get("ok"):
        raise FuzzConfigError(f"the reference refuses the options {_options_text(chosen)}: "
                              f"{probe.get('error', {}).get('message')}")
    return chosen, info.configurable


def fuzz(config: FuzzConfig, progress: Callable[[SearchResult], None] | None = None) -> FuzzReport:
    """Fuzz ``config.engine`` against the reference; write and verify a scenario for what it finds."""
    started = time.perf_counter()
    reference = Reference(config.reference_factory)
    candidate = open_candidate(config.engine, timeout=config.timeout, validate=config.validate, label=config.label,
                               schemas=default_schemas(config.spec_dir))
    try:
        try:
            info = candidate.info
        except AdapterError as exc:
            raise FuzzConfigError(f"cannot start {candidate.label}: {exc}") from None
        options, send = _decide_options(config, candidate, reference)
        observe = ("observe" in info.capabilities) if config.observe is None else config.observe
        lockstep = Lockstep(reference, candidate, options, send_options=send, observe=observe,
                            probe_percent=config.probe_percent, setup_kinds=config.setup_kinds)
        result = search(lockstep, hands=config.hands, seed_value=config.seed, shrink=config.shrink,
                        progress=progress, shrink_seconds=config.shrink_seconds)
        report = FuzzReport(engine=candidate.label, options=options, config=config, search=result,
                            candidate_info=info.as_json(), observe=observe)
        report.restarts = candidate.restarts
        if config.out is not None:
            _write(report, reference, candidate)
        report.seconds = time.perf_counter() - started
        return report
    finally:
        candidate.close()


def _write(report: FuzzReport, reference: Reference, candidate: Candidate) -> None:
    config = report.config
    out = config.out
    assert out is not None
    classify = reference_classifier(reference, report.options)
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
                return disagreement_scenario(d, classify, explicit=explicit, engine_name=f"The engine {name!r}",
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
                return failure_scenario(f, classify, explicit=explicit, engine_name=f"The engine {name!r}",
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
