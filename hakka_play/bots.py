"""Bots for the table: they choose among the engine's legal actions.

A bot is given what its seat may know and nothing more: the seat's
``observation(seat)`` and the legal actions of the moment (both from the
reference engine). Legality is never decided here; a bot only picks one of the
actions the engine offers.

* :class:`RandomBot` picks uniformly among the legal actions (a discard is
  one choice, its cards drawn at random from the cards allowed).
* :class:`RuleBot` plays sensibly: it calls on a strong hand, claims whenever
  the engine offers a claim (and declares the Five Tigers), beats as cheaply
  as it can, keeps its Elders (they count toward a claim, CLAIM-1) and
  discards its weakest cards.
* ``ismcts``, offered when OpenSpiel is installed (the ``[rl]`` extra), is
  :class:`hakka_rl.ismcts.TableBot`: a search of 200 simulations a decision
  (at most 0.25 s a move) from the seat's own view.
* ``policy``, offered when numpy is installed, is
  :class:`hakka_rl.policy.PolicyBot`: the trained baseline policy
  (hakka_rl/baseline_policy.npz, docs/rl.rst).

>>> from reference_engine import Hand
>>> hand = Hand.from_seed(dealer=0, seed=7)
>>> from reference_engine.wire import observation_json
>>> str(RuleBot().choose(observation_json(hand.observation(0)), hand.legal_actions(), Random(1))) in ("call", "pass")
True
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from random import Random
from typing import Any, Protocol

from reference_engine import Action, Card, Cards, LegalActions, Profile

Observation = Mapping[str, Any]


class Bot(Protocol):
    """The server asks ``choose`` in a thread of its own, on a snapshot of the seat's view (the event loop
    serves every other socket meanwhile): a bot may take its time, up to the server's ``think_seconds``,
    and touches nothing but its arguments and its own state (one move of a table at a time)."""

    name: str

    def choose(self, observation: Observation, legal: LegalActions, rng: Random) -> Action: ...


def _discard(cards: list[Card]) -> Action:
    return Action("discard", Cards.of(cards).mask)


class RandomBot:
    """Uniform over the legal actions; the discard option counts as one choice."""

    name = "random bot"

    def choose(self, observation: Observation, legal: LegalActions, rng: Random) -> Action:
        choices: list[Action | None] = list(legal.actions)
        if legal.discard is not None:
            choices.append(None)
        pick = rng.choice(choices)
        if pick is not None:
            return pick
        assert legal.discard is not None
        allowed = list(Cards(legal.discard.allowed))
        return _discard(rng.sample(allowed, legal.discard.count))


def _cost(card: Card, elders: Cards) -> int:
    """How much a bot minds giving up a card: its number, and much more for an Elder."""
    return card.number + (40 if card in elders else 0)


class RuleBot:
    """A sensible player: see the module docstring.

    ``call_at`` is the hand strength (an Elder counts 2, another card of 7 or more 1) from
    which it calls; ``dealer_call_at`` the lower one it needs as the Dealer, who is never the
    Privileged Player. The defaults were tuned with ``benchmarks/play_bots.py`` (and so that a
    table of rule-aware bots seldom throws a hand away as void).
    """

    name = "rule-aware bot"

    def __init__(self, call_at: int = 11, dealer_call_at: int = 7) -> None:
        self.call_at = call_at
        self.dealer_call_at = dealer_call_at

    def choose(self, observation: Observation, legal: LegalActions, rng: Random) -> Action:
        verbs = {a.verb for a in legal.actions}
        elders = Cards.parse(observation["elders"])
        hand = Cards.parse(observation["hand"])
        if "tigers" in verbs:
            return Action("tigers")
        if "claim" in verbs:
            return Action("claim")
        if "call" in verbs:
            strength = sum(2 if c in elders else 1 if c.number >= 7 else 0 for c in hand)
            # a Dealer who calls is never the Privileged Player (CALL-4), so risks no penalty (SCORE-6)
            dealer = observation.get("dealer") == observation.get("seat")
            return Action("call" if strength >= (self.dealer_call_at if dealer else self.call_at) else "pass")
        plays = [a for a in legal.actions if a.verb == "play"]
        leading = not observation.get("round")
        if plays:
            def key(action: Action) -> tuple[int, int, int]:
                cards = list(action.cards)
                spent = sum(1 for c in cards if c in elders)
                cheap = sum(_cost(c, elders) for c in cards)
                # leading: shed as many cards as possible without an Elder; following: beat cheaply
                return (spent, -len(cards) if leading else 0, cheap)

            best = min(plays, key=key)
            if legal.discard is None or not any(c in elders for c in best.cards):
                return best
        if legal.discard is not None:
            allowed = sorted(Cards(legal.discard.allowed), key=lambda c: (_cost(c, elders), c.index))
            return _discard(allowed[: legal.discard.count])
        return plays[0] if plays else rng.choice(list(legal.actions))


def _search_bot(profile: Profile) -> Bot:
    from hakka_rl.ismcts import TableBot  # imported when a table asks for one: pyspiel takes a while to load

    return TableBot(profile, RuleBot())


BOTS: dict[str, Callable[[Profile], Bot]] = {"random": lambda _profile: RandomBot(), "rule": lambda _profile: RuleBot()}
"""The bots a table offers, by name; each is made for the table's profile."""
if importlib.util.find_spec("pyspiel") is not None:  # the [rl] extra (issue 18): OpenSpiel's IS-MCTS
    BOTS["ismcts"] = _search_bot


def _policy_bot(profile: Profile) -> Bot:
    from hakka_rl.policy import PolicyBot  # numpy, loaded when a table asks for it

    return PolicyBot(profile, RuleBot())


if importlib.util.find_spec("numpy") is not None:  # the trained baseline (issue 29): numpy only
    BOTS["policy"] = _policy_bot
