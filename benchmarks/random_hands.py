"""Play N random complete hands with the reference engine and print hands/s and actions/s.

Each action is drawn uniformly from the compact legal actions (the concrete
actions plus the discard option as one entry); a discard's cards are then drawn
uniformly. Runs on one core (a single process).

    python benchmarks/random_hands.py --hands 20000
    python benchmarks/random_hands.py --profile D7=any-suit --profile D12=may-discard
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_engine import Action, Hand, Profile
from reference_engine.actions import DISCARD
from reference_engine.cards import indices


def play_random_hand(hand: Hand, rng: random.Random) -> int:
    """Play ``hand`` to its end with uniform random actions; return the number of actions."""
    actions = 0
    sample = rng.sample
    while hand.to_act is not None:
        legal = hand.legal_actions()
        options = legal.actions
        n = len(options) + (1 if legal.discard is not None else 0)
        pick = rng.randrange(n)
        if pick < len(options):
            action = options[pick]
        else:
            assert legal.discard is not None
            cards = sample(list(indices(legal.discard.allowed)), legal.discard.count)
            action = Action(DISCARD, sum(1 << c for c in cards))
        hand.apply(hand.to_act, action)
        actions += 1
    return actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="append", default=[], metavar="Dn=OPTION")
    parser.add_argument("--memory", action="store_true", help="also measure the peak memory of one hand")
    args = parser.parse_args(argv)
    profile = Profile.from_options(dict(item.split("=", 1) for item in args.profile))
    rng = random.Random(args.seed)
    total_actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.hands):
        hand = Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64), profile=profile)
        total_actions += play_random_hand(hand, rng)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(f"profile: {profile.changed() or 'defaults'}")
    print(f"hands: {args.hands}  actions: {total_actions}  ({total_actions / args.hands:.1f} per hand)")
    print(f"wall: {elapsed:.2f} s  hands/s {args.hands / elapsed:,.0f}  actions/s {total_actions / elapsed:,.0f}")
    print(f"cpu:  {cpu:.2f} s  hands/s {args.hands / cpu:,.0f}  actions/s {total_actions / cpu:,.0f}")
    if args.memory:  # a separate, slower pass: tracemalloc distorts the timing above
        tracemalloc.start()
        hand = Hand.from_seed(dealer=0, seed=args.seed, profile=profile)
        play_random_hand(hand, rng)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"peak memory while playing one hand: {peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
