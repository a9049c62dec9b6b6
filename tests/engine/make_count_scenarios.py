"""Perft over the independent oracle, and the generator of the COUNT scenarios.

The expectations of ``conformance/scenarios/counts/*.yaml`` come from here, never
from the reference engine: :func:`oracle_perft` walks every legal action
sequence of an :class:`oracle.OracleHand` (tests/engine/oracle.py, written from
the rules text and importing nothing from ``reference_engine``), with legal
actions found the oracle's way: every subset of the acting seat's hand is put
to the oracle's ``is_legal_play`` and ``is_legal_discard``, so each concrete
discard is one action (spec/PROTOCOL.md, ``count``).

Each scenario below also carries the depth-1 (and often depth-2) numbers worked
out by hand in its notes; generating asserts that the oracle agrees with them.

Run ``python3 tests/engine/make_count_scenarios.py`` to rewrite the YAML
(``--check`` only compares). tests/conformance/test_counts_independent.py
recomputes the cheap depths of every count scenario with the same perft.
"""

from __future__ import annotations

import copy
import importlib.util
import os
import sys
import time
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Mapping, Sequence

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = REPO / "conformance" / "scenarios" / "counts"
SCHEMA = REPO / "spec" / "schema" / "scenario.schema.json"

if __package__:
    from . import oracle as O
else:  # run as a script, or loaded by path from the conformance tests: load oracle.py by path too
    _NAME = "hakka_count_oracle"
    if _NAME in sys.modules:
        O = sys.modules[_NAME]
    else:
        _spec = importlib.util.spec_from_file_location(_NAME, HERE / "oracle.py")
        assert _spec is not None and _spec.loader is not None
        O = importlib.util.module_from_spec(_spec)
        sys.modules[_NAME] = O  # dataclasses look their module up while the file runs
        _spec.loader.exec_module(O)

Action = tuple[str, frozenset]  # ("play" | "discard" | "call" | ..., cards)


# ------------------------------------------------------------------ oracle perft


def _clone(hand: O.OracleHand) -> O.OracleHand:
    c = copy.copy(hand)
    c.hands = [set(h) for h in hand.hands]
    c.face_up = set(hand.face_up)
    c.discarded = set(hand.discarded)
    c.tricks = list(hand.tricks)
    c.round = list(hand.round)
    return c


class OraclePerft:
    """Legal actions and perft of oracle hands under one set of options.

    Legal plays and discards of a playing seat are a pure function of the
    oracle's ``Facts`` (hand, PP or not, leading, the pattern to beat and
    whether it was an Elder, the Elders); they are computed once per distinct
    facts, by trying every non-empty subset of the hand.
    """

    def __init__(self) -> None:
        self._cache: dict[Any, list[Action]] = {}

    def legal(self, hand: O.OracleHand) -> list[Action]:
        if hand.phase == "ended":
            return []
        if hand.phase != "playing":
            return [(verb, frozenset()) for verb in sorted(hand.simple_actions())]
        facts = hand.facts()
        key = (
            tuple(sorted(facts.options.items())),
            frozenset(facts.hand),
            facts.is_pp,
            facts.leading,
            facts.target,
            facts.target_was_elder,
            frozenset(facts.elders),
        )
        found = self._cache.get(key)
        if found is None:
            option = O.discard_option(facts)
            held = sorted(facts.hand, key=O.canonical_key)
            found = []
            for k in range(1, len(held) + 1):
                for combo in combinations(held, k):
                    cards = frozenset(combo)
                    if O.is_legal_play(cards, facts):
                        found.append(("play", cards))
                    if O.is_legal_discard(cards, facts, option):
                        found.append(("discard", cards))
            self._cache[key] = found
        return found

    @staticmethod
    def child(hand: O.OracleHand, action: Action) -> O.OracleHand:
        verb, cards = action
        c = _clone(hand)
        seat = c.to_act
        assert seat is not None
        if verb in ("play", "discard"):
            c._play(seat, verb, cards)  # legality was just established subset by subset
        else:
            c.apply(seat, verb)
        return c

    def perft(self, hand: O.OracleHand, depth: int) -> int:
        """Sequences of exactly ``depth`` legal actions (an ended hand has none)."""
        actions = self.legal(hand)
        if depth == 1:
            return len(actions)
        return sum(self.perft(self.child(hand, a), depth - 1) for a in actions)

    def counts(self, hand: O.OracleHand, depth: int) -> list[int]:
        """``[perft 1, ..., perft depth]`` in one walk."""
        totals = [0] * depth

        def walk(h: O.OracleHand, level: int) -> None:
            actions = self.legal(h)
            totals[level] += len(actions)
            if level + 1 < depth:
                for a in actions:
                    walk(self.child(h, a), level + 1)

        walk(hand, 0)
        return totals


def parse_cards(text: str) -> frozenset:
    return frozenset(O.card_from_name(n) for n in text.split())


def parse_action(text: str) -> Action:
    verb, *rest = text.split()
    return verb, parse_cards(" ".join(rest)) if rest else frozenset()


def oracle_hand(
    setup: Mapping[str, Any], prefix: Sequence[Mapping[str, Any]], options: Mapping[str, str]
) -> O.OracleHand:
    """The oracle hand of a count scenario's setup (explicit hands) after its prefix."""
    dealt = [parse_cards(h) for h in setup["hands"]]
    hand = O.OracleHand(setup["dealer"], dealt, dict(options))
    for step in prefix:
        verb, cards = parse_action(step["do"])
        hand.apply(step["seat"], verb, cards)  # the oracle checks the prefix's legality
    return hand


def scenario_options(requires: Any) -> dict[str, str]:
    return {} if requires in (None, "defaults") else dict(requires)


# ------------------------------------------------------------------ the deals

# By seat; the Dreamer (dealer + 2) holds one card. Several are the deals of
# hand-worked scenarios elsewhere in the corpus (named), the rest are new shapes.
DEALS: dict[str, dict[str, Any]] = {
    # hands/dealers.yaml hand-dealer0-last-seat-calls-dealer-wins: three suited 1s and Wan Sin
    "ones": {"dealer": 0, "hands": [
        "Sup1 Sup4 Sup9 Gon1 Gon3 Gon5 Zok1 Zok2 Zok6 Sin7 Sin9 WanSin",
        "Sup2 Sup3 Sup8 Gon2 Gon4 Gon8 Zok3 Zok4 Zok8 Sin2 Sin3 Sin8",
        "Sin4",
        "Sup5 Sup6 Sup7 Gon6 Gon7 Gon9 Zok5 Zok7 Zok9 Sin1 Sin5 Sin6"]},
    # hands/dealers.yaml hand-dealer1-next-seat-calls-and-wins
    "pp1": {"dealer": 1, "hands": [
        "Sup4 Sup6 Gon8 Gon9 Zok1 Zok7 Zok8 Sin5 Sin7 Sin8 Sin9 WanSin",
        "Sup1 Sup3 Sup5 Sup7 Sup8 Gon1 Gon2 Zok4 Zok5 Zok6 Sin1 Sin3",
        "Sup9 Gon3 Gon4 Gon5 Gon6 Gon7 Zok2 Zok3 Zok9 Sin2 Sin4 Sin6",
        "Sup2"]},
    # hands/dealers.yaml hand-dealer2-calls-seat1-overbeats
    "overbeat2": {"dealer": 2, "hands": [
        "Sin6",
        "Sup1 Sup5 Sup6 Sup7 Gon6 Gon8 Zok6 Zok8 Sin2 Sin4 Sin9 WanSin",
        "Sup8 Sup9 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok7 Zok9 Sin1 Sin3",
        "Sup2 Sup3 Sup4 Gon1 Gon2 Gon3 Gon4 Gon5 Gon7 Sin5 Sin7 Sin8"]},
    # hands/dealers.yaml hand-dealer3-seat2-calls-seat0-wins: four 3s
    "third3": {"dealer": 3, "hands": [
        "Sup2 Sup5 Sup9 Gon2 Gon5 Gon9 Zok5 Zok7 Sin1 Sin4 Sin6 Sin8",
        "Sup7",
        "Sup8 Gon1 Gon6 Gon7 Zok2 Zok6 Zok8 Zok9 Sin5 Sin7 Sin9 WanSin",
        "Sup1 Sup3 Sup4 Sup6 Gon3 Gon4 Gon8 Zok1 Zok3 Zok4 Sin2 Sin3"]},
    # decisions/patterns.yaml dec-d7-any-suit-follow-legal
    "anysuit": {"dealer": 0, "hands": [
        "Gon1 Gon3 Gon4 Gon6 Gon7 Gon9 Zok1 Zok2 Zok5 Sin2 Sin3 WanSin",
        "Sup2 Sup3 Sup4 Sup5 Gon8 Zok3 Zok4 Zok6 Sin1 Sin4 Sin5 Sin8",
        "Sin7",
        "Sup1 Sup6 Sup7 Sup8 Sup9 Gon2 Gon5 Zok7 Zok8 Zok9 Sin6 Sin9"]},
    # decisions/play.yaml dec-d9-exempt-wansin-leadable: a top suit of Elders only
    "exempt": {"dealer": 0, "hands": [
        "Sup1 Sup9 Gon3 Gon5 Gon9 Zok2 Zok4 Zok6 Sin3 Sin5 Sin7 WanSin",
        "Sup2 Sup3 Sup4 Sup5 Gon1 Gon2 Gon4 Zok1 Zok3 Zok5 Sin1 Sin2",
        "Sin4",
        "Sup6 Sup7 Sup8 Gon6 Gon7 Gon8 Zok7 Zok8 Zok9 Sin6 Sin8 Sin9"]},
    # decisions/claim-scoring.yaml dec-d24-declared-tigers: seat 3 holds the Five Tigers
    "tigers": {"dealer": 0, "hands": [
        "Sup3 Sup4 Sup5 Sup6 Sup8 Sup9 Gon3 Gon4 Gon5 Gon6 Gon8 Gon9",
        "Zok3 Zok4 Zok5 Zok6 Zok8 Zok9 Sin3 Sin4 Sin5 Sin6 Sin8 Sin9",
        "Gon7",
        "Sup1 Sup2 Sup7 Gon1 Gon2 Zok1 Zok2 Zok7 Sin1 Sin2 Sin7 WanSin"]},
    # hands/privileged.yaml hand-pp-leads-wan-sin-then-loses
    "ppwansin": {"dealer": 3, "hands": [
        "Sup5 Sup6 Sup7 Sup8 Gon2 Gon3 Gon4 Zok2 Zok3 Sin2 Sin3 WanSin",
        "Sin7",
        "Gon1 Gon6 Gon7 Gon8 Zok4 Zok5 Zok7 Zok9 Sin1 Sin4 Sin5 Sin9",
        "Sup1 Sup2 Sup3 Sup4 Sup9 Gon5 Gon9 Zok1 Zok6 Zok8 Sin6 Sin8"]},
    # hands/claims.yaml hand-claim-6-run-plus-three-elders
    "claim6": {"dealer": 1, "hands": [
        "Sup1 Sup6 Sup8 Gon8 Zok8 Zok9 Sin1 Sin3 Sin6 Sin7 Sin8 Sin9",
        "Sup2 Sup3 Sup4 Sup9 Gon2 Gon4 Gon6 Gon9 Zok2 Zok4 Zok6 WanSin",
        "Sup5 Sup7 Gon1 Gon3 Gon5 Gon7 Zok1 Zok3 Zok5 Zok7 Sin2 Sin4",
        "Sin5"]},
    # new: the Dealer holds a Run of seven Sups; runs in every hand
    "runs": {"dealer": 1, "hands": [
        "Sup1 Sup9 Gon1 Gon2 Gon3 Zok6 Zok7 Zok8 Sin4 Sin5 Sin6 Sin7",
        "Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon4 Gon5 Gon6 Zok9 Sin9",
        "Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Sin1 Sin2 Sin3 WanSin",
        "Sin8"]},
    # new: the Dealer holds all seven initial Elders; its top suit Sup is Sup1 Sup9
    "elders": {"dealer": 3, "hands": [
        "Sup2 Sup3 Sup4 Gon2 Gon3 Gon4 Zok1 Zok2 Zok3 Sin2 Sin3 Sin4",
        "Sin8",
        "Sup5 Sup6 Sup7 Sup8 Gon5 Gon6 Zok4 Zok5 Zok6 Sin5 Sin6 Sin7",
        "Sup1 Sup9 Gon1 Gon7 Gon8 Gon9 Zok7 Zok8 Zok9 Sin1 Sin9 WanSin"]},
    # new: seat 3 holds Gon1 Zok1 Sin1 and Wan Sin (not the Five Tigers: Sup1 is seat 1's)
    "oneswan": {"dealer": 2, "hands": [
        "Sin7",
        "Sup1 Sup9 Gon2 Gon3 Gon4 Gon9 Zok6 Zok7 Zok9 Sin5 Sin6 Sin9",
        "Sup2 Sup3 Sup4 Sup8 Gon5 Gon6 Gon7 Gon8 Zok2 Zok8 Sin2 Sin8",
        "Sup5 Sup6 Sup7 Gon1 Zok1 Zok3 Zok4 Zok5 Sin1 Sin3 Sin4 WanSin"]},
}


@dataclass
class Spec:
    id: str
    file: str
    title: str
    deal: str
    prefix: list[tuple[int, str]]
    requires: Any  # "defaults" or {decision: option}
    depth: int
    clauses: list[str]
    hand: dict[int, int]  # depth -> count worked out by hand in the notes
    notes: str
    twin: str | None = None  # the defaults scenario with the same deal and prefix
    counts: list[int] = field(default_factory=list)


# The phrase every count scenario's notes carry (tests/conformance/test_counts_independent.py looks for it).
ORACLE_PHRASE = "Counts from the independent oracle (tests/engine/oracle.py), depth 1 checked by hand"
ORACLE_LINE = ORACLE_PHRASE + "{more}.\nThe perft over the oracle is in tests/engine/make_count_scenarios.py."


CALL = [(0, "call")]

SPECS: list[Spec] = [
    # ------------------------------------------------------------ from Calling
    Spec(
        id="count-calling-dealer0-set-of-ones",
        file="calling.yaml",
        title="Dealer 0 from Calling: call or pass, then a Set of 1s or Sup4, forced discards (depth 4)",
        deal="ones", prefix=[], requires="defaults", depth=4,
        clauses=["CALL-1", "CALL-3", "CALL-5", "CALL-6", "PLAY-1", "PAT-4", "PAT-5", "ELD-4", "PLAY-4"],
        hand={1: 2, 2: 4, 3: 225, 4: 48635},
        notes="""\
Dealer 0, Dreamer 2; calling order 0 -> 1 -> 3.
Depth 1: the Dealer calls or passes (CALL-1): 2.
Depth 2: after the call the Dealer leads (PLAY-1): no Run (Gon3 Gon5, Zok1 Zok2, Sin7 Sin9), one
Set (Sup1 Gon1 Zok1; Wan Sin joins no Set under D17 no, Sin1 is seat 3's), and one Single: its
top suit Sup holds the Elders Sup1, Sup9 and the non-Elder Sup4, so Sup4 only (PAT-5, ELD-4): 2.
After the pass seat 1 calls or passes: 2. Total 4.
Depth 3: Sup4 -> seat 1 must beat it with a higher Sup: Sup8 only (1); the Set of 1s is beaten
only by a Set of 9s (PAT-4) and seat 1 has no 9: any 3 of its 12 cards, C(12,3) = 220;
pass, call -> seat 1 is the PP but the Dealer leads (D6), the same 2 leads; pass, pass -> seat 3
calls or passes (2). 1 + 220 + 2 + 2 = 225.
Depth 4: Sup4, Sup8 -> seat 3 (Sup5-7) cannot beat Sup8: 12 discards; each of the 220 -> seat 3
(Gon9, Zok9: no Set of 9s) discards 3: 220 x 220 = 48400; pass, call, Sup4 -> Sup8 (1); pass,
call, Set -> 220; pass, pass, call -> the Dealer's 2 leads; pass, pass, pass -> a void hand,
nothing more (CALL-6). 12 + 48400 + 1 + 220 + 2 = 48635.""",
    ),
    Spec(
        id="count-calling-dealer1-pp",
        file="calling.yaml",
        title="Dealer 1 from Calling: a Run, a Set of 1s, four Sups; a PP after pass-call (depth 4)",
        deal="pp1", prefix=[], requires="defaults", depth=4,
        clauses=["CALL-1", "CALL-3", "CALL-4", "PLAY-1", "PAT-1", "PAT-4", "PAT-5", "ELD-4", "PLAY-3", "PLAY-4"],
        hand={1: 2, 2: 8, 3: 235},
        notes="""\
Dealer 1, Dreamer 3; calling order 1 -> 2 -> 0.
Depth 1: call, pass = 2.
Depth 2: after the call the Dealer leads: Runs Zok4 Zok5 Zok6 (1; Sup7 Sup8 are only two);
Sets: Sup1 Gon1 Sin1 (1; pairs of 3s and 5s are not Sets); Singles of the top suit Sup that are
not Elders: Sup3 Sup5 Sup7 Sup8 (Sup1 is an Elder) = 4; 6 leads. After the pass seat 2 calls or
passes (2). Total 8.
Depth 3: after the Zok Run seat 2 must beat it: no higher Zok Run, but Gon3-7 gives three Gon Runs
of 3 (Gon above Zok, PAT-2) = 3; after the Set of 1s only a Set of 9s beats, seat 2 has Sup9 Zok9
only: C(12,3) = 220 discards; after Sup3, Sup5, Sup7 or Sup8 seat 2 beats with Sup9 (1 each) = 4.
Pass, call: seat 2 is the PP, the Dealer still leads (D6 dealer): 6. Pass, pass: seat 0 calls or
passes: 2. 3 + 220 + 4 + 6 + 2 = 235.""",
    ),
    Spec(
        id="count-calling-dealer1-pp-d6-privileged-player",
        file="calling.yaml",
        title="D6 privileged-player: after pass-call the PP leads first, so depth 3 differs (237 vs 235)",
        deal="pp1", prefix=[], requires={"D6": "privileged-player"}, depth=4,
        clauses=["CALL-4", "PLAY-1", "ELD-5", "PAT-1", "PAT-5"],
        hand={1: 2, 2: 8, 3: 237},
        twin="count-calling-dealer1-pp",
        notes="""\
The deal of count-calling-dealer1-pp; nobody has led yet at depths 1 and 2.
Depth 1: call, pass = 2. Depth 2: the Dealer's 6 leads after the call + 2 after the pass = 8.
Depth 3 differs only after pass, call: the PP (seat 2) leads first instead of the Dealer. Its
leads: the Runs of Gon3-7 (three of 3, two of 4, one of 5 = 6), no Set (only pairs), and as
Singles its top suit Sup holds only Sup9, an Elder, so Sup9 (D10 top-suit-elder) plus any Elder
by privilege (ELD-5, D11 any-elder): Sup9, Zok9 = 2; 8 leads against the Dealer's 6.
3 + 220 + 4 + 8 + 2 = 237 (default 235). Deeper counts differ accordingly.""",
    ),
    Spec(
        id="count-calling-dealer2-ones-and-wan-sin",
        file="calling.yaml",
        title="Dealer 2 from Calling: Sets of 8s, Runs, Sups; a follower with three suited 1s (depth 4)",
        deal="oneswan", prefix=[], requires="defaults", depth=4,
        clauses=["CALL-1", "GAME-5", "PLAY-1", "PAT-1", "PAT-2", "PAT-3", "PAT-4", "PAT-5", "PAT-6", "PLAY-4"],
        hand={1: 2, 2: 16, 3: 1035},
        notes="""\
Dealer 2, Dreamer 0; calling order 2 -> 3 -> 1 (the Dreamer is skipped, GAME-5).
Depth 1: call, pass = 2.
Depth 2: the Dealer's leads: Sets of 8s (four of 3 cards + Sup8 Gon8 Zok8 Sin8) = 5 and Sup2 Zok2
Sin2 = 1; Runs Sup2-4 = 1 and in Gon5-8: Gon5-7, Gon6-8, Gon5-8 = 3; Singles Sup2 Sup3 Sup4 Sup8
(Sup8 is no Elder while Sup9 is unplayed) = 4: 14 leads. Pass: seat 3 calls or passes (2). 16.
Depth 3 (seat 3 follows): a Set of three 8s -> Gon1 Zok1 Sin1 (1s beat 8s, PAT-4) = 1 each (4);
the four 8s -> no four-card Set (Wan Sin is no 1 in Sets, D17 no): C(12,4) = 495; the 2s -> the
Set of 1s (1); Sup2-4 -> Sup5-7 (1); Gon5-7, Gon6-8 -> Sup5-7 (1 each); Gon5-8 -> no Run of 4:
495; Sup2, Sup3, Sup4 -> Sup5 Sup6 Sup7 (3 each); Sup8 -> no higher Sup: 12 discards. That is
4 + 495 + 1 + 1 + 2 + 495 + 9 + 12 = 1019; pass, call -> the Dealer's 14 leads; pass, pass ->
seat 1 calls or passes (2). 1019 + 14 + 2 = 1035.""",
    ),
    Spec(
        id="count-calling-dealer3-four-threes",
        file="calling.yaml",
        title="Dealer 3 from Calling: five Sets of 3s (one of four cards), a Set of 4s, three Sups (depth 4)",
        deal="third3", prefix=[], requires="defaults", depth=4,
        clauses=["CALL-1", "GAME-5", "PLAY-1", "PAT-3", "PAT-4", "PAT-5", "PAT-6", "PLAY-3", "PLAY-4"],
        hand={1: 2, 2: 11, 3: 516},
        notes="""\
Dealer 3, Dreamer 1; calling order 3 -> 0 -> 2.
Depth 1: call, pass = 2.
Depth 2: the Dealer's leads: no Run (Sup3 Sup4, Gon3 Gon4, Zok3 Zok4 are pairs); Sets of 3s from
Sup3 Gon3 Zok3 Sin3: four of three cards + one of four = 5; Sup4 Gon4 Zok4 = 1; Singles of Sup
that are not Elders: Sup3 Sup4 Sup6 = 3 (Sup1 is an Elder). 9 leads + (pass: seat 0 calls or
passes) 2 = 11.
Depth 3 (seat 0 follows): each Set of three 3s -> Sup5 Gon5 Zok5 (1; Sup9 Gon9 are two) = 4; the
four 3s -> no Set of four: C(12,4) = 495; the 4s -> the 5s (1); Sup3, Sup4 -> Sup5 or Sup9 (2
each); Sup6 -> Sup9 (1). 4 + 495 + 1 + 5 = 505; pass, call -> the Dealer's 9 leads; pass, pass
-> seat 2 calls or passes (2). 505 + 9 + 2 = 516.""",
    ),
    Spec(
        id="count-calling-dealer1-seven-sup-run",
        file="calling.yaml",
        title="Dealer 1 from Calling: a Run of seven Sups gives 15 Run leads; followers discard up to 7 cards (depth 4)",
        deal="runs", prefix=[], requires="defaults", depth=4,
        clauses=["CALL-1", "PLAY-1", "PAT-1", "PAT-2", "PAT-5", "PLAY-3", "PLAY-4"],
        hand={1: 2, 2: 25, 3: 8206},
        notes="""\
Dealer 1, Dreamer 3; calling order 1 -> 2 -> 0.
Depth 1: call, pass = 2.
Depth 2: the Dealer's leads: Runs inside Sup2-8: 5 of length 3, 4 of 4, 3 of 5, 2 of 6, 1 of 7 =
15, and Gon4 Gon5 Gon6 = 1; no Set (4s, 5s, 6s, 9s are pairs); Singles Sup2..Sup8 = 7 (none an
Elder: Sup9 is unplayed). 23 leads + (pass: seat 2 calls or passes) 2 = 25.
Depth 3 (seat 2 follows, it holds no Sup): a Sup Run of length L can only be discarded on,
C(12,L) ways: 5 x 220 + 4 x 495 + 3 x 792 + 2 x 924 + 1 x 792 = 8096; Gon4-6 -> Gon7 Gon8 Gon9
(1); each Sup Single -> 12 discards (84). 8181; pass, call -> the Dealer's 23 leads; pass, pass
-> seat 0 calls or passes (2). 8181 + 23 + 2 = 8206.""",
    ),
    Spec(
        id="count-calling-dealer0-five-tigers",
        file="claim-tigers.yaml",
        title="Five Tigers (D24 automatic): a call ends the hand at once, so the counts die out (2, 2, 2, 0)",
        deal="tigers", prefix=[], requires="defaults", depth=5,
        clauses=["TIG-1", "CALL-1", "CALL-5", "CALL-6"],
        hand={1: 2, 2: 2, 3: 2, 4: 0, 5: 0},
        notes="""\
Dealer 0, Dreamer 2; seat 3 holds Sup1 Gon1 Zok1 Sin1 Wan Sin (the Five Tigers).
Depth 1: the Dealer calls or passes: 2.
Depth 2: after any call the Five Tigers win at once (TIG-1, D24 automatic): the hand has ended
and offers nothing (0); after the pass seat 1 calls or passes (2). Total 2.
Depth 3: pass, call -> ended (0); pass, pass -> seat 3 calls or passes (2). Total 2.
Depth 4: pass, pass, call -> ended; pass, pass, pass -> a void hand (CALL-6). 0, and 0 after.""",
    ),
    Spec(
        id="count-calling-dealer0-five-tigers-d24-declared",
        file="claim-tigers.yaml",
        title="D24 declared: after a call the holder chooses tigers or decline; decline lets the Dealer lead",
        deal="tigers", prefix=[], requires={"D24": "declared"}, depth=5,
        clauses=["TIG-1", "CALL-1", "PLAY-1", "PAT-1", "PAT-5", "PLAY-4"],
        hand={1: 2, 2: 4, 3: 15, 4: 1943},
        twin="count-calling-dealer0-five-tigers",
        notes="""\
The deal of count-calling-dealer0-five-tigers, where the counts die out after a call.
Depth 1: call, pass = 2.
Depth 2: after the call seat 3 (the holder) chooses tigers or decline (2); after the pass seat 1
calls or passes (2). 4 (default 2).
Depth 3: call, tigers -> ended (0); call, decline -> the Dealer leads: Runs in Sup3-6 and in
Gon3-6, three each (6), no Set (only pairs), Singles Sup3 Sup4 Sup5 Sup6 Sup8 (5; Sup9 is an
Elder): 11; pass, call -> tigers or decline (2); pass, pass -> seat 3 calls or passes (2). 15.
Depth 4: after the decline seat 1 (Zoks and Sins only) can beat nothing: the Runs of 3 give 220
discards (four of them), the Runs of 4 give 495 (two), each Sup Single 12 (five): 1930; pass,
call, decline -> the Dealer's 11 leads; pass, pass, call -> tigers or decline (2); pass, pass,
pass -> void. 1930 + 11 + 2 = 1943.""",
    ),
    # ------------------------------------------------------------ the leader's choices
    Spec(
        id="count-lead-set-of-ones-after-call",
        file="leads.yaml",
        title="After the Dealer's call: Sup4 or the Set of 1s; each discard of three counted (depth 4)",
        deal="ones", prefix=CALL, requires="defaults", depth=4,
        clauses=["PLAY-1", "PLAY-2", "PAT-4", "PAT-5", "ELD-4", "PLAY-4", "PLAY-6", "CLAIM-1"],
        hand={1: 2, 2: 221, 3: 48412, 4: 96860},
        notes="""\
The deal of count-calling-dealer0-set-of-ones, after the Dealer's call.
Depth 1: Sup4 (the only non-Elder of the top suit Sup) and Sup1 Gon1 Zok1 = 2.
Depth 2: Sup4 -> seat 1 must beat: Sup8 (1); the Set of 1s -> seat 1 has no Set of 9s: 220.
221.
Depth 3: Sup4, Sup8 -> seat 3 cannot beat Sup8: 12; the Set -> seat 3 (Gon9 Zok9 only) discards
too: 220 x 220 = 48400. 48412.
Depth 4: after Sup8 wins, seat 1 (1 trick, no Elder) leads: Sets Sup2 Gon2 Sin2, Sup3 Zok3 Sin3,
Gon8 Zok8 Sin8 and Singles Sup2 Sup3 = 5, times 12 = 60; after the Set of 1s wins, the Dealer
has 3 tricks + Sup9, Sin9, Wan Sin = 6: claim or continue (CLAIM-1), 2 x 48400. 96860.""",
    ),
    Spec(
        id="count-lead-set-of-ones-after-call-d17-yes",
        file="leads.yaml",
        title="D17 yes: Wan Sin joins the Sets of 1s, five Set leads instead of one (6 leads vs 2)",
        deal="ones", prefix=CALL, requires={"D17": "yes"}, depth=3,
        clauses=["PAT-3", "PAT-4", "PLAY-2", "PLAY-4", "CARDS-3"],
        hand={1: 6, 2: 1376, 3: 438637},
        twin="count-lead-set-of-ones-after-call",
        notes="""\
The deal and prefix of count-lead-set-of-ones-after-call (2, 221, ...).
Depth 1: Wan Sin counts as a 1 in Sets (D17 yes): from Sup1 Gon1 Zok1 Wan Sin, four Sets of three
and one of four = 5, plus Sup4: 6 (default 2).
Depth 2: Sup4 -> Sup8 (1); each Set of three 1s -> seat 1 has no 9s: 220 (x4 = 880); the Set
of four 1s -> C(12,4) = 495. 1 + 880 + 495 = 1376.
Depth 3: Sup4 Sup8 -> 12; the Sets of three -> seat 3 (two 9s) 220 x 220 each = 193600; the Set
of four -> 495 x 495 = 245025. 438637.""",
    ),
    Spec(
        id="count-lead-top-suit-of-elders",
        file="leads.yaml",
        title="A Dealer whose top suit holds only Elders (Sup1 Sup9) may lead just those two (D10 top-suit-elder)",
        deal="exempt", prefix=CALL, requires="defaults", depth=6,
        clauses=["PAT-5", "ELD-1", "ELD-3", "ELD-4", "PLAY-2", "PLAY-4"],
        hand={1: 2, 2: 24, 3: 288, 4: 288},
        notes="""\
Dealer 0, Dreamer 2; the Dealer has called. Its hand: Sup1 Sup9 Gon3 Gon5 Gon9 Zok2 Zok4 Zok6 Sin3
Sin5 Sin7 Wan Sin: no Run (every suit has gaps), no Set (3s, 5s, 9s are pairs).
Depth 1: Singles only. The top suit Sup holds only Elders (Sup1, Sup9; ELD-1), so the Dealer
leads an Elder of Sup (D10 top-suit-elder): Sup1, Sup9 = 2.
Depth 2: a led Elder is unbeatable (ELD-3, ELD-6): seat 1 discards 1 of 12: 24.
Depth 3: seat 3 likewise, 12 each: 288.
Depth 4: the Dealer wins 1 trick (+ 3 Elders = 4, no claim) and leads again: its top suit Sup
holds one Elder, the other of Sup1 and Sup9: 1 lead each, 288.""",
    ),
    Spec(
        id="count-lead-top-suit-of-elders-d9-exempt",
        file="leads.yaml",
        title="D9 exempt: the same Dealer may also lead Wan Sin, ignored when finding the top suit (3 leads vs 2)",
        deal="exempt", prefix=CALL, requires={"D9": "exempt"}, depth=6,
        clauses=["PAT-5", "ELD-4", "ELD-3", "CARDS-3"],
        hand={1: 3, 2: 36, 3: 432, 4: 864},
        twin="count-lead-top-suit-of-elders",
        notes="""\
The deal and prefix of count-lead-top-suit-of-elders (2, 24, 288, ...).
Depth 1: under D9 exempt Wan Sin is ignored when finding the top suit (still Sup, only Elders),
and may be led whenever the player may lead an Elder: Sup1, Sup9, Wan Sin = 3.
Depth 2: each is an Elder, unbeatable: 12 discards each = 36.
Depth 3: 36 x 12 = 432.
Depth 4: the Dealer leads again from the two of Sup1, Sup9, Wan Sin it still holds: 864.""",
    ),
    Spec(
        id="count-lead-top-suit-of-elders-d10-any-elder",
        file="leads.yaml",
        title="D10 any-elder: with a top suit of Elders only, any Elder in hand may be led (4 leads vs 2)",
        deal="exempt", prefix=CALL, requires={"D10": "any-elder"}, depth=6,
        clauses=["PAT-5", "ELD-4", "ELD-3", "ELD-1"],
        hand={1: 4, 2: 48, 3: 576, 4: 1728},
        twin="count-lead-top-suit-of-elders",
        notes="""\
The deal and prefix of count-lead-top-suit-of-elders (2, 24, 288, ...).
Depth 1: the top suit Sup holds only Elders, so under D10 any-elder every Elder in hand may be
led: Sup1, Sup9, Gon9, Wan Sin = 4.
Depth 2: all four are Elders, unbeatable: 12 discards each = 48.
Depth 3: 48 x 12 = 576.
Depth 4: the Dealer (1 trick + 3 Elders, no claim) leads again, any of its three other Elders
(Sup8 and Gon8 are seat 3's, so nothing new is promoted into its hand): 1728.""",
    ),
    Spec(
        id="count-lead-seven-elders",
        file="leads.yaml",
        title="A Dealer with all seven initial Elders: Runs to 9, five Sets of 9s, a Set of 1s, Sup1 or Sup9",
        deal="elders", prefix=[(3, "call")], requires="defaults", depth=3,
        clauses=["PLAY-2", "PAT-1", "PAT-2", "PAT-3", "PAT-4", "PAT-5", "ELD-1", "ELD-3", "ELD-4", "PLAY-4"],
        hand={1: 10, 2: 1622},
        notes="""\
Dealer 3, Dreamer 1; the Dealer has called. Its hand: Sup1 Sup9 Gon1 Gon7 Gon8 Gon9 Zok7 Zok8
Zok9 Sin1 Sin9 Wan Sin.
Depth 1: Runs Gon7-9, Zok7-9 (2); Sets of 9s: four of three + one of four (5); Sup1 Gon1 Sin1
(1; Wan Sin is in no Set under D17 no); Singles: the top suit Sup holds only Elders, so Sup1 or
Sup9 (D10 top-suit-elder) (2). 10.
Depth 2 (seat 0 follows): Gon7-9 -> only a Sup Run beats: Sup2-4 (1); Zok7-9 -> Gon2-4 or
Sup2-4 (2); the Sets of 9s cannot be beaten: 4 x 220 + 495; the 1s are beaten only by 9s, seat 0
has none: 220; Sup1 and Sup9 are Elders: 12 each. 1 + 2 + 880 + 495 + 220 + 24 = 1622.""",
    ),
    Spec(
        id="count-lead-seven-elders-d10-any-elder",
        file="leads.yaml",
        title="D10 any-elder: the seven-Elder Dealer may lead any of its seven Elders (15 leads vs 10)",
        deal="elders", prefix=[(3, "call")], requires={"D10": "any-elder"}, depth=3,
        clauses=["PAT-5", "ELD-4", "ELD-3"],
        hand={1: 15, 2: 1682},
        twin="count-lead-seven-elders",
        notes="""\
The deal and prefix of count-lead-seven-elders (10, 1622, ...).
Depth 1: the top suit Sup holds only Elders; under D10 any-elder any Elder may be led: Sup1 Sup9
Gon9 Zok9 Sin1 Sin9 Wan Sin = 7 Singles instead of 2: 15.
Depth 2: the five extra Singles are Elders, unbeatable: 12 discards each: 1622 + 60 = 1682.""",
    ),
    Spec(
        id="count-lead-seven-elders-d17-yes",
        file="leads.yaml",
        title="D17 yes: Wan Sin joins Sup1 Gon1 Sin1 in Sets, four more Set leads (14 vs 10)",
        deal="elders", prefix=[(3, "call")], requires={"D17": "yes"}, depth=3,
        clauses=["PAT-3", "PAT-4", "PLAY-4", "CARDS-3"],
        hand={1: 14, 2: 2777},
        twin="count-lead-seven-elders",
        notes="""\
The deal and prefix of count-lead-seven-elders (10, 1622, ...).
Depth 1: with Wan Sin a 1 in Sets (D17 yes), Sup1 Gon1 Sin1 Wan Sin give four Sets of three and
one of four instead of one Set: 10 + 4 = 14.
Depth 2: each new Set of three 1s -> seat 0 has no 9s: 220 (x3); the four 1s -> 495.
1622 + 660 + 495 = 2777.""",
    ),
    Spec(
        id="count-lead-seven-elders-d9-exempt",
        file="leads.yaml",
        title="D9 exempt: the seven-Elder Dealer may also lead Wan Sin (11 leads vs 10)",
        deal="elders", prefix=[(3, "call")], requires={"D9": "exempt"}, depth=3,
        clauses=["PAT-5", "ELD-4", "CARDS-3"],
        hand={1: 11, 2: 1634},
        twin="count-lead-seven-elders",
        notes="""\
The deal and prefix of count-lead-seven-elders (10, 1622, ...).
Depth 1: Wan Sin is ignored when finding the top suit (Sup, Elders only), and may be led since an
Elder may be (D9 exempt): 10 + 1 = 11.
Depth 2: Wan Sin is an Elder, unbeatable: 12 more discards: 1634.""",
    ),
    Spec(
        id="count-lead-privileged-player",
        file="leads.yaml",
        title="The PP leads after winning a round: Runs, Sets, Sup6-8 and Wan Sin by privilege (ELD-5)",
        deal="ppwansin",
        prefix=[(3, "pass"), (0, "call"), (3, "play Sup2"), (0, "play Sup5"), (2, "discard Zok4")],
        requires="defaults", depth=3,
        clauses=["ELD-5", "ELD-4", "PAT-5", "PLAY-7", "PLAY-2", "PLAY-4"],
        hand={1: 8, 2: 540},
        notes="""\
Dealer 3, Dreamer 1. Seat 3 passes, seat 0 calls (the PP). Round 1: Sup2, Sup5, a discard of
Zok4: seat 0 wins and leads (PLAY-7). Its hand: Sup6 Sup7 Sup8 Gon2 Gon3 Gon4 Zok2 Zok3 Sin2
Sin3 Wan Sin.
Depth 1: Runs Sup6-8, Gon2-4 (2); Sets Gon2 Zok2 Sin2 and Gon3 Zok3 Sin3 (2); Singles: the
non-Elders of the top suit, Sup6 Sup7 Sup8 (Sup9 is unplayed), plus by privilege any Elder in
hand (ELD-5, D11 any-elder): Wan Sin. 8.
Depth 2 (seat 2 follows, 11 cards, no Sup): Sup6-8 -> 165 discards (C(11,3)); Gon2-4 -> Gon6 Gon7
Gon8 (1); the Set of 2s and of 3s -> seat 2's Sets are pairs: 165 each; Sup6, Sup7, Sup8 -> 11
each; Wan Sin, an Elder -> 11. 165 + 1 + 330 + 33 + 11 = 540.""",
    ),
    Spec(
        id="count-lead-privileged-player-d11-top-suit-elder",
        file="leads.yaml",
        title="D11 top-suit-elder: the PP's privilege covers only Elders of its top suit, so no Wan Sin (7 vs 8)",
        deal="ppwansin",
        prefix=[(3, "pass"), (0, "call"), (3, "play Sup2"), (0, "play Sup5"), (2, "discard Zok4")],
        requires={"D11": "top-suit-elder"}, depth=3,
        clauses=["ELD-5", "ELD-4", "PAT-5"],
        hand={1: 7, 2: 529},
        twin="count-lead-privileged-player",
        notes="""\
The deal and prefix of count-lead-privileged-player (8, 540, ...).
Depth 1: under D11 top-suit-elder the PP may add only Elders of its top suit Sup, and it holds
none (Sup9 is seat 3's): Wan Sin is not leadable. 7.
Depth 2: without Wan Sin's 11 discards: 529.""",
    ),
    Spec(
        id="count-lead-seven-sup-run-after-call",
        file="leads.yaml",
        title="After the call with a Run of seven Sups: 23 leads, both followers' discards counted (depth 3)",
        deal="runs", prefix=[(1, "call")], requires="defaults", depth=3,
        clauses=["PAT-1", "PAT-2", "PAT-5", "PLAY-2", "PLAY-3", "PLAY-4"],
        hand={1: 23, 2: 8181, 3: 5439012},
        notes="""\
The deal of count-calling-dealer1-seven-sup-run, after the Dealer's call.
Depth 1: 15 Sup Runs in Sup2-8, Gon4-6, Singles Sup2..Sup8: 23.
Depth 2: seat 2 (no Sup) discards C(12,L) on a Sup Run of length L: 8096; Gon4-6 -> Gon7-9 (1);
12 on each Sup Single (84). 8181.
Depth 3: seat 0 (Sup1 Sup9: no Sup Run) discards C(12,L) again after each Sup Run: 5 x 220^2 +
4 x 495^2 + 3 x 792^2 + 2 x 924^2 + 792^2 = 5438708; after Gon7-9 it cannot beat (no Sup Run,
Gon1-3 is lower): 220; after a Sup Single and a discard it must beat with Sup9 (Sup1 never
beats, ELD-6): 7 x 12 = 84. 5438708 + 220 + 84 = 5439012.""",
    ),
    # ------------------------------------------------------------ following
    Spec(
        id="count-follow-run-overbeaten",
        file="follow.yaml",
        title="Dealer 2 leads Zok3-5: seat 3 has four beating Runs, seat 1 over-beats with Sup5-7 and may claim",
        deal="overbeat2", prefix=[(2, "call"), (2, "play Zok3 Zok4 Zok5")], requires="defaults", depth=7,
        clauses=["PLAY-3", "PLAY-4", "PAT-1", "PAT-2", "PLAY-6", "CLAIM-1", "ELD-3"],
        hand={1: 4, 2: 4, 3: 8, 4: 4, 5: 36},
        notes="""\
Dealer 2, Dreamer 0; order 2 -> 3 -> 1. The Dealer calls and leads Zok3 Zok4 Zok5.
Depth 1: seat 3 must beat it (D12 must-beat) with a Run of 3: no higher Zok Run, the Gon Runs
Gon1-3, Gon2-4, Gon3-5 (Gon above Zok, PAT-2) and Sup2-4: 4.
Depth 2: seat 1 must beat the best so far (D13 best-so-far): after a Gon Run or Sup2-4, only Sup5-7 does
(Gon6 Gon8 make no Run): 1 each = 4.
Depth 3: seat 1 wins 3 tricks and holds Sup1, Sin9, Wan Sin: 6, so claim or continue (CLAIM-1):
8. Depth 4: claim ends the hand; after continue seat 1 leads from Sup1 Gon6 Gon8 Zok6 Zok8 Sin2
Sin4 Sin9 Wan Sin: no Run, no Set, and its top suit holds only Sup1, an Elder: 1 lead, 4.
Depth 5: Sup1 led wins (ELD-6); seat 2 discards 1 of its 9 cards: 36.""",
    ),
    Spec(
        id="count-follow-run-overbeaten-d12-may-discard",
        file="follow.yaml",
        title="D12 may-discard: a follower who can beat may still discard, 224 choices instead of 4",
        deal="overbeat2", prefix=[(2, "call"), (2, "play Zok3 Zok4 Zok5")], requires={"D12": "may-discard"},
        depth=3,
        clauses=["PLAY-4", "PLAY-3"],
        hand={1: 224, 2: 49504},
        twin="count-follow-run-overbeaten",
        notes="""\
The deal and prefix of count-follow-run-overbeaten (4, 4, 8, ...).
Depth 1: seat 3's four beating Runs, and under D12 may-discard any 3 of its 12 cards too:
4 + 220 = 224.
Depth 2: seat 1 may beat with Sup5-7 (it beats each Gon Run, Sup2-4 and the lead itself) or
discard 3 of 12: 221 after each of the 224: 49504.""",
    ),
    Spec(
        id="count-follow-single-gon3",
        file="follow.yaml",
        title="The Dealer leads Gon3: seat 1 must beat with Gon8, seat 3 then cannot beat Gon8",
        deal="anysuit", prefix=[(0, "call"), (0, "play Gon3")], requires="defaults", depth=5,
        clauses=["PAT-6", "PLAY-3", "PLAY-4", "PLAY-7", "PAT-5"],
        hand={1: 1, 2: 12, 3: 96},
        notes="""\
Dealer 0, Dreamer 2; order 0 -> 1 -> 3. The Dealer calls and leads Gon3.
Depth 1: seat 1 must beat with a higher Gon (D7 same-suit, D12 must-beat): Gon8 only. 1.
Depth 2: seat 3 must beat the best so far, Gon8: its Gons are Gon2 Gon5: it discards 1 of 12.
Depth 3: seat 1 wins (1 trick + Sin1 = 2, no claim) and leads from Sup2-5 Zok3 Zok4 Zok6 Sin1
Sin4 Sin5 Sin8: Runs in Sup2-5 (3), the Set Sup4 Zok4 Sin4 (1), Singles Sup2-5 (4) = 8; 12 x 8.""",
    ),
    Spec(
        id="count-follow-single-gon3-d7-any-suit",
        file="follow.yaml",
        title="D7 any-suit: any higher number beats Gon3, eight beating Singles for seat 1 instead of one",
        deal="anysuit", prefix=[(0, "call"), (0, "play Gon3")], requires={"D7": "any-suit"}, depth=5,
        clauses=["PAT-6", "ELD-6", "PLAY-3", "PLAY-4"],
        hand={1: 8, 2: 61},
        twin="count-follow-single-gon3",
        notes="""\
The deal and prefix of count-follow-single-gon3 (1, 12, 96, ...).
Depth 1: under D7 any-suit every card numbered above 3 beats Gon3 (Sin1 never beats, ELD-6):
Sup4 Sup5 Gon8 Zok4 Zok6 Sin4 Sin5 Sin8 = 8.
Depth 2: seat 3 (Sup1 Sup6-9 Gon2 Gon5 Zok7-9 Sin6 Sin9; Sup1 never beats) must beat the card
seat 1 played: above a 4 it has 10 cards, above a 5 nine, above Zok6 seven, above an 8 three
(Sup9, Zok9, Sin9). Sup4 10 + Sup5 9 + Gon8 3 + Zok4 10 + Zok6 7 + Sin4 10 + Sin5 9 + Sin8 3 = 61.""",
    ),
    Spec(
        id="count-follow-single-gon3-d8-followers-too",
        file="follow.yaml",
        title="D8 followers-too: followers play and discard from their own top suit Sup, so Gon8 is out",
        deal="anysuit", prefix=[(0, "call"), (0, "play Gon3")], requires={"D8": "followers-too"}, depth=6,
        clauses=["PAT-5", "PLAY-3", "PLAY-4"],
        hand={1: 4, 2: 20},
        twin="count-follow-single-gon3",
        notes="""\
The deal and prefix of count-follow-single-gon3 (1, 12, 96, ...).
Depth 1: under D8 followers-too seat 1 must beat and discard from its top suit Sup (Sup2-5); no
Sup beats Gon3 (same suit, D7), so it discards one of those 4 cards: 4.
Depth 2: seat 3's top suit is Sup (Sup1 Sup6-9): none beats Gon3, so one of those 5 is
discarded: 4 x 5 = 20.""",
    ),
    Spec(
        id="count-follow-single-gon3-d12-may-discard",
        file="follow.yaml",
        title="D12 may-discard: seat 1 may play Gon8 or discard any card; after a discard seat 3 may beat with Gon5",
        deal="anysuit", prefix=[(0, "call"), (0, "play Gon3")], requires={"D12": "may-discard"}, depth=5,
        clauses=["PLAY-4", "PAT-6"],
        hand={1: 13, 2: 168},
        twin="count-follow-single-gon3",
        notes="""\
The deal and prefix of count-follow-single-gon3 (1, 12, 96, ...).
Depth 1: Gon8 or a discard of any 1 of 12 (D12 may-discard): 13.
Depth 2: after Gon8 seat 3 cannot beat it: 12 discards; after a discard the best is still Gon3,
so seat 3 may beat with Gon5 or discard: 13 each. 12 + 12 x 13 = 168.""",
    ),
    Spec(
        id="count-follow-single-gon3-d13-lead",
        file="follow.yaml",
        title="D13 lead: seat 3 must beat the lead Gon3, not Gon8, so Gon5 is its only play (1 vs 12)",
        deal="anysuit", prefix=[(0, "call"), (0, "play Gon3")], requires={"D13": "lead"}, depth=6,
        clauses=["PLAY-3", "PLAY-4", "PLAY-6"],
        hand={1: 1, 2: 1, 3: 8},
        twin="count-follow-single-gon3",
        notes="""\
The deal and prefix of count-follow-single-gon3 (1, 12, 96, ...).
Depth 1: seat 1 beats Gon3 with Gon8: 1.
Depth 2: under D13 lead seat 3 must beat the lead Gon3, and Gon5 does: must-beat leaves only
Gon5. 1 (default 12 discards).
Depth 3: Gon8 still wins the round (the best pattern played, PLAY-6): seat 1 leads its 8.""",
    ),
    Spec(
        id="count-follow-set-of-eights",
        file="follow.yaml",
        title="A Set of three 8s led: seat 3 beats with its three suited 1s, seat 1 over-beats with 9s",
        deal="oneswan", prefix=[(2, "call"), (2, "play Sup8 Gon8 Zok8")], requires="defaults", depth=6,
        clauses=["PAT-3", "PAT-4", "PLAY-3", "PLAY-4", "PLAY-6", "CLAIM-1"],
        hand={1: 1, 2: 4},
        notes="""\
Dealer 2, Dreamer 0; order 2 -> 3 -> 1. The Dealer calls and leads Sup8 Gon8 Zok8.
Depth 1: seat 3 must beat with a Set of three ranked above 8s (D16 below-nines: 8 < 1 < 9): Gon1
Zok1 Sin1; Wan Sin is no 1 in Sets (D17 no); no 9s. 1.
Depth 2: seat 1 must beat the Set of 1s: only 9s, any three of Sup9 Gon9 Zok9 Sin9: 4.""",
    ),
    Spec(
        id="count-follow-set-of-eights-d17-yes",
        file="follow.yaml",
        title="D17 yes: Wan Sin joins the 1s, seat 3 has four beating Sets of 1s instead of one",
        deal="oneswan", prefix=[(2, "call"), (2, "play Sup8 Gon8 Zok8")], requires={"D17": "yes"}, depth=6,
        clauses=["PAT-3", "PAT-4", "CARDS-3", "PLAY-3"],
        hand={1: 4, 2: 16},
        twin="count-follow-set-of-eights",
        notes="""\
The deal and prefix of count-follow-set-of-eights (1, 4, ...).
Depth 1: any three of Gon1 Zok1 Sin1 Wan Sin form a Set of 1s (D17 yes): 4.
Depth 2: each is beaten only by three 9s: 4 x 4 = 16.""",
    ),
    Spec(
        id="count-follow-set-of-eights-d16-lowest",
        file="follow.yaml",
        title="D16 lowest: a Set of 1s no longer beats 8s, so seat 3 must discard three of twelve",
        deal="oneswan", prefix=[(2, "call"), (2, "play Sup8 Gon8 Zok8")], requires={"D16": "lowest"}, depth=5,
        clauses=["PAT-4", "PLAY-4", "PLAY-3"],
        hand={1: 220, 2: 880},
        twin="count-follow-set-of-eights",
        notes="""\
The deal and prefix of count-follow-set-of-eights (1, 4, ...).
Depth 1: under D16 lowest a Set of 1s beats nothing but is beaten only by 9s; seat 3 has no other
Set above 8s: C(12,3) = 220 discards.
Depth 2: seat 1 must beat the 8s: three of its four 9s: 220 x 4 = 880.""",
    ),
    # ------------------------------------------------------------ claims
    Spec(
        id="count-claim-after-run-of-sups",
        file="claim-tigers.yaml",
        title="Dealer 1's Sup2-4 cannot be beaten; after the second discard it may claim 6 or continue",
        deal="claim6", prefix=[(1, "call"), (1, "play Sup2 Sup3 Sup4"), (2, "discard Gon1 Gon3 Gon5")],
        requires="defaults", depth=6,
        clauses=["CLAIM-1", "CLAIM-2", "PLAY-4", "PLAY-6", "PLAY-7", "ELD-3", "ELD-4"],
        hand={1: 220, 2: 440, 3: 220, 4: 1980},
        notes="""\
Dealer 1, Dreamer 3; order 1 -> 2 -> 0. The Dealer calls and leads Sup2 Sup3 Sup4; seat 2
discards Gon1 Gon3 Gon5.
Depth 1: seat 0 (Sup1 Sup6 Sup8) has no Sup Run: C(12,3) = 220 discards.
Depth 2: the Dealer wins 3 tricks and holds Sup9, Gon9, Wan Sin: 6, claim or continue: 440.
Depth 3: claim ends the hand (CLAIM-2); after continue the Dealer leads from Sup9 Gon2 Gon4 Gon6
Gon9 Zok2 Zok4 Zok6 Wan Sin: no Run, no Set, top suit Sup = Sup9 only, an Elder: 1. 220.
Depth 4: Sup9 cannot be beaten; seat 2 discards 1 of 9: 1980.""",
    ),
    Spec(
        id="count-claim-after-run-of-sups-d21-automatic",
        file="claim-tigers.yaml",
        title="D21 automatic: the eligible Dealer claims at once, so no sequence is longer than 1",
        deal="claim6", prefix=[(1, "call"), (1, "play Sup2 Sup3 Sup4"), (2, "discard Gon1 Gon3 Gon5")],
        requires={"D21": "automatic"}, depth=6,
        clauses=["CLAIM-1", "CLAIM-2"],
        hand={1: 220, 2: 0, 3: 0, 4: 0},
        twin="count-claim-after-run-of-sups",
        notes="""\
The deal and prefix of count-claim-after-run-of-sups (220, 440, 220, 1980).
Depth 1: seat 0's 220 discards.
Depth 2: after any of them the Dealer has 3 tricks + 3 Elders = 6 and claims automatically (D21
automatic): the hand has ended, nothing more. 0, and 0 after.""",
    ),
    Spec(
        id="count-claim-seven-elders-sup9",
        file="claim-tigers.yaml",
        title="The seven-Elder Dealer leads Sup9: two forced discards, then claim or continue with 7",
        deal="elders", prefix=[(3, "call"), (3, "play Sup9")], requires="defaults", depth=5,
        clauses=["ELD-3", "ELD-2", "CLAIM-1", "PLAY-4", "PLAY-7", "PAT-5"],
        hand={1: 12, 2: 144, 3: 288, 4: 720},
        notes="""\
Dealer 3, Dreamer 1; order 3 -> 0 -> 2. The Dealer calls and leads Sup9, an Elder.
Depth 1: seat 0 cannot beat it (ELD-3): 12 discards. Depth 2: seat 2 likewise: 144.
Depth 3: the Dealer has 1 trick + Sup1 Gon9 Zok9 Sin1 Sin9 Wan Sin = 7: claim or continue: 288.
Depth 4: after continue it leads Gon7-9, Zok7-9, Gon9 Zok9 Sin9, Sup1 Gon1 Sin1, or Sup1 (its top
suit Sup holds only Sup1, an Elder): 5, so 144 x 5 = 720.""",
    ),
    Spec(
        id="count-claim-seven-elders-sup9-d21-automatic",
        file="claim-tigers.yaml",
        title="D21 automatic: the same Dealer claims 7 at once after the second discard",
        deal="elders", prefix=[(3, "call"), (3, "play Sup9")], requires={"D21": "automatic"}, depth=5,
        clauses=["CLAIM-1", "CLAIM-2"],
        hand={1: 12, 2: 144, 3: 0, 4: 0, 5: 0},
        twin="count-claim-seven-elders-sup9",
        notes="""\
The deal and prefix of count-claim-seven-elders-sup9 (12, 144, 288, 720, ...).
Depth 1: seat 0's 12 forced discards. Depth 2: seat 2's 12 after each: 144.
Depth 3: the Dealer is eligible (7) and claims automatically (D21 automatic): the hand has
ended. 0, and 0 after.""",
    ),
]


FILES = {
    "calling.yaml": "Perft counts from the start of a hand (Calling), one deal per Dealer seat and shapes with "
    "long Runs, Sets of four, Sets of 1s. Counts from the independent oracle, depths 1-3 worked by hand.",
    "leads.yaml": "Perft counts of the leader's choices (Runs, Sets, Singles of the top suit, Elders, the PP's "
    "privilege) under the defaults and under D9, D10, D11 and D17. Counts from the independent oracle, depth 1 "
    "and 2 worked by hand.",
    "follow.yaml": "Perft counts of the followers' beating plays and discards, each discard counted, under the "
    "defaults and under D7, D8, D12, D13, D16 and D17. Counts from the independent oracle, depth 1 and 2 worked "
    "by hand.",
    "claim-tigers.yaml": "Perft counts through a claim chance and the Five Tigers, where an ended hand contributes "
    "no longer sequences, under the defaults and under D21 and D24. Counts from the independent oracle, depth 1 "
    "and 2 worked by hand.",
}


def spec_hand(spec: Spec) -> O.OracleHand:
    deal = DEALS[spec.deal]
    prefix = [{"seat": s, "do": a} for s, a in spec.prefix]
    return oracle_hand(deal, prefix, scenario_options(spec.requires))


def check_deal(name: str, deal: Mapping[str, Any]) -> None:
    hands = [parse_cards(h) for h in deal["hands"]]
    dreamer = (deal["dealer"] + 2) % 4
    sizes = [len(h) for h in hands]
    assert sizes == [1 if s == dreamer else 12 for s in range(4)], (name, sizes)
    assert frozenset().union(*hands) == O.FULL_DECK, name
    for text in deal["hands"]:
        assert text == O.names(parse_cards(text)), (name, "hands in canonical order", text)


def compute(spec: Spec, perft: OraclePerft) -> tuple[list[int], float]:
    start = time.perf_counter()
    counts = perft.counts(spec_hand(spec), spec.depth)
    return counts, time.perf_counter() - start


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _action(text: str) -> str:
    return text if " " not in text else _quote(text)


def render(specs: Sequence[Spec], description: str) -> str:
    out = [f"# yaml-language-server: $schema={os.path.relpath(SCHEMA, OUT)}",
           "# Written by tests/engine/make_count_scenarios.py: edit the specs there, not this file.",
           "description: >"]
    words = description.split()
    line = " "
    for w in words:
        if len(line) + len(w) + 1 > 100:
            out.append(line.rstrip())
            line = " "
        line += " " + w
    out.append(line.rstrip())
    out.append("scenarios:")
    for spec in specs:
        deal = DEALS[spec.deal]
        if spec.requires == "defaults":
            requires = "defaults"
        else:
            requires = "{" + ", ".join(f"{k}: {_quote(v)}" for k, v in spec.requires.items()) + "}"
        checked = sorted(spec.hand)
        more = ""
        if checked[-1] >= 2:
            more = ", depth 2 too" if checked[-1] == 2 else f", depths 2-{checked[-1]} too"
        notes = spec.notes.rstrip() + "\n" + ORACLE_LINE.format(more=more)
        out += [
            f"  - id: {spec.id}",
            f"    title: {_quote(spec.title)}",
            f"    clauses: [{', '.join(spec.clauses)}]",
            f"    requires: {requires}",
            "    tags: [count]",
            "    notes: |",
            *[("      " + n).rstrip() for n in notes.splitlines()],
            "    count:",
            "      setup:",
            f"        dealer: {deal['dealer']}",
            "        hands:",
            *[f"          - {_quote(h)}" for h in deal["hands"]],
        ]
        if spec.prefix:
            out.append("      prefix:")
            out += [f"        - {{seat: {s}, do: {_action(a)}}}" for s, a in spec.prefix]
        out.append(f"      counts: [{', '.join(str(c) for c in spec.counts)}]")
        out.append("")
    return "\n".join(out)


def generate(verbose: bool = True) -> dict[str, str]:
    """Compute every spec's counts with the oracle, check the hand-worked numbers, render the files."""
    for name, deal in DEALS.items():
        check_deal(name, deal)
    ids = [s.id for s in SPECS]
    assert len(ids) == len(set(ids)), "duplicate IDs"
    perft = OraclePerft()
    by_id = {}
    for spec in SPECS:
        spec.counts, seconds = compute(spec, perft)
        by_id[spec.id] = spec
        if verbose:
            print(f"{spec.id}: {spec.counts} ({seconds:.1f} s)", file=sys.stderr)
        for depth, number in spec.hand.items():
            assert spec.counts[depth - 1] == number, (
                f"{spec.id}: depth {depth} by hand {number}, oracle {spec.counts[depth - 1]}")
    for spec in SPECS:
        if spec.twin is not None:
            twin = by_id[spec.twin]
            assert twin.requires == "defaults" and twin.deal == spec.deal and twin.prefix == spec.prefix, spec.id
            n = min(len(twin.counts), len(spec.counts))
            assert twin.counts[:n] != spec.counts[:n], f"{spec.id}: same counts as {twin.id}"
        else:
            assert spec.requires == "defaults", f"{spec.id}: an option scenario needs its defaults twin"
    files = {}
    for name, description in FILES.items():
        specs = [s for s in SPECS if s.file == name]
        files[name] = render(specs, description)
    assert {s.file for s in SPECS} <= set(FILES)
    return files


def main(argv: Sequence[str]) -> int:
    check = "--check" in argv
    files = generate()
    stale = []
    for name, text in files.items():
        path = OUT / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}", file=sys.stderr)
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
