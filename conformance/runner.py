"""Executing scenarios against an engine (spec/PROTOCOL.md "Scenario execution").

The runner sends requests, compares answers with the scenario's expectations
and turns everything that can go wrong into a :class:`~conformance.results.Result`:
``pass``, ``fail`` (the engine disagrees with the scenario), ``error`` (the
engine crashed, broke the protocol or reported an internal error), ``timeout``,
``skip`` (the engine lacks a capability or follows other decision options),
and, through an expected-failures list, ``xfail`` / ``xpass``.

It holds no rule of the game: every expected value comes from the scenario.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from .compare import check_expectations, state_diff
from .engine import Engine, EngineInfo
from .errors import AdapterError
from .expected import apply_expected
from .notation import INITIAL_ELDERS
from .results import ERROR, FAIL, PASS, SKIP, Result
from .loader import Scenario
from .specdata import SpecData

CAPABILITY_OF_KIND = {"pattern": "pattern", "count": "count", "game": "game"}


class _Outcome(Exception):
    def __init__(self, status: str, reason: str, key: str | None = None, diff: Iterable[str] = ()) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.key = key
        self.diff = tuple(diff)


def required_options(scenario: Scenario, spec: SpecData) -> dict[str, str]:
    """The decision options a scenario's expectations depend on."""
    if scenario.requires == "defaults":
        return {d.id: d.default for d in (spec.decisions or {}).values()}
    if isinstance(scenario.requires, Mapping):
        return dict(scenario.requires)
    return {}


def options_to_send(scenario: Scenario) -> dict[str, str]:
    """What a configurable engine is sent: the required options only; it defaults the rest."""
    return dict(scenario.requires) if isinstance(scenario.requires, Mapping) else {}


def skip_reason(scenario: Scenario, info: EngineInfo, spec: SpecData) -> str | None:
    capability = CAPABILITY_OF_KIND.get(scenario.kind)
    if capability and capability not in info.capabilities:
        return f"the engine lacks the {capability!r} capability"
    if info.configurable:
        return None
    differing = []
    for decision, option in required_options(scenario, spec).items():
        follows = info.options.get(decision) or spec.default_of(decision)
        if follows is not None and follows != option:
            differing.append(f"{decision}={option} (engine follows {follows})")
    if differing:
        return "requires " + ", ".join(differing) + "; the engine is not configurable"
    return None


@dataclass
class _Context:
    at: str = "setup"
    at_line: int | None = None
    step: int | None = None
    action: str | None = None
    transcript: list[tuple[dict[str, Any], dict[str, Any] | None]] = field(default_factory=list)


class ScenarioRunner:
    """Runs scenarios one by one on one :class:`Engine`."""

    def __init__(self, engine: Engine, spec: SpecData, expected_failures: Mapping[str, str] | None = None) -> None:
        self.engine = engine
        self.spec = spec
        self.expected = dict(expected_failures or {})

    # ------------------------------------------------------------------ public

    def run(self, scenario: Scenario) -> Result:
        started = time.perf_counter()
        ctx = _Context(at_line=scenario.line)
        diff: tuple[str, ...]
        base = dict(id=scenario.id, file=scenario.file, line=scenario.line, kind=scenario.kind,
                    area=scenario.area, clauses=scenario.clauses, tags=scenario.tags)
        try:
            ctx.at = "hello"
            info = self.engine.ensure_started()
            reason = skip_reason(scenario, info, self.spec)
            if reason is not None:
                raise _Outcome(SKIP, reason)
            ctx.at = "setup"
            getattr(self, "_run_" + scenario.kind)(scenario, info, ctx)
            status, reason_text, key, diff = PASS, "", None, ()
        except _Outcome as out:
            status, reason_text, key, diff = out.status, out.reason, out.key, out.diff
        except AdapterError as exc:
            status, reason_text, key, diff = exc.status, str(exc), None, ()
        except Exception as exc:  # noqa: BLE001 - a runner bug must not end the run
            status, key = ERROR, None
            reason_text = f"internal error of the runner: {type(exc).__name__}: {exc}"
            diff = tuple(traceback.format_exc().splitlines())
        if status in (PASS, SKIP):
            ctx.at, ctx.step, ctx.action, at_line = "", None, None, None
        else:
            at_line = ctx.at_line
        result = Result(
            status=status, reason=reason_text, key=key, diff=tuple(diff),
            step=ctx.step, at=ctx.at, at_line=at_line, action=ctx.action,
            stderr=self.engine.take_stderr(), duration=time.perf_counter() - started,
            transcript=tuple(ctx.transcript), **base)  # type: ignore[arg-type]
        return apply_expected(result, self.expected)

    # ------------------------------------------------------------------ requests

    def _call(self, ctx: _Context, message: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
        ctx.transcript.append((message, None))
        answer = self.engine.call(message, variant)
        ctx.transcript[-1] = (message, answer)
        return answer

    @staticmethod
    def _refusal(answer: Mapping[str, Any]) -> str:
        err = answer["error"]
        rule = f" [rule {err['rule']}]" if err.get("rule") else ""
        return f"{err['kind']}: {err['message']}{rule}"

    def _require_ok(self, answer: Mapping[str, Any], what: str, key: str | None = None) -> None:
        if answer["ok"]:
            return
        kind = answer["error"]["kind"]
        text = self._refusal(answer)
        if kind == "unsupported":
            raise _Outcome(SKIP, f"the engine does not support {what}: {text}")
        if kind == "internal":
            raise _Outcome(ERROR, f"internal error of the engine on {what}: {text}")
        raise _Outcome(FAIL, f"the engine refused {what}: {text}", key)

    def _state(self, ctx: _Context) -> dict[str, Any]:
        answer = self._call(ctx, {"cmd": "state"})
        self._require_ok(answer, "`state`")
        return answer

    def _start(self, scenario: Scenario, info: EngineInfo, ctx: _Context, setup: dict[str, Any]) -> None:
        ctx.at, ctx.at_line = "setup", scenario.line_of(scenario.kind, "setup")
        message: dict[str, Any] = {"cmd": "start", "setup": setup}
        if info.configurable:
            message["options"] = options_to_send(scenario)
        self._require_ok(self._call(ctx, message), "the setup", "setup")

    def _act(self, ctx: _Context, seat: int, action: str) -> dict[str, Any]:
        return self._call(ctx, {"cmd": "act", "seat": seat, "action": action})

    # ------------------------------------------------------------------ bodies

    def _run_pattern(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        body = scenario.body
        ctx.at, ctx.at_line = "pattern", scenario.line_of("pattern")
        message: dict[str, Any] = {"cmd": "pattern"}
        if info.configurable:
            message["options"] = options_to_send(scenario)
        if "classify" in body:
            message["classify"] = body["classify"]
            answer = self._call(ctx, message, "classify")
            self._require_ok(answer, "the pattern request", "expect")
            actual = answer["pattern"]
        else:
            message.update(current=body["current"], challenger=body["challenger"],
                           elders=body.get("elders", INITIAL_ELDERS), led=body.get("led", True))
            answer = self._call(ctx, message, "beats")
            self._require_ok(answer, "the pattern request", "expect")
            actual = "beats" if answer["beats"] else "does-not-beat"
        if actual != body["expect"]:
            ctx.at_line = scenario.line_of("pattern", "expect")
            raise _Outcome(FAIL, f"expected {body['expect']}, the engine says {actual}", "expect",
                           (f"expected: {body['expect']}", f"actual:   {actual}"))

    def _run_trajectory(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        body = scenario.body
        setup = {"game": dict(body["setup"])} if scenario.kind == "game" else dict(body["setup"])
        self._start(scenario, info, ctx, setup)
        state = self._state(ctx)
        for i, step in enumerate(body.get("steps", ())):
            ctx.at, ctx.step, ctx.at_line, ctx.action = f"steps[{i}]", i, scenario.step_line(i), None
            if "do" in step:
                ctx.action = f"seat {step['seat']} do {step['do']!r}"
                answer = self._act(ctx, step["seat"], step["do"])
                self._require_ok(answer, f"{step['do']!r} by seat {step['seat']}", "do")
                state = self._state(ctx)
            elif "reject" in step:
                ctx.action = f"seat {step['seat']} reject {step['reject']!r}"
                before = state
                answer = self._act(ctx, step["seat"], step["reject"])
                if answer["ok"]:
                    raise _Outcome(FAIL, f"the engine accepted {step['reject']!r} by seat {step['seat']}, "
                                         f"which must be rejected as {step['error']}", "reject",
                                   (f"expected: error {step['error']}", "actual:   ok"))
                kind = answer["error"]["kind"]
                if kind == "internal":
                    raise _Outcome(ERROR, f"internal error of the engine: {self._refusal(answer)}")
                if kind != step["error"]:
                    raise _Outcome(FAIL, f"wrong error kind for {step['reject']!r}", "error",
                                   (f"expected: {step['error']}", f"actual:   {self._refusal(answer)}"))
                state = self._state(ctx)
                if state != before:
                    raise _Outcome(FAIL, "the state changed after a rejected action", "state",
                                   state_diff(before, state))
            if "expect" in step:
                self._check(ctx, step["expect"], state)
        if "final" in body:
            ctx.at, ctx.step, ctx.action = "final", None, None
            ctx.at_line = scenario.line_of(scenario.kind, "final")
            self._check(ctx, body["final"], state)

    _run_game = _run_trajectory

    def _observations(self, ctx: _Context, expect: Mapping[str, Any]) -> dict[int, Any]:
        """The observations an ``observe`` expectation names, one `observe` request per seat."""
        seen: dict[int, Any] = {}
        for entry in expect.get("observe", ()):
            seat = entry["seat"]
            if seat not in seen:
                answer = self._call(ctx, {"cmd": "observe", "seat": seat})
                self._require_ok(answer, f"`observe` for seat {seat}", "observe")
                seen[seat] = answer["observation"]
        return seen

    def _check(self, ctx: _Context, expect: Mapping[str, Any], state: Mapping[str, Any]) -> None:
        mismatches = check_expectations(expect, state, self._observations(ctx, expect))
        if mismatches:
            keys = ", ".join(m.key for m in mismatches)
            diff = [line for m in mismatches for line in [f"{m.key}:"] + [f"  {d}" for d in m.diff]]
            raise _Outcome(FAIL, f"expectation not met: {keys}", keys, diff)

    def _run_count(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        body = scenario.body
        self._start(scenario, info, ctx, dict(body["setup"]))
        for j, step in enumerate(body.get("prefix", ())):
            ctx.at, ctx.at_line = f"prefix[{j}]", scenario.line_of("count", "prefix", j)
            ctx.action = f"seat {step['seat']} do {step['do']!r}"
            answer = self._act(ctx, step["seat"], step["do"])
            self._require_ok(answer, f"{step['do']!r} by seat {step['seat']}", "prefix")
        ctx.at, ctx.action, ctx.at_line = "count", None, scenario.line_of("count", "counts")
        expected = list(body["counts"])
        answer = self._call(ctx, {"cmd": "count", "depth": len(expected)})
        self._require_ok(answer, f"count to depth {len(expected)}", "counts")
        actual = answer["counts"]
        if actual != expected:
            diff = [f"depth {d + 1}: expected {e}, actual {a}"
                    for d, (e, a) in enumerate(zip(expected, actual)) if e != a]
            if len(actual) != len(expected):
                diff.append(f"expected {len(expected)} counts, got {len(actual)}")
            raise _Outcome(FAIL, "perft counts differ", "counts", diff)


def run_scenarios(scenarios: Iterable[Scenario], engine: Engine, spec: SpecData,
                  expected_failures: Mapping[str, str] | None = None,
                  on_result: Callable[[Result], None] | None = None,
                  on_start: Callable[[Scenario], None] | None = None) -> list[Result]:
    """Run every scenario in order; never raises for engine misbehaviour."""
    runner = ScenarioRunner(engine, spec, expected_failures)
    results = []
    for scenario in scenarios:
        if on_start:
            on_start(scenario)
        result = runner.run(scenario)
        results.append(result)
        if on_result:
            on_result(result)
    return results
