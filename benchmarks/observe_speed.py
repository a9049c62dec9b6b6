"""What observing every seat costs: the four end-of-hand observations and a ``batch`` with ``observe: last``.

A fuzz campaign's fast mode (``--states last --observe last``) asks each engine for the four seats'
observations at the end of every hand; the table and the learning environments observe every seat
after every move. Prints, per build (issue 17) and, with ``--against REF``, for that git ref's engine too
(``benchmarks/builds.py``: ``main_trees``), each run in its own subprocess, in turns (``paired``), in CPU
time (the machine may be shared):

- us for the four ``observe`` requests of a session at the end of a random hand;
- us for ``observation_json(hand.observation(seat))`` for the four seats (the library's road: the table,
  the learning environments);
- us per hand of a ``batch`` with a playout: with ``observe: last`` and without, and their difference;
  and with ``observe: every`` (every seat after every step, as the table and the learning environments do).

    python benchmarks/observe_speed.py                      # both builds of this checkout
    python benchmarks/observe_speed.py --against main       # and main's, before and after
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: a build on PYTHONPATH wins

FIGURES = ("observe4_us", "library4_us", "batch_none_us", "batch_last_us", "batch_every_us")


def _batch(seed: int, observe: str) -> dict[str, object]:
    return {"cmd": "batch", "setup": {"dealer": seed % 4, "seed": str(seed)}, "steps": [],
            "playout": {"seed": str(seed)}, "state": "last", "observe": observe}


def measure(hands: int) -> dict[str, float]:
    """Each figure of :data:`FIGURES` in this interpreter's engine: microseconds of CPU time, per hand."""
    from reference_engine.wire import Session, observation_json

    clock = time.process_time
    session = Session()
    session.handle({"cmd": "hello", "protocol": 3})
    observe4 = library4 = 0.0
    for i in range(hands):
        session.handle(_batch(i, "none"))
        started = clock()
        for seat in range(4):
            session.handle({"cmd": "observe", "seat": seat})
        observe4 += clock() - started
        hand = session.hand
        assert hand is not None and hand.result is not None  # the playout ends the hand
        fresh = hand.copy()  # a hand no observation has seen yet (as after the last move)
        started = clock()
        for seat in range(4):
            observation_json(fresh.observation(seat))
        library4 += clock() - started
    batches = {}
    for observe in ("none", "last", "every"):
        started = clock()
        for i in range(hands):
            session.handle(_batch(i, observe))
        batches[observe] = clock() - started
    return {"observe4_us": observe4 / hands * 1e6, "library4_us": library4 / hands * 1e6,
            "batch_none_us": batches["none"] / hands * 1e6, "batch_last_us": batches["last"] / hands * 1e6,
            "batch_every_us": batches["every"] / hands * 1e6}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=1000, help="hands per run (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds; each figure is the best (default 3)")
    parser.add_argument("--against", metavar="REF", help="also the engine of git REF (main, say), both builds")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one build's figures
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(measure(args.hands)))
        return
    from benchmarks.builds import compiled_tree, main_trees, paired, pure_tree

    script = [str(Path(__file__).resolve()), "--json", "--hands", str(args.hands)]
    runs = {"pure": (pure_tree(), script), "compiled": (compiled_tree(), script)}
    before = main_trees(args.against) if args.against else None
    if before is not None:
        for name, tree in zip(("pure", "compiled"), before, strict=True):
            runs[f"{args.against} {name}"] = (tree, script)  # this script, on that tree's engine (PYTHONPATH)
    results = paired(runs, args.rounds, "observe4_us")
    print(f"us of CPU time per hand, best of {args.rounds} paired rounds of {args.hands:,} random hands:")
    print(f"   {'engine':16} {'4 observe':>10} {'4 library':>10} {'batch none':>11} {'batch last':>11} "
          f"{'observing':>10} {'batch every':>12}")
    for name, runs_of in results.items():
        low = {key: min(run[key] for run in runs_of) for key in FIGURES}
        print(f"   {name:16} {low['observe4_us']:10.1f} {low['library4_us']:10.1f} {low['batch_none_us']:11.1f} "
              f"{low['batch_last_us']:11.1f} {low['batch_last_us'] - low['batch_none_us']:10.1f} "
              f"{low['batch_every_us']:12.1f}")
    if before is not None:
        for name in ("pure", "compiled"):
            old, new = results[f"{args.against} {name}"], results[name]
            ratio = {key: min(r[key] for r in old) / min(r[key] for r in new) for key in FIGURES}
            print(f"   {name}, against {args.against}'s: four observe requests {ratio['observe4_us']:.2f}x as fast, "
                  f"the library's four observations {ratio['library4_us']:.2f}x, a batch with observe: last "
                  f"{ratio['batch_last_us']:.2f}x, with observe: every {ratio['batch_every_us']:.2f}x")


if __name__ == "__main__":
    main()
