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

import json
import time
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .compare import EVENTS_NOT_COMPARED, check_expectations, events_not_compared_note, state_diff
from .engine import Engine, EngineInfo
from .errors import AdapterError, EngineTimeout
from .expected import apply_expected
from .listeners import Listener, Listeners, Transcript
from .loader import Scenario
from .notation import INITIAL_ELDERS, out_of_order
from .results import ERROR, FAIL, PASS, SKIP, TIMEOUT, Result, Status
from .setups import capabilities_of, requested_options, start_request
from .specdata import SpecData

TRANSCRIPT_KEPT = 20
"""Exchanges kept per scenario (the last ones), and only for a scenario that did not pass."""
MAX_STORED_ANSWER = 16 * 1024
"""Characters of one answer kept in a transcript; a larger answer is kept as its head."""


MAX_STDERR_PASSED = 2000
"""Characters of engine stderr kept for a scenario that passed or was skipped (the last ones)."""


def kept_stderr(text: str, status: Status) -> str:
    """The engine's stderr as a result keeps it: whole (up to the adapter's bound) for a failure, its tail else."""
    if status in (PASS, SKIP) and len(text) > MAX_STDERR_PASSED:
        return f"[… {len(text) - MAX_STDERR_PASSED} characters dropped …]\n" + text[-MAX_STDERR_PASSED:]
    return text


def stored_answer(answer: dict[str, Any] | None) -> dict[str, Any] | None:
    """``answer`` as kept in a transcript: itself when small, else a clipped text of it."""
    if answer is None:
        return None
    try:
        text = json.dumps(answer, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return {"clipped": "<not JSON data>"}
    if len(text) <= MAX_STORED_ANSWER:
        return answer
    return {"clipped": text[:MAX_STORED_ANSWER], "size": len(text)}


class _Outcome(Exception):
    def __init__(self, status: Status, reason: str, key: str | None = None, diff: Iterable[str] = (),
                 rule_keys: tuple[str, ...] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.key = key
        self.diff = tuple(diff)
        self.rule_keys = rule_keys if rule_keys is not None else ((key,) if key else ())


def required_options(scenario: Scenario, spec: SpecData) -> dict[str, str]:
    """The decision options a scenario's expectations depend on."""
    if scenario.requires == "defaults":
        return {d.id: d.default for d in (spec.decisions or {}).values()}
    if isinstance(scenario.requires, Mapping):
        return dict(scenario.requires)
    return {}


def options_to_send(scenario: Scenario) -> dict[str, str]:
    """What a configurable engine is sent: the required options only; it defaults the rest."""
    return requested_options(scenario.requires)


def _observes(body: Mapping[str, Any]) -> bool:
    expectations = [step.get("expect", {}) for step in body.get("steps", ())] + [body.get("final", {})]
    return any("observe" in e for e in expectations)


def required_capabilities(scenario: Scenario) -> tuple[str, ...]:
    """The handshake capabilities a scenario needs, in the order the runner uses them."""
    body = scenario.body
    if scenario.kind == "pattern":
        needed = ["pattern"]
    elif scenario.kind == "setup":
        needed = capabilities_of(body["start"]) + (capabilities_of(body["before"]) if "before" in body else [])
    elif scenario.kind == "game":
        needed = capabilities_of({"game": body["setup"]})
    else:
        needed = capabilities_of(body["setup"]) + (["count"] if scenario.kind == "count" else [])
    if _observes(body):
        needed.append("observe")
    return tuple(dict.fromkeys(needed))


def skip_reason(scenario: Scenario, info: EngineInfo, spec: SpecData) -> str | None:
    since = scenario.data.get("protocol", 1)
    if info.protocol < since:
        return f"a requirement of protocol {since}; the engine speaks protocol {info.protocol}"
    missing = [c for c in required_capabilities(scenario) if c not in info.capabilities]
    if missing:
        names = " and ".join(", ".join(repr(c) for c in missing).rsplit(", ", 1))
        return f"the engine does not declare the {names} capabilit{'ies' if len(missing) > 1 else 'y'}"
    if scenario.kind == "setup" and "options" in scenario.body and not info.configurable and info.protocol < 3:
        return "the scenario sends options, and the engine is not configurable"  # protocol 3: it must answer them
    if info.configurable:
        return None
    differing = []
    for decision, option in required_options(scenario, spec).items():
        if not info.can_follow(decision, option, spec.default_of(decision)):
            own = info.options.get(decision) or spec.default_of(decision) or "?"
            can = ", ".join(dict.fromkeys((own, *info.follows.get(decision, ()))))
            differing.append(f"{decision}={option} (engine follows {can})")
    if differing:
        return "requires " + ", ".join(differing) + "; the engine is not configurable"
    return None


@dataclass
class _Context:
    scenario: Scenario
    events: Listener
    at: str = "setup"
    at_line: int | None = None
    step: int | None = None
    action: str | None = None
    events_not_compared: int = 0
    """Steps whose `events` expectation was skipped: the engine does not declare the capability."""

    def begin(self, at: str, line: int | None, step: int | None = None) -> None:
        """The runner moves to part ``at`` of the scenario (told to the listeners)."""
        self.at, self.at_line, self.step, self.action = at, line, step, None
        self.events.step_begun(self.scenario, at, line)


class ScenarioRunner:
    """Runs one scenario at a time on one :class:`Engine`, telling ``listeners`` what it does.

    It emits ``scenario_started``, ``step_begun``, ``request_sent``,
    ``answer_received`` and ``scenario_finished`` (:mod:`conformance.listeners`);
    the transcript a failed result keeps is itself a listener of these events.
    """

    def __init__(self, engine: Engine, spec: SpecData, expected_failures: Mapping[str, str] | None = None,
                 diagnosis: Engine | None = None, listeners: Iterable[Listener] = ()) -> None:
        self.engine = engine
        self.spec = spec
        self.expected = dict(expected_failures or {})
        self.diagnosis = diagnosis
        """An engine asked for a perft divide when a count differs (the reference, by default)."""
        self.transcript = Transcript(TRANSCRIPT_KEPT, stored_answer)
        self.events = Listeners([self.transcript, *listeners])
        self._told: EngineInfo | None = None

    # ------------------------------------------------------------------ public

    def run(self, scenario: Scenario) -> Result:
        """Run ``scenario``; never raises for the engine's misbehaviour (it becomes the result)."""
        self.events.scenario_started(scenario)
        result = self._run(scenario)
        self.events.scenario_finished(result)
        return result

    def _run(self, scenario: Scenario) -> Result:
        started = time.perf_counter()
        ctx = _Context(scenario, self.events, at_line=scenario.line)
        status: Status
        diff: tuple[str, ...]
        rule_keys: tuple[str, ...]
        base = dict(id=scenario.id, file=scenario.file, line=scenario.line, kind=scenario.kind,
                    area=scenario.area, clauses=scenario.clauses, tags=scenario.tags)
        try:
            ctx.begin("hello", scenario.line)
            info = self.engine.ensure_started()
            if info is not self._told:
                self._told = info
                self.events.engine_started(info)
            reason = skip_reason(scenario, info, self.spec)
            if reason is not None:
                raise _Outcome(SKIP, reason)
            ctx.at = "setup"
            getattr(self, "_run_" + scenario.kind)(scenario, info, ctx)
            status, reason_text, key, diff, rule_keys = PASS, "", None, (), ()
        except _Outcome as out:
            status, reason_text, key, diff, rule_keys = out.status, out.reason, out.key, out.diff, out.rule_keys
        except AdapterError as exc:
            status, reason_text, key, diff, rule_keys = Status(exc.status), str(exc), None, (), ()
        except RecursionError:  # an answer nested deeper than the runner can walk: the engine's fault
            status, key, diff, rule_keys = ERROR, None, (), ()
            reason_text = "the engine's answer nests too deeply to be a protocol message"
        except Exception as exc:  # noqa: BLE001 - a runner bug must not end the run
            status, key, rule_keys = ERROR, None, ()
            reason_text = f"internal error of the runner: {type(exc).__name__}: {exc}"
            diff = tuple(traceback.format_exc().splitlines())
        if status == PASS and ctx.events_not_compared:
            reason_text = events_not_compared_note(ctx.events_not_compared)
        if status in (PASS, SKIP):
            ctx.at, ctx.step, ctx.action, at_line = "", None, None, None
        else:
            at_line = ctx.at_line
        transcript = self.transcript.take()
        result = Result(
            status=status, reason=reason_text, key=key, diff=tuple(diff),
            step=ctx.step, at=ctx.at, at_line=at_line, action=ctx.action,
            rules=self.spec.clauses_behind(rule_keys, scenario.clauses) if status not in (PASS, SKIP) else (),
            stderr=kept_stderr(self.engine.take_stderr(), status), duration=time.perf_counter() - started,
            transcript=transcript if status not in (PASS, SKIP) else (), **base)  # type: ignore[arg-type]
        return apply_expected(result, self.expected)

    # ------------------------------------------------------------------ requests

    def _call(self, ctx: _Context, message: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
        self.events.request_sent(ctx.scenario, message)
        answer = self.engine.call(message, variant)
        self.events.answer_received(ctx.scenario, message, answer)
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
            if self.engine.info is not None and self.engine.info.protocol == 1:
                raise _Outcome(SKIP, f"the engine does not support {what}: {text}")
            raise _Outcome(ERROR, f"the engine answered `unsupported` to {what}, which its handshake "
                                  f"declares (capabilities {', '.join(self.engine.info.capabilities) if self.engine.info else '?'}): "
                                  f"{text}")
        if kind == "internal":
            raise _Outcome(ERROR, f"internal error of the engine on {what}: {text}")
        raise _Outcome(FAIL, f"the engine refused {what}: {text}", key)

    def _state(self, ctx: _Context) -> dict[str, Any]:
        answer = self._call(ctx, {"cmd": "state"})
        self._require_ok(answer, "`state`")
        info = self.engine.info
        if info is not None and "playout" in info.capabilities:
            self._check_order(answer)
        return answer

    @staticmethod
    def _check_order(state: Mapping[str, Any]) -> None:
        """An engine that declares ``playout`` lists ``legal.actions`` in the canonical order of actions, since a
        playout's draws index that list (spec/PROTOCOL.md, "Playout"); others may list them in any order."""
        legal = state.get("legal")
        actions = legal.get("actions") if isinstance(legal, Mapping) else None
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            return  # a legal of the wrong shape is the comparison's to report
        pair = out_of_order(actions)
        if pair is not None:
            first, second = pair
            raise _Outcome(FAIL, f"legal.actions is not in the canonical order of actions: {first!r} is listed "
                                 f"before {second!r} (spec/README.md; an engine that declares playout must list "
                                 "them in that order, as a playout draws over them by index)", "legal",
                           (f"listed:    {first!r}, {second!r}", f"canonical: {second!r}, {first!r}"),
                           rule_keys=())  # an order the protocol defines, not a rule of the game

    def _start(self, scenario: Scenario, info: EngineInfo, ctx: _Context, setup: dict[str, Any]) -> None:
        ctx.begin("setup", scenario.line_of(scenario.kind, "setup"))
        message = start_request(setup, options_to_send(scenario) if info.takes_options else None)
        self._require_ok(self._call(ctx, message), "the setup", "setup")

    def _act(self, ctx: _Context, seat: int, action: str) -> dict[str, Any]:
        return self._call(ctx, {"cmd": "act", "seat": seat, "action": action})

    # ------------------------------------------------------------------ bodies

    def _run_pattern(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        body = scenario.body
        ctx.begin("pattern", scenario.line_of("pattern"))
        message: dict[str, Any] = {"cmd": "pattern"}
        if info.takes_options:
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
        setup = {"game": body["setup"]} if scenario.kind == "game" else dict(body["setup"])
        self._start(scenario, info, ctx, setup)
        state = self._state(ctx)
        observing = _observes(body)
        declares_events = "events" in info.capabilities
        for i, step in enumerate(body.get("steps", ())):
            ctx.begin(f"steps[{i}]", scenario.step_line(i), i)
            events: Any = None
            if "do" in step:
                ctx.action = f"seat {step['seat']} do {step['do']!r}"
                answer = self._act(ctx, step["seat"], step["do"])
                self._require_ok(answer, f"{step['do']!r} by seat {step['seat']}", "do")
                events = answer.get("events") if declares_events else EVENTS_NOT_COMPARED
                if not declares_events and "events" in step.get("expect", {}):
                    ctx.events_not_compared += 1
                state = self._state(ctx)
            elif "reject" in step:
                ctx.action = f"seat {step['seat']} reject {step['reject']!r}"
                before = state
                seen = self._all_observations(ctx) if observing else None
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
                if seen is not None:
                    self._same_observations(ctx, seen)
            if "expect" in step:
                self._check(ctx, step["expect"], state, events)
        if "final" in body:
            ctx.begin("final", scenario.line_of(scenario.kind, "final"))
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

    def _all_observations(self, ctx: _Context) -> list[Any]:
        answers = [self._call(ctx, {"cmd": "observe", "seat": seat}) for seat in range(4)]
        for seat, answer in enumerate(answers):
            self._require_ok(answer, f"`observe` for seat {seat}", "observe")
        return [answer["observation"] for answer in answers]

    def _same_observations(self, ctx: _Context, before: list[Any]) -> None:
        """A refused action leaves every seat's `observe` as it was (spec/SCENARIOS.md), not only `state`."""
        for seat, (old, new) in enumerate(zip(before, self._all_observations(ctx), strict=True)):
            if old != new:
                raise _Outcome(FAIL, f"the observation of seat {seat} changed after a rejected action",
                               f"observe.{seat}", state_diff(old, new), ("observe",))

    def _check(self, ctx: _Context, expect: Mapping[str, Any], state: Mapping[str, Any],
               events: Any = None) -> None:
        mismatches = check_expectations(expect, state, self._observations(ctx, expect), events)
        if mismatches:
            keys = ", ".join(m.key for m in mismatches)
            diff = [line for m in mismatches for line in [f"{m.key}:"] + [f"  {d}" for d in m.diff]]
            rule_keys = tuple(k for m in mismatches for k in m.rule_keys)
            raise _Outcome(FAIL, f"expectation not met: {keys}", keys, diff, rule_keys)

    def _run_count(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        body = scenario.body
        self._start(scenario, info, ctx, dict(body["setup"]))
        for j, step in enumerate(body.get("prefix", ())):
            ctx.begin(f"prefix[{j}]", scenario.line_of("count", "prefix", j))
            ctx.action = f"seat {step['seat']} do {step['do']!r}"
            answer = self._act(ctx, step["seat"], step["do"])
            self._require_ok(answer, f"{step['do']!r} by seat {step['seat']}", "prefix")
        ctx.begin("count", scenario.line_of("count", "counts"))
        expected = list(body["counts"])
        try:
            answer = self._call(ctx, {"cmd": "count", "depth": len(expected)})
        except EngineTimeout as exc:
            raise _Outcome(TIMEOUT, f"the engine did not finish counting to depth {len(expected)} in time: "
                                    f"too slow, which says nothing of whether it counts right ({exc})") from None
        self._require_ok(answer, f"count to depth {len(expected)}", "counts")
        actual = answer["counts"]
        if actual != expected:
            diff = [f"depth {d + 1}: expected {e}, actual {a}"
                    for d, (e, a) in enumerate(zip(expected, actual, strict=False)) if e != a]  # lengths may differ
            if len(actual) != len(expected):
                diff.append(f"expected {len(expected)} counts, got {len(actual)}")
            wrong = next(d for d in range(len(expected)) if d >= len(actual) or actual[d] != expected[d]) + 1
            diff.extend(self._divide_diff(scenario, info, ctx, wrong))
            raise _Outcome(FAIL, "perft counts differ", "counts", diff)

    def _divide_diff(self, scenario: Scenario, info: EngineInfo, ctx: _Context, depth: int) -> list[str]:
        """Perft divide at the first wrong depth: the engine's count per first action beside the reference's.

        The expectation stays the scenario's; the divide only shows which
        branch to look at. Needs the ``divide`` capability on both sides.
        """
        if "divide" not in info.capabilities:
            return [f"(declare the 'divide' capability to see which first action's count is wrong at depth {depth})"]
        if self.diagnosis is None:
            return []
        mine = self._call(ctx, {"cmd": "count", "depth": depth, "divide": True})
        theirs = _replay_divide(self.diagnosis, scenario, depth)
        if not mine.get("ok") or "divide" not in mine or theirs is None:
            return ["(no perft divide available)"]
        lines = [f"divide at depth {depth} (first action: engine vs reference engine, differing only):"]
        for action in sorted(set(mine["divide"]) | set(theirs)):
            a, b = mine["divide"].get(action), theirs.get(action)
            if a != b:
                lines.append(f"  {action}: {'absent' if a is None else a} vs {'absent' if b is None else b}")
        return lines

    def _run_setup(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        """A `start` the engine must refuse, leaving the hand in play (if any) as it was."""
        body = scenario.body
        before = None
        if "before" in body:
            ctx.begin("before", scenario.line_of("setup", "before"))
            self._require_ok(self._call(ctx, start_request(body["before"])), "the `before` setup", "before")
            before = self._state(ctx)
        ctx.begin("start", scenario.line_of("setup", "start"))
        options = dict(body["options"]) if "options" in body else (
            options_to_send(scenario) if info.takes_options else None)
        answer = self._call(ctx, start_request(body["start"], options))
        if answer["ok"]:
            raise _Outcome(FAIL, f"the engine accepted a setup that must be refused as {body['error']}", "error",
                           (f"expected: error {body['error']}", "actual:   ok"))
        kind = answer["error"]["kind"]
        if kind == "internal":
            raise _Outcome(ERROR, f"internal error of the engine: {self._refusal(answer)}")
        if kind != body["error"]:
            ctx.at_line = scenario.line_of("setup", "error")
            raise _Outcome(FAIL, "wrong error kind for the setup", "error",
                           (f"expected: {body['error']}", f"actual:   {self._refusal(answer)}"))
        if before is not None:
            after = self._state(ctx)
            if after != before:
                raise _Outcome(FAIL, "the state changed after a refused start", "state", state_diff(before, after))


def _replay_divide(engine: Engine, scenario: Scenario, depth: int) -> dict[str, int] | None:
    """The diagnosis engine's divide for a count scenario's position, or None if it cannot give one."""
    body = scenario.body
    try:
        if not engine.call(start_request(body["setup"], options_to_send(scenario)))["ok"]:
            return None
        for step in body.get("prefix", ()):
            if not engine.call({"cmd": "act", "seat": step["seat"], "action": step["do"]})["ok"]:
                return None
        answer = engine.call({"cmd": "count", "depth": depth, "divide": True})
    except AdapterError:
        return None
    return answer.get("divide") if answer.get("ok") else None
