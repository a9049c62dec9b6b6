"""Naming the clauses a disagreement involves, as well as can be told from outside.

The fuzzer knows no rule of the game; it guesses the clause from *what*
differed (the field, the phase, the kind of action) and from the ``rule`` the
reference names when it refuses an action. The guesses are hints for the
person who reads the generated scenario, not verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..notation import cards, normalize_action
from .compare import card_set, differing_seats, legal_form
from .driver import CandidateFailure, Disagreement, Step

CLAUSE_ID = re.compile(r"^[A-Z]+-[1-9][0-9]*$")

DECISION_CLAUSES: dict[str, tuple[str, ...]] = {
    "D1": ("GAME-5",), "D2": ("DEAL-4",), "D3": ("CALL-5",), "D4": ("CALL-2", "CALL-3"),
    "D5": ("CALL-6",), "D6": ("PLAY-1",), "D7": ("PAT-6",), "D8": ("PAT-5", "PLAY-4"),
    "D9": ("PAT-5",), "D10": ("ELD-4",), "D11": ("ELD-5",), "D12": ("PLAY-4",), "D13": ("PLAY-4",),
    "D14": ("PLAY-4",), "D15": ("PAT-2",), "D16": ("PAT-4",), "D17": ("PAT-3",), "D18": ("PAT-1",),
    "D19": ("ELD-2",), "D20": ("ELD-3",), "D21": ("CLAIM-1",), "D22": ("CLAIM-1",), "D23": ("PLAY-8",),
    "D24": ("TIG-1",), "D25": ("SCORE-4",), "D26": ("SCORE-4",), "D27": ("SCORE-4",), "D28": ("SCORE-5",),
    "D29": ("SCORE-6",), "D30": ("CALL-4",), "D31": ("GAME-1",), "D32": ("OBS-1",), "D33": ("DEAL-5",),
    "D34": ("TIG-1",), "D35": ("ELD-2",), "D36": ("DEAL-1",),
}
NEVER_BEAT = {"Sup1", "Sin1", "WanSin"}

Classifier = Callable[[str], str]
"""Card text -> ``run`` | ``set`` | ``single`` | ``none`` (asked of the reference)."""


def rule_clauses(rule: str | None) -> list[str]:
    if not rule:
        return []
    if CLAUSE_ID.match(rule):
        return [rule]
    return list(DECISION_CLAUSES.get(rule, ()))


def _leading(state: Mapping[str, Any] | None) -> bool:
    if not state:
        return True
    rnd = state.get("round") or {}
    return not rnd.get("plays")


def action_clauses(step: Step, before: Mapping[str, Any] | None, classify: Classifier) -> list[str]:
    """The clauses that govern whether ``step`` is legal."""
    verb = step.action.split()[0].lower() if step.action.split() else ""
    phase = (before or {}).get("phase")
    if before is not None and step.seat == before.get("dreamer"):
        return ["DEAL-3"]
    if verb in ("call", "pass"):
        return ["CALL-1"] if phase in ("calling", None) else ["CALL-5"]
    if verb in ("claim", "continue"):
        return ["CLAIM-1"]
    if verb in ("tigers", "decline"):
        return ["TIG-1"]
    if verb == "discard":
        return ["PLAY-4"]
    if verb == "play":
        played = " ".join(step.action.split()[1:])
        kind = _kind(played, classify)
        if _leading(before):
            return ["PLAY-2"] + {"run": ["PAT-1"], "set": ["PAT-3"], "single": ["PAT-5", "ELD-4"]}.get(kind, ["PAT-7"])
        return ["PLAY-3"] + {"run": ["PAT-2"], "set": ["PAT-4"], "single": ["PAT-6"]}.get(kind, ["PAT-7"])
    return ["PLAY-2"]


def _kind(text: str, classify: Classifier) -> str:
    try:
        n = len(cards(text))
    except Exception:  # noqa: BLE001 - not cards: not a pattern
        return "none"
    if n == 1:
        return "single"
    try:
        return classify(text)
    except Exception:  # noqa: BLE001
        return "none"


def _legal_clauses(ref: Mapping[str, Any], cand: Mapping[str, Any], classify: Classifier) -> list[str]:
    phase = ref.get("phase")
    if phase == "calling":
        return ["CALL-1"]
    if phase == "claim":
        return ["CLAIM-1"]
    if phase == "tigers":
        return ["TIG-1"]
    if phase != "playing":
        return ["CLAIM-2"] if phase == "ended" else ["GAME-2"]
    out: list[str] = []
    r, c = legal_form(ref.get("legal")), legal_form(cand.get("legal"))
    diff: set[str] = set()
    discard_differs = True
    if isinstance(r, tuple) and isinstance(c, tuple):
        diff = set(r[0] ^ c[0])
        discard_differs = r[1] != c[1]
    leading = _leading(ref)
    kinds = {_kind(" ".join(normalize_action(a).split()[1:]), classify) for a in diff if a.startswith("play ")}
    other_verbs = {a.split()[0] for a in diff if not a.startswith("play ")}
    if leading:
        out.append("PLAY-2")
        if "single" in kinds:
            out += ["PAT-5", "ELD-4"]
            if ref.get("to_act") is not None and ref.get("to_act") == ref.get("privileged"):
                out.append("ELD-5")
        if "run" in kinds:
            out.append("PAT-1")
        if "set" in kinds:
            out.append("PAT-3")
    else:
        out.append("PLAY-3")
        if "single" in kinds:
            out.append("PAT-6")
            played = {a.split()[1] for a in diff if a.startswith("play ") and len(a.split()) == 2}
            if played & NEVER_BEAT:
                out.append("ELD-6")
            elders = card_set(ref.get("elders"))
            on_table = {c for p in (ref.get("round") or {}).get("plays", [])
                        if str(p.get("action", "")).startswith("play ") for c in p["action"].split()[1:]}
            if isinstance(elders, frozenset) and on_table & elders:
                out.append("ELD-3")
        if "run" in kinds:
            out.append("PAT-2")
        if "set" in kinds:
            out.append("PAT-4")
        if discard_differs:
            out.append("PLAY-4")
    if "none" in kinds:
        out.append("PAT-7")
    if other_verbs & {"call", "pass"}:
        out.append("CALL-5")
    if other_verbs & {"claim", "continue"}:
        out.append("CLAIM-1")
    if leading and discard_differs:
        out.append("PLAY-4")
    return out


def _result_clauses(ref: Mapping[str, Any], cand: Mapping[str, Any], fields: list[str]) -> list[str]:
    result = ref.get("result") or {}
    other = cand.get("result") or {}
    out: list[str] = []
    end = result.get("end") or other.get("end")
    if not result or not other:  # one hand is over, the other not: only how it ends is in question
        fields = ["end"]
    for f in fields or ["end"]:
        if f == "end":
            out += {"claim": ["CLAIM-2"], "five-tigers": ["TIG-1"], "played-out": ["PLAY-8"],
                    "void": ["CALL-6"]}.get(str(end), ["GAME-2"])
        elif f == "winner":
            out.append("PLAY-6" if end != "five-tigers" else "TIG-1")
        elif f == "tricks":
            out += ["CLAIM-1", "SCORE-1"]
        elif f == "dreamer_count":
            out.append("SCORE-4")
        elif f == "deltas":
            out += _delta_clauses(ref, result, other)
        elif f == "next_dealer":
            out += ["CALL-2", "CALL-3"]
        elif f == "counts":
            out += ["PLAY-8"] if end == "played-out" else ["CALL-6"] if end == "void" else ["GAME-1"]
    return out


def _delta_clauses(state: Mapping[str, Any], result: Mapping[str, Any], other: Mapping[str, Any]) -> list[str]:
    mine, theirs = result.get("deltas"), other.get("deltas")
    if not isinstance(mine, list) or not isinstance(theirs, list) or len(theirs) != 4:
        return ["SCORE-3"]
    if not all(isinstance(x, int) for x in theirs) or sum(theirs) != 0:
        return ["SCORE-7"]
    out = []
    dreamer, winner, pp = state.get("dreamer"), result.get("winner"), state.get("privileged")
    if isinstance(dreamer, int) and mine[dreamer] != theirs[dreamer]:
        out += ["SCORE-4", "SCORE-5"]
    if pp is not None and pp != winner and mine[pp] != theirs[pp]:
        out.append("SCORE-6")
    if isinstance(winner, int) and mine[winner] != theirs[winner]:
        out += ["SCORE-1", "SCORE-3"]
    if winner is None:
        out.append("SCORE-2")
    return out or ["SCORE-3"]


def _phase_clauses(before: Mapping[str, Any] | None, ref: Mapping[str, Any], cand: Mapping[str, Any]) -> list[str]:
    phases = {ref.get("phase"), cand.get("phase")}
    out = []
    if "claim" in phases:
        out.append("CLAIM-1")
    if "tigers" in phases:
        out.append("TIG-1")
    if "ended" in phases:
        result = ref.get("result") or cand.get("result")
        end = result.get("end") if isinstance(result, Mapping) else None
        out += {"claim": ["CLAIM-2"], "five-tigers": ["TIG-1"], "played-out": ["PLAY-8"],
                "void": ["CALL-6"]}.get(str(end), ["PLAY-8"])
    if not out and before is not None and before.get("phase") == "calling":
        out.append("CALL-5")
    return list(dict.fromkeys(out)) or ["GAME-2"]


def _to_act_clauses(d: Disagreement) -> list[str]:
    ref, cand, before = d.reference, d.candidate, d.before
    if cand.get("to_act") is not None and cand.get("to_act") == ref.get("dreamer"):
        return ["DEAL-3", "GAME-5"]
    if not d.trace.steps:
        return ["CALL-1"]
    last = d.trace.steps[-1]
    verb = last.action.split()[0]
    if verb == "pass":
        return ["CALL-3", "GAME-5"]
    if verb == "call":
        return ["PLAY-1"] if ref.get("phase") == "playing" else ["TIG-1"] if ref.get("phase") == "tigers" else ["CALL-5"]
    if ref.get("phase") == "claim" or cand.get("phase") == "claim" or verb in ("claim", "continue"):
        return ["CLAIM-1", "PLAY-7"]
    if _leading(ref) and before is not None and not _leading(before):
        return ["PLAY-6", "PLAY-7"]
    return ["GAME-5", "PLAY-3"]


def _hands_clauses(d: Disagreement) -> list[str]:
    if not d.trace.steps:
        out = ["DEAL-4"]
        if "seed" in d.trace.setup:
            out = ["DEAL-5", "DEAL-4"]
        dreamer = d.reference.get("dreamer")
        if dreamer in differing_seats(d.reference, d.candidate):
            out.append("DEAL-2")
        return out
    last = d.trace.steps[-1]
    return ["PLAY-4"] if last.action.startswith("discard") else ["PLAY-2"]


def _elder_clauses(d: Disagreement) -> list[str]:
    if not d.trace.steps:
        return ["ELD-1"]
    r, c = card_set(d.reference.get("elders")), card_set(d.candidate.get("elders"))
    out = ["ELD-2"]
    if isinstance(r, frozenset) and isinstance(c, frozenset) and (r ^ c) & NEVER_BEAT:
        out.append("ELD-1")
    return out


def disagreement_clauses(d: Disagreement, classify: Classifier) -> list[str]:
    """Clause IDs for a disagreement, most specific first, without repeats."""
    out: list[str] = []
    if d.where == "start":
        out = ["DEAL-4", "CARDS-1"]
    elif d.where == "observe":
        out = ["OBS-1"]
    elif d.where == "act":
        out = action_clauses(d.trace.steps[-1], d.before, classify)
    elif d.where == "reject":
        last = d.trace.steps[-1]
        out = rule_clauses(last.rule) + action_clauses(last, d.before, classify)
    else:
        fields = list(d.fields)
        # a field that follows from another one's difference names no rule of its own
        if "phase" in fields:
            fields = [f for f in fields if f not in ("to_act", "legal", "result")]
        if "to_act" in fields or "hands" in fields:
            fields = [f for f in fields if f != "legal"]
        for f in fields:
            if f == "legal":
                out += _legal_clauses(d.reference, d.candidate, classify)
            elif f == "elders":
                out += _elder_clauses(d)
            elif f == "to_act":
                out += _to_act_clauses(d)
            elif f == "phase":
                out += _phase_clauses(d.before, d.reference, d.candidate)
            elif f == "tricks":
                out.append("PLAY-6")
            elif f == "hands":
                out += _hands_clauses(d)
            elif f == "privileged":
                out.append("CALL-4")
            elif f == "result":
                out += _result_clauses(d.reference, d.candidate, d.detail)
            else:
                out.append("GAME-2")
    return list(dict.fromkeys(out))


def failure_clauses(f: CandidateFailure, classify: Classifier) -> list[str]:
    """Clauses for a crash: those of the action it crashed on, if any."""
    if f.request.get("cmd") == "act" and f.trace.steps:
        return action_clauses(f.trace.steps[-1], None, classify)
    if f.request.get("cmd") == "start":
        return ["DEAL-4"]
    if f.request.get("cmd") == "observe":
        return ["OBS-1"]
    return ["GAME-2"]
