"""reference_engine.sampling: states drawn consistent with one seat's view (issue 18 §2, OBS-1)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reference_engine import Hand, SetupError
from reference_engine.cards import Cards, parse_mask
from reference_engine.sampling import NoConsistentDeal, Resampler, SeatView, resample
from reference_engine.wire import observation_json


def played_to(seed: int, dealer: int, moves: int, rng: random.Random) -> Hand:
    """A hand dealt from ``seed`` after up to ``moves`` random legal actions."""
    hand = Hand.from_seed(dealer, seed)
    for _ in range(moves):
        if hand.result is not None:
            break
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions())))
    return hand


def play_out(hand: Hand, rng: random.Random) -> Hand:
    for _ in range(200):
        if hand.result is not None:
            return hand
        seat = hand.to_act
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions())))  # apply raises on an illegal action
    raise AssertionError(f"no end after 200 actions: {hand.notation()}")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3), moves=st.integers(0, 45), pick=st.integers(0, 3),
       draw=st.integers(0, 2**32))
def test_a_sample_looks_the_same_to_the_seat_and_plays_on_legally(seed, dealer, moves, pick, draw):
    rng = random.Random(draw)
    hand = played_to(seed, dealer, moves, rng)
    seat = pick  # any seat, the Dreamer included
    before = hand.notation()
    world = resample(hand, seat, rng)
    assert hand.notation() == before, "the hand given is not changed"
    assert world.observation(seat) == hand.observation(seat)
    assert world.dealt[seat] == hand.dealt[seat]
    assert world.profile == hand.profile and world.dealer == hand.dealer
    # the sample is a real hand: rebuilt from its own notation, and played to an end by legal moves
    assert Hand.from_notation(world.notation()).observation(seat) == hand.observation(seat)
    ended = play_out(world, rng)
    assert ended.result is not None


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3), moves=st.integers(0, 45), pick=st.integers(0, 3),
       draw=st.integers(0, 2**32))
def test_the_wire_view_alone_is_enough_and_gives_the_same_observation(seed, dealer, moves, pick, draw):
    """A bot is given the wire form of its observation (actions, not events) and no hidden card."""
    rng = random.Random(draw)
    hand = played_to(seed, dealer, moves, rng)
    sampler = Resampler(SeatView.from_json(observation_json(hand.observation(pick))), hand.profile, tries=3000)
    try:
        world = sampler.sample(rng)
    except NoConsistentDeal:  # possible in principle: nothing to start a chain from; it must be rare
        assume(False)
    assert world.observation(pick) == hand.observation(pick)


def test_the_sampler_reaches_different_deals():
    hand = played_to(11, 0, 4, random.Random(5))
    sampler = Resampler.of_hand(hand, 1)
    rng = random.Random(8)
    deals = {sampler.sample(rng).dealt for _ in range(20)}
    assert len(deals) >= 15, "20 draws of 25 hidden cards repeat rarely"
    assert sampler.fallbacks == 0


def _must_beat_position() -> Hand:
    """Seat 0 leads Sup2; seat 1, holding no Sup, must discard (D12 must-beat, PLAY-4)."""
    hand = Hand.deal(0, ["Sup2 Sup3 Sup4 Sup5 Sup6 Gon1 Gon2 Gon3 Gon4 Gon5 Gon6 Gon7",
                         "Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6 Zok7 Zok8 Zok9 Sin2",
                         "WanSin",
                         "Sup1 Sup7 Sup8 Sup9 Sin1 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9"])
    for seat, action in [(0, "call"), (0, "play Sup2"), (1, "discard Zok1")]:
        hand.apply(seat, action)
    return hand


def test_a_discard_under_must_beat_tells_that_the_seat_could_not_beat():
    hand = _must_beat_position()
    beaters = parse_mask("Sup3 Sup4 Sup5 Sup6")  # the hidden cards that beat Sup2 (PAT-6, D7 same-suit)
    sampler = Resampler.of_hand(hand, 3)
    rng = random.Random(1)
    # a plain shuffle of the hidden cards would often give seat 1 a beater ...
    naive = 0
    for _ in range(200):
        cards = list(sampler.cards)
        rng.shuffle(cards)
        masks = sampler.masks(cards)
        seat1 = sum(m for owner, m in zip(sampler._owners, masks, strict=True) if owner == 1)
        naive += bool(seat1 & beaters)
    assert naive > 100
    # ... the sampler never does: seat 1 held no Sup above 2 when it discarded
    for _ in range(30):
        world = sampler.sample(rng)
        assert not world.dealt[1] & beaters, Cards(world.dealt[1])
        assert world.observation(3) == hand.observation(3)


def _consistent_histories(sampler: Resampler) -> set[tuple[int, ...]]:
    found = set()
    for cards in set(permutations(sampler.cards)):
        if sampler.replay(list(cards)) is not None:
            found.add(tuple(sampler.masks(list(cards))))
    return found


def _late_position() -> tuple[Hand, int, set[tuple[int, ...]]]:
    """A hand late enough that 3 to 12 hidden histories fit what the seat to act sees (a fixed search)."""
    for seed in range(200):
        rng = random.Random(seed)
        hand = Hand.from_seed(seed % 4, seed)
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            if hand.phase == "playing" and 3 <= len(Resampler.of_hand(hand, seat).cards) <= 5:
                histories = _consistent_histories(Resampler.of_hand(hand, seat))
                if 3 <= len(histories) <= 12:
                    return hand, seat, histories
            hand.apply(seat, rng.choice(list(hand.legal_actions())))
    raise AssertionError("no late position found")


def test_every_consistent_history_is_drawn_about_equally_often():
    hand, seat, histories = _late_position()
    sampler = Resampler.of_hand(hand, seat)
    rng = random.Random(2024)
    draws = 200 * len(histories)
    counts = Counter(tuple(sampler.masks(_hidden_cards(sampler, sampler.sample(rng)))) for _ in range(draws))
    assert set(counts) == histories, "every draw is consistent, and every consistent history is drawn"
    expected = draws / len(histories)
    chi2 = sum((counts[h] - expected) ** 2 / expected for h in histories)
    # the 0.999 quantile of chi-square is below 3 * df + 11 for df up to 100
    assert chi2 < 3 * (len(histories) - 1) + 11, (chi2, counts)


def _hidden_cards(sampler: Resampler, world: Hand) -> list[int]:
    """The cards of each hidden place of ``world``, place after place (the inverse of ``masks``)."""
    truth = Resampler.of_hand(world, sampler.seat)
    return list(truth.cards)


def test_the_markov_chain_takes_over_when_rejection_finds_nothing():
    hand = _must_beat_position()
    sampler = Resampler.of_hand(hand, 3, tries=0, steps=50)
    world = sampler.sample(random.Random(4))
    assert sampler.fallbacks == 1
    assert world.observation(3) == hand.observation(3)
    assert not world.dealt[1] & parse_mask("Sup3 Sup4 Sup5 Sup6")


def test_the_dreamer_card_stays_known_to_the_dreamer_and_after_a_win():
    hand = played_to(3, 1, 2, random.Random(0))
    dreamer = hand.dreamer
    for draw in range(5):
        assert resample(hand, dreamer, random.Random(draw)).dealt[dreamer] == hand.dealt[dreamer]
    won = next(h for s in range(100) if (h := played_to(s, 0, 200, random.Random(s))).result is not None
               and h.result.winner is not None)
    assert won.observation(1).dreamer_card is not None  # OBS-1: shown once the hand has a winner
    for draw in range(5):
        world = resample(won, 1, random.Random(draw))
        assert world.dealt[won.dreamer] == won.dealt[won.dreamer]
        assert world.result == won.result


def test_a_bad_seat_is_refused_with_the_rule():
    with pytest.raises(SetupError, match=r"seat must be a seat 0-3, not 4 \[GAME-5\]"):
        resample(Hand.from_seed(0, 1), 4)


def test_a_view_no_deal_fits_is_refused_with_the_seat_and_the_rule():
    hand = _must_beat_position()
    seen = observation_json(hand.observation(3))
    # seat 3 claims to hold Sup2 too, which seat 0 played face up: one card too many is known
    seen["hand"] = seen["hand"] + " Sup2"
    with pytest.raises(NoConsistentDeal, match=r"seat 3's view places Sup2 with two seats \[OBS-1\]"):
        Resampler(SeatView.from_json(seen))
    seen = observation_json(hand.observation(3))
    seen["hand"] = seen["hand"].replace("Sup1 ", "")  # seat 3 holds 11 cards: one card belongs nowhere
    with pytest.raises(NoConsistentDeal, match=r"seat 3's view leaves 25 cards hidden \(Sup1 .* for 24 hidden places"):
        Resampler(SeatView.from_json(seen))
    # a history no deal explains: seat 0 leads Sin2, so holds nothing above Sin (PAT-5), but seat 3 holds
    # every other Sin: seat 0's 11 other cards cannot exist
    seen = observation_json(hand.observation(3))
    seen["history"][1] = {"seat": 0, "action": "play Sin2"}
    sampler = Resampler(SeatView.from_json(seen), tries=50)
    with pytest.raises(NoConsistentDeal, match=r"seat 3: no deal consistent with seat 3's view in 50 tries"):
        sampler.sample(random.Random(0))
