"""Writing a shrunk disagreement as a YAML regression scenario, and checking it.

The scenario replays the hand (setup, then every action as a ``do`` step or,
for a probe, a ``reject`` step) and puts the *reference's* answer as the
expectation at the step where the candidate differed. It is a generated
vector (``generated: true``, tag ``fuzz``) and must hold two properties, which
:func:`verify` checks through the runner itself: it passes on the reference
and fails on the candidate.

The setup is written with explicit ``hands`` (from the reference's ``state``)
so that the scenario does not depend on the candidate's shuffle or deal
order; when the disagreement is in the deal itself, or the explicit form does
not reproduce it, the original ``seed`` / ``deck`` setup is written instead.

A side check's disagreement (:mod:`~conformance.fuzz.checks`) is written as
the scenario kind that replays the check (:func:`side_scenario`): a ``count``
(in a game too, with its ``divide``), a ``pattern``, a ``setup`` to be refused
(or a ``batch`` whose setup is refused), or a ``trajectory`` from a setup the
reference takes at a bound. What no scenario can hold is a reason, and the
campaign writes the trace instead.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..compare import check_expectations
from ..engine import Engine
from ..loader import BODY_KINDS, CONTROL_CHARACTERS, SENT_TEXT_KEYS
from ..results import ERROR, FAIL, PASS, TIMEOUT, Result
from ..specdata import SpecData
from ..suite import Suite
from .checks import Check, refusal_kind
from .clauses import FALLBACK, disagreement_clauses, failure_clauses
from .compare import differing_seats, state_fields
from .fields import scenario_observe_fields
from .model import CandidateFailure, Disagreement, Step, Trace

Message = dict[str, Any]


# ------------------------------------------------------------------ expectations


def _legal_expectation(legal: Mapping[str, Any]) -> dict[str, Any]:
    option = legal.get("discard")
    return {
        "actions": list(legal.get("actions", [])),
        "discard": None if option is None else {"count": option["count"], "from": option["from"]},
    }


def expectation(state: Mapping[str, Any], fields: list[str], other: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The reference's values of ``fields`` as a scenario ``expect`` mapping.

    ``hands`` lists only the seats that differ from ``other`` (all when no
    ``other``); a ``result`` of null cannot be written and is left out.
    """
    expect: dict[str, Any] = {}
    for f in fields:
        value: Any = state.get(f)
        if f in ("phase", "to_act", "privileged"):
            expect[f] = value
        elif f == "tricks":
            expect[f] = list(value)
        elif f == "elders":
            expect[f] = value
        elif f == "legal":
            expect[f] = _legal_expectation(value)
        elif f == "hands":
            seats = differing_seats(state, other) if other is not None else [0, 1, 2, 3]
            expect[f] = {str(s): state["hands"][s] for s in seats}
        elif f == "result":
            if value is not None:
                expect[f] = dict(value)
        elif f == "game" and isinstance(value, Mapping):
            expect[f] = {k: value[k] for k in ("hand", "deals", "scores") if k in value}
    return expect


def full_expectation(state: Mapping[str, Any]) -> dict[str, Any]:
    return expectation(state, list(state_fields()))


def _step_json(step: Step) -> dict[str, Any]:
    if step.kind == "reject":
        return {"seat": step.seat, "reject": step.action, "error": step.error}
    return {"seat": step.seat, "do": step.action}


def _setup(trace: Trace, explicit: bool) -> dict[str, Any]:
    setup = trace.setup
    if explicit and "hands" not in setup and trace.hands is not None:
        return {"dealer": setup["dealer"], "hands": list(trace.hands)}
    return dict(setup)


def _requires(options: Mapping[str, str]) -> Any:
    return dict(sorted(options.items(), key=lambda kv: int(kv[0][1:]))) if options else "defaults"


def _scenario_id(prefix: str, trace: Trace, requests: Any = None) -> str:
    blob = json.dumps({"setup": trace.setup, "options": trace.options,
                       "steps": [s.as_json() for s in trace.steps],
                       **({"requests": requests} if requests is not None else {})}, sort_keys=True, default=str)
    return f"{prefix}-{hashlib.sha1(blob.encode()).hexdigest()[:10]}"


@dataclass
class Written:
    """A scenario written to disk and what verification found."""

    path: Path
    scenario_id: str
    clauses: list[str]
    explicit_hands: bool
    reference: Result | None = None
    candidate: Result | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return (self.reference is not None and self.reference.status == PASS
                and self.candidate is not None and self.candidate.status in (FAIL, ERROR, TIMEOUT))


def disagreement_scenario(d: Disagreement, spec: SpecData, *, explicit: bool = True,
                          engine_name: str = "the candidate", provenance: str = "") -> dict[str, Any] | None:
    """The scenario for ``d``, or ``None`` if the scenario format cannot express it (an observation
    field that a scenario's ``observe`` expectation cannot hold)."""
    steps: list[dict[str, Any]] = [_step_json(s) for s in d.trace.steps]
    final: dict[str, Any] | None = None
    notes: list[str] = [f"{engine_name} {d.summary()[len('the candidate '):]}."]
    if d.where == "start":
        steps.append({"expect": {"phase": "calling"}})
        err = d.candidate.get("error", {})
        notes.append(f"The candidate refused the setup: {err.get('kind')}: {err.get('message')}")
    elif d.where == "act":
        steps[-1]["expect"] = {"phase": d.reference["phase"], "to_act": d.reference["to_act"]}
        err = d.candidate.get("error", {})
        notes.append(f"The reference accepts it; the candidate answered {err.get('kind')}: {err.get('message')}"
                     + (f" [rule {err['rule']}]" if err.get("rule") else ""))
    elif d.where == "reject":
        ref_err = d.reference["error"]
        rule = ref_err.get("rule")
        message = str(ref_err.get("message", ""))
        ref_text = f"{ref_err['kind']}: {message}" + (f" [rule {rule}]" if rule and rule not in message else "")
        if d.candidate.get("ok"):
            notes.append(f"The reference refuses it ({ref_text}); the candidate accepted it.")
        else:
            err = d.candidate.get("error", {})
            notes.append(f"The reference refuses it ({ref_text}); the candidate as {err.get('kind')}: {err.get('message')}")
    elif d.where in ("observe", "events"):  # an expectation at the last step, if a scenario can hold it
        if not (_expect_observation if d.where == "observe" else _expect_events)(d, steps, notes):
            return None
    else:  # state
        fields = [f for f in d.fields if f != "state"] or list(state_fields())
        expect = expectation(d.reference, fields, d.candidate)
        if not expect:
            return None
        if d.reference.get("phase") in ("ended", "game-over") and d.trace.steps:
            final = expect
        elif steps:
            steps[-1]["expect"] = expect
        else:
            steps.append({"expect": expect})
        if "state" in d.fields:
            err = d.candidate.get("error", {})
            notes.append(f"The candidate refused `state`: {err.get('kind')}: {err.get('message')}")
        else:
            for m in check_expectations(expect, d.candidate):
                notes.append(f"{m.key}: " + "; ".join(" ".join(line.split()) for line in m.diff))
    if provenance:
        notes.append(provenance)
    body: dict[str, Any] = {"setup": _setup(d.trace, explicit) if "game" not in d.trace.setup
                            else dict(d.trace.setup["game"])}
    if steps:
        body["steps"] = steps
    if final:
        body["final"] = final
    what = {"start": "setup", "act": "accepted", "reject": "reject"}.get(d.where, "-".join(
        f.replace("_", "-") for f in d.fields[:2]))
    return {
        "id": _scenario_id(f"fuzz-{what}", d.trace),
        "title": _title(d),
        "clauses": disagreement_clauses(d, spec),
        "requires": _requires(d.trace.options),
        "tags": ["fuzz"],
        "generated": True,
        "notes": "\n".join(notes) + "\n",
        ("game" if "game" in d.trace.setup else "trajectory"): body,
    }


def _expect_events(d: Disagreement, steps: list[dict[str, Any]], notes: list[str]) -> bool:
    """Put the reference's events of the last action at its step (the candidate told them otherwise)."""
    steps[-1]["expect"] = {"events": list(d.reference.get("events") or [])}
    notes.append(f"The reference's events: {d.reference.get('events')}; the candidate's: {d.candidate.get('events')}.")
    return True


def _expect_observation(d: Disagreement, steps: list[dict[str, Any]], notes: list[str]) -> bool:
    """Put the observation the reference gives at the last step; False if no scenario can hold it."""
    expect = observe_expectation(d)
    if expect is None:
        return False
    if steps:
        steps[-1]["expect"] = expect
    else:
        steps.append({"expect": expect})
    notes.append(f"Seat {d.seat} observes differently: " + ", ".join(d.detail) + ".")
    return True


def observe_expectation(d: Disagreement) -> dict[str, Any] | None:
    """``{observe: [{seat, field: reference's value}]}`` for the differing fields, if a scenario can hold them all."""
    observation = d.reference.get("observation") if isinstance(d.reference, Mapping) else None
    if not isinstance(observation, Mapping) or d.seat is None:
        return None
    names = list(dict.fromkeys(p.split(".")[0].split("[")[0] for p in d.detail))
    if not names or not set(names) <= scenario_observe_fields():
        return None
    entry: dict[str, Any] = {"seat": d.seat}
    for name in names:
        entry[name] = observation.get(name)
    return {"observe": [entry]}


def _title(d: Disagreement) -> str:
    n = len(d.trace.steps)
    after = f"after {n} action{'s' if n != 1 else ''}" if n else "at the start of a hand"
    if d.where == "state":
        return f"Fuzz vector: {', '.join(d.fields)} {after}"
    if d.where == "observe":
        return f"Fuzz vector: what seat {d.seat} observes {after}"
    if d.where == "act":
        return f"Fuzz vector: the legal action {d.trace.steps[-1].action!r} is accepted {after}"
    if d.where == "events":
        return f"Fuzz vector: the events of {d.trace.steps[-1].action!r} {after}"
    if d.where == "reject":
        return f"Fuzz vector: {d.trace.steps[-1].action!r} by seat {d.trace.steps[-1].seat} is refused {after}"
    return f"Fuzz vector: the setup is accepted ({d.trace.setup_kind})"


# ------------------------------------------------------------------ side checks


def side_scenario(d: Disagreement, spec: SpecData, *, explicit: bool = True, engine_name: str = "the candidate",
                  provenance: str = "") -> dict[str, Any] | str:
    """The scenario that replays the side check behind ``d`` (:mod:`~conformance.fuzz.checks`), the reference's
    answers as its expectations: a ``count`` (in a game too, and its ``divide``), a ``pattern``, a ``setup`` the
    engine must refuse, a ``batch`` whose setup is refused (or, at a bound, taken), or a ``trajectory`` started
    from a setup the reference takes at a bound. The reason, if no scenario kind can hold it."""
    check = d.check
    if check is None:
        return "the disagreement carries no side check to replay"
    notes = [f"{engine_name} {d.summary()[len('the candidate '):]}.", _answers_note(d)]
    made: _Vector | dict[str, Any] | str
    if check.kind == "count":
        made = _count_vector(d, check, explicit, spec)
    elif check.kind == "pattern":
        made = _pattern_vector(check, spec)
    else:
        made = _setup_vector(d, check, spec, engine_name, provenance, notes)
    if isinstance(made, (dict, str)):  # a trajectory from a setup the reference takes (worded as the trajectory
        return made                    # writer words it), or why no scenario holds it
    what, title, clauses, options, protocol, kind, body = made
    if provenance:
        notes.append(provenance)
    scenario: dict[str, Any] = {
        "id": _scenario_id(f"fuzz-{what}", check.trace, [e.request for e in check.exchanges]),
        "title": title,
        "clauses": clauses or list(FALLBACK),
        "requires": _requires(options),
    }
    if protocol > 1:
        scenario["protocol"] = protocol
    scenario.update({"tags": ["fuzz"], "generated": True, "notes": "\n".join(notes) + "\n", kind: body})
    return scenario


_Vector = tuple[str, str, list[str], dict[str, str], int, str, dict[str, Any]]
"""What a side check's scenario is made of: its id's word, title, clauses, required options, least protocol,
body kind and body."""


def _answers_note(d: Disagreement) -> str:
    def short(value: Any) -> str:
        text = json.dumps(value, sort_keys=True, default=str)
        return text if len(text) <= 300 else text[:297] + "..."
    return f"To {short(d.request)} the reference answers {short(d.reference)}; the candidate answers {short(d.candidate)}."


def _count_vector(d: Disagreement, check: Check, explicit: bool, spec: SpecData) -> _Vector | str:
    """``count`` at the check's state (its setup and prefix), the reference's counts and divide; or, when the
    candidate's ``batch`` of that prefix was wrong, the ``batch`` itself."""
    trace, request, answer = check.trace, check.exchanges[-1].request, check.exchanges[-1].answer
    game = "game" in trace.setup
    clauses = _clause_keys(spec, "legal")
    if d.fields == ["batch"]:  # the prefix sent in one batch: the batch itself is what went wrong
        body: dict[str, Any] = {"setup": dict(trace.setup) if game else _setup(trace, explicit),
                                "steps": [{"seat": s.seat, "do": s.action} for s in trace.steps], "state": "last"}
        return ("batch", f"Fuzz vector: a batch of {len(trace.steps)} action(s)", clauses, trace.options, 1,
                "batch", body)
    if not answer.get("ok") or not isinstance(answer.get("counts"), list):
        return f"the reference did not count ({answer})"
    body = {"setup": dict(trace.setup["game"]) if game else _setup(trace, explicit)}
    if trace.steps:
        body["prefix"] = [{"seat": s.seat, "do": s.action} for s in trace.steps]
    body["counts"] = list(answer["counts"])
    divide = request.get("divide") and answer.get("divide")
    if divide:
        body["divide"] = dict(answer["divide"])
    n = len(trace.steps)
    title = (f"Fuzz vector: count to depth {len(body['counts'])}{' with its divide' if divide else ''}"
             f"{' in a game' if game else ''} after {n} action{'s' if n != 1 else ''}")
    # protocol 3 counts the hand in play only; an older engine may count on into the next deal
    return ("count", title, clauses, trace.options, 3 if game else 1, "count", body)


def _pattern_vector(check: Check, spec: SpecData) -> _Vector | str:
    request, answer = check.exchanges[0].request, check.exchanges[0].answer
    if not answer.get("ok") or "classify" not in request:
        return f"the reference did not classify ({answer})"
    clauses = [c for c, area in (spec.clauses or {}).items() if area == "patterns"]  # spec/clauses.yaml's areas
    return ("pattern", f"Fuzz vector: pattern classifies {request['classify']!r}", clauses, check.trace.options, 1,
            "pattern", {"classify": request["classify"], "expect": answer["pattern"]})


def _clause_keys(spec: SpecData, *keys: str) -> list[str]:
    return list(dict.fromkeys(c for key in keys for c in spec.key_clauses.get(key, ())))


def _setup_vector(d: Disagreement, check: Check, spec: SpecData, engine_name: str, provenance: str,
                  lead: list[str]) -> _Vector | dict[str, Any] | str:
    """A refused setup check as a ``setup`` scenario (or a ``batch`` one, when it was sent in a batch): the hand
    started ``before`` it, the broken setup, the reference's error kind. A setup the reference takes (at a bound)
    as a ``trajectory`` from it, expecting the reference's state or observation."""
    exchanges, fault, hand = check.exchanges, check.fault, check.hand
    at = next((i for i, e in enumerate(exchanges) if e.request is d.request), None)
    if at is None or hand is None:
        return "the disagreement is not one of its check's requests"
    if at == 0:  # the hand's own start, before anything was broken
        return _synthetic(Disagreement(hand_trace(hand), "start", ["setup"], {"ok": True}, d.candidate),
                          spec, engine_name, provenance, 1, lead)
    broken = exchanges[1]
    if broken.expect_kind is not None:
        return (f"the protocol wants `{broken.expect_kind}` here only because the candidate does not follow "
                f"{broken.request.get('options')}: an expectation that depends on which options an engine follows "
                "is no scenario's")
    request, protocol = broken.request, fault.protocol if fault is not None else 1
    sends_options = fault is not None and fault.options and "options" in request
    options = dict(request["options"]) if sends_options else None
    kind, in_batch = refusal_kind(broken.answer), request["cmd"] == "batch"
    what = fault.id if fault is not None else check.trace.setup_kind
    before = None if "game" in hand.setup else dict(hand.setup)
    if kind is None:  # taken at a bound: what follows from it is the reference's
        if in_batch:
            return ("batch", f"Fuzz vector: a batch from a setup at a bound ({what})", _clause_keys(spec, "setup"),
                    options or hand.options, protocol, "batch", {"setup": dict(request["setup"]), "steps": [],
                                                                 "state": "last"})
        bad = Trace(options or hand.options, dict(request["setup"]), check.trace.setup_kind)
        if at == 1:
            found = Disagreement(bad, "start", ["setup"], {"ok": True}, d.candidate)
        elif d.request is not None and d.request.get("cmd") == "observe":
            found = Disagreement(bad, "observe", ["observation"], d.reference, d.candidate,
                                 seat=d.request.get("seat"), detail=list(d.detail))
        else:
            found = Disagreement(bad, "state", list(d.fields), d.reference, d.candidate)
        return _synthetic(found, spec, engine_name, provenance, protocol, lead)
    if kind not in ("bad-setup", "malformed"):
        return f"the reference refuses the setup as {kind}, which no scenario's `error` names"
    observed = at > 2  # an observation after the refusal differs: the scenario compares every seat's (`observe`)
    if at >= 2 and before is None:
        return ("what the candidate answers after a refused setup differs within a game, and a scenario's `before` "
                "is a single hand")
    if observed and in_batch:
        return "the observations after a batch whose setup is refused differ, and a `batch` scenario compares its `state`"
    if in_batch:
        if broken.answer.get("ok") is not True:
            return (f"the reference refuses the batch whole ({kind}), and a `batch` scenario's start can only be "
                    "refused as bad-setup, inside the batch's answer")
        if sends_options:
            return "the setup sent in the batch carries its own options, and a `batch` scenario sends the required ones"
        refused: dict[str, Any] = {**({"before": before} if before else {}), "setup": dict(request["setup"]),
                                   "start": {"error": kind}, "steps": [], "state": "last"}
        return ("batch", f"Fuzz vector: a batch whose setup is refused as {kind} ({what})",
                _clause_keys(spec, "setup"), hand.options, max(protocol, 3), "batch", refused)
    body: dict[str, Any] = {**({"before": before} if before else {}), **({"options": options} if options else {}),
                            "start": dict(request["setup"]), "error": kind}
    if observed:
        body["observe"] = True  # every seat's observe after the refusal, as after `before`
    return ("setup", f"Fuzz vector: the setup is refused as {kind} ({what})",
            _clause_keys(spec, "setup", *(("observe",) if observed else ())), hand.options, protocol, "setup", body)


def hand_trace(hand: Trace) -> Trace:
    return Trace(hand.options, hand.setup, hand.setup_kind, hand.hands, [])


def _synthetic(found: Disagreement, spec: SpecData, engine_name: str, provenance: str,
               protocol: int, lead: list[str]) -> dict[str, Any] | str:
    """A setup check's disagreement at a setup the reference takes, as the trajectory writer words it, its notes
    led by ``lead`` (the side check's own summary and answers)."""
    scenario = disagreement_scenario(found, spec, explicit=False, engine_name=engine_name, provenance=provenance)
    if scenario is None:
        return "the scenario format cannot hold the observation that differs"
    scenario["notes"] = "\n".join(lead + scenario["notes"].splitlines()[1:]) + "\n"
    if protocol > 1:  # written before the tags, notes and body, where a scenario's header ends
        after = ("tags", "generated", "notes", "trajectory", "game")
        scenario = {**{k: v for k, v in scenario.items() if k not in after}, "protocol": protocol,
                    **{k: v for k, v in scenario.items() if k in after}}
    return scenario


def failure_scenario(f: CandidateFailure, spec: SpecData, *, explicit: bool = True,
                     engine_name: str = "the candidate", provenance: str = "") -> dict[str, Any] | None:
    """A scenario that replays the hand up to the request the candidate failed on."""
    cmd = f.request.get("cmd")
    if cmd == "observe" or f.reference_state is None:
        return None
    steps = [_step_json(s) for s in f.trace.steps]
    ref = f.reference_state
    if cmd == "start" or not steps:
        steps.append({"expect": {"phase": ref["phase"], "to_act": ref["to_act"]}})
    elif cmd == "act" and f.trace.steps[-1].kind == "do":
        steps[-1]["expect"] = {"phase": ref["phase"], "to_act": ref["to_act"]}
    elif cmd == "state":
        steps[-1]["expect"] = full_expectation(ref)
    notes = [f"{engine_name} {f.summary()[len('the candidate '):]}"]
    if f.stderr.strip():
        notes.append("stderr (last lines): " + " | ".join(f.stderr.strip().splitlines()[-3:]))
    if provenance:
        notes.append(provenance)
    return {
        "id": _scenario_id(f"fuzz-{'hang' if f.status == 'timeout' else 'crash'}", f.trace),
        "title": f"Fuzz vector: an engine must answer {cmd!r} after {len(f.trace.steps)} action(s)",
        "clauses": failure_clauses(f, spec),
        "requires": _requires(f.trace.options),
        "tags": ["fuzz", "crash"],
        "generated": True,
        "notes": "\n".join(notes) + "\n",
        "trajectory": {"setup": _setup(f.trace, explicit), "steps": steps},
    }


# ------------------------------------------------------------------ YAML


class _Dumper(yaml.SafeDumper):
    """Block style for the structure, flow style for plain steps and short lists."""


class _Flow(dict):  # type: ignore[type-arg]
    """A mapping written on one line."""


class _FlowList(list):  # type: ignore[type-arg]
    """A list written on one line."""


class _Quoted(str):
    """Card or action text holding a control character (a tab, a line end: white space the protocol allows),
    written double-quoted with escapes, the only way the loader takes it (spec/SCENARIOS.md)."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str)
_Dumper.add_representer(_Quoted, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v), style='"'))
_Dumper.add_representer(_Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True))
_Dumper.add_representer(_FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))


def _styled(value: Any, key: str = "") -> Any:
    """Choose the layout: steps without expectations, short lists and small mappings on one line."""
    if isinstance(value, dict):
        items = {k: _styled(v, k) for k, v in value.items()}
        if key in ("step", "discard", "result") or (key == "expect" and all(
                not isinstance(v, (dict, list)) for v in value.values())):
            return _Flow(items)
        return items
    if isinstance(value, list):
        if key in ("steps", "prefix"):
            return [_styled(v, "step" if "expect" not in v else "") for v in value]
        if key in ("clauses", "tags", "tricks", "deltas", "actions", "counts"):
            return _FlowList(_styled(v) for v in value)
        return [_styled(v, key if key in SENT_TEXT_KEYS else "") for v in value]
    if isinstance(value, str) and key in SENT_TEXT_KEYS and CONTROL_CHARACTERS.search(value):
        return _Quoted(value)
    return value


def dump(scenario: Mapping[str, Any], header: str = "") -> str:
    text = yaml.dump({"scenarios": [_styled(dict(scenario))]}, Dumper=_Dumper, sort_keys=False,
                     allow_unicode=True, default_flow_style=False, width=110)
    return header + str(text)


def write(scenario: Mapping[str, Any], out_dir: Path, header: str = "") -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{scenario['id']}.yaml"
    path.write_text(dump(scenario, header), encoding="utf-8")
    return path


def write_trace(name: str, data: Mapping[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.trace.json"
    path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
    return path


# ------------------------------------------------------------------ verification


class Verifier:
    """Runs a written scenario through the runner on the reference and on the candidate."""

    def __init__(self, candidate: Engine, spec_dir: Path | None = None) -> None:
        self.candidate = candidate
        self.spec_dir = spec_dir
        self.reference_engine = Suite.load(spec_dir, []).engine("reference", 30.0)

    def run(self, path: Path) -> tuple[Result | None, Result | None, list[str]]:
        # The loader wants generated vectors in a folder named ``generated`` below the
        # directory it is given: load a copy from such a folder, whatever --out is.
        with tempfile.TemporaryDirectory(prefix="hakka-fuzz-") as tmp:
            copy = Path(tmp) / "generated" / path.name
            copy.parent.mkdir()
            shutil.copyfile(path, copy)
            try:
                suite = Suite.load(self.spec_dir, [Path(tmp)])
            except Exception as exc:  # noqa: BLE001 - an invalid file is a fuzzer bug: report it
                return None, None, [f"the written scenario does not load: {str(exc).replace(str(copy), path.name)}"]
        ref = suite.runner(self.reference_engine).run(suite.scenarios[0])
        cand = suite.runner(self.candidate).run(suite.scenarios[0])
        return ref, cand, []

    def close(self) -> None:
        self.reference_engine.close()


def write_verified(build: Any, out_dir: Path, verifier: Verifier | None, explicit_first: bool = True,
                   header: str = "") -> Written | None:
    """Write ``build(explicit)`` and verify it; if the explicit-hands form does not
    reproduce, write the original setup instead. ``None`` if nothing can be written."""
    attempts = [True, False] if explicit_first else [False]
    last: Written | None = None
    last_setup: Any = None
    for explicit in attempts:
        scenario = build(explicit)
        if scenario is None:
            return None
        body = next(scenario[kind] for kind in BODY_KINDS if kind in scenario)
        setup = body.get("setup")  # none in a pattern, the refused `start` in a setup scenario: one form only
        if not explicit and last is not None and setup == last_setup:
            break  # the setup was explicit already: nothing else to try
        last_setup = setup
        if last is not None:
            last.path.unlink(missing_ok=True)
        path = write(scenario, out_dir, header)
        written = Written(path, scenario["id"], list(scenario["clauses"]), isinstance(setup, Mapping) and "hands" in setup)
        if verifier is not None:
            written.reference, written.candidate, written.problems = verifier.run(path)
            if written.verified:
                return written
        else:
            return written
        last = written
    return last


def disagreement_needs_original_setup(d: Disagreement) -> bool:
    return ("game" in d.trace.setup
            or (not d.trace.steps and "hands" in d.fields and "hands" not in d.trace.setup))
