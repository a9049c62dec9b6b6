"""Hostile engines for the fault-injection suite, in both adapter kinds.

As a subprocess: ``hostile_engine.py MODE [MARKER]`` (MARKER only tags the
process, so that a test can find it, and its children, in /proc). In-process:
``python:hostile_engine:make_MODE`` (``-`` becomes ``_``). Each answers like the
scripted correct fake of tests/conformance/fakes/ except for its fault, which
strikes at the first ``state`` request (the ``pattern`` examples never send one
and pass):

crash          exits with status 3 (``os._exit``; in-process: ``os._exit`` inside the runner)
hang           sleeps in C for ``HANG_SECONDS`` (cannot be interrupted in-process)
spin           a busy Python loop, forever (interruptible in-process)
child-pipes    starts a child that keeps stdout/stderr open, then exits at once
huge           answers every refusal with an 8 MB message (valid, so the scenario can pass)
huge-state     answers `state` with an 8 MB schema-invalid line
nested         answers `state` with 100,000 nested arrays
hog            allocates 300 MB, then (subprocess) hangs / (in-process) raises MemoryError
chatty         writes 64 KB on stderr for every request, otherwise correct
ansi           writes ANSI escapes and control characters on stderr and in an `internal` error for `state`
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "conformance" / "fakes"))

from scripted import ScriptedSession, error  # noqa: E402

HANG_SECONDS = 600
BIG = 8 * 1024 * 1024
ANSI = "\x1b[2J\x1b[31mRED\x1b[0m\rOVERWRITE\x07"


class Hostile(ScriptedSession):
    mode = "correct"
    marker = ""

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.mode == "chatty":
            sys.stderr.write("chatter " * 8 * 1024 + "\n")
            sys.stderr.flush()
        return super().handle(message)

    def cmd_act(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = super().cmd_act(message)
        if not answer["ok"] and self.mode == "huge":
            answer["error"]["message"] = "x" * BIG
        if not answer["ok"] and self.mode == "ansi":
            answer["error"]["message"] += ANSI
        return answer

    def cmd_state(self, message: dict[str, Any]) -> dict[str, Any]:
        mode = self.mode
        if mode == "crash":
            os._exit(3)
        if mode == "hang":
            time.sleep(HANG_SECONDS)
        if mode == "spin":
            n = 0
            while True:
                n += 1
        if mode == "child-pipes":
            # The child inherits stdout and stderr and outlives us: the runner must not wait for EOF.
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "child-of", self.marker])
            os._exit(0)
        if mode == "huge-state":
            return {"ok": True, "pad": "x" * BIG}
        if mode == "nested":
            deep: Any = []
            for _ in range(100_000):
                deep = [deep]
            return {"ok": True, "phase": deep}
        if mode == "hog":
            hog = bytearray(300 * 1024 * 1024)
            hog[::4096] = b"x" * len(hog[::4096])  # touch every page
            if __name__ == "__main__":
                time.sleep(HANG_SECONDS)
            raise MemoryError("the engine ran out of memory (pretend)")
        if mode == "ansi":
            sys.stderr.write(f"engine says {ANSI}\n")
            sys.stderr.flush()
            return error("internal", "boom " + ANSI)
        return super().cmd_state(message)


def _factory(mode: str) -> Any:
    def make() -> Hostile:
        session = Hostile()
        session.mode = mode
        return session
    return make


MODES = ("correct", "chatty", "crash", "hang", "spin", "child-pipes", "huge", "huge-state", "nested", "hog", "ansi")
for _mode in MODES:
    globals()["make_" + _mode.replace("-", "_")] = _factory(_mode)


def _send(answer: Any) -> None:
    try:
        text = json.dumps(answer)
    except RecursionError:  # nested mode: write the nesting by hand
        depth = 100_000
        text = '{"ok": true, "phase": ' + "[" * depth + "]" * depth + "}"
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    session = Hostile()
    session.mode = sys.argv[1]
    session.marker = sys.argv[2] if len(sys.argv) > 2 else ""
    for line in sys.stdin:
        message = json.loads(line)
        _send(session.handle(message))
        if message.get("cmd") == "stop":
            return


if __name__ == "__main__":
    main()
