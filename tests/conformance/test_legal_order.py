"""The canonical order of actions (spec/README.md; issue 31 §2.1): the reference's ``state`` lists
``legal.actions`` in it, and the runner holds an engine that declares ``playout`` to it, since a playout's
draws index that list (spec/PROTOCOL.md, "Playout").

The order is written here again from its definition, apart from the engine's ``Action.sort_key`` and the
harness's ``action_order_key``: by verb (call, pass, play, discard, claim, continue, tigers, decline), then
fewer cards first, then the cards' positions in the canonical order of cards, compared as sequences.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.loader import Scenario
from conformance.results import FAIL, PASS
from reference_engine.wire import Session
from tests.fuzz.fakes import DeclaresNoBatch, ListsLegalActionsReversed, ListsObservedLegalActionsReversed

VERBS = ["call", "pass", "play", "discard", "claim", "continue", "tigers", "decline"]
DECK = [f"{suit}{n}" for suit in ("Sup", "Gon", "Zok", "Sin") for n in range(1, 10)] + ["WanSin"]


def _before(a: str, b: str) -> bool:
    """Whether action ``a`` comes strictly before ``b`` in the canonical order of actions (from its definition)."""
    verb_a, *cards_a = a.split()
    verb_b, *cards_b = b.split()
    if verb_a != verb_b:
        return VERBS.index(verb_a) < VERBS.index(verb_b)
    if len(cards_a) != len(cards_b):
        return len(cards_a) < len(cards_b)
    positions_a = sorted(DECK.index(c) for c in cards_a)
    positions_b = sorted(DECK.index(c) for c in cards_b)
    for x, y in zip(positions_a, positions_b, strict=True):
        if x != y:
            return x < y
    return False  # the same action


def _walk(seed: int, dealer: int, moves: int, options: dict[str, str]) -> list[list[str]]:
    """The ``legal.actions`` lists of a random walk of up to ``moves`` actions from a seeded deal."""
    session = Session()
    session.handle({"cmd": "hello", "protocol": 3})
    assert session.handle({"cmd": "start", "options": options,
                           "setup": {"dealer": dealer, "seed": str(seed)}})["ok"]
    draw = random.Random(seed)
    lists = []
    for _ in range(moves):
        state = session.handle({"cmd": "state"})
        legal = state["legal"]
        lists.append(legal["actions"])
        if state["to_act"] is None:
            break
        choices = list(legal["actions"])
        if legal["discard"] is not None:
            pool = legal["discard"]["from"].split()
            choices.append("discard " + " ".join(draw.sample(pool, legal["discard"]["count"])))
        assert session.handle({"cmd": "act", "seat": state["to_act"], "action": draw.choice(choices)})["ok"]
    return lists


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3), moves=st.integers(1, 60),
       options=st.fixed_dictionaries({}, optional={"D12": st.just("may-discard"), "D24": st.just("declared"),
                                                   "D7": st.just("any-suit"), "D17": st.just("yes")}))
def test_the_reference_lists_legal_actions_in_the_canonical_order(seed: int, dealer: int, moves: int,
                                                                  options: dict[str, str]) -> None:
    for actions in _walk(seed, dealer, moves, options):
        for a, b in pairwise(actions):
            assert _before(a, b), f"{a!r} is listed before {b!r}, out of the canonical order: {actions}"


def test_the_readme_example_of_a_lead_holds_on_the_reference() -> None:
    """spec/README.md's worked example: the Dealer calls and leads; the list is the reference's, in order."""
    from pathlib import Path

    readme = " ".join((Path(__file__).resolve().parents[2] / "spec" / "README.md").read_text(encoding="utf-8").split())
    shown = ['play Sup3', 'play Sup4', 'play Sup5', 'play Sup3 Sup4 Sup5', 'play Sup5 Gon5 Zok5',
             'play Gon9 Zok9 Sin9', 'play Zok5 Zok6 Zok7']
    assert ", ".join(f"`{a}`" for a in shown) in readme
    session = Session()
    session.handle({"cmd": "hello", "protocol": 3})
    hands = ["Sup3 Sup4 Sup5 Gon5 Gon9 Zok5 Zok6 Zok7 Zok9 Sin2 Sin3 Sin9",
             "Sup6 Sup7 Sup8 Gon4 Gon6 Gon7 Gon8 Zok1 Zok2 Zok3 Zok4 Zok8", "Sin4",
             "Sup1 Sup2 Sup9 Gon1 Gon2 Gon3 Sin1 Sin5 Sin6 Sin7 Sin8 WanSin"]
    assert f"`{hands[0]}`" in readme
    assert session.handle({"cmd": "start", "setup": {"dealer": 0, "hands": hands}})["ok"]
    assert session.handle({"cmd": "act", "seat": 0, "action": "call"})["ok"]
    assert session.handle({"cmd": "state"})["legal"] == {"actions": shown, "discard": None}
    assert all(_before(a, b) for a, b in pairwise(shown))


def _calling(examples: dict[str, Scenario]) -> Scenario:
    return examples["example-calling-everybody-passes"]


def test_an_engine_that_declares_playout_is_failed_at_the_first_two_actions_out_of_order(
        run: Any, examples: dict[str, Scenario]) -> None:
    scenario = _calling(examples)
    (result,), _ = run("python:tests.fuzz.fakes:ListsLegalActionsReversed", [scenario])
    assert result.status == FAIL, result
    assert result.key == "legal" and result.at == "setup" and result.step is None, result
    assert "'pass' is listed before 'call'" in result.reason and "playout" in result.reason, result.reason
    (control,), _ = run("python:reference_engine.wire:Session", [scenario])
    assert control.status == PASS, control


class _ReversedWithoutPlayout(ListsLegalActionsReversed, DeclaresNoBatch):
    """The same reversed lists from an engine that does not declare ``playout``: compared as sets, it passes."""


def test_an_engine_without_playout_may_list_legal_actions_in_any_order(
        run: Any, examples: dict[str, Scenario]) -> None:
    (result,), engine = run("python:tests.conformance.test_legal_order:_ReversedWithoutPlayout", [_calling(examples)])
    assert engine.info is not None and "playout" not in engine.info.capabilities
    assert result.status == PASS, result


def _observing(schemas: Any, spec_data: Any) -> Scenario:
    """A corpus scenario that reads the observation of the seat to act (call and pass, in that order)."""
    from pathlib import Path

    from conformance.loader import load_scenarios

    path = Path(__file__).resolve().parents[2] / "conformance" / "scenarios" / "observation" / "edges.yaml"
    return next(s for s in load_scenarios([path], schemas, spec_data) if s.id == "obs-legal-only-for-the-seat-to-act")


def test_an_engine_that_declares_playout_lists_what_a_seat_observes_in_the_canonical_order_too(
        run: Any, schemas: Any, spec_data: Any) -> None:
    # spec/PROTOCOL.md, `observe`: an observation's legal is the state's list, in the same order; state is right here
    scenario = _observing(schemas, spec_data)
    (result,), _ = run("python:tests.fuzz.fakes:ListsObservedLegalActionsReversed", [scenario])
    assert result.status == FAIL, result
    assert result.key == "observe.3" and result.step == 0, result
    assert result.reason.startswith("seat 3's observation: legal.actions is not in the canonical order of actions: "
                                    "'pass' is listed before 'call'"), result.reason
    (control,), _ = run("python:reference_engine.wire:Session", [scenario])
    assert control.status == PASS, control


class _ObservedReversedWithoutPlayout(ListsObservedLegalActionsReversed, DeclaresNoBatch):
    """The same reversed observations from an engine that does not declare ``playout``: compared as sets, it passes."""


def test_an_engine_without_playout_may_list_what_a_seat_observes_in_any_order(
        run: Any, schemas: Any, spec_data: Any) -> None:
    spec = "python:tests.conformance.test_legal_order:_ObservedReversedWithoutPlayout"
    (result,), engine = run(spec, [_observing(schemas, spec_data)])
    assert engine.info is not None and "playout" not in engine.info.capabilities
    assert result.status == PASS, result
