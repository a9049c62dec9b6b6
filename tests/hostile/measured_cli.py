"""Run ``hakka-conformance`` and write what it cost: ``measured_cli.py OUT.json ARGS…``.

OUT.json gets the exit status, the runner's own peak memory (its engines'
not included), and its threads and open descriptors once the command ended.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading

from conformance.cli import main

if __name__ == "__main__":
    out = sys.argv[1]
    status = main(sys.argv[2:])
    figures = {"status": status, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               "threads": threading.active_count(), "fds": len(os.listdir("/proc/self/fd"))}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(figures, f)
    sys.exit(status)
