"""Shared helpers of the engine tests: building deals, snapshots, random play, oracle bridging."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from reference_engine import Action, Cards, Hand, Profile
from reference_engine.hand import HAND_FIELDS
from reference_engine.profile import DECISIONS

from . import oracle as O

RNG_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
"""Random play is driven by ``random.Random(n)``: a failure prints ``n``, which replays it."""


def play_settings(max_examples: int, **kwargs: Any) -> settings:
    """Settings for tests that play whole hands: no deadline, and no shrinking (a seed does
    not shrink into anything simpler, and shrinking whole hands takes minutes)."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        **kwargs,
    )


ALL_NAMES = [f"{s}{n}" for s in ("Sup", "Gon", "Zok", "Sin") for n in range(1, 10)] + ["WanSin"]


def cards_of(text: str) -> Cards:
    return Cards.parse(text)


def make_hand(
    dealer: int = 0,
    hands: Mapping[int, str] | None = None,
    dreamer_card: str | None = None,
    profile: Profile = Profile(),
    five_tigers: bool = False,
) -> Hand:
    """Explicit deal: the given seats get the given cards (topped up to 12 in canonical order
    from the cards nobody was given); the Dreamer gets ``dreamer_card`` (or the next free card).

    Unless ``five_tigers``, no seat may end up with Sup1 Gon1 Zok1 Sin1 WanSin by accident
    (TIG-1 would end the hand at the first call)."""
    hands = dict(hands or {})
    dreamer = (dealer + 2) % 4
    given: dict[int, list[str]] = {s: str(Cards.parse(t)).split() for s, t in hands.items()}
    if dreamer_card is not None:
        given[dreamer] = [str(Cards.parse(dreamer_card))]
    used = {c for cs in given.values() for c in cs}
    assert sum(len(cs) for cs in given.values()) == len(used), "a card given twice"
    free = [c for c in ALL_NAMES if c not in used]
    final: list[str] = []
    for seat in range(4):
        want = 1 if seat == dreamer else 12
        cs = given.get(seat, [])
        assert len(cs) <= want, (seat, cs)
        while len(cs) < want:
            cs.append(free.pop(0))
        final.append(" ".join(cs))
    tigers = {"Sup1", "Gon1", "Zok1", "Sin1", "WanSin"}
    holds = [seat for seat in range(4) if tigers <= set(final[seat].split())]
    assert bool(holds) == five_tigers, f"Five Tigers held by {holds}: give the 1s out explicitly"
    return Hand.deal(dealer, final, profile)


def snapshot(hand: Hand) -> dict[str, Any]:
    """Every piece of a Hand's state (its caches excepted: legal actions, the seats' views), copied."""
    out: dict[str, Any] = {}
    for name in HAND_FIELDS:
        if name in ("_legal", "_views"):
            continue
        value = getattr(hand, name)
        if isinstance(value, list):
            value = list(value)
        out[name] = value
    out["legal"] = sorted(str(a) for a in hand.legal_actions().actions)
    d = hand.legal_actions().discard
    out["legal_discard"] = None if d is None else (d.count, d.allowed)
    return out


def choose(hand: Hand, rng: random.Random, call_bias: float = 0.75) -> Action:
    """A random legal action, biased so that hands usually get played."""
    legal = hand.legal_actions()
    verbs = {a.verb for a in legal.actions}
    if hand.phase == "calling":
        return Action("call") if rng.random() < call_bias else Action("pass")
    if verbs == {"claim", "continue"}:
        return Action("claim") if rng.random() < 0.5 else Action("continue")
    concrete = list(legal.actions)
    if legal.discard is not None and (not concrete or rng.random() < 0.3):
        pool = list(Cards(legal.discard.allowed))
        picked = rng.sample(pool, legal.discard.count)
        return Action("discard", Cards.of(picked).mask)
    return rng.choice(concrete)


def play_out(hand: Hand, rng: random.Random, call_bias: float = 0.75, limit: int = 200) -> list[tuple[int, Action]]:
    """Random legal actions until the hand ends; returns them."""
    done: list[tuple[int, Action]] = []
    while hand.to_act is not None and len(done) < limit:
        seat = hand.to_act
        action = choose(hand, rng, call_bias)
        hand.apply(seat, action)
        done.append((seat, action))
    assert hand.to_act is None, "a hand should end within 200 actions"
    return done


def random_profile(rng: random.Random) -> Profile:
    return Profile.from_options({d: rng.choice(opts) for d, _key, opts in DECISIONS})


# ------------------------------------------------------------------ oracle bridge


def to_oracle_cards(cards: Cards | int) -> frozenset[O.Card]:
    if isinstance(cards, int):
        cards = Cards(cards)
    return frozenset(O.card_from_name(str(c)) for c in cards)


def to_mask(cards: Iterable[O.Card]) -> int:
    text = O.names(cards)
    return Cards.parse(text).mask


def oracle_for(hand: Hand) -> O.OracleHand:
    dealt = [to_oracle_cards(m) for m in hand.dealt]
    return O.OracleHand(dealer=hand.dealer, dealt=dealt, options=hand.profile.options())
