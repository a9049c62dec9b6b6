"""A learning baseline: self-play policy gradient in plain numpy, with its learning curve (issue 29 §1).

    python benchmarks/train_baseline.py [--minutes 3 | --batches N] [--seed 1] [--eval-every 1] [--random-share 0.5]
        [--eval-deals 1000] [--save hakka_rl/baseline_policy.npz] [--curve docs/_static/rl_learning_curve]

The policy is :class:`hakka_rl.policy.MaskedPolicy` (408 -> 64 tanh -> 248
logits and a value). Each batch plays ``--batch`` hands on
:class:`hakka_rl.EncodedHand`: in half of them (``--random-share``) the
policy plays one active seat against two that choose uniformly among the legal
ids, in the others every active seat draws its ids from the current policy
(self-play; the three seats' decisions are all samples). Then it makes one
Adam step on the actor-critic loss: the policy gradient of each
decision weighted by its advantage (the seat's score delta at the hand's end,
in units of :data:`SCALE` points, less the value head's estimate), the value's
squared error, and an entropy bonus. No library beyond numpy: the network is
small enough that one batch's forward and backward passes take milliseconds,
so the engine's hands are the cost, and the trained file loads without torch.

Every ``--eval-every`` minutes of training CPU time (and at the end) the
policy, playing its most likely legal id, is evaluated against the random bot
and the rule-aware bot of hakka_play/bots.py over ``--eval-deals`` **paired
deals**: each deal is played with the policy at one active seat and the bot
at the other two, and again with the bot at all three (the same deal, the
same seat, the same bot seed). The seat and the Dealer rotate from deal to
deal. The margin is the mean over deals of the seat's delta minus the bot's
in its place, with a 95% interval (1.96 standard errors). The curve goes to
``CURVE.csv`` and ``CURVE.png`` (matplotlib, the ``[rl]`` extra), the policy
to ``--save`` with the command, seed, versions and final margins in its meta.
The run behind the saved policy is in docs/rl.rst (*A learning baseline*).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hakka_play.bots import Bot, RandomBot, RuleBot
from hakka_rl.actions import encode_action
from hakka_rl.encoding import EncodedHand
from hakka_rl.policy import BASELINE_FILE, MaskedPolicy
from reference_engine import Hand
from reference_engine.wire import observation_json

SCALE: Final = 4.0
"""Points a unit of reward (a hand's deltas are mostly within +-8)."""
EVAL_SEED: Final = 29_000_000
"""The evaluation's deals are seeded apart from the training's."""
Floats = npt.NDArray[np.float32]


@dataclass
class Config:
    hidden: int = 64
    batch: int = 64
    lr: float = 3e-3
    value_coef: float = 0.5
    entropy: float = 0.01
    random_share: float = 0.5
    seed: int = 1


class Adam:
    def __init__(self, params: dict[str, Floats], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, Floats], grads: dict[str, Floats]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            m = self.m[k] / (1 - b1 ** self.t)
            v = self.v[k] / (1 - b2 ** self.t)
            params[k] = (params[k] - self.lr * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


@dataclass
class Batch:
    obs: Floats
    mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.intp]
    ret: Floats


def self_play(policy: MaskedPolicy, hands: int, rng: np.random.Generator, deals: Random,
              random_share: float = 0.0) -> Batch:
    """``hands`` hands, each decision with its seat's return. In a share ``random_share`` of them the policy
    plays one active seat and the other two choose uniformly among the legal ids (only the policy's decisions
    are kept); in the others every active seat draws from ``policy`` (self-play). Self-play alone settles
    where nobody calls and every hand is void (CALL-6), which teaches nothing more."""
    obs: list[Floats] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    rets: list[float] = []
    for _ in range(hands):
        dealer = deals.randrange(4)
        hand = EncodedHand(Hand.from_seed(dealer, deals.getrandbits(64)))
        learner = (dealer + deals.choice((0, 1, 3))) % 4 if deals.random() < random_share else None
        seats: list[int] = []
        while (seat := hand.to_act) is not None:
            o, m = hand.observation_tensor(seat), hand.legal_mask()
            if learner is not None and seat != learner:
                legal = np.flatnonzero(m)
                hand.apply_id(int(legal[deals.randrange(len(legal))]))
                continue
            a = policy.act(o, m, rng)
            obs.append(o)
            masks.append(m)
            actions.append(a)
            seats.append(seat)
            hand.apply_id(a)
        result = hand.hand.result
        assert result is not None
        rets += [result.deltas[s] / SCALE for s in seats]
    return Batch(np.stack(obs), np.stack(masks), np.array(actions), np.array(rets, dtype=np.float32))


def loss_and_grads(policy: MaskedPolicy, batch: Batch, cfg: Config) -> tuple[dict[str, float], dict[str, Floats]]:
    """The actor-critic loss of ``batch`` and its gradient, by hand (two dense layers)."""
    p = policy.params
    n = len(batch.action)
    x = batch.obs
    h = np.tanh(x @ p["w1"] + p["b1"])
    logits = np.where(batch.mask > 0, h @ p["w2"] + p["b2"], -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    prob = e / e.sum(axis=1, keepdims=True)
    logp = np.where(batch.mask > 0, np.log(np.maximum(prob, 1e-30)), 0.0)
    value = (h @ p["wv"] + p["bv"])[:, 0]
    adv = batch.ret - value
    rows = np.arange(n)
    entropy = -(prob * logp).sum(axis=1)
    losses = {"policy": float(-(adv * logp[rows, batch.action]).mean()),
              "value": float((0.5 * (value - batch.ret) ** 2).mean()), "entropy": float(entropy.mean())}
    onehot = np.zeros_like(prob)
    onehot[rows, batch.action] = 1.0
    dlogits = (prob - onehot) * adv[:, None] / n
    dlogits += cfg.entropy * prob * (logp + entropy[:, None]) / n
    dvalue = (cfg.value_coef * (value - batch.ret) / n)[:, None]
    dh = dlogits @ p["w2"].T + dvalue @ p["wv"].T
    dpre = dh * (1 - h * h)
    grads = {"w2": h.T @ dlogits, "b2": dlogits.sum(0), "wv": h.T @ dvalue, "bv": dvalue.sum(0),
             "w1": x.T @ dpre, "b1": dpre.sum(0)}
    return losses, {k: v.astype(np.float32) for k, v in grads.items()}


# ------------------------------------------------------------------ evaluation

def table_view(hand: Hand, seat: int) -> dict[str, Any]:
    seen = hand.observation(seat)
    view = observation_json(seen)
    view["round"] = [str(play) for play in seen.round]
    return view


def deal_of(index: int) -> tuple[int, int, int]:
    """The ``index``-th evaluation deal: its Dealer, the policy's seat (the three active seats in turn), its seed."""
    dealer = index % 4
    seat = (dealer, (dealer + 1) % 4, (dealer + 3) % 4)[(index // 4) % 3]
    return dealer, seat, EVAL_SEED + index


def play(dealer: int, seed: int, bot: Bot, policy: MaskedPolicy | None, seat: int) -> int:
    """``seat``'s delta: the deal of ``seed`` with ``policy`` at ``seat`` (None: the bot there too)."""
    hand = EncodedHand(Hand.from_seed(dealer, seed))
    rng = Random(seed)
    blind = isinstance(bot, RandomBot)  # it reads no observation: none is made for it (a third of the time)
    while (acting := hand.to_act) is not None:
        if acting == seat and policy is not None:
            hand.apply_id(policy.act(hand.observation_tensor(acting), hand.legal_mask()))
            continue
        view = {} if blind else table_view(hand.hand, acting)
        for action_id in encode_action(bot.choose(view, hand.hand.legal_actions(), rng)):
            hand.apply_id(action_id)
    result = hand.hand.result
    assert result is not None
    return result.deltas[seat]


class Evaluator:
    """Paired margins against ``bots`` over ``deals`` deals (from the ``start``-th); the bots' own results are
    played once."""

    def __init__(self, bots: dict[str, Bot], deals: int, start: int = 0) -> None:
        self.bots = bots
        self.deals = [deal_of(i) for i in range(start, start + deals)]
        self.base = {name: [play(d, s, bot, None, seat) for d, seat, s in self.deals] for name, bot in bots.items()}

    def margins(self, policy: MaskedPolicy) -> dict[str, tuple[float, float]]:
        """Per bot: the mean paired margin (points a hand) and its 95% half-interval."""
        out = {}
        for name, bot in self.bots.items():
            diffs = [play(d, s, bot, policy, seat) - base
                     for (d, seat, s), base in zip(self.deals, self.base[name], strict=True)]
            out[name] = mean_interval(diffs)
        return out


def mean_interval(values: list[int] | list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


# --------------------------------------------------------------------- training

@dataclass
class Point:
    minutes: float
    hands: int
    margins: dict[str, tuple[float, float]]
    losses: dict[str, float]


def train(cfg: Config, seconds: float, *, eval_every: float, evaluator: Evaluator | None,
          log: Callable[[str], None] = print, max_batches: int | None = None,
          ) -> tuple[MaskedPolicy, list[Point], list[dict[str, float]]]:
    """Train for ``seconds`` of this process's CPU time (or ``max_batches``); evaluate every ``eval_every`` s.
    Returns the policy, the curve and every batch's losses."""
    rng = np.random.default_rng(cfg.seed)
    deals = Random(cfg.seed)
    policy = MaskedPolicy.initial(cfg.hidden, rng)
    adam = Adam(policy.params, cfg.lr)
    curve: list[Point] = []
    history: list[dict[str, float]] = []
    spent = 0.0  # CPU seconds of training (evaluations excluded)
    hands = 0
    next_eval = 0.0

    def evaluate() -> None:
        if evaluator is None:
            return
        recent = history[-20:]
        losses = {k: sum(h[k] for h in recent) / len(recent) for k in recent[0]} if recent else {}
        point = Point(spent / 60, hands, evaluator.margins(policy), losses)
        curve.append(point)
        log(f"{point.minutes:6.1f} min {hands:8d} hands  " + "  ".join(
            f"vs {name} {m:+.3f} +- {half:.3f}" for name, (m, half) in point.margins.items()))

    while spent < seconds and (max_batches is None or len(history) < max_batches):
        if spent >= next_eval:
            evaluate()
            next_eval += eval_every
        started = time.process_time()
        batch = self_play(policy, cfg.batch, rng, deals, cfg.random_share)
        losses, grads = loss_and_grads(policy, batch, cfg)
        adam.step(policy.params, grads)
        spent += time.process_time() - started
        hands += cfg.batch
        history.append(losses)
    evaluate()
    return policy, curve, history


def write_curve(curve: list[Point], stem: Path, deals: int) -> None:
    names = list(curve[0].margins) if curve else []
    with open(stem.with_suffix(".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["cpu_minutes", "hands"] + [f"{n}_{k}" for n in names for k in ("margin", "ci95_low", "ci95_high")])
        for p in curve:
            row: list[object] = [f"{p.minutes:.2f}", p.hands]
            for n in names:
                m, half = p.margins[n]
                row += [f"{m:.4f}", f"{m - half:.4f}", f"{m + half:.4f}"]
            w.writerow(row)
    import matplotlib  # the [rl] extra; imported here so that training without a plot needs numpy only

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    labels = {"random": "against the random bot", "rule": "against the rule-aware bot"}
    for n in names:
        x = [p.hands / 1000 for p in curve]
        means = np.array([p.margins[n][0] for p in curve])
        halves = np.array([p.margins[n][1] for p in curve])
        ax.plot(x, means, marker="o", markersize=3, label=labels.get(n, n))
        ax.fill_between(x, means - halves, means + halves, alpha=0.25)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("training hands (thousands, self-play)")
    ax.set_ylabel("points a hand vs the bot in its seat")
    ax.set_title(f"Hakka Cards: a masked policy's margin over {deals} paired deals a point (95% intervals)",
                 fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(stem.with_suffix(".png"))
    plt.close(fig)


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "numpy": np.__version__}
    try:
        out["hakka-cards"] = version("hakka-cards")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout not installed
        pass
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--minutes", type=float, default=3.0, help="CPU minutes of training, evaluations excluded")
    p.add_argument("--batches", type=int, default=None,
                   help="stop after this many batches instead (the CPU minutes a machine gives vary; batches do not)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the weights, the ids drawn and the deals")
    p.add_argument("--eval-every", type=float, default=1.0, help="CPU minutes of training between evaluations")
    p.add_argument("--eval-deals", type=int, default=1000, help="paired deals of each evaluation, per bot")
    p.add_argument("--batch", type=int, default=Config.batch, help="hands of self-play a gradient step")
    p.add_argument("--hidden", type=int, default=Config.hidden, help="tanh units of the hidden layer")
    p.add_argument("--lr", type=float, default=Config.lr, help="Adam's step size")
    p.add_argument("--random-share", type=float, default=Config.random_share,
                   help="the share of hands with random opponents instead of self-play")
    p.add_argument("--save", type=Path, default=BASELINE_FILE, help="where the trained policy goes (.npz)")
    p.add_argument("--curve", type=Path, default=Path("docs/_static/rl_learning_curve"),
                   help="the learning curve's path without suffix: .csv and .png are written")
    args = p.parse_args(argv)
    cfg = Config(hidden=args.hidden, batch=args.batch, lr=args.lr, random_share=args.random_share, seed=args.seed)
    started = time.process_time()
    evaluator = Evaluator({"random": RandomBot(), "rule": RuleBot()}, args.eval_deals)
    seconds = math.inf if args.batches is not None else args.minutes * 60
    policy, curve, history = train(cfg, seconds, eval_every=args.eval_every * 60, evaluator=evaluator,
                                   max_batches=args.batches)
    cpu = time.process_time() - started
    final = curve[-1]
    policy.meta = {
        "command": "python benchmarks/train_baseline.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": cfg.seed, "config": cfg.__dict__, "versions": versions(), "training_hands": final.hands,
        "training_batches": len(history), "training_cpu_minutes": round(final.minutes, 2), "total_cpu_minutes": round(cpu / 60, 2),
        "eval_deals": args.eval_deals,
        "margins": {n: {"mean": round(m, 4), "ci95": [round(m - h, 4), round(m + h, 4)]}
                    for n, (m, h) in final.margins.items()},
    }
    policy.save(args.save)
    write_curve(curve, args.curve, args.eval_deals)
    print(json.dumps(policy.meta, indent=1))
    print(f"first losses {history[0]}, last {history[-1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
