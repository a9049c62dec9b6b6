"""reference_engine.outcomes: the rule outcome classes a hand reaches (the fuzzer's coverage map)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from reference_engine import DEFAULT_PROFILE, Game, Hand, parse_event
from reference_engine.cards import NUMBER_MASKS, WAN_SIN_BIT
from reference_engine.outcomes import END_KINDS, event_outcomes, hand_outcomes, outcome_classes, refusal_outcome
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


def _ones_beaten_by_replay(hand: Hand) -> bool:
    """The state's reading of ``set-of-ones:beaten`` (as hand_outcomes read it before the events): replay the
    hand, and see whether a play became the round's best while a Set of 1s was (PAT-4, D16)."""
    ones = NUMBER_MASKS[1] | WAN_SIN_BIT
    replay = Hand.deal(hand.dealer, list(hand.dealt), hand.profile)
    for seat, action in hand.history:
        round_ = replay.round  # the round this action is played in (a round won gives way to a new one)
        best = round_.best_mask
        ones_best = replay.phase == "playing" and round_.acted > 0 and best & ~ones == 0 and best.bit_count() >= 2
        replay.apply(seat, action)
        if ones_best and action.verb == "play" and round_.best_mask == action.mask:
            return True
    return False


@pytest.mark.parametrize("options", [{}, {"D16": "lowest"}, {"D13": "lead"}, {"D17": "yes"},
                                     {"D21": "automatic", "D24": "declared"}])
def test_the_outcomes_of_the_events_alone_are_those_of_the_hand(options: dict[str, str]) -> None:
    """A tool holding only the events' text (and the options) classifies a hand as the hand does."""
    profile = Profile.from_options(options)
    rng = random.Random(11)
    beaten = 0
    for i in range(400):
        hand = Hand.from_seed(i % 4, rng.getrandbits(64), profile)
        while hand.to_act is not None:
            hand.apply(hand.to_act, rng.choice(list(hand.legal_actions())))
        reached = hand_outcomes(hand)
        assert event_outcomes([parse_event(str(e)) for e in hand.events], profile) == reached
        assert ("set-of-ones:beaten" in reached) == _ones_beaten_by_replay(hand), hand.notation()
        beaten += "set-of-ones:beaten" in reached
    assert beaten > 0


def test_a_games_log_is_classified_hand_by_hand() -> None:
    rng = random.Random(4)
    game = Game(0, [{"seed": rng.getrandbits(64)} for _ in range(30)])
    hands = [game.hand]
    while not game.over:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, rng.choice(list(game.hand.legal_actions())))
        if game.hand is not hands[-1]:
            hands.append(game.hand)
    union = frozenset().union(*(hand_outcomes(h) for h in hands if h.result is not None))
    assert event_outcomes(game.events) == union
