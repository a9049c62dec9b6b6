"""The IS-MCTS bot (hakka_rl.ismcts) against the rule-aware bot, hand by hand, at two budgets (issue 29 §2).

    python benchmarks/rl_bots.py [--hands 200] [--simulations 50] [--larger-simulations 200] [--seed 1]

Each hand is dealt from a seed and played twice: once with the IS-MCTS bot at
one active seat and rule-aware bots at the other two, once with rule-aware bots
at all three (the same deal, the same seat). The seat and the Dealer rotate
from hand to hand. The **margin** is the mean, over hands, of the IS-MCTS
seat's score delta minus the rule-aware bot's in its place (a paired
difference: the deal's luck cancels), with a 95% confidence interval (normal
approximation, 1.96 standard errors). Both bots see only the wire form of
their seat's observation. The budget is a number of simulations a decision,
with no time limit, so a run's moves and margins are the same on any machine
(the seconds a move are printed, and those vary). Also printed: the share of
hands the seat wins. Not part of CI.

A run on 2026-12-04 (``--hands 400``, seed 1, random playouts, 2 cores shared with other jobs; 991 s)::

    50 simulations, 400 hands: margin +1.657 points a hand (95% CI -0.075 .. +3.390); the seat wins 20.8% of
      hands (rule-aware bot there: 24.2%); 1415 searched moves, 0.117 s a move (max 0.982)
    200 simulations, 400 hands: margin +2.038 points a hand (95% CI +0.283 .. +3.792); the seat wins 20.5% of
      hands (rule-aware bot there: 24.2%); 1480 searched moves, 0.554 s a move (max 8.425)

At 200 simulations the interval excludes 0; at 50 it reaches just below 0. (The run of 2026-12-02, at 10 and 40
simulations over 200 hands: +0.030, -0.537 .. +0.597, and +1.845, -0.669 .. +4.359.)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hakka_play.bots import RuleBot
from hakka_rl.ismcts import TableBot
from reference_engine import DEFAULT_PROFILE, Hand
from reference_engine.wire import observation_json


def view(hand: Hand, seat: int) -> dict[str, Any]:
    """The seat's observation as the table gives it to a bot (with the round in play)."""
    seen = hand.observation(seat)
    obs = observation_json(seen)
    obs["round"] = [str(p) for p in seen.round]
    return obs


GUIDED = [False]
"""Playouts at random (--playouts random, the default) or by the rule-aware bot (--playouts rule)."""


def play(seed: int, dealer: int, search_seat: int | None, simulations: int, times: list[float],
         ) -> tuple[int, int | None]:
    """The delta of ``search_seat`` (or of a rule-aware bot there if None) and the hand's winner."""
    hand = Hand.from_seed(dealer, seed)
    rng = Random(seed)
    rule = RuleBot()
    search = TableBot(DEFAULT_PROFILE, RuleBot(), simulations=simulations, time_limit=None, guided=GUIDED[0])
    for _ in range(500):
        seat = hand.to_act
        if seat is None:
            break
        legal = hand.legal_actions()
        if seat == search_seat:
            started = time.perf_counter()
            action = search.choose(view(hand, seat), legal, rng)
            times.append(time.perf_counter() - started)
        else:
            action = rule.choose(view(hand, seat), legal, rng)
        hand.apply(seat, action)
    assert hand.result is not None
    return hand.result.deltas[search_seat if search_seat is not None else 0], hand.result.winner


def match(hands: int, simulations: int, seed: int) -> dict[str, float]:
    diffs: list[float] = []
    times: list[float] = []
    wins = rule_wins = 0
    for i in range(hands):
        dealer = i % 4
        seat = (dealer, (dealer + 1) % 4, (dealer + 3) % 4)[(i // 4) % 3]
        deal_seed = seed * 1_000_003 + i
        mine, winner = play(deal_seed, dealer, seat, simulations, times)
        base_hand = Hand.from_seed(dealer, deal_seed)
        theirs, base_winner = _rule_delta(base_hand, seat, deal_seed)
        diffs.append(mine - theirs)
        wins += winner == seat
        rule_wins += base_winner == seat
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) if len(diffs) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(diffs))
    return {"hands": hands, "simulations": simulations, "margin": mean, "low": mean - half, "high": mean + half,
            "win_share": wins / hands, "rule_win_share": rule_wins / hands,
            "move_mean": sum(times) / max(1, len(times)), "move_max": max(times, default=0.0), "moves": len(times)}


def _rule_delta(hand: Hand, seat: int, seed: int) -> tuple[int, int | None]:
    rng = Random(seed)
    rule = RuleBot()
    while hand.to_act is not None:
        acting = hand.to_act
        hand.apply(acting, rule.choose(view(hand, acting), hand.legal_actions(), rng))
    assert hand.result is not None
    return hand.result.deltas[seat], hand.result.winner


def report(stats: dict[str, float]) -> str:
    return (f"{int(stats['simulations'])} simulations, {int(stats['hands'])} hands: margin {stats['margin']:+.3f} points a hand "
            f"(95% CI {stats['low']:+.3f} .. {stats['high']:+.3f}); the seat wins {stats['win_share']:.1%} of hands "
            f"(rule-aware bot there: {stats['rule_win_share']:.1%}); {int(stats['moves'])} searched moves, "
            f"{stats['move_mean']:.3f} s a move (max {stats['move_max']:.3f})")


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--hands", type=int, default=200, help="paired hands at each budget (default 200)")
    p.add_argument("--simulations", type=int, default=50, help="simulations a decision (default 50)")
    p.add_argument("--larger-simulations", type=int, default=200,
                   help="a larger budget to compare, over as many hands (default 200; 0: skip)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
    p.add_argument("--playouts", choices=("random", "rule"), default="random",
                   help="the search's playouts: at random (default) or by the rule-aware bot")
    args = p.parse_args()
    GUIDED[0] = args.playouts == "rule"
    print(f"playouts: {args.playouts}", flush=True)
    started = time.perf_counter()
    print(report(match(args.hands, args.simulations, args.seed)), flush=True)
    if args.larger_simulations > 0:
        print(report(match(args.hands, args.larger_simulations, args.seed)), flush=True)
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
