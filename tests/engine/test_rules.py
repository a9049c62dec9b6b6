"""reference_engine.rules: the one seam for variant rules, and the value types around it."""

from __future__ import annotations

import dataclasses

import pytest

from reference_engine import DEFAULT_RULES, Game, Hand, Kind, Phase, Profile, Rules
from reference_engine.actions import CLAIM
from reference_engine.wire import Session


@dataclasses.dataclass(frozen=True, slots=True)
class Clockwise(Rules):
    """A variant: turns pass s -> s-1 (skipping the Dreamer)."""

    def next_seat(self, hand: Hand, seat: int) -> int:
        seat = (seat - 1) % 4
        return (seat - 1) % 4 if seat == hand.dreamer else seat


@dataclasses.dataclass(frozen=True, slots=True)
class SetsOfOnesLowest(Rules):
    """A variant that plays D16 = lowest whatever is asked."""

    def profile(self, requested: Profile) -> Profile:
        return dataclasses.replace(requested, set_of_ones="lowest")


def test_phases_and_kinds_are_enums_with_the_wire_names() -> None:
    assert [p.value for p in Phase] == ["calling", "tigers", "playing", "claim", "ended"]
    claiming: object = Phase.CLAIMING
    assert claiming == "claim" and claiming is not CLAIM  # a phase, not the verb
    assert isinstance(claiming, Phase) and not isinstance(CLAIM, Phase)
    assert [k.value for k in Kind] == ["none", "run", "set", "single"]


def test_the_default_rules_are_the_reference() -> None:
    assert Hand.from_seed(0, 7).rules is DEFAULT_RULES
    a, b = Hand.from_seed(0, 7), Hand.from_seed(0, 7, rules=Rules())
    a.apply(0, "call")
    b.apply(0, "call")
    assert a.notation() == b.notation() and a.legal_actions() == b.legal_actions()


def test_a_variant_passed_to_a_hand_decides_its_rule() -> None:  # GAME-5 read otherwise
    hand = Hand.from_seed(0, 7, rules=Clockwise())
    hand.apply(0, "pass")
    assert hand.to_act == 3  # not 1
    assert Hand.from_seed(0, 7).next_seat(0) == 1


@pytest.mark.parametrize("make", [
    lambda rules: Game(first_dealer=0, deals=[{"seed": 7}], rules=rules).hand,
    lambda rules: Hand.from_seed(0, 7, rules=rules),
])
def test_a_variant_reaches_games_too(make: object) -> None:
    hand = make(Clockwise())  # type: ignore[operator]
    hand.apply(0, "pass")
    assert hand.to_act == 3


def test_a_variant_speaks_the_protocol() -> None:
    session = Session(rules=Clockwise())
    assert session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": "7"}})["ok"]
    assert session.handle({"cmd": "act", "seat": 0, "action": "pass"})["ok"]
    assert session.handle({"cmd": "state"})["to_act"] == 3


def test_a_variant_may_pin_an_option() -> None:  # PAT-4, D16
    question = {"cmd": "pattern", "current": "Sup2 Gon2 Zok2", "challenger": "Sup1 Gon1 Zok1",
                "elders": "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin", "led": True}
    assert Session().handle(question) == {"ok": True, "beats": True}  # D16 below-nines: 1s beat the 2s
    assert Session(rules=SetsOfOnesLowest()).handle(question) == {"ok": True, "beats": False}  # lowest
    hand = Hand.from_seed(0, 7, Profile(), rules=SetsOfOnesLowest())
    assert hand.profile.set_of_ones == "lowest"
