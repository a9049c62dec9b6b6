"""The reference engine's session, as a subprocess, but for one fault on a capability smoke did not try.

``batch_engine.py MODE``: ``crash-on-batch`` exits with status 3 when sent ``batch``; ``hang-on-batch``
sleeps for ten minutes instead of answering it. Every other request is the reference's own answer.
"""

from __future__ import annotations

import json
import os
import sys
import time

from reference_engine.wire import Session


def main() -> None:
    mode = sys.argv[1]
    session = Session()
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("cmd") == "batch":
            if mode == "crash-on-batch":
                os._exit(3)
            time.sleep(600)
        sys.stdout.write(json.dumps(session.handle(message)) + "\n")
        sys.stdout.flush()
        if message.get("cmd") == "stop":
            return


if __name__ == "__main__":
    main()
