"""The IS-MCTS bot (hakka_rl.ismcts) against the rule-aware bot, hand by hand (issue 18 §4).

    python benchmarks/rl_bots.py [--hands 200] [--budget 0.25] [--larger-budget 1.0] [--larger-hands 60] [--seed 1]

Each hand is dealt from a seed and played twice: once with the IS-MCTS bot at
one active seat and rule-aware bots at the other two, once with rule-aware bots
at all three (the same deal, the same seat). The seat and the Dealer rotate
from hand to hand. The **margin** is the mean, over hands, of the IS-MCTS
seat's score delta minus the rule-aware bot's in its place (a paired
difference: the deal's luck cancels), with a 95% confidence interval (normal
approximation, 1.96 standard errors). Both bots see only the wire form of
their seat's observation. Also printed: the seconds a move of the search
(mean and max), the share of hands the seat wins, and the same figures at a
larger budget over fewer hands. Not part of CI: at 0.25 s a move, 200 hands
and 60 at 1 s take about five minutes.

A run on 2026-12-01 (2 cores shared with other jobs, seed 1, random playouts)::

    budget 0.25 s, 200 hands: margin +1.865 points a hand (95% CI -0.649 .. +4.379); the seat wins 23.0% of
      hands (rule-aware bot there: 25.5%); 731 searched moves, 0.147 s a move (max 0.289)
    budget 1.00 s, 60 hands: margin +0.517 points a hand (95% CI -0.170 .. +1.204); the seat wins 28.3% of
      hands (rule-aware bot there: 26.7%); 234 searched moves, 0.734 s a move (max 1.050)

With ``--playouts rule`` (the rule-aware bot plays the playouts), the same day, under heavier load::

    budget 0.25 s, 200 hands: margin +0.165 points a hand (95% CI -0.429 .. +0.759); the seat wins 14.0% of
      hands (rule-aware bot there: 25.5%); 677 searched moves, 0.136 s a move (max 0.484)
    budget 1.00 s, 60 hands: margin +0.533 points a hand (95% CI -0.177 .. +1.244); the seat wins 20.0% of
      hands (rule-aware bot there: 26.7%); 199 searched moves, 0.757 s a move (max 1.213)

No interval excludes 0: at these budgets the search is not shown to beat the
rule-aware bot, nor a 4x budget to buy more. A move overran its budget when the
machine's other jobs took the cores (the search checks the clock between simulations).
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


def play(seed: int, dealer: int, search_seat: int | None, budget: float, times: list[float]) -> tuple[int, int | None]:
    """The delta of ``search_seat`` (or of a rule-aware bot there if None) and the hand's winner."""
    hand = Hand.from_seed(dealer, seed)
    rng = Random(seed)
    rule = RuleBot()
    search = TableBot(DEFAULT_PROFILE, RuleBot(), budget=budget, guided=GUIDED[0])
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


def match(hands: int, budget: float, seed: int) -> dict[str, float]:
    diffs: list[float] = []
    times: list[float] = []
    wins = rule_wins = 0
    for i in range(hands):
        dealer = i % 4
        seat = (dealer, (dealer + 1) % 4, (dealer + 3) % 4)[(i // 4) % 3]
        deal_seed = seed * 1_000_003 + i
        mine, winner = play(deal_seed, dealer, seat, budget, times)
        base_hand = Hand.from_seed(dealer, deal_seed)
        theirs, base_winner = _rule_delta(base_hand, seat, deal_seed)
        diffs.append(mine - theirs)
        wins += winner == seat
        rule_wins += base_winner == seat
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) if len(diffs) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(diffs))
    return {"hands": hands, "budget": budget, "margin": mean, "low": mean - half, "high": mean + half,
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
    return (f"budget {stats['budget']:.2f} s, {int(stats['hands'])} hands: margin {stats['margin']:+.3f} points a hand "
            f"(95% CI {stats['low']:+.3f} .. {stats['high']:+.3f}); the seat wins {stats['win_share']:.1%} of hands "
            f"(rule-aware bot there: {stats['rule_win_share']:.1%}); {int(stats['moves'])} searched moves, "
            f"{stats['move_mean']:.3f} s a move (max {stats['move_max']:.3f})")


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--budget", type=float, default=0.25, help="seconds of search a move (default 0.25)")
    p.add_argument("--larger-budget", type=float, default=1.0, help="a larger budget to compare (0: skip)")
    p.add_argument("--larger-hands", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--playouts", choices=("random", "rule"), default="random",
                   help="the search's playouts: at random (default) or by the rule-aware bot")
    args = p.parse_args()
    GUIDED[0] = args.playouts == "rule"
    print(f"playouts: {args.playouts}", flush=True)
    started = time.perf_counter()
    print(report(match(args.hands, args.budget, args.seed)), flush=True)
    if args.larger_budget > 0 and args.larger_hands > 0:
        print(report(match(args.larger_hands, args.larger_budget, args.seed)), flush=True)
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
