"""A subprocess engine that misbehaves on purpose: ``fake_engine.py MODE``.

Speaks line-delimited JSON like a real engine, answering from the scripted
engine (:mod:`scripted`), except for the fault MODE:

correct          no fault
crash-on-act     prints to stderr, then exits with status 3 on the first `act`
hang-on-state    never answers `state`
garbage          answers `state` with a line that is not JSON
schema-invalid   answers `state` with `{"ok": true, "phase": "calling"}`
wrong-kind       answers a `classify` pattern request with `{"ok": true, "beats": true}`
protocol-3       says protocol 3 in `hello` (the runner speaks 1 and 2)
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scripted import ScriptedSession, error  # noqa: E402


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


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
            sys.stderr.write(f"fake: got {cmd}\n")
            sys.stderr.flush()
        if cmd == "hello" and mode == "protocol-3":
            answer = session.handle(message)
            answer["protocol"] = 3
            send(answer)
            continue
        if cmd == "hello" and mode == "hang-at-hello":
            time.sleep(3600)
        if cmd == "hello" and mode == "two-lines":
            send(session.handle(message))
            send({"ok": True})
            continue
        if cmd == "act" and mode == "crash-on-act":
            sys.stderr.write("fake: segmentation fault (pretend)\n")
            sys.stderr.flush()
            os._exit(3)
        if cmd == "state" and mode == "hang-on-state":
            sys.stderr.write("fake: thinking forever\n")
            sys.stderr.flush()
            time.sleep(3600)
        if cmd == "state" and mode == "garbage":
            sys.stdout.write("Segmentation fault? no: just garbage\n")
            sys.stdout.flush()
            continue
        if cmd == "state" and mode == "partial-line":
            sys.stdout.write('{"ok": tr')
            sys.stdout.flush()
            time.sleep(3600)
        if cmd == "state" and mode == "schema-invalid":
            send({"ok": True, "phase": "calling"})
            continue
        if cmd == "pattern" and mode == "wrong-kind" and "classify" in message:
            send({"ok": True, "beats": True})
            continue
        if cmd == "count" and mode == "internal":
            send(error("internal", "perft overflowed"))
            continue
        if cmd == "count" and mode == "unsupported":
            send(error("unsupported", "no perft here"))
            continue
        if cmd == "act" and mode == "wrong-error":
            answer = session.handle(message)
            if not answer["ok"]:
                answer = error("illegal", "everything is illegal")
            send(answer)
            continue
        answer = session.handle(message)
        if cmd == "act" and mode == "reject-mutates" and not answer["ok"]:
            mutated = True
        if cmd == "state" and mode == "reject-mutates" and mutated and answer["ok"]:
            answer["tricks"] = [0, 0, 0, 1]
        send(answer)
        if cmd == "stop":
            return


if __name__ == "__main__":
    main()
