"""The clauses a disagreement or a crash involves, read from ``spec/``, never guessed.

The fuzzer knows no rule of the game. It names clauses from two sources only:
the rule an engine cites when it refuses an action (a clause ID, or a
decision ID, whose clauses ``spec/decisions.yaml`` lists), and the clauses
``spec/expectations.yaml`` puts behind the field that differs (the same table
that points a failing scenario's report at its rule).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..specdata import SpecData
from .model import CandidateFailure, Disagreement

CLAUSE_ID = re.compile(r"^[A-Z]+-[1-9][0-9]*$")
FALLBACK = ("GAME-2",)
"""When nothing more precise is known: the phases of a hand."""


def rule_clauses(rule: Any, spec: SpecData) -> list[str]:
    """The clauses of a rule an engine cites: itself if a clause, a decision's clauses if a decision."""
    if not isinstance(rule, str):
        return []
    if CLAUSE_ID.match(rule):
        return [rule] if spec.clauses is None or rule in spec.clauses else []
    decision = (spec.decisions or {}).get(rule)
    return list(decision.clauses) if decision is not None else []


def _cited(answer: Any, spec: SpecData) -> list[str]:
    error = answer.get("error") if isinstance(answer, Mapping) else None
    return rule_clauses(error.get("rule"), spec) if isinstance(error, Mapping) else []


def _keys(spec: SpecData, keys: Iterable[str]) -> list[str]:
    return [c for key in keys for c in spec.key_clauses.get(key, ())]


def _state_keys(d: Disagreement) -> list[str]:
    """The expectation keys of the fields that differ (``result.deltas`` rather than ``result``)."""
    keys = []
    for field in d.fields:
        subfields = [f.split(".", 1)[-1] for f in d.detail] if field in ("result", "game") else []
        keys += [f"{field}.{sub}" for sub in subfields] or [{"result": "result.end", "game": "game.scores"}.get(field, field)]
    return keys


def disagreement_clauses(d: Disagreement, spec: SpecData) -> list[str]:
    """Clause IDs for a disagreement, most specific first, without repeats."""
    if d.where == "start":
        out = _keys(spec, ["setup"]) + _cited(d.candidate, spec)
    elif d.where == "observe":
        out = _keys(spec, ["observe"])
    elif d.where == "events":
        out = _keys(spec, ["events"])
    elif d.where == "act":  # the candidate refused an action the reference takes
        out = _cited(d.candidate, spec) + _keys(spec, ["legal"])
    elif d.where == "reject":  # the reference refuses it, citing its rule
        out = rule_clauses(d.trace.steps[-1].rule, spec) + _cited(d.reference, spec) + _keys(spec, ["legal"])
    else:
        out = _keys(spec, _state_keys(d))
    return list(dict.fromkeys(out)) or list(FALLBACK)


def failure_clauses(f: CandidateFailure, spec: SpecData) -> list[str]:
    """Clauses for a crash or a hang: those of the request it happened on."""
    key = {"act": "legal", "start": "setup", "observe": "observe"}.get(str(f.request.get("cmd")), "phase")
    return list(dict.fromkeys(_keys(spec, [key]))) or list(FALLBACK)
