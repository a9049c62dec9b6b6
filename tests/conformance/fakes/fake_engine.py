"""A subprocess engine that misbehaves on purpose: ``fake_engine.py MODE``.

Speaks line-delimited JSON like a real engine, answering from the scripted
engine (:mod:`scripted`), except for the fault MODE:

correct          no fault
crash-on-act     prints to stderr, then exits with status 3 on the first `act`
hang-on-state    never answers `state`
garbage          answers `state` with a line that is not JSON
schema-invalid   answers `state` with `{"ok": true, "phase": "calling"}`
wrong-kind       answers a `classify` pattern request with `{"ok": true, "beats": true}`
protocol-99      says protocol 99 in `hello` (the runner speaks 1, 2 and 3)
chatty           writes a line to stderr for every request, otherwise correct
exit-at-startup  prints a message to stderr and exits with status 1 before reading
hang-at-hello    never answers `hello`
two-lines        answers `hello` with two lines
reject-mutates   changes its state when it rejects an action (breaks "state unchanged")
wrong-error      rejects everything with kind `illegal`, even malformed text
internal         answers `count` with an `internal` error
unsupported      answers `count` with `unsupported`
partial-line     writes half a JSON line for `state`, then hangs
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scripted import ScriptedSession, error


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def say(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


def hang(_session: ScriptedSession, _message: dict[str, Any]) -> bool:
    time.sleep(3600)
    return False


def crash(_session: ScriptedSession, _message: dict[str, Any]) -> bool:
    say("fake: segmentation fault (pretend)\n")
    os._exit(3)


def think_forever(session: ScriptedSession, message: dict[str, Any]) -> bool:
    say("fake: thinking forever\n")
    return hang(session, message)


def garbage(_session: ScriptedSession, _message: dict[str, Any]) -> bool:
    sys.stdout.write("Segmentation fault? no: just garbage\n")
    sys.stdout.flush()
    return True


def half_a_line(session: ScriptedSession, message: dict[str, Any]) -> bool:
    sys.stdout.write('{"ok": tr')
    sys.stdout.flush()
    return hang(session, message)


def answer_with(answer: dict[str, Any]) -> Callable[[ScriptedSession, dict[str, Any]], bool]:
    def fault(_session: ScriptedSession, _message: dict[str, Any]) -> bool:
        send(answer)
        return True
    return fault


def protocol_99(session: ScriptedSession, message: dict[str, Any]) -> bool:
    send({**session.handle(message), "protocol": 99})
    return True


def two_lines(session: ScriptedSession, message: dict[str, Any]) -> bool:
    send(session.handle(message))
    send({"ok": True})
    return True


def wrong_kind(_session: ScriptedSession, message: dict[str, Any]) -> bool:
    if "classify" not in message:
        return False
    send({"ok": True, "beats": True})
    return True


def wrong_error(session: ScriptedSession, message: dict[str, Any]) -> bool:
    answer = session.handle(message)
    send(answer if answer["ok"] else error("illegal", "everything is illegal"))
    return True


# (mode, command) -> the fault: it answers (True) or lets the scripted engine answer (False).
FAULTS: dict[tuple[str, str], Callable[[ScriptedSession, dict[str, Any]], bool]] = {
    ("protocol-99", "hello"): protocol_99,
    ("hang-at-hello", "hello"): hang,
    ("two-lines", "hello"): two_lines,
    ("crash-on-act", "act"): crash,
    ("hang-on-state", "state"): think_forever,
    ("garbage", "state"): garbage,
    ("partial-line", "state"): half_a_line,
    ("schema-invalid", "state"): answer_with({"ok": True, "phase": "calling"}),
    ("wrong-kind", "pattern"): wrong_kind,
    ("internal", "count"): answer_with(error("internal", "perft overflowed")),
    ("unsupported", "count"): answer_with(error("unsupported", "no perft here")),
    ("wrong-error", "act"): wrong_error,
}


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "correct"
    if mode == "exit-at-startup":
        sys.stderr.write("fake: cannot start, libhakka.so not found\n")
        sys.exit(1)
    session = ScriptedSession()
    mutated = False
    for line in sys.stdin:
        message = json.loads(line)
        cmd = message.get("cmd")
        if mode == "chatty":
            say(f"fake: got {cmd}\n")
        fault = FAULTS.get((mode, cmd))
        if fault is not None and fault(session, message):
            continue
        answer = session.handle(message)
        if mode == "reject-mutates":  # a rejected act changes the state it reports later
            mutated = mutated or (cmd == "act" and not answer["ok"])
            if cmd == "state" and mutated and answer["ok"]:
                answer["tricks"] = [0, 0, 0, 1]
        send(answer)
        if cmd == "stop":
            return


if __name__ == "__main__":
    main()
