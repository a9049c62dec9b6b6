"""``hakka-conformance smoke``: is an adapter ready for the suite? (Bowtie has ``bowtie smoke``.)

In a few seconds, before hundreds of scenarios: the handshake, one request of
each kind the engine declares (each answer checked against its schema; every
capability of spec/PROTOCOL.md it declares is tried once: ``divide``, ``batch``,
``playout`` and ``events`` too, so that an engine that crashes or hangs on
``batch`` is not called ready because nothing sent one), a
refused action that must leave the state as it was, a short hand played to
its end by always taking the first legal action, and the declared options
checked against ``spec/decisions.yaml``. Every problem comes with advice.

It holds no rule of the game: it takes whatever the engine calls legal and
checks only the protocol's promises (spec/PROTOCOL.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .engine import Engine, EngineInfo
from .errors import AdapterError, EngineCrashed
from .specdata import SpecData

MAX_ACTIONS = 200
"""A hand has at most 3 + 12 x 3 + 12 actions; more means the engine never ends it."""

# One deal the smoke test can start in every form: the canonical deck order.
DECK = ("Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3 Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 "
        "Zok1 Zok2 Zok3 Zok4 Zok5 Zok6 Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9 WanSin")
HANDS = ["Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3",
         "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
         "Sin9",
         "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 WanSin"]
SETUPS = {"hands": {"dealer": 0, "hands": HANDS}, "deck": {"dealer": 0, "deck": DECK}, "seed": {"dealer": 0, "seed": "7"}}


@dataclass
class SmokeReport:
    checks: list[tuple[str, str]] = field(default_factory=list)  # (ok | problem, text)
    info: EngineInfo | None = None

    def ok(self, text: str) -> None:
        self.checks.append(("ok", text))

    def problem(self, text: str, advice: str) -> None:
        self.checks.append(("problem", f"{text}\n      advice: {advice}"))

    @property
    def problems(self) -> int:
        return sum(1 for status, _ in self.checks if status == "problem")

    def write(self, out: TextIO) -> None:
        for status, text in self.checks:
            out.write(f"  {'ok     ' if status == 'ok' else 'PROBLEM'} {text}\n")
        verdict = "ready for `hakka-conformance run`" if not self.problems else f"{self.problems} problem(s)"
        out.write(f"\nsmoke: {verdict}\n")


class _Stop(Exception):
    """A problem after which nothing else can be tried."""


def smoke(engine: Engine, spec: SpecData) -> SmokeReport:
    """Try the engine once over; never raises for engine misbehaviour."""
    report = SmokeReport()
    try:
        _handshake(engine, spec, report)
        info = report.info
        assert info is not None
        _patterns(engine, info, report)
        setups = [name for name in SETUPS if name in info.capabilities]
        if not setups:
            report.ok("no hand setup declared (hands, deck or seed): only pattern scenarios will run")
            return report
        setups = [name for name in setups if _starts(engine, info, report, name)]
        if not setups:
            raise _Stop
        if "game" in info.capabilities:
            _game(engine, report, setups[0])
        _refusal(engine, report, setups[0])
        _hand(engine, info, report, setups[0])
        _declared(engine, info, report, setups[0])
    except _Stop:
        pass
    return report


def _call(engine: Engine, report: SmokeReport, message: dict[str, Any], advice: str,
          variant: str | None = None) -> dict[str, Any]:
    try:
        return engine.call(message, variant)
    except AdapterError as exc:
        report.problem(f"`{message['cmd']}`: {exc}", advice)
        raise _Stop from None


SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".py", ".rb", ".pl", ".php", ".lua", ".jar", ".sh", ".exe", ".wasm")
STDERR_LINES_SHOWN = 12


def missing_files(argv: tuple[str, ...]) -> list[str]:
    """Arguments of an engine's command that look like files (a path, a script) and do not exist.

    The program itself (``argv[0]``) is checked before the engine starts; a missing script given
    to an interpreter (``node engine.js``) is found only here, or by the interpreter's own error.
    """
    return [arg for arg in argv[1:] if not arg.startswith("-") and ("/" in arg or arg.endswith(SCRIPT_SUFFIXES))
            and not Path(arg).exists()]


def _stderr_said(engine: Engine) -> str:
    lines = engine.take_stderr().strip().splitlines()
    if not lines:
        return ""
    shown = lines[:STDERR_LINES_SHOWN] + ([f"[… {len(lines) - STDERR_LINES_SHOWN} more lines]"]
                                          if len(lines) > STDERR_LINES_SHOWN else [])
    return "\n      the engine wrote on stderr:\n" + "\n".join("        " + line for line in shown)


def _start_problem(engine: Engine, report: SmokeReport, exc: AdapterError) -> None:
    """Why the engine did not shake hands: a missing file and a crash first, with its stderr; the format last."""
    said = _stderr_said(engine)
    missing = missing_files(engine.spec.argv) if engine.spec.kind == "cmd" else []
    if missing:
        report.problem(f"the engine's command names {missing[0]!r}, which does not exist (looked for from "
                       f"{Path.cwd()}); the engine exited before answering `hello`{said}",
                       "fix the path in --engine: a relative path is taken from the directory you run "
                       "hakka-conformance in")
    elif isinstance(exc, EngineCrashed):
        report.problem(f"handshake: the engine exited before answering `hello` ({exc}){said}",
                       "run the engine's command by hand and read its error; an engine keeps running, reading "
                       "one JSON request per line on stdin, until `stop`")
    else:
        report.problem(f"handshake: {exc}{said}",
                       "answer {\"cmd\": \"hello\", \"protocol\": 2} with one JSON line: "
                       "ok, protocol, engine {name, version}, options, configurable, capabilities "
                       "(spec/PROTOCOL.md, `hello`); write nothing else to stdout")


def _handshake(engine: Engine, spec: SpecData, report: SmokeReport) -> None:
    try:
        info = engine.ensure_started()
    except AdapterError as exc:
        _start_problem(engine, report, exc)
        raise _Stop from None
    report.info = info
    report.ok(f"handshake: {info.name} {info.version}, protocol {info.protocol}, "
              f"{'configurable' if info.configurable else 'not configurable'}, "
              f"capabilities {', '.join(info.capabilities) or 'none'}")
    if info.protocol == 1:
        report.ok("protocol 1 is still served; protocol 2 adds the capability words hands, deck and seed "
                  "(spec/PROTOCOL.md, Versions)")
    for decision, option in info.options.items():
        if spec.decisions is not None and decision not in spec.decisions:
            report.problem(f"declared option {decision}={option}: no such decision",
                           "declare only decisions of spec/decisions.yaml (or leave a decision out for its default)")
        elif spec.decisions is not None and option not in spec.decisions[decision].options:
            report.problem(f"declared option {decision}={option}: not an option of {decision}",
                           f"options of {decision}: {', '.join(spec.decisions[decision].options)}")
    changed = {d: o for d, o in info.options.items() if spec.default_of(d) not in (None, o)}
    if changed and not info.configurable:
        report.ok(f"follows non-default options {changed}: scenarios that need the defaults will be skipped")


def _patterns(engine: Engine, info: EngineInfo, report: SmokeReport) -> None:
    if "pattern" not in info.capabilities:
        return
    answer = _call(engine, report, {"cmd": "pattern", "classify": "Sup3 Sup4 Sup5"},
                   "answer {ok: true, pattern: run|set|single|none}", "classify")
    if answer["ok"]:
        report.ok(f"pattern classify: Sup3 Sup4 Sup5 is {answer['pattern']!r}")
    else:
        report.problem(f"pattern classify refused: {answer['error']}", "classify any card list (PAT-1 … PAT-7)")
    answer = _call(engine, report, {"cmd": "pattern", "current": "Sup7", "challenger": "Sup8",
                                    "elders": "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin", "led": True},
                   "answer {ok: true, beats: true|false}", "beats")
    if answer["ok"]:
        report.ok(f"pattern beats: Sup8 after a led Sup7 -> beats={answer['beats']}")
    else:
        report.problem(f"pattern beats refused: {answer['error']}", "answer every reachable beats question")


def _start(engine: Engine, report: SmokeReport, name: str, log: bool = True) -> dict[str, Any]:
    answer = _call(engine, report, {"cmd": "start", "setup": SETUPS[name]},
                   "answer {ok: true} to a valid start")
    if not answer["ok"]:
        if answer["error"]["kind"] == "unsupported":
            raise _Unsupported(answer["error"]["message"])
        report.problem(f"start with {name} refused: {answer['error']}",
                       f"a valid {name} setup must be accepted: {SETUPS[name]}")
        raise _Stop
    state = _call(engine, report, {"cmd": "state"}, "answer `state` with every field of spec/PROTOCOL.md")
    if not state["ok"]:
        report.problem(f"state refused after start: {state['error']}", "answer `state` once a hand is started")
        raise _Stop
    if log:
        report.ok(f"start ({name}) and state: phase {state['phase']}, seat {state['to_act']} to act")
    return state


def _starts(engine: Engine, info: EngineInfo, report: SmokeReport, name: str) -> bool:
    try:
        _start(engine, report, name)
    except _Unsupported as exc:
        if info.protocol != 1:
            report.problem(f"start with {name} refused: {exc}",
                           f"the engine declares '{name}', so it must start {SETUPS[name]} (or drop the capability)")
            return False
        report.ok(f"start with {name}: unsupported (protocol 1: its scenarios will be skipped)")
        return False
    return True


class _Unsupported(Exception):
    """A start answered `unsupported`."""


def _game(engine: Engine, report: SmokeReport, setup: str) -> None:
    deal = {k: v for k, v in SETUPS[setup].items() if k != "dealer"}
    answer = _call(engine, report, {"cmd": "start", "setup": {"game": {"first_dealer": 0, "deals": [deal] * 8}}},
                   "answer {ok: true} to a valid game start")
    state = _call(engine, report, {"cmd": "state"}, "answer `state`") if answer["ok"] else answer
    if not answer["ok"] or not state["ok"] or not isinstance(state.get("game"), dict):
        report.problem(f"a game start was not taken: {state.get('error') or state.get('game')}",
                       "the engine declares 'game': start {game: {first_dealer, deals}} and show `game` in state")
        return
    report.ok(f"start (game) and state: hand {state['game']['hand']}, scores {state['game']['scores']}")


def _refusal(engine: Engine, report: SmokeReport, setup: str) -> None:
    before = _start(engine, report, setup, log=False)
    wrong_seat = (before["to_act"] + 1) % 4 if before["to_act"] is not None else 0
    answer = _call(engine, report, {"cmd": "act", "seat": wrong_seat, "action": "call"},
                   "refuse an action out of turn with kind `illegal`")
    if answer["ok"]:
        report.problem(f"seat {wrong_seat} was allowed to act out of turn", "refuse it with kind `illegal` (GAME-2)")
        return
    after = _call(engine, report, {"cmd": "state"}, "answer `state`")
    if after != before:
        report.problem("a refused action changed the state",
                       "an error never changes state: check before you apply (spec/PROTOCOL.md)")
    else:
        report.ok(f"an action out of turn is refused ({answer['error']['kind']}) and the state is unchanged")


def _hand(engine: Engine, info: EngineInfo, report: SmokeReport, setup: str) -> None:
    state = _start(engine, report, setup, log=False)
    if "count" in info.capabilities:
        answer = _call(engine, report, {"cmd": "count", "depth": 1}, "answer {ok: true, counts: [n]}")
        if answer["ok"]:
            report.ok(f"count to depth 1: {answer['counts']}")
        else:
            report.problem(f"count refused: {answer['error']}", "count declared: answer `count`, or drop it")
    actions = 0
    while state["to_act"] is not None and actions < MAX_ACTIONS:
        seat, legal = state["to_act"], state["legal"]
        if "observe" in info.capabilities:
            seen = _call(engine, report, {"cmd": "observe", "seat": seat}, "answer `observe` (spec/PROTOCOL.md)")
            if not seen["ok"]:
                report.problem(f"observe refused: {seen['error']}", "observe declared: answer it, or drop it")
                return
        if legal["actions"]:
            action = legal["actions"][0]
        elif legal["discard"]:
            action = "discard " + " ".join(legal["discard"]["from"].split()[: legal["discard"]["count"]])
        else:
            report.problem(f"seat {seat} is to act with no legal action", "`to_act` is null when nobody can act")
            return
        answer = _call(engine, report, {"cmd": "act", "seat": seat, "action": action}, "answer `act`")
        if not answer["ok"]:
            report.problem(f"seat {seat} was refused {action!r}, which `state` listed as legal: {answer['error']}",
                           "an action in `legal` must be accepted")
            return
        actions += 1
        state = _call(engine, report, {"cmd": "state"}, "answer `state`")
    if state["to_act"] is not None:
        report.problem(f"the hand did not end after {MAX_ACTIONS} actions", "a hand ends by a claim or when played out")
        return
    report.ok(f"a hand played to its end in {actions} actions (first legal action each time): "
              f"phase {state['phase']}, result {state['result'] and state['result'].get('end')}")


def _declared(engine: Engine, info: EngineInfo, report: SmokeReport, setup: str) -> None:
    """The capabilities no step above sends, each tried once: ``divide``, ``batch``, ``playout``, ``events``."""
    caps = info.capabilities
    if "divide" in caps and "count" in caps:
        _start(engine, report, setup, log=False)
        answer = _call(engine, report, {"cmd": "count", "depth": 1, "divide": True},
                       "answer {ok: true, counts: [n], divide: {action: n}} (or drop the capability `divide`)")
        if answer["ok"] and isinstance(answer.get("divide"), dict):
            report.ok(f"count with divide: {len(answer['divide'])} first action(s)")
        else:
            report.problem(f"count with divide refused: {answer.get('error') or answer}",
                           "divide declared: answer `count` with `divide`, or drop it")
    if "events" in caps:
        state = _start(engine, report, setup, log=False)
        legal = state["legal"]["actions"] if state["to_act"] is not None else []
        if legal:
            answer = _call(engine, report, {"cmd": "act", "seat": state["to_act"], "action": legal[0]},
                           "answer `act`")
            if answer["ok"] and isinstance(answer.get("events"), list) and answer["events"]:
                report.ok(f"act answers its events: {', '.join(map(str, answer['events']))}")
            else:
                report.problem(f"an accepted act has no events: {answer}",
                               "events declared: answer each accepted act with its `events`, or drop it")
    if "batch" in caps:
        _batch(engine, info, report, setup)


def _batch(engine: Engine, info: EngineInfo, report: SmokeReport, setup: str) -> None:
    first = _start(engine, report, setup, log=False)
    steps = [{"seat": first["to_act"], "action": first["legal"]["actions"][0]}] \
        if first["to_act"] is not None and first["legal"]["actions"] else []
    request = {"cmd": "batch", "setup": SETUPS[setup], "steps": steps,
               "observe": "last" if "observe" in info.capabilities else "none"}
    answer = _call(engine, report, request, "answer `batch` as spec/PROTOCOL.md says (or drop the capability)")
    if not answer["ok"] or not answer["start"]["ok"] or len(answer["steps"]) != len(steps) + 1:
        report.problem(f"batch of {len(steps)} step(s) not played: {answer.get('error') or answer.get('start')}",
                       "batch declared: start the setup and answer each step (spec/PROTOCOL.md, Batch play)")
        return
    report.ok(f"batch: start and {len(steps)} step(s) in one request")
    if "playout" not in info.capabilities:
        return
    request = {"cmd": "batch", "setup": SETUPS[setup], "steps": [], "playout": {"choices": [], "seed": "1"},
               "state": "last"}
    answer = _call(engine, report, request, "answer `batch` with `playout` (or drop the capability `playout`)")
    last = answer["steps"][-1].get("state") if answer["ok"] and answer["steps"] else None
    if not answer["ok"] or not isinstance(last, dict) or last.get("to_act") is not None:
        report.problem(f"batch with playout did not play the hand to its end: {answer.get('error') or last}",
                       "playout declared: play random legal actions until nobody is to act")
        return
    report.ok(f"batch with playout: a hand played to its end in {len(answer['steps']) - 1} actions")
