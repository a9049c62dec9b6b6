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


def peak_rss_kb() -> int:
    """This process's own peak memory. ``ru_maxrss`` would do, but Linux keeps it across
    ``execve``: a child of a large pytest process would report the parent's size."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

if __name__ == "__main__":
    out = sys.argv[1]
    status = main(sys.argv[2:])
    figures = {"status": status, "maxrss_kb": peak_rss_kb(),
               "threads": threading.active_count(), "fds": len(os.listdir("/proc/self/fd"))}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(figures, f)
    sys.exit(status)
