"""The compiled and the pure build behave alike where compiling could change behaviour (issue 17).

These tests run on whichever build is imported: ``tests/engine`` and these run
against the pure checkout in the ordinary suite, and against the compiled
wheel in ``.ci/run`` (which sets ``HAKKA_EXPECT_COMPILED`` so that a wheel that
silently fell back to pure cannot pass for compiled). What they pin:

- errors keep their wire ``kind`` (a compiled exception does not see a plain
  class-body field);
- a wrongly typed argument raises the engine's own error, never a bare
  ``TypeError`` (compiled code checks annotated types on entry), and a
  ``bool`` is no seat and no card;
- the seams meant for subclasses accept interpreted subclasses (``Rules``,
  ``Session``);
- ``pickle`` and ``copy.deepcopy`` round trips of the states that learning
  libraries clone (``Hand``, ``Game``) give an equal state that plays on alike.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

import reference_engine
from reference_engine import Card, Cards, Game, HakkaError, Hand, MalformedError, Profile, Rules, SetupError
from reference_engine.errors import IllegalActionError
from reference_engine.events import Event, parse_event
from reference_engine.wire import Session


def test_the_build_is_the_one_ci_meant_to_test() -> None:
    expected = os.environ.get("HAKKA_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("HAKKA_EXPECT_COMPILED is not set (.ci/run sets it for each wheel)")
    assert reference_engine.COMPILED is (expected == "1"), (reference_engine.COMPILED, reference_engine.__file__)


def test_compiled_is_what_the_modules_are() -> None:
    from reference_engine import cards

    assert reference_engine.COMPILED is (not str(cards.__file__).endswith(".py"))


# ------------------------------------------------------------ errors


@pytest.mark.parametrize(("error", "kind"), [
    (HakkaError, "internal"), (MalformedError, "malformed"), (IllegalActionError, "illegal"), (SetupError, "bad-setup"),
])
def test_every_error_keeps_its_wire_kind(error: type[HakkaError], kind: str) -> None:
    raised = error("message", rule="CARDS-1", seat=2)
    assert (raised.kind, type(raised).kind) == (kind, kind)
    assert (raised.message, raised.rule, raised.seat) == ("message", "CARDS-1", 2)


def test_an_error_pickles_with_its_fields() -> None:
    raised = SetupError("a seed is a 64-bit unsigned integer", rule="DEAL-5")
    again = pickle.loads(pickle.dumps(raised))
    assert (type(again), str(again), again.kind) == (SetupError, str(raised), "bad-setup")


# ------------------------------------------------------------ wrongly typed arguments

WRONG_CALLS: list[tuple[str, Callable[[], object], type[HakkaError]]] = [
    ("Card(True)", lambda: Card(True), MalformedError),
    ("Card('3')", lambda: Card("3"), MalformedError),
    ("Card(1.5)", lambda: Card(1.5), MalformedError),
    ("Profile(single_beats=3)", lambda: Profile(single_beats=3), SetupError),  # type: ignore[arg-type]
    ("Profile.from_options({'D7': 3})", lambda: Profile.from_options({"D7": 3}), SetupError),
    ("Profile.from_options(['D7'])", lambda: Profile.from_options(["D7"]), SetupError),  # type: ignore[arg-type]
    ("Hand.from_seed('0', 1)", lambda: Hand.from_seed("0", 1), SetupError),
    ("Hand.from_seed(True, 1)", lambda: Hand.from_seed(True, 1), SetupError),
    ("Hand.deal(None, ...)", lambda: Hand.deal(None, ["Sup1"] * 4), SetupError),
    ("Game(first_dealer='0')", lambda: Game("0", [{"seed": 1}]), SetupError),
    ("Game(first_dealer=True)", lambda: Game(True, [{"seed": 1}]), SetupError),
]


@pytest.mark.parametrize(("call", "error"), [pytest.param(f, e, id=n) for n, f, e in WRONG_CALLS])
def test_a_wrongly_typed_argument_raises_the_engines_own_error(call: Callable[[], object], error: type[HakkaError]) -> None:
    with pytest.raises(error):
        call()


@pytest.mark.parametrize("seat", [True, "1", 1.0, None])
def test_a_seat_that_is_no_int_is_refused_by_every_move_and_question(seat: Any) -> None:
    hand = Hand.from_seed(dealer=1, seed=1)  # seat 1 to act: True == 1.0 == 1
    with pytest.raises(HakkaError):
        hand.apply(seat, "call")
    with pytest.raises(HakkaError):
        hand.observation(seat)
    assert hand.history == [] and not hand.can_apply(seat, "call")


@pytest.mark.parametrize("action", [3, None, b"call", ("call", 0)])
def test_an_action_of_the_wrong_type_is_malformed(action: Any) -> None:
    with pytest.raises(MalformedError):
        Hand.from_seed(dealer=0, seed=1).apply(0, action)


def test_cards_refuse_a_mask_beyond_the_deck_alike() -> None:
    with pytest.raises(ValueError):
        Cards(1 << 37)
    assert Cards(5) == Cards.parse("Sup1 Sup3")


# ------------------------------------------------------------ the seams for subclasses


class _Clockwise(Rules):
    __slots__ = ()

    def next_seat(self, hand: Hand, seat: int) -> int:  # GAME-5 read otherwise
        seat = (seat - 1) % 4
        return (seat - 1) % 4 if seat == hand.dreamer else seat


def test_an_interpreted_rules_subclass_decides_for_a_compiled_hand() -> None:
    hand = Hand.from_seed(dealer=0, seed=1, rules=_Clockwise())
    hand.apply(0, "pass")
    assert hand.to_act == 3  # clockwise from the Dealer, past nobody


class _Named(Session):
    name = "fake-named"


def test_an_interpreted_session_subclass_names_itself_in_hello() -> None:
    answer = _Named().handle({"cmd": "hello", "protocol": 2})
    assert answer["engine"]["name"] == "fake-named"


# ------------------------------------------------------------ pickling and copying


def _played(hand: Hand, rng: random.Random, steps: int) -> Hand:
    for _ in range(steps):
        if hand.to_act is None:
            break
        hand.apply(hand.to_act, rng.choice(list(hand.legal_actions())))
    return hand


def _same_hand(a: Hand, b: Hand) -> None:
    assert a.notation() == b.notation()
    assert a.history == b.history
    assert a.events == b.events and [type(e) for e in a.events] == [type(e) for e in b.events]
    assert (a.profile, type(a.rules), a.result) == (b.profile, type(b.rules), b.result)
    assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]


CLONES: list[tuple[str, Callable[[Any], Any]]] = [
    ("pickle", lambda x: pickle.loads(pickle.dumps(x))),
    ("deepcopy", copy.deepcopy),
]


@pytest.mark.parametrize("clone", [c for _n, c in CLONES], ids=[n for n, _c in CLONES])
@pytest.mark.parametrize("steps", [0, 7, 200])
def test_a_hand_round_trips_and_plays_on_alike(clone: Callable[[Hand], Hand], steps: int) -> None:
    rng = random.Random(steps)
    hand = _played(Hand.from_seed(dealer=1, seed=99, profile=Profile.from_options({"D12": "may-discard"})), rng, steps)
    twin = clone(hand)
    assert twin is not hand
    _same_hand(hand, twin)
    state = rng.getstate()
    _played(hand, rng, 500)
    rng.setstate(state)
    _played(twin, rng, 500)
    _same_hand(hand, twin)


EVENT_TEXTS = [
    "1 call (privileged)", "3 pass", "1 play Gon3 Gon4 Gon5 (run)", "3 discard Sup2 Gon4", "1 discard (3 face down)",
    "0 wins 3 tricks", "1 promotes Sup8 Gon7 to Elders", "0 may claim", "0 claim (automatic)", "0 continue",
    "1 may show the Five Tigers", "1 tigers", "1 decline",
    "hand ends (claim): winner 3, tricks 7, dreamer count 8, deltas 0 -12 8 4, next dealer 1, counts",
    "deal 2: dealer 1", "game over: scores 4 -2 0 -2",
]


@pytest.mark.parametrize("clone", [c for _n, c in CLONES], ids=[n for n, _c in CLONES])
@pytest.mark.parametrize("text", EVENT_TEXTS)
def test_every_kind_of_event_round_trips_alike(clone: Callable[[Event], Event], text: str) -> None:
    # compiled, a frozen dataclass refuses pickle's field-by-field restore: events travel as their text
    event = parse_event(text)
    twin = clone(event)
    assert twin == event and type(twin) is type(event) and hash(twin) == hash(event) and str(twin) == text


def test_a_cloned_hand_is_independent() -> None:
    hand = Hand.from_seed(dealer=0, seed=5)
    twin = copy.deepcopy(hand)
    twin.apply(0, "call")
    assert hand.history == [] and hand.to_act == 0


@pytest.mark.parametrize("clone", [c for _n, c in CLONES], ids=[n for n, _c in CLONES])
def test_a_game_round_trips_and_plays_on_alike(clone: Callable[[Game], Game]) -> None:
    rng = random.Random(3)
    game = Game(first_dealer=2, deals=[{"seed": s} for s in range(12)])
    while game.hands_played < 2:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, rng.choice(list(game.hand.legal_actions())))
    twin = clone(game)
    assert (twin.scores, twin.results, twin.hands_played, twin.deal_index) == (
        game.scores, game.results, game.hands_played, game.deal_index)
    _same_hand(game.hand, twin.hand)


def test_a_hand_with_a_variant_rule_round_trips_with_its_rule() -> None:
    hand = Hand.from_seed(dealer=0, seed=1, rules=_Clockwise())
    twin = pickle.loads(pickle.dumps(hand))
    assert type(twin.rules) is _Clockwise
    twin.apply(0, "pass")
    assert twin.to_act == 3
