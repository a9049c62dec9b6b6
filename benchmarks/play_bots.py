"""The rule-aware bot against three random bots, over whole games on the reference engine.

    python benchmarks/play_bots.py [--games 1000] [--seed 1] [--call-at 11] [--dealer-call-at 7]

One rule-aware bot sits at a seat that rotates from game to game; random bots
take the other three. Prints, per bot kind: mean game score, the share of
games it finishes first (ties shared), hands it wins by a claim or the Five
Tigers; then games per
second. The table (hakka_play/table.py) runs the games, as it does for
people; the bots see only their own observation.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hakka_play.bots import Bot, RandomBot, RuleBot
from hakka_play.table import Table


def run(games: int, seed: int, call_at: int, dealer_call_at: int) -> dict[str, dict[str, float]]:
    stats = {kind: {"seats": 0, "score": 0.0, "first": 0.0, "won_hands": 0, "pp_lost": 0, "hands": 0}
             for kind in ("rule", "random")}
    for g in range(games):
        rule_seat = g % 4
        bots: dict[int, Bot] = {s: RuleBot(call_at, dealer_call_at) if s == rule_seat else RandomBot() for s in range(4)}
        table = Table(humans=[], seed=seed * 1_000_003 + g, bots=bots)
        table.play_bots(limit=100_000)
        assert table.game.over, table.problem
        scores = table.game.scores
        top = max(scores)
        leaders = [s for s in range(4) if scores[s] == top]
        for s in range(4):
            st = stats["rule" if s == rule_seat else "random"]
            st["seats"] += 1
            st["score"] += scores[s]
            st["first"] += 1 / len(leaders) if s in leaders else 0
        for result in table.game.results:
            for s in range(4):
                kind = "rule" if s == rule_seat else "random"
                stats[kind]["hands"] += 1
                if result.winner == s:
                    stats[kind]["won_hands"] += 1
    return stats


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--call-at", type=int, default=11, help="the rule-aware bot's calling threshold")
    p.add_argument("--dealer-call-at", type=int, default=7, help="its threshold as the Dealer")
    args = p.parse_args()
    started = time.perf_counter()
    stats = run(args.games, args.seed, args.call_at, args.dealer_call_at)
    elapsed = time.perf_counter() - started
    print(f"{args.games} games (4 hands each), one rule-aware bot vs three random bots, seed {args.seed}")
    print(f"{'bot':<14}{'mean score':>12}{'first place':>13}{'hands won':>11}")
    for kind, label in (("rule", "rule-aware"), ("random", "random")):
        st = stats[kind]
        seats = st["seats"]
        print(f"{label:<14}{st['score'] / seats:>12.2f}{st['first'] / seats:>12.1%}{st['won_hands'] / st['hands']:>11.1%}")
    print("(an even share of first place is 25.0%; scores sum to 0 at every table;"
          " 'hands won' counts every deal, void ones too)")
    print(f"{args.games / elapsed:.0f} games/s ({elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
