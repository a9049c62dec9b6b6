"""A tiny scripted engine: correct for a handful of example scenarios, nothing else.

It knows no rule: it replays one hand's calling phase (everybody passes →
void hand) on the fixed deal of ``conformance/scenarios/examples/calling.yaml``,
answers the perft of that file from a table, and classifies / compares the
cards of ``examples/patterns.yaml`` from a table. Enough to prove the pass
path of the runner, and the base the misbehaving fakes start from.
"""

from __future__ import annotations

import copy
from typing import Any

HANDS = [
    "Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3",
    "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
    "Sin9",
    "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 WanSin",
]
ELDERS = "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"
SCRIPT = [(0, "pass"), (1, "pass"), (3, "pass")]  # the only line of play it knows
CLASSIFY = {"Sup3 Sup4 Sup5": "run", "Gon7 Zok7 Sin7": "set", "Sup3 Sup5": "none"}
BEATS = {("Sup7", "Sup8"): True, ("Sup7", "Gon8"): False}
COUNTS = [2, 38]
VERBS = {"call", "pass", "play", "discard", "claim", "continue", "tigers", "decline"}

HELLO = {"ok": True, "protocol": 1,
         "engine": {"name": "scripted-fake", "version": "0", "language": "python"},
         "options": {}, "configurable": False,
         "capabilities": ["pattern", "count"]}


def error(kind: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": kind, "message": message}}


class ScriptedSession:
    """``handle(message) -> dict``, as the in-process adapter expects."""

    def __init__(self, configurable: bool = False) -> None:
        self.played: list[tuple[int, str]] | None = None
        self.hello = copy.deepcopy(HELLO)
        self.hello["configurable"] = configurable
        self.received: list[dict[str, Any]] = []

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        self.received.append(message)
        cmd = message.get("cmd")
        return getattr(self, f"cmd_{cmd}", self.cmd_unknown)(message)

    def cmd_unknown(self, message: dict[str, Any]) -> dict[str, Any]:
        return error("unsupported", f"unknown cmd {message.get('cmd')!r}")

    def cmd_hello(self, message: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(self.hello)

    def cmd_stop(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}

    def cmd_start(self, message: dict[str, Any]) -> dict[str, Any]:
        setup = message["setup"]
        if setup.get("dealer") != 0 or [" ".join(h.split()) for h in setup.get("hands", [])] != HANDS:
            return error("unsupported", "the scripted fake knows one deal only")
        self.played = []
        return {"ok": True}

    def cmd_act(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.played is None:
            return error("illegal", "no hand")
        seat, action = message["seat"], message["action"]
        verb = action.split()[0] if action.split() else ""
        if verb not in VERBS:
            return error("malformed", f"unknown verb {verb!r}")
        i = len(self.played)
        if i < len(SCRIPT) and SCRIPT[i] == (seat, action):
            self.played.append((seat, action))
            return {"ok": True}
        return error("illegal", f"not in the script: seat {seat} {action!r}")

    def state(self) -> dict[str, Any]:
        assert self.played is not None
        n = len(self.played)
        ended = n == len(SCRIPT)
        return {
            "ok": True,
            "phase": "ended" if ended else "calling",
            "to_act": None if ended else SCRIPT[n][0],
            "legal": {"actions": [] if ended else ["call", "pass"], "discard": None},
            "dealer": 0, "dreamer": 2, "privileged": None,
            "hands": list(HANDS), "elders": ELDERS, "tricks": [0, 0, 0, 0],
            "round": None,
            "result": ({"end": "void", "winner": None, "tricks": None, "dreamer_count": None,
                        "deltas": [0, 0, 0, 0], "next_dealer": 1, "counts": False} if ended else None),
            "game": None,
        }

    def cmd_state(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.played is None:
            return error("illegal", "no hand")
        return self.state()

    def cmd_pattern(self, message: dict[str, Any]) -> dict[str, Any]:
        if "classify" in message:
            return {"ok": True, "pattern": CLASSIFY.get(message["classify"], "none")}
        return {"ok": True, "beats": BEATS.get((message["current"], message["challenger"]), False)}

    def cmd_count(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "counts": COUNTS[: message["depth"]]}


class ConfigurableSession(ScriptedSession):
    def __init__(self) -> None:
        super().__init__(configurable=True)
