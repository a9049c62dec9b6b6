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
from ..loader import CONTROL_CHARACTERS, SENT_TEXT_KEYS
from ..results import ERROR, FAIL, PASS, TIMEOUT, Result
from ..specdata import SpecData
from ..suite import Suite
from .clauses import disagreement_clauses, failure_clauses
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


def _scenario_id(prefix: str, trace: Trace) -> str:
    blob = json.dumps({"setup": trace.setup, "options": trace.options,
                       "steps": [s.as_json() for s in trace.steps]}, sort_keys=True)
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
        if key == "steps":
            return [_styled(v, "step" if "expect" not in v else "") for v in value]
        if key in ("clauses", "tags", "tricks", "deltas", "actions"):
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
                return None, None, [f"the written scenario does not load: {exc}"]
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
        body = scenario.get("trajectory") or scenario["game"]
        if not explicit and last is not None and body["setup"] == last_setup:
            break  # the setup was explicit already: nothing else to try
        last_setup = body["setup"]
        if last is not None:
            last.path.unlink(missing_ok=True)
        path = write(scenario, out_dir, header)
        written = Written(path, scenario["id"], list(scenario["clauses"]), "hands" in body["setup"])
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
