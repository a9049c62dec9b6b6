"""The replay viewer's data model: a scenario or a fuzz trace, step by step, every seat's cards.

A trajectory, game, count, setup or batch scenario (loaded and checked by the
conformance loader) or a fuzz ``.trace.json`` is replayed on the reference engine through
:class:`~conformance.engine.Engine` (``reference-direct``), the road every harness tool
takes to an engine, with the same requests the runner sends. Each step records the action, the engine's answer
(with the rule of a refusal, or the events the move caused), the step's expectations as written in the
scenario, and the whole state afterwards: every seat's hand, the round, the
Elders, tricks, result and game scores. A pattern scenario has no table: its
request and expectation are shown instead.

The viewer checks nothing itself (that is the runner's job): it shows what the
scenario asks and what the reference did, so an implementer can watch the hand
their engine failed.

>>> replay = load_replay("obs-discard-hidden-from-others")
>>> replay["kind"], replay["steps"][0]["kind"], len(replay["steps"][0]["state"]["hands"])
('trajectory', 'setup', 4)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from .adapters import parse_engine_spec
from .engine import Engine
from .errors import AdapterError, ConformanceError
from .loader import Scenario, load_scenarios
from .paths import DEFAULT_SCENARIOS_DIR, default_spec_dir, display_path
from .rulebook import Rulebook
from .schemas import load_schemas
from .setups import requested_options, start_request, start_setup
from .specdata import load_spec_data

Message = dict[str, Any]


class ReplayError(ConformanceError):
    """A replay that cannot be found or read (an unknown ID, a file that is not a scenario or trace)."""


# ------------------------------------------------------------------ loading


@lru_cache(maxsize=4)
def _corpus(scenarios_dir: str, spec_dir: str) -> tuple[Scenario, ...]:
    spec = Path(spec_dir)
    return tuple(load_scenarios([Path(scenarios_dir)], load_schemas(spec.resolve() / "schema"), load_spec_data(spec)))


def corpus(scenarios_dir: Path | None = None, spec_dir: Path | None = None) -> tuple[Scenario, ...]:
    """Every scenario of the corpus (``conformance/scenarios``), loaded and checked once."""
    return _corpus(str(scenarios_dir or DEFAULT_SCENARIOS_DIR), str(spec_dir or default_spec_dir()))


def scenarios_of_file(path: Path, spec_dir: Path | None = None) -> list[Scenario]:
    spec = spec_dir or default_spec_dir()
    return load_scenarios([path], load_schemas(spec.resolve() / "schema"), load_spec_data(spec))


def load_replay(ref: str, rulebook: Rulebook | None = None) -> Message:
    """A scenario ID of the corpus, a scenario ``.yaml`` file (its first scenario, or ``file#id``)
    or a fuzz ``.trace.json`` file, replayed."""
    book = rulebook or Rulebook.default()
    path_text, _, wanted = ref.partition("#")
    path = Path(path_text)
    if path_text.endswith(".json"):
        if not path.is_file():
            raise ReplayError(f"{path_text}: no such trace file")
        return replay_trace(path, book)
    if path_text.endswith((".yaml", ".yml")):
        if not path.is_file():
            raise ReplayError(f"{path_text}: no such scenario file")
        found = scenarios_of_file(path)
        if not found:
            raise ReplayError(f"{path_text}: the file holds no scenario")
        chosen = [s for s in found if s.id == wanted] if wanted else found[:1]
        if not chosen:
            raise ReplayError(f"{path_text}: no scenario {wanted!r} (it holds {', '.join(s.id for s in found)})")
        return replay_scenario(chosen[0], book)
    by_id = {s.id: s for s in corpus()}
    if ref not in by_id:
        close = [i for i in by_id if ref in i][:5]
        hint = f"; did you mean {', '.join(close)}?" if close else " (list them with `hakka-conformance list`)"
        raise ReplayError(f"no scenario {ref!r} in {display_path(DEFAULT_SCENARIOS_DIR)}{hint}")
    return replay_scenario(by_id[ref], book)


# ------------------------------------------------------------------ replaying


@lru_cache(maxsize=1)
def _schemas() -> Any:
    return load_schemas(default_spec_dir().resolve() / "schema")


class _Replayer:
    def __init__(self, book: Rulebook) -> None:
        self.book = book
        self.engine = Engine(parse_engine_spec("reference-direct"), _schemas(), timeout=None, validate=False)
        self.steps: list[Message] = []
        self.problem: str | None = None

    def ask(self, message: Message) -> Message:
        """The reference's answer (Engine turns a setup's seeds into the protocol's form)."""
        try:
            return dict(self.engine.call(message))
        except AdapterError as exc:  # the reference failing is a bug of the reference: say so, no traceback
            raise ReplayError(f"the reference engine failed on {message.get('cmd')!r}: {exc}") from None

    def start(self, setup: Mapping[str, Any], options: Mapping[str, str], line: int | None) -> bool:
        answer = self.ask(start_request(setup, options))
        step: Message = {"kind": "setup", "label": "the deal", "seat": None, "action": None,
                         "outcome": self._outcome(answer), "expect": None, "line": line, "state": None}
        if answer["ok"]:
            step["state"] = self.state()
        else:
            self.problem = f"the reference refuses the setup: {answer['error']['message']}"
        self.steps.append(step)
        return bool(answer["ok"])

    def state(self) -> Message | None:
        answer = self.ask({"cmd": "state"})
        if not answer.pop("ok", False):
            return None  # no hand yet (a refused first setup)
        return answer

    def refused_start(self, setup: Mapping[str, Any], options: Mapping[str, str], expected: str,
                      line: int | None) -> None:
        """A `start` the scenario expects refused: the engine's answer, and the state (unchanged) after it."""
        answer = self.ask(start_request(setup, options))
        self.steps.append({"kind": "start", "label": f"a setup to refuse as {expected}", "seat": None,
                           "action": None, "outcome": self._outcome(answer), "expect": {"error": expected},
                           "expected_error": expected, "request": dict(setup), "line": line, "state": self.state()})

    def _outcome(self, answer: Mapping[str, Any]) -> Message:
        if answer["ok"]:
            # what the move did, in the reference's words (spec/PROTOCOL.md "Events"): a round won, Elders…
            return {"ok": True, "events": list(answer.get("events", []))} if "events" in answer else {"ok": True}
        error = dict(answer["error"])
        error["ok"] = False
        error["href"] = self.book.href(error.get("rule"))
        return error

    def step(self, kind: str, seat: int | None, action: str | None, expect: Any, line: int | None,
             extra: Mapping[str, Any] | None = None) -> None:
        outcome: Message | None = None
        if action is not None and seat is not None:
            outcome = self._outcome(self.ask({"cmd": "act", "seat": seat, "action": action}))
            if kind == "do" and not outcome["ok"] and self.problem is None:
                self.problem = (f"step {len(self.steps)}: the reference refuses {action!r} by seat {seat}: "
                                f"{outcome.get('message')}")
        label = {"do": f"seat {seat}: {action}", "reject": f"seat {seat} tries {action}",
                 "expect": "check", "final": "final"}.get(kind, kind)
        self.steps.append({"kind": kind, "label": label, "seat": seat, "action": action, "outcome": outcome,
                           "expect": expect, "line": line, "state": self.state(), **(extra or {})})


def replay_scenario(scenario: Scenario, book: Rulebook | None = None) -> Message:
    """One scenario of any kind as a replay."""
    book = book or Rulebook.default()
    body = scenario.body
    out: Message = {
        "id": scenario.id, "title": scenario.title, "kind": scenario.kind, "source": "scenario",
        "clauses": [{"id": c, "href": book.href(c)} for c in scenario.clauses],
        "requires": scenario.requires, "tags": list(scenario.tags), "notes": scenario.data.get("notes"),
        "file": scenario.file, "line": scenario.line, "generated": scenario.generated,
        "request": None, "steps": [], "problem": None,
    }
    if scenario.kind == "pattern":
        out["request"] = dict(body)
        return out
    r = _Replayer(book)
    refused = body["error"] if scenario.kind == "setup" else body.get("start", {}).get("error")
    if refused:  # a start the engine must refuse (a batch's, too), perhaps over a hand in play
        if "before" in body:
            r.start(body["before"], requested_options(scenario.requires), scenario.line_of(scenario.kind, "before"))
        options = body["options"] if "options" in body else requested_options(scenario.requires)
        start = body["start"] if scenario.kind == "setup" else body["setup"]
        r.refused_start(start, options, refused, scenario.line_of(scenario.kind, "start"))
        out["steps"], out["problem"] = r.steps, r.problem
        return out
    # a batch is replayed as the requests it stands for, one by one (spec/PROTOCOL.md, "Batch play")
    setup = {"game": dict(body["setup"])} if scenario.kind == "game" else start_setup(body["setup"])
    if r.start(setup, requested_options(scenario.requires), scenario.line_of(scenario.kind, "setup")):
        steps = body.get("prefix", []) if scenario.kind == "count" else body.get("steps", [])
        for i, step in enumerate(steps):
            line = scenario.line_of(scenario.kind, "prefix" if scenario.kind == "count" else "steps", i)
            if "do" in step:
                r.step("do", step["seat"], step["do"], step.get("expect"), line)
            elif "reject" in step:
                r.step("reject", step["seat"], step["reject"], step.get("expect"), line,
                       {"expected_error": step.get("error")})
            else:
                r.step("expect", None, None, step.get("expect"), line)
        if scenario.kind == "count":
            r.step("final", None, None, {"counts": list(body["counts"])}, scenario.line_of("count", "counts"))
            out["request"] = {"counts": list(body["counts"])}
        elif "final" in body:
            r.step("final", None, None, body["final"], scenario.line_of(scenario.kind, "final"))
    out["steps"] = r.steps
    out["problem"] = r.problem
    return out


def replay_trace(path: Path, book: Rulebook | None = None) -> Message:
    """A fuzz ``.trace.json`` (conformance/fuzz/run.py) as a replay; its disagreement is the last step's expectation."""
    book = book or Rulebook.default()
    shown = display_path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReplayError(f"{shown}: not a readable JSON file: {exc}") from None
    trace = data.get("trace") if isinstance(data, dict) else None
    if not isinstance(trace, dict) or not isinstance(trace.get("setup"), dict) or not isinstance(trace.get("steps"), list):
        raise ReplayError(f"{shown}: not a fuzz trace (expected a `trace` object with `setup` and `steps`)")
    out: Message = {
        "id": path.name, "title": str(data.get("summary", "a fuzz trace")), "kind": "trace", "source": "fuzz trace",
        "clauses": [], "requires": trace.get("options") or "defaults", "tags": ["fuzz"], "notes": None,
        "file": shown, "line": None, "generated": True, "request": None, "steps": [], "problem": None,
    }
    r = _Replayer(book)
    if r.start(trace["setup"], trace.get("options") or {}, None):
        for i, step in enumerate(trace["steps"]):
            if not isinstance(step, dict) or "seat" not in step or not ({"do", "reject"} & set(step)):
                raise ReplayError(f"{shown}: trace step {i} is not {{seat, do|reject}}: {step!r}")
            if "do" in step:
                r.step("do", step["seat"], step["do"], None, None)
            else:
                r.step("reject", step["seat"], step["reject"], None, None,
                       {"expected_error": step.get("error"), "expected_rule": step.get("rule")})
        disagreement = {k: data[k] for k in ("where", "fields", "detail", "seat", "request", "stderr") if data.get(k) is not None}
        for side in ("reference", "candidate"):
            if side in data:
                disagreement[side] = data[side]
        r.step("final", None, None, {"disagreement": disagreement}, None)
    out["steps"] = r.steps
    out["problem"] = r.problem
    return out


def index(book: Rulebook | None = None) -> list[Message]:
    """The corpus as a list for the viewer's index page."""
    return [{"id": s.id, "title": s.title, "kind": s.kind, "file": s.file, "clauses": list(s.clauses),
             "generated": s.generated} for s in corpus()]


__all__ = ["ReplayError", "corpus", "index", "load_replay", "replay_scenario", "replay_trace"]
