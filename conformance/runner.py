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
from .notation import INITIAL_ELDERS, normalize_action, out_of_order
from .results import ERROR, FAIL, PASS, SKIP, TIMEOUT, Result, Status
from .setups import capabilities_of, requested_options, start_request, start_setup
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
    elif scenario.kind == "batch":
        needed = (["batch"] + capabilities_of(body["setup"])
                  + (capabilities_of(body["before"]) if "before" in body else []))
    else:
        needed = capabilities_of(start_setup(body["setup"])) + (["count"] if scenario.kind == "count" else [])
    if _observes(body) or body.get("observe", "none") != "none":
        needed.append("observe")
    return tuple(dict.fromkeys(needed))


DIVIDE_NOT_COMPARED = ("passed; divide not compared: the engine does not declare the `divide` capability "
                       "(its counts were compared)")
"""The reason a passed count scenario carries when its `divide` expectation was skipped."""


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
    note: str = ""
    """Said of a passed scenario: what was not compared, and why."""

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
        elif status == PASS and ctx.note:
            reason_text = ctx.note
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
        self._check_order(answer)
        return answer

    def _observed(self, observation: Any, seat: int) -> None:
        """A seat's observation, read: its optional ``legal`` in the canonical order too (spec/PROTOCOL.md, `observe`)."""
        if isinstance(observation, Mapping):
            self._check_order(observation, f"seat {seat}'s observation: ", f"observe.{seat}")

    def _check_order(self, answer: Mapping[str, Any], where: str = "", key: str = "legal") -> None:
        """An engine that declares ``playout`` lists ``legal.actions`` in the canonical order of actions, since a
        playout's draws index that list (spec/PROTOCOL.md, "Playout"), in `state` and in a seat's observation
        alike (the same list); others may list them in any order."""
        info = self.engine.info
        if info is None or "playout" not in info.capabilities:
            return
        legal = answer.get("legal")
        actions = legal.get("actions") if isinstance(legal, Mapping) else None
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            return  # absent, null, or of the wrong shape: the comparison's to report
        pair = out_of_order(actions)
        if pair is not None:
            first, second = pair
            raise _Outcome(FAIL, f"{where}legal.actions is not in the canonical order of actions: {first!r} is "
                                 f"listed before {second!r} (spec/README.md; an engine that declares playout must "
                                 "list them in that order, as a playout draws over them by index)", key,
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
                self._observed(answer["observation"], seat)
                seen[seat] = answer["observation"]
        return seen

    def _all_observations(self, ctx: _Context) -> list[Any]:
        answers = [self._call(ctx, {"cmd": "observe", "seat": seat}) for seat in range(4)]
        for seat, answer in enumerate(answers):
            self._require_ok(answer, f"`observe` for seat {seat}", "observe")
            self._observed(answer["observation"], seat)
        return [answer["observation"] for answer in answers]

    def _same_observations(self, ctx: _Context, before: list[Any], what: str = "a rejected action") -> None:
        """A refused action (or start) leaves every seat's `observe` as it was (spec/SCENARIOS.md), not only `state`."""
        for seat, (old, new) in enumerate(zip(before, self._all_observations(ctx), strict=True)):
            if old != new:
                raise _Outcome(FAIL, f"the observation of seat {seat} changed after {what}",
                               f"observe.{seat}", state_diff(old, new), ("observe",))

    def _check(self, ctx: _Context, expect: Mapping[str, Any], state: Mapping[str, Any],
               events: Any = None) -> None:
        mismatches = check_expectations(expect, state, self._observations(ctx, expect), events)
        if mismatches:
            self._mismatched(mismatches)

    @staticmethod
    def _mismatched(mismatches: list[Any]) -> None:
        if mismatches:
            keys = ", ".join(m.key for m in mismatches)
            diff = [line for m in mismatches for line in [f"{m.key}:"] + [f"  {d}" for d in m.diff]]
            rule_keys = tuple(k for m in mismatches for k in m.rule_keys)
            raise _Outcome(FAIL, f"expectation not met: {keys}", keys, diff, rule_keys)

    def _run_count(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        body = scenario.body
        self._start(scenario, info, ctx, start_setup(body["setup"]))
        for j, step in enumerate(body.get("prefix", ())):
            ctx.begin(f"prefix[{j}]", scenario.line_of("count", "prefix", j))
            ctx.action = f"seat {step['seat']} do {step['do']!r}"
            answer = self._act(ctx, step["seat"], step["do"])
            self._require_ok(answer, f"{step['do']!r} by seat {step['seat']}", "prefix")
        ctx.begin("count", scenario.line_of("count", "counts"))
        expected = list(body["counts"])
        divide = "divide" in body and "divide" in info.capabilities
        if "divide" in body and not divide:
            ctx.note = DIVIDE_NOT_COMPARED
        try:
            answer = self._call(ctx, {"cmd": "count", "depth": len(expected), **({"divide": True} if divide else {})})
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
        if divide:
            self._compare_divide(scenario, ctx, body["divide"], answer.get("divide"))

    def _compare_divide(self, scenario: Scenario, ctx: _Context, expected: Mapping[str, int], actual: Any) -> None:
        """A count's divide (spec/PROTOCOL.md, `count`): each first action's sequences of the last depth, as a map."""
        ctx.at_line = scenario.line_of("count", "divide")
        if not isinstance(actual, dict):
            raise _Outcome(FAIL, "the engine declares `divide` but its count answer holds no divide", "divide",
                           ("expected: a divide of each legal first action", "actual:   none"))
        want = {normalize_action(a): n for a, n in expected.items()}
        got = {normalize_action(str(a)): n for a, n in actual.items()}
        if want != got:
            diff = [f"{a}: expected {_absent(want.get(a))}, actual {_absent(got.get(a))}"
                    for a in sorted(set(want) | set(got)) if want.get(a) != got.get(a)]
            raise _Outcome(FAIL, f"perft divide at depth {len(scenario.body['counts'])} differs", "divide", diff)

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
                lines.append(f"  {action}: {_absent(a)} vs {_absent(b)}")
        return lines

    def _before(self, scenario: Scenario, ctx: _Context) -> dict[str, Any] | None:
        """The `state` after the hand a scenario starts `before` its refused start (a `setup`'s or a `batch`'s), if any."""
        if "before" not in scenario.body:
            return None
        ctx.begin("before", scenario.line_of(scenario.kind, "before"))
        self._require_ok(self._call(ctx, start_request(scenario.body["before"])), "the `before` setup", "before")
        return self._state(ctx)

    def _run_batch(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        """One `batch` request (spec/PROTOCOL.md, "Batch play"), its answer checked part by part.

        What a batch promises whatever the game: the batch answered ok (a setup the rules refuse is
        its `start` answer, never the batch refused whole); one answer per step after the state
        right after the start; `state` and observations where `state` and `observe` ask for them;
        a refused step leaves the state; and the session is then where the last step left it.
        """
        body = scenario.body
        before = self._before(scenario, ctx)
        steps = body["steps"]
        message: dict[str, Any] = {"cmd": "batch", **{k: v for k, v in start_request(body["setup"]).items() if k != "cmd"},
                                   "steps": [{"seat": st["seat"], "action": st.get("do", st.get("reject"))} for st in steps]}
        if info.takes_options:
            message["options"] = options_to_send(scenario)
        for key in ("state", "observe"):
            if key in body:
                message[key] = body[key]
        ctx.begin("batch", scenario.line_of("batch", "setup"))
        answer = self._call(ctx, message)
        refused = body.get("start", {}).get("error")
        if not answer["ok"] and answer["error"]["kind"] not in ("unsupported", "internal"):
            raise _Outcome(FAIL, "the engine refused the batch whole: " + self._refusal(answer) + (
                f"; a setup the rules refuse is the batch's `start` answer ({refused}), with `steps` empty"
                if refused else ""), "start",
                (f"expected: ok, start {'error ' + refused if refused else 'ok'}", f"actual:   {self._refusal(answer)}"))
        self._require_ok(answer, "the batch", "start")
        start, answered = answer["start"], answer["steps"]
        if refused:
            ctx.at_line = scenario.line_of("batch", "start")
            if start["ok"] or start["error"]["kind"] != refused:
                raise _Outcome(FAIL, "wrong `start` answer in the batch", "start",
                               (f"expected: error {refused}",
                                f"actual:   {'ok' if start['ok'] else self._refusal(start)}"))
            if answered:
                raise _Outcome(FAIL, f"the batch's start was refused, yet it answers {len(answered)} step(s); "
                                     "a refused start answers none (`steps` empty)", "steps")
            state = self._state(ctx) if before is not None else None
            if before is not None and state != before:
                raise _Outcome(FAIL, "the state changed after a batch whose start was refused", "state",
                               state_diff(before, state or {}))
        else:
            state = self._batch_steps(scenario, info, ctx, body, start, answered)
        if "final" in body and state is not None:
            ctx.begin("final", scenario.line_of("batch", "final"))
            self._check(ctx, body["final"], state)

    def _batch_steps(self, scenario: Scenario, info: EngineInfo, ctx: _Context, body: Mapping[str, Any],
                     start: Mapping[str, Any], answered: list[Any]) -> dict[str, Any]:
        """A batch whose start was accepted: each step's answer, then the session after it (a `state`)."""
        steps = body["steps"]
        every, observe = body.get("state", "every") == "every", body.get("observe", "none")
        ctx.at_line = scenario.line_of("batch", "setup")
        if not start["ok"]:
            raise _Outcome(FAIL, f"the batch's setup was refused: {self._refusal(start)}", "start",
                           ("expected: start ok", f"actual:   {self._refusal(start)}"))
        if len(answered) != len(steps) + 1:
            raise _Outcome(FAIL, f"the batch answers {len(answered)} step(s), not {len(steps) + 1} (the state after "
                                 f"the start, then one per step)", "steps")
        previous = None
        for k, entry in enumerate(answered):
            last = k == len(answered) - 1
            if k:
                ctx.begin(f"steps[{k - 1}]", scenario.line_of("batch", "steps", k - 1), k - 1)
            self._batch_shape(entry, k, every or last, observe == "every" or (observe == "last" and last))
            if "state" in entry:
                self._require_ok(entry["state"], f"`state` in the batch's answer {k}", "state")
            for seat, seen in enumerate(entry.get("observations", ())):
                self._require_ok(seen, f"`observe` in the batch's answer {k}", "observe")
                self._observed(seen.get("observation"), seat)
            if k:
                self._batch_step(info, ctx, steps[k - 1], entry, previous)
            previous = entry.get("state")
        ctx.begin("after", scenario.line_of("batch"))
        return self._after_batch(ctx, answered[-1])

    def _batch_step(self, info: EngineInfo, ctx: _Context, step: Mapping[str, Any], entry: Mapping[str, Any],
                    previous: Any) -> None:
        """One step's answer in a batch: its `act` answer, an unchanged state after a refusal, its expectations."""
        act = entry["act"]
        ctx.action = f"seat {step['seat']} {'do' if 'do' in step else 'reject'} {step.get('do', step.get('reject'))!r}"
        if "do" in step:
            self._require_ok(act, f"{step['do']!r} by seat {step['seat']}", "do")
        else:
            if act["ok"]:
                raise _Outcome(FAIL, f"the engine accepted {step['reject']!r} by seat {step['seat']}, "
                                     f"which must be rejected as {step['error']}", "reject",
                               (f"expected: error {step['error']}", "actual:   ok"))
            if act["error"]["kind"] != step["error"]:
                raise _Outcome(FAIL, f"wrong error kind for {step['reject']!r}", "error",
                               (f"expected: {step['error']}", f"actual:   {self._refusal(act)}"))
            if previous is not None and "state" in entry and entry["state"] != previous:
                raise _Outcome(FAIL, "the state changed after a step the batch refused", "state",
                               state_diff(previous, entry["state"]))
        if "expect" in step:
            declares_events = "events" in info.capabilities
            events = (act.get("events") if declares_events else EVENTS_NOT_COMPARED) if "do" in step else None
            if "events" in step["expect"] and not declares_events:
                ctx.events_not_compared += 1
            seen = {s: o["observation"] for s, o in enumerate(entry.get("observations", ()))}
            self._mismatched(check_expectations(step["expect"], entry.get("state", {}), seen, events))

    def _after_batch(self, ctx: _Context, last: Mapping[str, Any]) -> dict[str, Any]:
        """After a batch the session is where its last step left it: `state` and `observe` say the same."""
        after = self._state(ctx)
        if after != last.get("state"):
            raise _Outcome(FAIL, "after the batch, `state` is not where the last step left it", "state",
                           state_diff(last.get("state") or {}, after))
        if last.get("observations"):
            now = self._all_observations(ctx)
            for seat, (old, new) in enumerate(zip((o["observation"] for o in last["observations"]), now, strict=True)):
                if old != new:
                    raise _Outcome(FAIL, f"after the batch, `observe` for seat {seat} is not what the batch's last "
                                         "step showed", f"observe.{seat}", state_diff(old, new), ("observe",))
        return after

    @staticmethod
    def _batch_shape(entry: Any, k: int, with_state: bool, with_observations: bool) -> None:
        """What one answer of a batch holds, as `state` and `observe` asked (spec/PROTOCOL.md, Batch play)."""
        problems = []
        if ("act" in entry) != (k > 0):
            problems.append("an `act` answer" if k else "no `act` answer (the state right after the start)")
        if ("state" in entry) != with_state:
            problems.append("its `state`" if with_state else "no `state` (`state: last`: the last step only)")
        observations = entry.get("observations")
        if (observations is not None) != with_observations or (with_observations and len(observations) != 4):
            problems.append("the four seats' observations" if with_observations else "no observations")
        if problems:
            raise _Outcome(FAIL, f"the batch's answer {k} should hold " + " and ".join(problems), "steps",
                           (f"actual keys: {', '.join(sorted(entry)) or 'none'}",))

    def _run_setup(self, scenario: Scenario, info: EngineInfo, ctx: _Context) -> None:
        """A `start` the engine must refuse, leaving the hand in play (if any) as it was."""
        body = scenario.body
        before = self._before(scenario, ctx)
        seen = self._all_observations(ctx) if body.get("observe") and before is not None else None
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
        if seen is not None:
            self._same_observations(ctx, seen, "a refused start")


def _absent(value: Any) -> str:
    return "absent" if value is None else str(value)


def _replay_divide(engine: Engine, scenario: Scenario, depth: int) -> dict[str, int] | None:
    """The diagnosis engine's divide for a count scenario's position, or None if it cannot give one."""
    body = scenario.body
    try:
        if not engine.call(start_request(start_setup(body["setup"]), options_to_send(scenario)))["ok"]:
            return None
        for step in body.get("prefix", ()):
            if not engine.call({"cmd": "act", "seat": step["seat"], "action": step["do"]})["ok"]:
                return None
        answer = engine.call({"cmd": "count", "depth": depth, "divide": True})
    except AdapterError:
        return None
    return answer.get("divide") if answer.get("ok") else None
