"""Play N random complete hands with the reference engine and print hands/s and actions/s.

Each action is drawn uniformly from the compact legal actions (the concrete
actions plus the discard option as one entry); a discard's cards are then drawn
uniformly. Runs on one core (a single process).

By default the engine's two builds run side by side (issue 17), each in its own
subprocess (``benchmarks/builds.py``), in turns for ``--rounds`` rounds, with
the yardstick ``benchmarks/bitmask_player.py`` (plain Python, same hands);
the best round of each is compared, in CPU time (the machine may be shared).
``--builds here`` measures only the engine this interpreter imports.

    python benchmarks/random_hands.py --hands 20000
    python benchmarks/random_hands.py --builds here --profile D7=any-suit --profile D12=may-discard
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended, not put first: a build on PYTHONPATH (benchmarks/builds.py) wins

import reference_engine
from reference_engine import Action, Hand, Profile
from reference_engine.actions import DISCARD
from reference_engine.cards import indices

try:
    from reference_engine.actions import discard_action
except ImportError:  # an older engine (main's pure build, paired with this one): the same action, uncached

    def discard_action(mask: int) -> Action:
        return Action(DISCARD, mask)

ROOT = Path(__file__).resolve().parent.parent


def play_random_hand(hand: Hand, rng: random.Random) -> int:
    """Play ``hand`` to its end with uniform random actions; return the number of actions.

    A thin driver, so that the figure is the engine's: per action one ``legal_actions``,
    one draw and one ``apply``, with the methods bound once; a discard draws its cards
    as card bits and takes the engine's cached action (``discard_action``: the option
    made it legal, so no check is repeated here). The draws are the same as ever (one
    ``randrange`` over the entries, then a ``sample`` of the option's cards), so the
    hands played, and ``bitmask_player.py``'s, do not change.
    """
    actions = 0
    randrange, sample = rng.randrange, rng.sample
    legal_actions, apply = hand.legal_actions, hand.apply
    seat = hand.to_act
    while seat is not None:
        legal = legal_actions()
        options = legal.actions
        option = legal.discard
        n = len(options)
        pick = randrange(n + 1 if option is not None else n)
        if pick < n:
            apply(seat, options[pick])
        else:
            assert option is not None
            apply(seat, discard_action(sum(sample(_bits(option.allowed), option.count))))
        actions += 1
        seat = hand.to_act
    return actions


_BITS: dict[int, list[int]] = {}


def _bits(mask: int) -> list[int]:
    """The card bits of ``mask``, in card order (cached: the draw only reads the list)."""
    bits = _BITS.get(mask)
    if bits is None:
        bits = _BITS[mask] = [1 << i for i in indices(mask)]
    return bits


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="append", default=[], metavar="Dn=OPTION")
    parser.add_argument("--memory", action="store_true", help="also measure the peak memory of one hand")
    parser.add_argument("--builds", choices=("both", "here"), default="both",
                        help="both: pure and compiled side by side, with the yardstick (default); here: this engine")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds of the side-by-side run (default 3)")
    parser.add_argument("--json", action="store_true", help="(--builds here) end with one JSON line of the figures")
    args = parser.parse_args(argv)
    if args.builds == "both":
        side_by_side(args)
        return
    profile = Profile.from_options(dict(item.split("=", 1) for item in args.profile))
    rng = random.Random(args.seed)
    total_actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.hands):
        hand = Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64), profile=profile)
        total_actions += play_random_hand(hand, rng)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    build = "compiled" if getattr(reference_engine, "COMPILED", False) else "pure"
    print(f"profile: {profile.changed() or 'defaults'}  build: {build}")
    print(f"hands: {args.hands}  actions: {total_actions}  ({total_actions / args.hands:.1f} per hand)")
    print(f"wall: {elapsed:.2f} s  hands/s {args.hands / elapsed:,.0f}  actions/s {total_actions / elapsed:,.0f}")
    print(f"cpu:  {cpu:.2f} s  hands/s {args.hands / cpu:,.0f}  actions/s {total_actions / cpu:,.0f}")
    figures = {"build": build, "hands": args.hands, "actions": total_actions, "hands_per_cpu_s": args.hands / cpu,
               "hands_per_s": args.hands / elapsed}
    if args.memory:  # a separate, slower pass: tracemalloc distorts the timing above
        tracemalloc.start()
        hand = Hand.from_seed(dealer=0, seed=args.seed, profile=profile)
        play_random_hand(hand, rng)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"peak memory while playing one hand: {peak / 1024:.0f} KiB")
        figures["peak_kib"] = peak / 1024
    if args.json:
        print(json.dumps(figures))


def side_by_side(args: argparse.Namespace) -> None:
    """Pure, compiled and the yardstick, in turns; the best round of each, and their ratios."""
    from benchmarks.builds import best, compiled_tree, main_pure_tree, paired, pure_tree

    script = str(Path(__file__).resolve())
    common = ["--builds", "here", "--json", "--hands", str(args.hands), "--seed", str(args.seed)]
    common += [f"--profile={item}" for item in args.profile] + (["--memory"] if args.memory else [])
    yardstick = [str(ROOT / "benchmarks" / "bitmask_player.py"), "--json", "--hands", str(args.hands),
                 "--seed", str(args.seed)]
    runs = {"pure": (pure_tree(), [script, *common]), "compiled": (compiled_tree(), [script, *common])}
    main_tree = main_pure_tree()
    if main_tree is not None:
        runs["main pure"] = (main_tree, [script, *common])
    if not args.profile:  # the yardstick plays the default decisions only
        runs["yardstick"] = (pure_tree(), yardstick)
    print(f"random hands, {args.hands} a run, best of {args.rounds} paired rounds (hands per CPU second):")
    results = paired(runs, args.rounds, "hands_per_cpu_s")
    actions = {name: {r["actions"] for r in rs} for name, rs in results.items()}
    figures = {name: best(rs, "hands_per_cpu_s") for name, rs in results.items()}
    for name, figure in figures.items():
        memory = results[name][-1].get("peak_kib")
        shown = f"   peak memory of one hand {memory:.0f} KiB" if memory is not None else ""
        print(f"   {name:10} {figure:9,.0f} hands/s   actions {sorted(actions[name])}{shown}")
    print(f"   compiled / pure      {figures['compiled'] / figures['pure']:.2f}x  (target >= 2.5x)")
    if "yardstick" in figures:
        print(f"   compiled / yardstick {figures['compiled'] / figures['yardstick']:.2f}x  (target >= 1.3x)")
        print(f"   pure / yardstick     {figures['pure'] / figures['yardstick']:.2f}x")
    if "main pure" in figures:
        print(f"   pure / main's pure   {figures['pure'] / figures['main pure']:.2f}x  (target >= 1.0x)")
    if len({frozenset(a) for a in actions.values()}) != 1:
        raise SystemExit("the builds (or the yardstick) played different hands: their action counts differ")


if __name__ == "__main__":
    main()
