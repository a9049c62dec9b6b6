"""reference_engine.outcomes: the rule outcome classes a hand reaches (the fuzzer's coverage map)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import yaml

from reference_engine import DEFAULT_PROFILE, Hand
from reference_engine.outcomes import END_KINDS, hand_outcomes, outcome_classes, refusal_outcome
from reference_engine.profile import Profile

SPEC = Path(__file__).resolve().parents[2] / "spec"


def test_every_class_names_a_clause_or_decision_of_the_spec() -> None:
    clauses = {c["id"] for c in yaml.safe_load((SPEC / "clauses.yaml").read_text())["clauses"]}
    decisions = {d["id"] for d in yaml.safe_load((SPEC / "decisions.yaml").read_text())["decisions"]}
    classes = outcome_classes(Profile.from_options({"D11": "top-suit-elder", "D8": "followers-too",
                                                    "D24": "declared"}))
    assert len({c.id for c in classes}) == len(classes)
    assert {c.rule for c in classes} - clauses - decisions <= {"malformed"}


def test_the_end_kinds_are_the_protocols() -> None:
    common = json.loads((SPEC / "schema" / "protocol" / "common.schema.json").read_text())
    assert set(END_KINDS) == set(common["$defs"]["handResult"]["properties"]["end"]["enum"])


def test_classes_follow_the_options() -> None:
    ids = {c.id for c in outcome_classes()}
    assert "tigers:declined" not in ids and "refusal:ELD-5" not in ids and "refusal:D8" not in ids
    assert {f"score:{t}" for t in range(6, 13)} <= ids
    assert {f"dreamer-count:{c}" for c in range(5, 10)} <= ids  # SCORE-4: 5 + 0..4 matches
    automatic = {c.id for c in outcome_classes(Profile.from_options({"D21": "automatic"}))}
    assert "claim:declined" not in automatic
    declared = {c.id for c in outcome_classes(Profile.from_options({"D24": "declared", "D27": "no-match"}))}
    assert "tigers:declined" in declared and "dreamer-count:9" not in declared


def test_five_tigers_won_by_the_dealer() -> None:
    # Dealer 0 holds the Five Tigers and Sup5 Zok5; the Dreamer (seat 2) holds Gon5:
    # TIG-1 wins at once when Calling ends; SCORE-4 counts 5 + 2 matching 5s; no PP (CALL-4).
    hands = ["Sup1 Gon1 Zok1 Sin1 WanSin Sup5 Zok5 Sup2 Gon2 Zok2 Sin2 Sup3",
             "Gon3 Zok3 Sin3 Sup4 Gon4 Zok4 Sin4 Sin5 Sup6 Gon6 Zok6 Sin6",
             "Gon5",
             "Sup7 Gon7 Zok7 Sin7 Sup8 Gon8 Zok8 Sin8 Sup9 Gon9 Zok9 Sin9"]
    hand = Hand.deal(0, hands)
    hand.apply(0, "call")
    assert hand.result is not None and hand.result.end == "five-tigers"
    reached = hand_outcomes(hand, ["PAT-5", None])
    assert {"end:five-tigers", "dreamer-count:7", "pp:none", "refusal:PAT-5", "refusal:malformed"} <= reached
    assert not any(o.startswith("score:") for o in reached)  # a score row is a claim's


def test_outcomes_agree_with_the_result_of_random_hands() -> None:
    rng = random.Random(5)
    known = {c.id for c in outcome_classes()}
    seen: set[str] = set()
    for i in range(300):
        hand = Hand.from_seed(i % 4, rng.getrandbits(64))
        while hand.to_act is not None:
            hand.apply(hand.to_act, rng.choice(list(hand.legal_actions())))
        reached = hand_outcomes(hand)
        assert reached <= known
        result = hand.result
        assert result is not None
        assert f"end:{result.end}" in reached
        scores = {o for o in reached if o.startswith("score:")}
        assert scores == ({f"score:{result.tricks}"} if result.end == "claim" else set())
        roles = {o for o in reached if o.startswith("pp:")}
        if result.winner is None:
            assert not roles
        else:
            assert roles == {"pp:none" if hand.privileged is None else
                             "pp:wins" if hand.privileged == result.winner else "pp:loses"}
            if "pp:loses" in roles and result.end == "claim":
                # SCORE-6, D29: the losing Privileged Player alone pays the winner's shares
                others = [s for s in hand.active_seats if s not in (result.winner, hand.privileged)]
                assert all(result.deltas[s] == 0 for s in others)
        assert ("claim:declined" in reached) == any(a.verb == "continue" for _s, a in hand.history)
        seen |= reached
    assert {"end:claim", "end:void", "end:played-out", "pp:loses", "claim:declined"} <= seen
    assert refusal_outcome(None) == "refusal:malformed"
    assert DEFAULT_PROFILE is not None
