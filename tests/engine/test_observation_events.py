"""What a seat sees of the events (OBS-1, D32): every event, but another seat's discard as its count;
the round in progress; and never where another seat's unplayed card is. Over 1,000 random hands and games."""

from __future__ import annotations

import random

from reference_engine import DEFAULT_PROFILE, Action, Game, Hand
from reference_engine.cards import mask_text, parse_mask
from reference_engine.events import Discarded, EldersPromoted, Event, Played, SeatEvent
from reference_engine.hand import Phase

from .support import choose, random_profile

CARD_WORDS = {name for name in mask_text((1 << 37) - 1).split()}


def named(event: Event) -> int:
    """Every card the event's text names."""
    return parse_mask([w for w in str(event).split() if w in CARD_WORDS] or "")


def check_seat(hand: Hand, seat: int) -> None:
    """Each event ``seat`` sees names only cards it may know where they are, or the public Elder set's change."""
    seen = hand.observation(seat)
    assert len(seen.events) == len(hand.events)
    own_discards = face_up = 0
    for mine, truth in zip(seen.events, hand.events, strict=True):
        if isinstance(truth, Discarded) and truth.seat != seat:
            assert isinstance(mine, Discarded) and mine.hidden and mine.count == truth.count and named(mine) == 0
            assert str(mine) == f"{truth.seat} discard ({truth.count} face down)"
            continue
        assert mine == truth  # every other event is seen as it is
        if isinstance(truth, Played):
            face_up |= truth.mask
        elif isinstance(truth, Discarded):
            own_discards |= truth.mask
        if isinstance(truth, EldersPromoted):
            assert truth.mask & ~hand.elders == 0  # the Elders are public (OBS-1); no place is said
            continue
        knowable = hand.dealt[seat] | face_up | own_discards
        assert named(mine) & ~knowable == 0, (seat, str(mine))
    if seat != hand.dreamer:
        assert not any(named(e) >> hand.dreamer_card & 1 for e in seen.events
                       if not isinstance(e, EldersPromoted)), "the Dreamer's card named"
    if hand.phase == Phase.PLAYING:
        assert seen.leader == hand.round.leader
        assert seen.round == tuple(p.seen_by(seat) if isinstance(p, Discarded) else p for p in hand.round.plays)
    else:
        assert seen.round == () and seen.leader is None
    # the protocol's history is the seat's events that are actions, a hidden discard as its count
    expected: list[tuple[int | None, Action | None, int]] = []
    for e in seen.events:
        if isinstance(e, Discarded) and e.hidden:
            expected.append((e.seat, None, e.count))
        elif e.action is not None:
            assert isinstance(e, SeatEvent), e  # a move's own event is about its seat
            expected.append((e.seat, e.action, e.action.mask.bit_count()))
    assert [(s.seat, s.action, s.size) for s in seen.history] == expected


def test_no_seat_sees_another_seats_hidden_cards_over_random_hands() -> None:
    rng = random.Random(2024)
    discards = hidden_rounds = 0
    for n in range(1000):
        hand = Hand.from_seed(n % 4, rng.getrandbits(64), random_profile(rng) if n % 2 else DEFAULT_PROFILE)
        steps = 0
        while hand.to_act is not None:
            hand.apply(hand.to_act, choose(hand, rng, 0.9))
            steps += 1
            if steps % 5 == 0 or hand.to_act is None:  # every few steps and at the end: 4 seats each
                for seat in range(4):
                    check_seat(hand, seat)
        discards += any(isinstance(e, Discarded) for e in hand.events)
        hidden_rounds += any(isinstance(p, Discarded) for p in hand.round.plays)
    assert discards > 300 and hidden_rounds > 10


def test_no_seat_sees_another_seats_hidden_cards_over_random_games() -> None:
    rng = random.Random(99)
    hands = 0
    for n in range(60):
        game = Game(n % 4, [{"seed": rng.getrandbits(64)} for _ in range(40)], random_profile(rng))
        while not game.over:
            hand = game.hand
            seat = game.to_act
            assert seat is not None
            game.apply(seat, choose(hand, rng, 0.9))
            if hand.result is not None:  # the hand just ended: what each seat saw of it, whole
                hands += 1
                for observer in range(4):
                    check_seat(hand, observer)
            elif len(hand.events) % 4 == 0:
                for observer in range(4):
                    check_seat(hand, observer)
    assert hands >= 240
