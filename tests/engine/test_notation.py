"""reference_engine.notation: a hand's position as text that reads back to the same hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine import Hand, IllegalActionError, MalformedError, Profile
from reference_engine.profile import every_option_profile

from .support import RNG_SEEDS, choose, play_settings


def assert_same_position(a: Hand, b: Hand) -> None:
    assert b.notation() == a.notation()
    assert (b.phase, b.to_act, b.dealer, b.hands, b.tricks, b.elders) == (a.phase, a.to_act, a.dealer, a.hands,
                                                                          a.tricks, a.elders)
    assert b.legal_actions() == a.legal_actions()
    assert sorted(map(str, b.legal_actions())) == sorted(map(str, a.legal_actions()))
    for seat in range(4):
        assert b.observation(seat) == a.observation(seat)
    assert b.result == a.result


@play_settings(60)
@given(
    profile=st.sampled_from(every_option_profile()),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    rng_seed=RNG_SEEDS,
    steps=st.integers(min_value=0, max_value=60),
)
def test_notation_round_trips(profile: Profile, seed: int, rng_seed: int, steps: int) -> None:
    hand = Hand.from_seed(seed % 4, seed, profile)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        if hand.to_act is None:
            break
        hand.apply(hand.to_act, choose(hand, rng, 0.75))
    back = Hand.from_notation(hand.notation())
    assert_same_position(hand, back)
    # the repr evaluates to the same position
    assert_same_position(hand, eval(repr(hand), {"Hand": Hand}))
    # and the copy plays on like the original
    if hand.to_act is not None:
        action = next(iter(hand.legal_actions()))
        hand.apply(hand.to_act, action)
        back.apply(back.to_act if back.to_act is not None else -1, action)
        assert_same_position(hand, back)


def test_notation_fields() -> None:  # the text names phase, seat to act, Dealer, deal, options, history
    hand = Hand.deal(1, [
        "Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3",
        "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
        "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9",
        "WanSin",
    ], Profile.from_options({"D7": "any-suit"}))
    hand.apply(1, "pass")
    hand.apply(2, "call")
    assert hand.notation() == (
        "playing 1 | dealer 1 | Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3"
        " / Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6"
        " / Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9 / WanSin"
        " | D7=any-suit | 1 pass; 2 call"
    )  # the Dealer (1) passed, seat 2 called: the Dealer leads (PLAY-1, D6)


@pytest.mark.parametrize("text, why", [
    ("playing 0 | dealer 0", "expected 5 fields"),
    ("calling 0 | dealer 7 | a / b / c / d | - | -", "dealer N"),
    ("calling 0 | dealer 0 | Sup1 / Sup2 / Sup3 / Sup4 | - | -", "must hold 12"),
    ("calling 0 | dealer 0 | {} | D99=x | -", "unknown decision"),
    ("calling 1 | dealer 0 | {} | - | -", "leads to 'calling 0'"),
    ("calling 0 | dealer 0 | {} | - | 1 call", "turn"),
    ("calling 0 | dealer 0 | {} | - | x call", "does not start with a seat"),
])
def test_bad_notation_is_refused_with_the_reason(text: str, why: str) -> None:
    deal = " / ".join(Hand.from_seed(0, 5).hand_of(s).__str__() for s in range(4))
    with pytest.raises(MalformedError, match=why):
        Hand.from_notation(text.replace("{}", deal))


def test_an_illegal_action_carries_the_position() -> None:
    hand = Hand.from_seed(0, 1)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(1, "call")
    assert info.value.position == hand.notation()
    assert f"position: {hand.notation()}" in getattr(info.value, "__notes__", [])
    assert str(info.value) == "seat 1 'call': it is seat 0's turn, not seat 1's [CALL-1]"  # the message stays short
