"""Setups the fuzzer sends to be refused (or accepted at a bound), built from the protocol's shapes only.

Each *fault* takes a valid setup and breaks one thing the protocol names (spec/PROTOCOL.md ``start``,
"Which error wins"): one seat's entry of explicit hands (too few or too many cards, a card twice in it,
a card another seat holds, a word that is not a card), the 1-card hand away from the Dreamer's seat,
the number of entries, the Dealer's seat, a seed at and past its bounds, a deck, the decision options,
a later deal of a game; under protocol 3, two faults at once. The fuzzer never says what the answer
must be: the reference answers, and the candidate must answer with the same error kind (or accept what
the reference accepts, and then be in the same state).

Only what the candidate's handshake allows is built (:func:`faults_for`): a protocol-1 engine gets
seeds as JSON integers, so it is sent only valid ones; options only go to an engine that takes them,
or, under protocol 3, to any engine (spec/PROTOCOL.md "Options an engine does not follow"); a fact that
fits two error kinds only to a protocol-3 engine (:data:`TWO_KINDS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..notation import CANONICAL_DECK, card_text
from .model import Chooser

Setup = dict[str, Any]
Options = dict[str, str]

MAX_SEED = 2**64 - 1
ROLES = ("dealer", "second", "dreamer", "fourth")
"""A seat by where it sits from the Dealer (the Dreamer opposite)."""
HAND_FAULTS = ("short", "long", "twice", "shared", "not-a-card")
"""What breaks one seat's entry: a card fewer, one more (another seat's), a card of its own twice, a
card another seat holds (in place of one of its own), a word that is not a card."""


@dataclass(frozen=True)
class Fault:
    """One way to break (or stretch to a bound) a setup: its id, the capabilities it needs, the least
    protocol it may be sent under, whether it sends options."""

    id: str
    needs: tuple[str, ...]
    protocol: int = 1
    options: bool = False


TWO_KINDS = frozenset({
    "hands:short:dreamer", "hands:empty:active", "hands:not-a-card:active", "hands:not-a-card:dreamer", "hands:three-entries",
    "deck:not-a-card", "seed:2^64", "seed:20-digits", "seed:21-digits", "seed:negative",
    "game-setup:no-deals", "game-setup:bad-deal-seed", "options:not-an-id", "dealer:past-3",
})
"""Facts that fit two error kinds (an empty Dreamer's entry: the schema, or a card count; a word that is
not a card: the schema, or a deck without all 37 cards; a seed past 2^64 - 1: the schema's digits, or
DEAL-5; a Dealer of seat 4: the schema, or no seat opposite for the Dreamer): "which error wins" settles
them in protocol 3 only, so they go to protocol-3 engines only."""


def _fault_table() -> tuple[Fault, ...]:
    table = [Fault(f"hands:{what}:{role}", ("hands",)) for what in HAND_FAULTS for role in ("active", "dreamer")]
    table += [Fault(f"hands:entry:{seat}", ("hands",)) for seat in range(4)]  # the seat a hands fault broke
    table += [Fault(name, ("hands",)) for name in ("hands:misplaced", "hands:three-entries", "hands:as-written",
                                                  "dealer:past-3", "hands:empty:active")]
    # a request that breaks its schema is `malformed` from protocol 2 on (protocol 1 named no kind for it)
    table += [Fault("hands:extra-field", ("hands",), 2)]
    table += [Fault(name, ("seed",)) for name in ("seed:largest", "seed:zero")]
    table += [Fault(name, ("seed",), 2) for name in ("seed:2^64", "seed:20-digits", "seed:21-digits",
                                                    "seed:negative", "seed:leading-zero", "seed:not-decimal",
                                                    "seed:empty")]
    table += [Fault(name, ("deck",)) for name in ("deck:short", "deck:long", "deck:twice", "deck:not-a-card",
                                                 "deck:as-written")]
    table += [Fault(name, ("game", "seed"), 2) for name in ("game-setup:bad-deal-seed", "game-setup:no-deals")]
    # a later deal checked at start: the corpus asks it of protocol 2 and later only
    # (setup-game-with-a-bad-later-deal has `protocol: 2`, while PROTOCOL.md's table says "the same" of version 1)
    table += [Fault("game-setup:short-deal", ("game", "seed", "hands"), 2)]
    table += [Fault(name, (), 1, True) for name in ("options:unknown-decision", "options:unknown-option",
                                                    "options:not-an-id", "options:other")]
    table += [Fault("precedence:option-and-card", ("hands",), 3, True)]
    return tuple(Fault(f.id, f.needs, 3, f.options) if f.id in TWO_KINDS else f for f in table)


FAULTS = _fault_table()
"""Every fault; ``hands:entry:N`` is no fault of its own but the class of the seat a hands fault broke."""
DRAWN = tuple(f for f in FAULTS if not f.id.startswith("hands:entry:"))


def faults_for(capabilities: tuple[str, ...], protocol: int, options: bool) -> tuple[Fault, ...]:
    """The faults a candidate may be sent: those its capabilities and protocol allow; with ``options``,
    those that send options too (an engine that takes them, or any engine under protocol 3)."""
    return tuple(f for f in FAULTS if all(c in capabilities for c in f.needs) and protocol >= f.protocol
                 and (options or not f.options))


def _deal(rng: random.Random, dealer: int) -> list[list[str]]:
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    hands = []
    for seat in range(4):
        want = 1 if seat == (dealer + 2) % 4 else 12
        hands.append([deck.pop() for _ in range(want)])
    return hands


def _as_written(text: str, rng: random.Random, reorder: bool = True) -> str:
    """Card text as a person may write it (spec/README.md: case-insensitive, short forms), reordered
    unless ``reorder`` is false (a deck's order is its deal)."""
    words = text.split()
    if reorder:
        rng.shuffle(words)
    short = {"Sup": "s", "Gon": "G", "Zok": "z", "Sin": "N"}
    out = []
    for w in words:
        pick = rng.randrange(3)
        if w == "WanSin":
            out.append(("w", "WANSIN", "wansin")[pick])
        elif pick == 0:
            out.append(short[w[:3]] + w[3:])
        else:
            out.append(w.upper() if pick == 1 else w.lower())
    return "  ".join(out)


class FaultBuilder:
    """Builds the setup (and options) of one fault from the chooser's draws."""

    def __init__(self, options: Options, other_options: list[tuple[str, str]]) -> None:
        self.options = dict(options)
        self.other = other_options
        """Valid decision options other than those played (from spec/), each ``(decision, option)``."""

    def build(self, fault: str, chooser: Chooser) -> tuple[Setup, Options | None, list[str]]:
        """The setup, the options to send (``None``: those of the campaign) and the classes it reaches."""
        rng = random.Random(chooser.seed())
        dealer = chooser.below(4)
        family = fault.split(":")[0]
        build: Callable[[str, int, random.Random, Chooser], tuple[Setup, Options | None, list[str]]] = {
            "hands": self._hands, "dealer": self._hands, "seed": self._seed, "deck": self._deck,
            "game-setup": self._game, "options": self._options, "precedence": self._precedence}[family]
        return build(fault, dealer, rng, chooser)

    def _hands(self, fault: str, dealer: int, rng: random.Random, chooser: Chooser
               ) -> tuple[Setup, Options | None, list[str]]:
        hands = _deal(rng, dealer)
        texts = [card_text(h) for h in hands]
        if fault == "hands:misplaced":
            texts = texts[1:] + texts[:1]
        elif fault == "hands:three-entries":
            texts = texts[:3]
        elif fault == "hands:as-written":
            texts = [_as_written(t, rng) for t in texts]
        elif fault == "hands:extra-field":  # a field the schema does not have: malformed, and nothing else
            return {"dealer": dealer, "hands": texts, "deck": " ".join(texts)}, None, [fault]
        elif fault == "dealer:past-3":
            return {"dealer": 4, "hands": texts}, None, [fault]
        else:
            what, role = fault.split(":")[1:]
            dreamer = (dealer + 2) % 4
            seat = dreamer if role == "dreamer" else (dealer, (dealer + 1) % 4, (dealer + 3) % 4)[chooser.below(3)]
            other = (seat + 1 + chooser.below(3)) % 4
            texts[seat] = self._broken(what, hands[seat], hands[other], rng)
            return {"dealer": dealer, "hands": texts}, None, [fault, f"hands:entry:{seat}"]
        return {"dealer": dealer, "hands": texts}, None, [fault]

    @staticmethod
    def _broken(what: str, own: list[str], other: list[str], rng: random.Random) -> str:
        cards = list(own)
        if what == "short":
            cards.pop(rng.randrange(len(cards)))
        elif what == "long":
            cards.append(other[rng.randrange(len(other))])
        elif what == "twice":
            cards.append(cards[rng.randrange(len(cards))])
            if len(cards) > 2:
                cards.pop(0 if cards[0] != cards[-1] else 1)
        elif what == "shared":
            cards[rng.randrange(len(cards))] = other[rng.randrange(len(other))]
        elif what == "empty":
            cards = []
        else:  # not-a-card
            cards[rng.randrange(len(cards))] = ("Xx9", "Sup0", "Gon10", "Wan")[rng.randrange(4)]
        return " ".join(cards)

    @staticmethod
    def _seed(fault: str, dealer: int, rng: random.Random, chooser: Chooser) -> tuple[Setup, Options | None, list[str]]:
        seed = {"seed:largest": str(MAX_SEED), "seed:zero": "0", "seed:2^64": str(MAX_SEED + 1),
                "seed:20-digits": "9" * 20, "seed:21-digits": "1" + "0" * 20, "seed:negative": "-1",
                "seed:leading-zero": "0" + str(rng.randrange(1, 1000)),
                "seed:not-decimal": ("12a", "0x1F", "1e3", " 7")[rng.randrange(4)], "seed:empty": ""}[fault]
        # valid seeds go as integers (Engine sends them as the protocol wants); broken ones as they are
        return {"dealer": dealer, "seed": int(seed) if fault in ("seed:largest", "seed:zero") else seed}, None, [fault]

    @staticmethod
    def _deck(fault: str, dealer: int, rng: random.Random, chooser: Chooser) -> tuple[Setup, Options | None, list[str]]:
        deck = list(CANONICAL_DECK)
        rng.shuffle(deck)
        if fault == "deck:short":
            deck.pop(rng.randrange(len(deck)))
        elif fault == "deck:long":
            deck.insert(rng.randrange(len(deck)), deck[rng.randrange(len(deck))])
        elif fault == "deck:twice":
            i, j = rng.sample(range(len(deck)), 2)
            deck[i] = deck[j]
        elif fault == "deck:not-a-card":
            deck[rng.randrange(len(deck))] = "Zok0"
        text = _as_written(" ".join(deck), rng, reorder=False) if fault == "deck:as-written" else " ".join(deck)
        return {"dealer": dealer, "deck": text}, None, [fault]

    @staticmethod
    def _game(fault: str, dealer: int, rng: random.Random, chooser: Chooser) -> tuple[Setup, Options | None, list[str]]:
        deals: list[dict[str, Any]] = [{"seed": rng.getrandbits(64)} for _ in range(6)]
        where = 1 + chooser.below(5)
        if fault == "game-setup:no-deals":
            deals = []
        elif fault == "game-setup:bad-deal-seed":
            deals[where] = {"seed": str(MAX_SEED + 1 + rng.randrange(1000))}
        else:  # a later deal of explicit hands, one entry a card short (checked at start, whoever deals)
            hands = [card_text(h) for h in _deal(rng, 0)]
            broken = chooser.below(4)
            hands[broken] = " ".join(hands[broken].split()[1:]) or "Sup1 Sup1"
            deals[where] = {"hands": hands}
        return {"game": {"first_dealer": dealer, "deals": deals}}, None, [fault]

    def _options(self, fault: str, dealer: int, rng: random.Random, chooser: Chooser
                 ) -> tuple[Setup, Options | None, list[str]]:
        options = dict(self.options)
        if fault == "options:unknown-decision":
            options["D99"] = "x"
        elif fault == "options:unknown-option":
            options["D7"] = "sideways"
        elif fault == "options:not-an-id":
            options["D7"] = "Any Suit"
        elif self.other:
            decision, option = self.other[chooser.below(len(self.other))]
            options[decision] = option
        return {"dealer": dealer, "seed": rng.getrandbits(64)}, options, [fault]

    def _precedence(self, fault: str, dealer: int, rng: random.Random, chooser: Chooser
                    ) -> tuple[Setup, Options | None, list[str]]:
        """Two faults at once: an unknown decision (the rules) and a word that is not a card (the schema)."""
        texts = [card_text(h) for h in _deal(rng, dealer)]
        seat = (dealer + 1) % 4
        texts[seat] = texts[seat].replace(texts[seat].split()[0], "Xx9", 1)
        return {"dealer": dealer, "hands": texts}, {**self.options, "D99": "x"}, [fault]


def other_options(decisions: Mapping[str, Any], played: Mapping[str, str],
                  follows: Callable[[str, str], bool]) -> list[tuple[str, str]]:
    """Every ``(decision, option)`` of spec/'s decisions other than the one played that the candidate
    can follow (``follows``), in the decisions' order."""
    out = []
    for decision in sorted(decisions, key=lambda d: int(d[1:]) if d[1:].isdigit() else 0):
        d = decisions[decision]
        current = played.get(decision, d.default)
        out += [(decision, option) for option in d.options if option != current and follows(decision, option)]
    return out
