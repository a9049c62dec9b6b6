"""One hostile-type table for the public API, run against both builds (issue 27 §2).

Compiled by mypyc, a parameter annotated ``int`` or ``str`` is checked on entry with a bare
``TypeError``, and a ``bool`` passes as an ``int`` (``True`` is seat 1); the pure build runs the
engine's own checks. The project promises the same errors in both builds, so every row of
:data:`TABLE` names one entry point, the argument that goes wrong and the engine error it must
raise; Hypothesis draws the wrong values (of every type but the right one, and the right type out
of range), and the test runs on whichever build is imported: the pure checkout in the suite, the
installed compiled wheel in ``.ci/run`` (``pytest tests/engine tests/builds``). A row is never
allowed a ``TypeError``, an ``AttributeError`` or any other error than its own; a ``bool`` is no
seat, no card, no count and no seed.

The same file pins the copies that learning libraries make: ``pickle``, ``copy.copy`` and
``copy.deepcopy`` of a hand or a game once ``legal_actions()`` was asked, of the legal actions
and of an observation.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_engine import (
    Action,
    Card,
    Cards,
    Game,
    HakkaError,
    Hand,
    LegalActions,
    MalformedError,
    Observation,
    Profile,
    SetupError,
    deal_sequence,
    parse_event,
    perft,
    perft_counts,
    resample,
    seeded_deck,
)
from reference_engine.errors import IllegalActionError
from reference_engine.events import Called, Event, Passed, RoundWon

DECK = seeded_deck(1)
HANDS = ["Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon1 Gon2 Gon3 Gon4 Gon5",
         "Sup1 Sup9 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
         "WanSin",
         "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9"]


def _hand() -> Hand:
    return Hand.from_seed(dealer=0, seed=1)


# Values of no type the engine takes where it wants an int or a str; the bools first (they pass
# a compiled int check); then ints out of every range (a seat, a card index, a seed, a depth).
_ANY = st.one_of(
    st.booleans(), st.none(), st.floats(allow_nan=False), st.binary(max_size=4), st.just(object()),
    st.lists(st.integers(0, 3), max_size=3), st.tuples(st.integers(0, 3)), st.dictionaries(st.text(max_size=2),
                                                                                           st.integers(), max_size=2),
    st.just(1.0), st.just(0.0), st.just(b"0"), st.just(bytearray(b"call")), st.just(Card(0)),
)
NOT_INT = st.one_of(_ANY, st.text(max_size=4))
NOT_STR = _ANY
NOT_SEAT = st.one_of(NOT_INT, st.integers().filter(lambda n: not 0 <= n < 4), st.just("1"))
NOT_CARD = st.one_of(NOT_INT, st.integers().filter(lambda n: not 0 <= n < 37))
NOT_SEED = st.one_of(NOT_INT, st.integers(max_value=-1), st.integers(min_value=1 << 64))
NOT_DEPTH = st.one_of(NOT_INT, st.integers(max_value=-1))
NOT_HAND = st.one_of(NOT_INT, st.integers(), st.just(Cards(0)), st.just(Profile()))
NOT_HOLDING = st.one_of(_ANY, st.integers().filter(lambda n: n < 0 or n >= 1 << 37))
NOT_RNG = st.one_of(st.booleans(), st.integers(), st.text(max_size=3), st.just(object()), st.floats())

Row = tuple[str, Callable[[Any], object], st.SearchStrategy[Any], type[HakkaError]]
TABLE: list[Row] = [
    # cards and actions (CARDS-1)
    ("Card(v)", lambda v: Card(v), NOT_CARD, MalformedError),
    ("Card.parse(v)", lambda v: Card.parse(v), NOT_STR, MalformedError),
    ("Cards.parse([v])", lambda v: Cards.parse([v]), NOT_STR, MalformedError),
    ("Action(v)", lambda v: Action(v), NOT_STR, MalformedError),
    ("Action('play', v)", lambda v: Action("play", v), NOT_HOLDING, MalformedError),
    ("Action.parse(v)", lambda v: Action.parse(v), NOT_STR, MalformedError),
    # events
    ("parse_event(v)", lambda v: parse_event(v), NOT_STR, MalformedError),
    ("Event.parse(v)", lambda v: Event.parse(v), NOT_STR, MalformedError),
    ("Called(v)", lambda v: Called(v), NOT_SEAT, MalformedError),
    ("Passed(v)", lambda v: Passed(v), NOT_SEAT, MalformedError),
    ("RoundWon(0, v)", lambda v: RoundWon(0, v), st.one_of(NOT_INT, st.integers(max_value=-1)), MalformedError),
    # dealing (GAME-5, DEAL-4, DEAL-5, CARDS-1)
    ("Hand.deal(v, hands)", lambda v: Hand.deal(v, HANDS), NOT_SEAT, SetupError),
    ("Hand.deal(0, v)", lambda v: Hand.deal(0, v), _ANY, SetupError),
    ("Hand.deal(0, [v, ...])", lambda v: Hand.deal(0, [v, *HANDS[1:]]), NOT_HOLDING, SetupError),
    ("Hand.from_deck(v, deck)", lambda v: Hand.from_deck(v, DECK), NOT_SEAT, SetupError),
    ("Hand.from_deck(0, v)", lambda v: Hand.from_deck(0, v), _ANY, SetupError),
    ("Hand.from_deck(0, [v, ...])", lambda v: Hand.from_deck(0, [v, *DECK[1:]]), NOT_CARD, SetupError),
    ("Hand.from_seed(v, 1)", lambda v: Hand.from_seed(v, 1), NOT_SEAT, SetupError),
    ("Hand.from_seed(0, v)", lambda v: Hand.from_seed(0, v), NOT_SEED, SetupError),
    ("Hand.from_notation(v)", lambda v: Hand.from_notation(v), NOT_STR, MalformedError),
    ("seeded_deck(v)", lambda v: seeded_deck(v), NOT_SEED, SetupError),
    ("deal_sequence(v)", lambda v: deal_sequence(v), NOT_SEAT, SetupError),
    ("Game(v, deals)", lambda v: Game(v, [{"seed": 1}]), NOT_SEAT, SetupError),
    ("Game(0, v)", lambda v: Game(0, v), _ANY, SetupError),
    ("Game(0, [{'seed': v}])", lambda v: Game(0, [{"seed": v}]), NOT_SEED, SetupError),
    # moves and views
    ("hand.apply(v, 'call')", lambda v: _hand().apply(v, "call"), NOT_SEAT, IllegalActionError),
    ("hand.apply(0, v)", lambda v: _hand().apply(0, v), NOT_STR, MalformedError),
    ("hand.observation(v)", lambda v: _hand().observation(v), NOT_SEAT, SetupError),
    # search
    ("perft(hand, v)", lambda v: perft(_hand(), v), NOT_DEPTH, SetupError),
    ("perft(v, 1)", lambda v: perft(v, 1), NOT_HAND, SetupError),
    ("perft(hand, 2, max_nodes=v)", lambda v: perft(_hand(), 2, v), NOT_DEPTH.filter(lambda v: v is not None),
     SetupError),
    ("perft_counts(hand, v)", lambda v: perft_counts(_hand(), v), NOT_DEPTH, SetupError),
    ("resample(hand, seat=v)", lambda v: resample(_hand(), seat=v), NOT_SEAT, SetupError),
    ("resample(v, 0)", lambda v: resample(v, 0), NOT_HAND, SetupError),
    ("resample(hand, 0, v)", lambda v: resample(_hand(), 0, v), NOT_RNG, SetupError),
    ("resample(hand, 0, tries=v)", lambda v: resample(_hand(), 0, random.Random(1), tries=v), NOT_DEPTH,
     SetupError),
]


@pytest.mark.parametrize(("call", "values", "error"), [pytest.param(c, v, e, id=n) for n, c, v, e in TABLE])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_wrongly_typed_argument_raises_the_rows_own_error_in_both_builds(
        call: Callable[[Any], object], values: st.SearchStrategy[Any], error: type[HakkaError],
        data: st.DataObject) -> None:
    value = data.draw(values, label="value")
    with pytest.raises(HakkaError) as raised:
        call(value)
    assert isinstance(raised.value, error), (type(raised.value), raised.value)
    assert type(raised.value).kind == error.kind


def test_the_table_names_what_the_issue_found() -> None:
    # the calls of issue 27 §2.2: a compiled bare TypeError, or a bool taken for a seat
    names = {name for name, *_ in TABLE}
    assert {"parse_event(v)", "Hand.deal(0, [v, ...])", "Hand.from_deck(0, [v, ...])", "resample(hand, seat=v)",
            "perft(hand, v)", "Called(v)"} <= names


def test_a_bool_is_refused_where_its_int_would_be_taken() -> None:
    # the values that *would* work as ints: True is 1, False is 0
    assert Called(1).seat == 1 and Hand.from_seed(0, 1).dealer == 0 and len(resample(_hand(), 1).events) == 0
    for call in (lambda: Called(True), lambda: resample(_hand(), seat=True), lambda: Card(False),
                 lambda: Hand.from_seed(False, 1), lambda: seeded_deck(True), lambda: perft(_hand(), True)):
        with pytest.raises(HakkaError):
            call()


# ------------------------------------------------------------ copies (issue 27 §2.1)

CLONES: list[tuple[str, Callable[[Any], Any]]] = [
    ("pickle", lambda x: pickle.loads(pickle.dumps(x))),
    ("copy", copy.copy),
    ("deepcopy", copy.deepcopy),
]


def _asked(steps: int) -> Hand:
    hand = Hand.from_seed(dealer=2, seed=5, profile=Profile.from_options({"D12": "may-discard"}))
    rng = random.Random(steps)
    for _ in range(steps):
        if hand.to_act is None:
            break
        hand.apply(hand.to_act, rng.choice(list(hand.legal_actions())))
    hand.legal_actions()  # cached on the hand: the copy must carry it
    return hand


@pytest.mark.parametrize("clone", [c for _n, c in CLONES], ids=[n for n, _c in CLONES])
@pytest.mark.parametrize("steps", [0, 3, 9])
def test_a_hand_asked_for_its_legal_actions_copies(clone: Callable[[Any], Any], steps: int) -> None:
    hand = _asked(steps)
    twin = clone(hand)
    assert twin.notation() == hand.notation() and twin.events == hand.events
    assert twin.legal_actions() == hand.legal_actions()
    assert sorted(map(str, twin.legal_actions())) == sorted(map(str, hand.legal_actions()))
    if hand.to_act is not None:
        action = next(iter(hand.legal_actions()))
        assert twin.apply(hand.to_act, action) == hand.copy().apply(hand.to_act, action)


@pytest.mark.parametrize("clone", [c for _n, c in CLONES], ids=[n for n, _c in CLONES])
def test_a_game_asked_for_its_legal_actions_copies(clone: Callable[[Any], Any]) -> None:
    game = Game(first_dealer=1, deals=[{"seed": s} for s in range(6)])
    game.apply(1, "call")
    game.hand.legal_actions()
    twin = clone(game)
    assert twin.hand.notation() == game.hand.notation() and twin.events == game.events
    assert twin.hand.legal_actions() == game.hand.legal_actions()


@pytest.mark.parametrize("clone", [c for _n, c in CLONES], ids=[n for n, _c in CLONES])
@pytest.mark.parametrize("steps", [0, 3, 9])
def test_legal_actions_and_observations_copy(clone: Callable[[Any], Any], steps: int) -> None:
    hand = _asked(steps)
    legal = hand.legal_actions()
    twin: LegalActions = clone(legal)
    assert type(twin) is LegalActions and twin == legal and list(twin) == list(legal)
    assert (twin.actions, twin.discard) == (legal.actions, legal.discard)
    for seat in range(4):
        seen = hand.observation(seat)
        again: Observation = clone(seen)
        assert type(again) is Observation and again == seen
