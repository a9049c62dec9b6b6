"""The fast road of ``observe`` (the hand's views of its log, kept and extended; cached Seen values and action
texts) gives the very observation, and the very wire form, that the plain road gives: each built here the
obvious way, from the hand's public state alone, as the engine built them before (OBS-1, D32, PLAY-5).

Random hands and games (random profiles, discards hidden from the other seats, claims, void hands, ends),
every step, every seat, observed in a random order and at random moments, so that the views are extended
by one event, by several, or by none; then what may make them stale: a new action, a copy, a log put back
(``Game.apply`` refusing a next deal, ``copy_into``), pickling.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from reference_engine import Game, Hand
from reference_engine.actions import Action
from reference_engine.cards import NAMES, Cards, mask_text
from reference_engine.errors import SetupError
from reference_engine.events import Discarded, Event, SeatEvent
from reference_engine.hand import Phase
from reference_engine.observation import Observation, Seen
from reference_engine.wire import Session, legal_json, observation_json, result_json

from .support import choose, random_profile


def plain_observation(hand: Hand, seat: int) -> Observation:
    """What ``seat`` may see, built from the log event by event for this seat alone."""
    events: list[Event] = []
    history: list[Seen] = []
    for event in hand.events:
        if isinstance(event, Discarded) and event.seat != seat:
            event = event.seen_by(seat)
            history.append(Seen(event.seat, None, event.count))
        else:
            action = event.action
            if action is not None and isinstance(event, SeatEvent):
                history.append(Seen(event.seat, action, bin(action.mask).count("1")))
        events.append(event)
    playing = hand.phase == Phase.PLAYING
    won = hand.result is not None and hand.result.winner is not None
    sizes = tuple(1 if s == hand.dreamer else bin(hand.hands[s]).count("1") for s in range(4))
    return Observation(
        seat=seat, phase=hand.phase, to_act=hand.to_act, dealer=hand.dealer, dreamer=hand.dreamer,
        privileged=hand.privileged, hand=hand.hand_of(seat), hand_sizes=sizes,  # type: ignore[arg-type]
        dreamer_card=hand.dreamer_card if seat == hand.dreamer or won else None,
        history=tuple(history), events=tuple(events), leader=hand.round.leader if playing else None,
        round=tuple(p.seen_by(seat) if isinstance(p, Discarded) else p for p in hand.round.plays) if playing else (),
        tricks=tuple(hand.tricks),  # type: ignore[arg-type]
        elders=Cards(hand.elders), legal=hand.legal_actions() if seat == hand.to_act else None, result=hand.result)


def plain_json(seen: Observation) -> dict[str, Any]:
    """The wire form of ``seen`` (spec/PROTOCOL.md, ``observe``), each action's text written out afresh."""
    def entry(s: Seen) -> dict[str, Any]:
        if s.action is None:
            return {"seat": s.seat, "action": "discard", "count": s.size}
        verb, mask = s.action
        return {"seat": s.seat, "action": f"{verb} {mask_text(int(mask))}" if mask else verb}

    return {
        "seat": seen.seat, "phase": seen.phase.value, "to_act": seen.to_act, "dealer": seen.dealer,
        "dreamer": seen.dreamer, "privileged": seen.privileged, "hand": mask_text(seen.hand.mask),
        "hand_sizes": list(seen.hand_sizes),
        "dreamer_card": None if seen.dreamer_card is None else NAMES[seen.dreamer_card],
        "history": [entry(s) for s in seen.history], "tricks": list(seen.tricks),
        "elders": mask_text(seen.elders.mask), "legal": None if seen.legal is None else legal_json(seen.legal),
        "result": None if seen.result is None else result_json(seen.result),
    }


def check(hand: Hand, seat: int) -> None:
    fast, plain = hand.observation(seat), plain_observation(hand, seat)
    assert fast == plain, f"seat {seat} after {[str(e) for e in hand.events]}"
    assert observation_json(fast) == plain_json(plain), f"seat {seat} after {[str(e) for e in hand.events]}"


def observe_some(hand: Hand, rng: random.Random) -> None:
    """Every seat, in a random order, each maybe twice; or now and then none (the views then catch up later)."""
    if rng.random() < 0.3:
        return
    seats = [0, 1, 2, 3] + rng.sample(range(4), rng.randrange(3))
    rng.shuffle(seats)
    for seat in seats:
        check(hand, seat)


@pytest.mark.parametrize("seed", range(6))
def test_every_step_every_seat_over_random_hands(seed: int) -> None:
    rng = random.Random(seed)
    discards = ends = 0
    for number in range(12):
        hand = Hand.from_seed(number % 4, rng.getrandbits(64), random_profile(rng))
        observe_some(hand, rng)
        while hand.to_act is not None:
            hand.apply(hand.to_act, choose(hand, rng, call_bias=0.6))
            observe_some(hand, rng)
            if rng.random() < 0.1:  # a copy observes its own log; the original goes on with its views
                twin = hand.copy()
                check(twin, rng.randrange(4))
        for seat in range(4):
            check(hand, seat)
        discards += any(isinstance(e, Discarded) for e in hand.events)
        assert hand.result is not None
        ends += 1
    assert discards and ends == 12  # hidden discards were met


def test_void_hands_and_games_to_their_end() -> None:
    rng = random.Random(7)
    void = Hand.from_seed(1, 99)
    while void.to_act is not None:
        void.apply(void.to_act, Action("pass"))
        observe_some(void, rng)
    assert void.result is not None and void.result.end == "void"
    for seat in range(4):
        check(void, seat)
    for number in range(3):
        game = Game(number, [{"seed": rng.getrandbits(64)} for _ in range(30)], random_profile(rng))
        while not game.over:
            hand = game.hand
            game.apply(hand.to_act, choose(hand, rng))
            observe_some(game.hand, rng)
            if hand is not game.hand:  # the hand just ended: its last state, every seat
                for seat in range(4):
                    check(hand, seat)


def test_views_follow_the_log_after_a_new_action_a_copy_and_a_log_put_back() -> None:
    rng = random.Random(3)
    hand = Hand.from_seed(0, 12345)
    for seat in range(4):
        check(hand, seat)
    earlier = hand.copy()
    while hand.to_act is not None and len(hand.events) < 12:
        before = [hand.observation(s) for s in range(4)]
        hand.apply(hand.to_act, choose(hand, rng, call_bias=1.0))
        for seat in range(4):  # not stale: the new action shows, in every seat's history and events
            check(hand, seat)
            after = hand.observation(seat)
            assert len(after.events) > len(before[seat].events)
    log, kept = hand.events, list(hand.events)
    hand.apply(hand.to_act, choose(hand, rng))
    check(hand, 0)
    log[:] = kept  # the same list, shorter: read again
    for seat in range(4):
        check(hand, seat)
    log[-1] = log[0]  # the same length, changed at its end: read again
    for seat in range(4):
        check(hand, seat)
    log[:] = kept
    earlier.copy_into(hand)  # the log put back as it was (what Game.apply does when a next deal is refused)
    for seat in range(4):
        check(hand, seat)
        assert hand.observation(seat).events == earlier.observation(seat).events
    for clone in (pickle.loads(pickle.dumps(hand)), copy.deepcopy(hand), copy.copy(hand)):
        clone.apply(clone.to_act, choose(clone, rng))
        for seat in range(4):
            check(clone, seat)


def test_a_refused_next_deal_leaves_observations_as_they_were() -> None:
    game = Game(0, [{"seed": 1}])
    game.apply(0, "pass")
    game.apply(1, "pass")
    seen = [game.hand.observation(seat) for seat in range(4)]
    with pytest.raises(SetupError):
        game.apply(3, "pass")  # the hand would end void, and deal 2 is missing (GAME-1)
    for seat in range(4):
        check(game.hand, seat)
        assert game.hand.observation(seat) == seen[seat]


def session() -> Session:
    talk = Session()
    assert talk.handle({"cmd": "hello", "protocol": 3})["ok"]
    return talk


def test_a_batch_observing_every_step_answers_as_one_request_at_a_time() -> None:
    """``observe: every`` and ``last`` in a batch, against the same requests sent one by one to a new session."""
    rng = random.Random(11)
    for number in range(4):
        setup = {"dealer": number, "seed": str(rng.getrandbits(64))}
        batch = session().handle({"cmd": "batch", "setup": setup, "steps": [], "playout": {"seed": str(number)},
                                  "observe": "every"})
        alone = session()
        alone.handle({"cmd": "start", "setup": setup})
        for entry in batch["steps"]:
            if "step" in entry:
                alone.handle({"cmd": "act", **entry["step"]})
            assert entry["observations"] == [alone.handle({"cmd": "observe", "seat": s}) for s in range(4)]
        last = session().handle({"cmd": "batch", "setup": setup, "steps": [], "playout": {"seed": str(number)},
                                 "observe": "last"})
        assert last["steps"][-1]["observations"] == batch["steps"][-1]["observations"]


def test_an_observation_stays_the_immutable_value_it_was() -> None:
    """Not a dataclass any more (for speed), but to its readers what the frozen dataclass was."""
    hand = Hand.from_seed(2, 8)
    seen = hand.observation(2)
    again = plain_observation(hand, 2)
    assert seen == again and hash(seen) == hash(again) and seen != hand.observation(3)
    assert seen.__match_args__[:3] == ("seat", "phase", "to_act") and len(seen.__match_args__) == 17
    assert repr(seen).startswith("Observation(seat=2, phase=<Phase.CALLING: 'calling'>, to_act=2, dealer=2, ")
    assert repr(seen).endswith(f"legal={seen.legal!r}, result=None)")
    for name in seen.__match_args__:
        with pytest.raises(FrozenInstanceError):
            setattr(seen, name, None)
        with pytest.raises(FrozenInstanceError):
            delattr(seen, name)
    assert seen == again
