"""``python -m reference_engine``: the reference engine behind the line-delimited JSON protocol.

This is the only module of the package that does I/O: it reads one JSON
request per line on stdin and writes one JSON response per line on stdout.
"""

from __future__ import annotations

import json
import sys

from .wire import Session


def main() -> None:
    session = Session()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            response = {"ok": False, "error": {"kind": "malformed", "message": f"not JSON: {exc}"}}
        else:
            response = session.handle(request)
        sys.stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("cmd") == "stop":
            break


if __name__ == "__main__":
    main()
