"""``python -m reference_engine``: the reference engine behind the line-delimited JSON protocol.

This is the only module of the package that does I/O: it reads one JSON
request per line on stdin and writes one JSON response per line on stdout.

Every line gets exactly one answer line, whatever it holds: a line that is
not UTF-8, not JSON, too long, too deeply nested, holds an integer of more
than 4,300 digits or is not a JSON object is answered with a ``malformed``
protocol error, and the loop goes on serving. Only ``stop`` or the end of
stdin ends it.

Options raise (or lower) the bounds on one request's work, which a refusal
names: ``--count-nodes N`` (positions one ``count`` may visit, ``0``: no
bound) and ``--batch-answers N`` (answers one ``batch`` may hold). An engine
fault is answered ``internal`` with a short reference, and its traceback is
written to stderr under that reference.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from .wire import BATCH_ANSWER_LIMIT, COUNT_NODE_LIMIT, Session

MAX_LINE = 1024 * 1024
"""Longest request line read (a protocol request is a few hundred bytes)."""


def _malformed(message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": "malformed", "message": message}}


def parse_line(raw: bytes) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(request, None)`` for a JSON object line, else ``(None, error answer)``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, _malformed(f"not UTF-8: byte {raw[exc.start]:#04x} at offset {exc.start}")
    try:
        request = json.loads(text)
    except RecursionError:
        return None, _malformed("not a protocol request: JSON nested too deeply")
    except ValueError as exc:  # JSONDecodeError, and integers over the int/str conversion limit
        return None, _malformed(f"not JSON: {str(exc)[:200]}")
    if not isinstance(request, dict):
        return None, _malformed(f"a request is a JSON object, not {type(request).__name__}")
    return request, None


def _report_fault(reference: str, trace: str) -> None:
    sys.stderr.write(f"hakka-reference: engine fault {reference}:\n{trace}")
    sys.stderr.flush()


def _answer(session: Session, request: dict[str, Any]) -> dict[str, Any]:
    try:
        return session.handle(request)
    except RecursionError:
        return _malformed("not a protocol request: JSON nested too deeply")
    except Exception as exc:  # noqa: BLE001 - the server answers every line; never dies on one
        _report_fault("in the serving loop", repr(exc) + "\n")
        return {"ok": False, "error": {"kind": "internal", "message": f"engine fault ({type(exc).__name__}); "
                                                                      "the engine's stderr holds its traceback"}}


def _read_line(stream: BinaryIO) -> tuple[bytes | None, bool]:
    """One line without its newline, and whether it was too long (the rest of it is skipped)."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None, False
    if line.endswith(b"\n") or len(line) <= MAX_LINE:
        return line, False
    while True:  # skip the rest of an over-long line
        rest = stream.readline(MAX_LINE)
        if not rest or rest.endswith(b"\n"):
            return b"", True


def _write(out: TextIO, response: dict[str, Any]) -> None:
    try:
        text = json.dumps(response, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        text = json.dumps({"ok": False, "error": {"kind": "internal",
                                                  "message": f"answer not serialisable: {type(exc).__name__}"}})
    out.write(text + "\n")
    out.flush()


def serve(stdin: BinaryIO, stdout: TextIO, session: Session | None = None) -> None:
    """Answer each request line of ``stdin`` on ``stdout`` until ``stop`` or end of input."""
    session = session or Session()
    if session.on_fault is None:
        session.on_fault = _report_fault
    while True:
        raw, too_long = _read_line(stdin)
        if raw is None:
            return
        if too_long:
            _write(stdout, _malformed(f"request line longer than {MAX_LINE} bytes"))
            continue
        if not raw.strip():
            continue
        request, error = parse_line(raw)
        if request is None:
            assert error is not None
            _write(stdout, error)
            continue
        _write(stdout, _answer(session, request))
        if request.get("cmd") == "stop":
            return


def _bound(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a bound is 0 or more, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m reference_engine", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count-nodes", type=_bound, default=COUNT_NODE_LIMIT, metavar="N",
                        help=f"positions one count may visit (default {COUNT_NODE_LIMIT:,}; 0: no bound)")
    parser.add_argument("--batch-answers", type=_bound, default=BATCH_ANSWER_LIMIT, metavar="N",
                        help=f"answers (act, state, observe) one batch may hold (default {BATCH_ANSWER_LIMIT:,})")
    args = parser.parse_args(argv)
    session = Session()
    session.count_node_limit = args.count_nodes or None
    session.batch_answer_limit = args.batch_answers
    serve(sys.stdin.buffer, sys.stdout, session)


if __name__ == "__main__":
    main()
