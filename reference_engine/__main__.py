"""``python -m reference_engine``: the reference engine behind the line-delimited JSON protocol.

This is the only module of the package that does I/O: it reads one JSON
request per line on stdin and writes one JSON response per line on stdout.

Every line gets exactly one answer line, whatever it holds: a line that is
not UTF-8, not JSON, too long, too deeply nested, holds an integer of more
than 4,300 digits or is not a JSON object is answered with a ``malformed``
protocol error, and the loop goes on serving. Only ``stop`` or the end of
stdin ends it.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO, TextIO

from .wire import Session

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


def _answer(session: Session, request: dict[str, Any]) -> dict[str, Any]:
    try:
        return session.handle(request)
    except RecursionError:
        return _malformed("not a protocol request: JSON nested too deeply")
    except Exception as exc:  # noqa: BLE001 - the server answers every line; never dies on one
        return {"ok": False, "error": {"kind": "internal", "message": f"{type(exc).__name__}: {str(exc)[:200]}"}}


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


def serve(stdin: BinaryIO, stdout: TextIO) -> None:
    """Answer each request line of ``stdin`` on ``stdout`` until ``stop`` or end of input."""
    session = Session()
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


def main() -> None:
    serve(sys.stdin.buffer, sys.stdout)


if __name__ == "__main__":
    main()
