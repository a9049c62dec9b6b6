"""Lockstep differential play: drive two protocol engines with the same requests
and report the first answer on which they differ.

Used by ``test_catalogue.py`` to prove that each mutant is really a different
engine (it differs from the reference on some reachable state), independently
of the scenario corpus.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from reference_engine.wire import PROTOCOL_VERSION


class Engine(Protocol):
    def handle(self, message: Mapping[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Divergence:
    step: int
    request: dict[str, Any]
    reference: dict[str, Any]
    other: dict[str, Any]

    def __str__(self) -> str:
        ref, oth = self.reference, self.other
        if ref.get("ok") and oth.get("ok"):
            keys = sorted(k for k in set(ref) | set(oth) if ref.get(k) != oth.get(k))
            diff = "; ".join(f"{k}: {ref.get(k)!r} != {oth.get(k)!r}" for k in keys)
        else:
            diff = f"{ref} != {oth}"
        return f"step {self.step}, {self.request}: {diff}"


def _comparable(response: dict[str, Any]) -> dict[str, Any]:
    """Error messages are free text: compare errors by kind only."""
    if response.get("ok"):
        return response
    return {"ok": False, "kind": response.get("error", {}).get("kind")}


Policy = Callable[[dict[str, Any], random.Random], str]


def random_policy(call_rate: float = 0.6, claim_rate: float = 0.5) -> Policy:
    """A random player: call/pass and claim/continue with the given rates, else uniform."""

    def choose(state: dict[str, Any], rng: random.Random) -> str:
        legal = state["legal"]
        actions: list[str] = list(legal["actions"])
        if set(actions) == {"call", "pass"}:
            return "call" if rng.random() < call_rate else "pass"
        if set(actions) == {"claim", "continue"}:
            return "claim" if rng.random() < claim_rate else "continue"
        options: list[str | None] = [*actions]
        if legal["discard"] is not None:
            options.append(None)
        pick = rng.choice(options)
        if pick is not None:
            return pick
        pool = legal["discard"]["from"].split()
        return "discard " + " ".join(rng.sample(pool, legal["discard"]["count"]))

    return choose


def lockstep(
    reference: Engine,
    other: Engine,
    start: dict[str, Any],
    *,
    seed: int = 0,
    policy: Policy | None = None,
    script: Sequence[str] = (),
    max_steps: int = 600,
) -> Divergence | None:
    """Play ``start`` on both engines, choosing from the reference's legal actions.

    ``script`` gives the first actions (text; the seat is the one to act);
    ``policy`` chooses the rest. Returns the first differing answer, if any.
    """
    rng = random.Random(seed)
    policy = policy or random_policy()
    step = 0

    def both(request: dict[str, Any]) -> tuple[dict[str, Any], Divergence | None]:
        ref = _comparable(reference.handle(request))
        oth = _comparable(other.handle(request))
        if ref != oth:
            return ref, Divergence(step, request, ref, oth)
        return ref, None

    # The newest protocol, so that accepted actions carry their events and a misreport shows (the
    # handshakes differ by the engine's name, so they are not compared).
    for engine in (reference, other):
        engine.handle({"cmd": "hello", "protocol": PROTOCOL_VERSION})
    _, div = both(start)
    if div:
        return div
    pending = list(script)
    while step < max_steps:
        state, div = both({"cmd": "state"})
        if div:
            return div
        if not state.get("ok") or state["phase"] in ("ended", "game-over") or state["to_act"] is None:
            return None
        action = pending.pop(0) if pending else policy(state, rng)
        step += 1
        response, div = both({"cmd": "act", "seat": state["to_act"], "action": action})
        if div:
            return div
        if not response.get("ok"):
            return None  # both refused (a game short of deals): nothing more to compare
    return None


def game_start(seed: int, options: Mapping[str, str] | None = None, deals: int = 16) -> dict[str, Any]:
    """A whole game dealt from seeds derived from ``seed``."""
    return {
        "cmd": "start",
        "options": dict(options or {}),
        "setup": {"game": {"first_dealer": seed % 4, "deals": [{"seed": str(seed * 100 + i)} for i in range(deals)]}},
    }


def hand_start(dealer: int, hands: Sequence[str], options: Mapping[str, str] | None = None) -> dict[str, Any]:
    return {"cmd": "start", "options": dict(options or {}), "setup": {"dealer": dealer, "hands": list(hands)}}


def first_divergence(
    reference_factory: Callable[[], Engine],
    other_factory: Callable[[], Engine],
    seeds: Sequence[int],
    options: Mapping[str, str] | None = None,
) -> tuple[int, Divergence] | None:
    """Random games from ``seeds`` until the engines differ."""
    for seed in seeds:
        div = lockstep(reference_factory(), other_factory(), game_start(seed, options), seed=seed)
        if div is not None:
            return seed, div
    return None
