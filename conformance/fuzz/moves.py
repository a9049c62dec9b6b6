"""What the fuzzer tries: the setups it draws, the legal actions it picks, the refused actions it probes.

Every random choice comes from a :class:`~conformance.fuzz.model.Chooser`, so a
hand is a function of its choices. Legality and patterns come from the
reference's answers (``state``'s legal list, ``pattern``), never from rules of
its own: this module knows the protocol's shapes and card notation only.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from typing import Any

from ..notation import CANONICAL_DECK, VERBS_ALONE, card_text, cards, normalize_action
from .endpoints import Message
from .model import Chooser, FuzzerError

HAND_KINDS = ("hands", "seed", "deck", "tigers")
"""How a single hand is set up. ``hands``: explicit hands from a random partition;
``seed``: the candidate deals by D33; ``deck``: by D2 from a random deck order;
``tigers``: explicit hands where one active player holds the Five Tigers (TIG-1),
or, one time in four, only the four suited 1s."""
GAME_KIND = "game"
"""A whole game: four counting hands, its first deal drawn as a single hand's setup is (so that a hand
the search found can open a game), the later ones seeded."""
SETUP_KINDS = (*HAND_KINDS, GAME_KIND)
"""The default mix: single hands of every setup, and whole games."""
SETUP_WEIGHTS = {"hands": 45, "seed": 30, "deck": 15, "tigers": 10}
"""How often each hand kind is drawn, of the kinds a campaign plays. Whether a hand is a whole game is drawn
first, apart (``game_percent``): a lane draws games less often once they stop finding (checks.Rates), and a
kept hand replayed then is still the same hand."""
GAME_DEALS = 16
"""Deals given to a game: enough for its 4 counting hands and the void or uncounted ones between."""
FIVE_TIGERS = ("Sup1", "Gon1", "Zok1", "Sin1", "WanSin")
EXPLICIT_DEALS_ONE_IN = 3
"""Of the games, one in this many (when the candidate takes them) has explicit later deals, or too few."""
DEAL_CLASSES = ("deals:explicit-played", "deals:ran-out", "deals:bad-deal")
PATTERN_PROBE_PERCENT = 60
"""The least share of steps that probe while a Run or a Set is on the table (see ``Moves.probe_rate``)."""


class Moves:
    """Setups, picks and probes for one campaign (``ask`` sends a request to the reference)."""

    def __init__(self, ask: Callable[[Message], Message], options: Mapping[str, str],
                 setup_kinds: tuple[str, ...] = SETUP_KINDS, probe_percent: int = 15,
                 hand_kinds: tuple[str, ...] = HAND_KINDS) -> None:
        self.ask = ask
        self.options = dict(options)
        self.setup_kinds = setup_kinds
        self.hand_kinds = hand_kinds
        """The hand kinds the candidate takes (for a game's first deal when only games are played)."""
        self.probe_percent = probe_percent
        self._kinds: dict[str, str] = {}
        self.explicit_deals = False
        """Whether a game's later deals may be explicit hands, or too few (spec/PROTOCOL.md ``start``: a deal
        checked when the game reaches it); set from the candidate's handshake (checks.Mix)."""

    @staticmethod
    def steps_only(setup: dict[str, Any]) -> bool:
        """Whether a game's deals may refuse a move (explicit later hands, or fewer deals than a game may need):
        played step by step, where the reference's refusal of the move ends the game's play there."""
        deals = setup.get("game", {}).get("deals", [])
        return bool(deals) and (len(deals) < GAME_DEALS or any("hands" in d for d in deals[1:]))

    @staticmethod
    def deal_outcomes(setup: dict[str, Any], last: Message, refused: bool) -> frozenset[str]:
        """What a game with explicit later deals or too few reached, from its setup and the last state: a later
        deal of explicit hands played, a move refused for a missing deal (ran out) or a bad one."""
        deals = setup["game"]["deals"]
        used = int((last.get("game") or {}).get("deals") or 1)
        out = set()
        if any("hands" in d for d in deals[1:used]):
            out.add("deals:explicit-played")
        if refused:
            out.add("deals:ran-out" if used >= len(deals) else "deals:bad-deal")
        return frozenset(out)

    def draw_setup(self, chooser: Chooser, game_percent: int = 7) -> tuple[str, dict[str, Any]]:
        """A random setup of one of the campaign's kinds: a whole game ``game_percent`` of the time (when the
        campaign plays both), else a hand; the simplest choices (0, 0) are a game opened with explicit hands."""
        hand_kinds = tuple(k for k in self.setup_kinds if k != GAME_KIND)
        game = not hand_kinds or (GAME_KIND in self.setup_kinds and chooser.below(100) < game_percent)
        if not game:
            kind = self._pick(chooser, hand_kinds)
            return kind, self._hand_setup(chooser, kind)
        first_kind = self._pick(chooser, self.deal_kinds)
        first = self._hand_setup(chooser, first_kind)
        rng = random.Random(chooser.seed())
        deals = [{k: v for k, v in first.items() if k != "dealer"}]
        deals += [{"seed": rng.getrandbits(64)} for _ in range(GAME_DEALS - 1)]
        if self.explicit_deals and rng.randrange(EXPLICIT_DEALS_ONE_IN) == 0:
            # later deals as explicit hands, the 1-card entry at a seat drawn blind: opposite the Dealer the game
            # reaches, the game plays on; elsewhere the move that ends the hand before it is refused (bad-setup);
            # and a game given too few deals for the hands it needs
            for i in range(1, len(deals)):
                if rng.randrange(2):
                    deals[i] = {"hands": _explicit_hands(rng, rng.randrange(4))}
            if rng.randrange(4) == 0:
                deals = deals[:1 + rng.randrange(4)]
        return GAME_KIND, {"game": {"first_dealer": first["dealer"], "deals": deals}}

    @property
    def deal_kinds(self) -> tuple[str, ...]:
        """The kinds a game's first deal is drawn from: the campaign's hand kinds (all, with games only)."""
        return tuple(k for k in self.setup_kinds if k != GAME_KIND) or self.hand_kinds

    @staticmethod
    def _pick(chooser: Chooser, kinds: tuple[str, ...]) -> str:
        pick = chooser.below(sum(SETUP_WEIGHTS[k] for k in kinds))
        for k in kinds:
            if pick < SETUP_WEIGHTS[k]:
                return k
            pick -= SETUP_WEIGHTS[k]
        return kinds[-1]

    def game_opening(self, choices: list[int], mode_len: int, setup_len: int, kind: str, seed: int) -> list[int] | None:
        """The choices of a game whose first hand is the single hand of ``choices`` (its setup of ``kind``
        drawn from ``choices[mode_len:setup_len]``, then its playout's draws), played on with the later deals
        seeded from ``seed``: the reference replays that hand as the game's first (None if games or that
        kind of first deal are not played)."""
        if GAME_KIND not in self.setup_kinds or kind not in self.deal_kinds or len(self.setup_kinds) < 2:
            return None
        # a hand's choices: whether a game (no), its kind, its setup; a game's: yes (0), its first deal's kind and
        # setup (the same draws), the later deals' seed
        return [*choices[:mode_len], 0, *choices[mode_len + 1:setup_len], seed, *choices[setup_len:]]

    def _hand_setup(self, chooser: Chooser, kind: str) -> dict[str, Any]:
        dealer = chooser.below(4)
        seed = chooser.seed()
        if kind == "seed":
            return {"dealer": dealer, "seed": seed}
        deck = list(CANONICAL_DECK)
        random.Random(seed).shuffle(deck)
        if kind == "deck":
            return {"dealer": dealer, "deck": " ".join(deck)}
        dreamer = (dealer + 2) % 4
        if kind == "tigers":
            holder = (dealer, (dealer + 1) % 4, (dealer + 3) % 4)[chooser.below(3)]
            # half the time the Five Tigers; else the four suited 1s without Wan Sin (almost the
            # Five Tigers), or four of the five with the fifth as the Dreamer's card
            variant = chooser.below(4)
            tigers: tuple[str, ...] = FIVE_TIGERS[:4] if variant == 2 else FIVE_TIGERS
            hands: list[list[str]] = [[], [], [], []]
            if variant == 3:
                dreamer_card = FIVE_TIGERS[chooser.below(5)]
                hands[dreamer] = [dreamer_card]
                tigers = tuple(c for c in FIVE_TIGERS if c != dreamer_card)
            rest = [c for c in deck if c not in FIVE_TIGERS or (c not in tigers and c not in hands[dreamer])]
            hands[holder] = list(tigers)
            for seat in range(4):
                want = 1 if seat == dreamer else 12
                while len(hands[seat]) < want:
                    hands[seat].append(rest.pop())
        else:
            hands = [[], [], [], []]
            for seat in range(4):
                want = 1 if seat == dreamer else 12
                hands[seat] = [deck.pop() for _ in range(want)]
        return {"dealer": dealer, "hands": [card_text(h) for h in hands]}

    def maybe_probe(self, state: Message, chooser: Chooser) -> tuple[int, str] | None:
        """A probe to try before the next action in ``state``, or None (no probe drawn, or none found)."""
        if self.probe_percent and chooser.below(100) >= 100 - self.probe_rate(state):
            return self.probe(state, chooser)
        return None

    def probe_rate(self, state: Message) -> int:
        """Percent of steps that probe: ``probe_percent``; at least :data:`PATTERN_PROBE_PERCENT` while a
        Run or a Set is on the table, where the rare refusals are (a Run or Set that does not beat it)."""
        plays = (state.get("round") or {}).get("plays") or []
        if plays and len(plays[0]["action"].split()) > 2:
            return max(self.probe_percent, PATTERN_PROBE_PERCENT)
        return self.probe_percent

    @staticmethod
    def pick(state: Message, chooser: Chooser) -> tuple[int, str]:
        """Uniform over the concrete actions and the discard option; then a uniform discard."""
        legal = state["legal"]
        actions = legal["actions"]
        option = legal["discard"]
        n = len(actions) + (1 if option is not None else 0)
        if n == 0:
            raise FuzzerError(f"seat {state['to_act']} is to act but has no legal action")
        pick = chooser.below(n)
        if pick < len(actions):
            return state["to_act"], actions[pick]
        pool = cards(option["from"])
        chosen = []
        for _ in range(option["count"]):
            chosen.append(pool.pop(chooser.below(len(pool))))
        return state["to_act"], "discard " + card_text(chosen)

    @staticmethod
    def is_legal(state: Message, seat: int, action: str) -> bool:
        if seat != state["to_act"]:
            return False
        legal = state["legal"]
        if action in {normalize_action(a) for a in legal["actions"]}:
            return True
        option = legal["discard"]
        parts = action.split()
        if option is None or parts[0] != "discard":
            return False
        chosen = parts[1:]
        return len(chosen) == option["count"] and set(chosen) <= set(cards(option["from"]))

    def near_miss(self, state: Message, chooser: Chooser) -> str | None:
        """A play close to a legal one: leading, one of the seat's cards the state lists as Elders;
        following, cards of the lead's size that the reference classifies as the lead's pattern."""
        seat = state["to_act"]
        held = cards(state["hands"][seat])
        plays = [p for p in ((state.get("round") or {}).get("plays") or []) if p["action"].startswith("play ")]
        if not plays:
            elders = [c for c in held if c in set(cards(state["elders"] or ""))]
            return f"play {elders[chooser.below(len(elders))]}" if elders else None
        lead = plays[0]["action"].split()[1:]
        if len(lead) > len(held):
            return None
        want = self.classify(" ".join(lead))
        misses = []
        combos = list(itertools.combinations(held, len(lead)))
        picked = random.Random(chooser.below(1 << 30)).sample(combos, min(len(combos), 48))
        legal: set[str] | None = None  # the seat's legal actions, normalized once (only if a combination is asked)
        for chosen in picked:
            text = card_text(list(chosen))
            if self.classify(text) != want:
                continue
            if legal is None:
                legal = {normalize_action(a) for a in state["legal"]["actions"]}
            action = "play " + text
            if normalize_action(action) not in legal:  # is_legal for a play of the seat to act
                misses.append(action)
        return misses[chooser.below(len(misses))] if misses else None

    def classify(self, text: str) -> str:
        """The reference's pattern for ``text`` (asked once per card list)."""
        kind = self._kinds.get(text)
        if kind is None:
            answer = self.ask({"cmd": "pattern", "classify": text, "options": dict(self.options)})
            kind = self._kinds[text] = str(answer.get("pattern")) if answer.get("ok") else "none"
        return kind

    def probe(self, state: Message, chooser: Chooser) -> tuple[int, str] | None:
        """An action the reference must refuse, or None if the draw happened to be legal."""
        to_act = state["to_act"]
        hands = state["hands"]
        kind = chooser.below(7)
        plays = (state.get("round") or {}).get("plays") or []
        if kind != 6 and plays and len(plays[0]["action"].split()) > 2 and chooser.below(4):
            kind = 6  # a Run or a Set on the table: mostly, try one of the same kind that does not beat it
        elif kind != 6 and not plays and state["phase"] == "playing" and chooser.below(2):
            kind = 6  # a lead: half the time, an Elder the lead rules may forbid (ELD-4, ELD-5)
        seat = to_act
        if kind == 0:  # the wrong seat, the Dreamer included, tries a legal-looking action
            seat = (to_act + 1 + chooser.below(3)) % 4
            _s, action = self.pick(state, chooser)
        elif kind == 1:  # a verb of another phase
            action = VERBS_ALONE[chooser.below(len(VERBS_ALONE))]
        elif kind in (2, 3):  # cards of the seat's hand, as a play or a discard of some size
            held = cards(hands[seat])
            if not held:
                return None
            size = 1 + chooser.below(min(4, len(held)))
            chosen = [held.pop(chooser.below(len(held))) for _ in range(size)]
            verb = "play" if kind == 2 else "discard"
            action = f"{verb} {card_text(chosen)}"
        elif kind == 4:  # a card the seat does not hold
            holding = set(cards(hands[seat]))
            others = [c for c in CANONICAL_DECK if c not in holding]
            action = f"{('play', 'discard')[chooser.below(2)]} {others[chooser.below(len(others))]}"
        elif kind == 6:  # near misses: an Elder led, or a follow of the lead's pattern kind and size
            near = self.near_miss(state, chooser)
            if near is None:
                return None
            action = near
        else:  # text that is not an action
            action = ("play", "discard Sup0", "play Sup3 Sup3", "fold", "call Sup1")[chooser.below(5)]
        if kind != 5:
            action = normalize_action(action)
            if self.is_legal(state, seat, action):
                return None
        return seat, action


def _explicit_hands(rng: random.Random, single: int) -> list[str]:
    """A deal of explicit hands with the 1-card entry at seat ``single``."""
    deck = list(CANONICAL_DECK)
    rng.shuffle(deck)
    return [card_text([deck.pop() for _ in range(1 if seat == single else 12)]) for seat in range(4)]
