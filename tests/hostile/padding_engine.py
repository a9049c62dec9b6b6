"""The reference engine with every ``batch`` answer padded to about 6 MB (issue 20.5), as a subprocess.

``padding_engine.py [pad|trickle] [MARKER]``. ``pad``: the answer holds an
extra field of 6 MB of small values (two million empty lists, costly to
parse and to hold, not only to read), which no schema forbids (an engine's
own field), so the answer is valid and only its size is hostile.
``trickle``: a 6 MB string field instead, written in pieces of 64 KB every
50 ms, so that no single read waits long but the whole line takes about
5 s. MARKER only tags the process.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reference_engine.wire import Session

PAD = 6 * 1024 * 1024
PIECE = 64 * 1024
PAUSE = 0.05


class Padding(Session):
    name = "hostile-padding"
    mode = "pad"

    def handle(self, message: Any) -> dict[str, Any]:
        answer = super().handle(message)
        if isinstance(message, dict) and message.get("cmd") == "batch" and answer.get("ok"):
            answer["x-padding"] = "x" * PAD if self.mode == "trickle" else [[]] * (PAD // 3)
        return answer


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "pad"
    session = Padding()
    session.mode = mode
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        text = json.dumps(session.handle(request), separators=(",", ":")) + "\n"
        if mode == "trickle" and len(text) > PIECE:
            for start in range(0, len(text), PIECE):
                sys.stdout.write(text[start:start + PIECE])
                sys.stdout.flush()
                time.sleep(PAUSE)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        if request.get("cmd") == "stop":
            return


if __name__ == "__main__":
    main()
