"""reference_engine.game: 4 counting hands, cumulative scores, Dealer rotation (GAME-1, GAME-4, D4, D5, D31)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_engine import Game, IllegalActionError, Profile, SetupError

from .support import RNG_SEEDS, choose, play_settings

SEEDED = [{"seed": s} for s in range(1000, 1060)]


def expected_next_dealer(dealer: int, history: list[tuple[int, str]], profile: Profile) -> int:
    """D4 and D5 from the Calling actions alone, independent of the engine's result."""
    calls = [seat for seat, verb in history if verb == "call"]
    if not calls:
        return dealer if profile.void_redeal == "same-dealer" else (dealer + 1) % 4
    caller = calls[0]
    if caller == dealer:
        return dealer
    return caller if profile.next_dealer == "caller" else (dealer + 1) % 4


def drive(game: Game, rng: random.Random, call_bias: float) -> list[dict[str, object]]:
    """Play the game to its end; record each hand (dealer, actions, result)."""
    log: list[dict[str, object]] = []
    actions: list[tuple[int, str]] = []
    current: dict[str, object] = {"dealer": game.hand.dealer, "actions": actions}
    hand = game.hand
    while not game.over:
        seat = game.to_act
        assert seat is not None and game.phase == hand.phase != "game-over"
        action = choose(hand, rng, call_bias)
        game.apply(seat, action)
        actions.append((seat, str(action)))
        if hand.phase == "ended":
            current["result"] = hand.result
            log.append(current)
            if not game.over:
                assert game.hand is not hand, "the next deal is dealt as soon as a hand ends"
                hand = game.hand
                assert hand.phase == "calling"
                actions = []
                current = {"dealer": hand.dealer, "actions": actions}
    return log


def check_game(game: Game, log: list[dict[str, object]], first_dealer: int) -> None:
    profile = game.profile
    assert log[0]["dealer"] == first_dealer  # DEAL-1, D36
    counting = 0
    scores = [0, 0, 0, 0]
    for i, entry in enumerate(log):
        result = entry["result"]
        dealer = entry["dealer"]
        assert isinstance(dealer, int)
        actions = entry["actions"]
        assert isinstance(actions, list)
        nd = expected_next_dealer(dealer, actions, profile)
        assert result.next_dealer == nd  # type: ignore[attr-defined]
        if i + 1 < len(log):
            assert log[i + 1]["dealer"] == nd  # the next deal is dealt by the next Dealer
        end = result.end  # type: ignore[attr-defined]
        counts = {
            "void": profile.game_length == "deals",
            "played-out": profile.no_claim == "no-score" or profile.game_length == "deals",
        }.get(end, True)
        assert result.counts is counts, (end, profile.changed())  # type: ignore[attr-defined]
        counting += counts
        for s in range(4):
            scores[s] += result.deltas[s]  # type: ignore[attr-defined]
        if i + 1 < len(log):
            assert counting < 4
    assert counting == 4  # GAME-1: the game ends at the 4th counting hand
    assert game.hands_played == 4 and game.over
    assert game.phase == "game-over" and game.to_act is None
    assert game.scores == scores  # GAME-4
    assert sum(game.scores) == 0
    assert [r for r in game.results] == [e["result"] for e in log]
    assert game.deal_index == len(log) - 1


@pytest.mark.parametrize(
    "options",
    [{}, {"D31": "deals"}, {"D4": "caller"}, {"D5": "same-dealer"}, {"D23": "replay"}, {"D23": "replay", "D31": "deals"}],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default",
)
@play_settings(15)
@given(first_dealer=st.integers(0, 3), rng_seed=RNG_SEEDS, call_bias=st.sampled_from([0.3, 0.6, 0.9]))
def test_random_games(options: dict[str, str], first_dealer: int, rng_seed: int, call_bias: float) -> None:
    profile = Profile.from_options(options)
    game = Game(first_dealer, SEEDED, profile)
    log = drive(game, random.Random(rng_seed), call_bias)
    check_game(game, log, first_dealer)


def all_pass(game: Game) -> None:
    dealer = game.hand.dealer
    for seat in (dealer, (dealer + 1) % 4, (dealer + 3) % 4):
        game.apply(seat, "pass")


def test_void_deals_do_not_count_under_played_hands() -> None:  # D31 played-hands, D5 next-dealer
    game = Game(2, SEEDED)
    for expected_dealer in (2, 3, 0, 1, 2, 3):
        assert game.hand.dealer == expected_dealer
        all_pass(game)
        assert game.hands_played == 0 and not game.over
    assert len(game.results) == 6 and all(r.end == "void" for r in game.results)
    assert game.scores == [0, 0, 0, 0]


def test_void_deals_count_under_deals() -> None:  # D31 deals
    game = Game(1, SEEDED, Profile.from_options({"D31": "deals"}))
    for n in range(1, 5):
        all_pass(game)
        assert game.hands_played == n
    assert game.over and game.phase == "game-over" and game.to_act is None
    with pytest.raises(IllegalActionError):
        game.apply(game.hand.dealer, "pass")


def test_same_dealer_redeals_after_void() -> None:  # D5 same-dealer
    game = Game(3, SEEDED, Profile.from_options({"D5": "same-dealer"}))
    all_pass(game)
    assert game.hand.dealer == 3


def test_dealer_who_calls_deals_again() -> None:  # CALL-2
    game = Game(0, SEEDED)
    rng = random.Random(4)
    game.apply(0, "call")
    first = game.hand
    while game.hand is first and first.phase != "ended":
        seat = first.to_act
        assert seat is not None
        game.apply(seat, choose(first, rng))
    assert game.hand.dealer == 0


def test_game_needs_deals() -> None:
    with pytest.raises(SetupError) as info:
        Game(0, [])
    assert info.value.rule == "GAME-1"


def test_running_out_of_deals_is_a_setup_error_naming_the_deal() -> None:
    game = Game(0, SEEDED[:2])
    all_pass(game)
    with pytest.raises(SetupError) as info:
        all_pass(game)
    assert "deal 3" in str(info.value)
    assert len(game.results) == 1 and game.hands_played == 0  # the refused pass did not end hand 2
    assert game.hand.phase == "calling" and len(game.hand.history) == 2


def test_bad_deal_description() -> None:
    for deal in ({}, {"seed": 1, "deck": "Sup1"}, {"seed": -1}, {"seed": "7"}, {"hands": "Sup1"}):
        with pytest.raises(SetupError):
            Game(0, [deal])


def test_hands_deal_must_put_the_dreamer_opposite_the_dealer() -> None:
    hands = ["Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3",
             "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
             "WanSin",
             "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9"]
    game = Game(0, [{"hands": hands}, {"hands": hands}])
    game.apply(0, "pass")
    game.apply(1, "pass")
    before = (game.hand.phase, game.hand.to_act, list(game.hand.history))
    with pytest.raises(SetupError) as info:
        game.apply(3, "pass")  # the next Dealer is 1: seat 3 should hold the 1 card
    assert info.value.rule == "DEAL-4" and "deal 2 (Dealer seat 1)" in str(info.value)
    # An error never changes state: the last pass is refused, not half applied.
    assert game.results == [] and game.scores == [0, 0, 0, 0] and game.deal_index == 0
    assert (game.hand.phase, game.hand.to_act, list(game.hand.history)) == before


def test_every_deal_is_checked_at_the_start() -> None:
    good = {"seed": 1}
    for bad in ({"deck": "Sup1 Sup2"}, {"hands": ["Sup1", "Sup1", "Sup2", "Sup3"]}):
        with pytest.raises(SetupError) as info:
            Game(0, [good, good, bad])
        assert "deal 3" in str(info.value), str(info.value)


@pytest.mark.parametrize("seed", range(6))
def test_a_refused_next_deal_leaves_the_whole_hand_as_it_was(seed: int) -> None:
    """The move that ends a hand is undone when the next deal is missing: position, log, results (no copy is
    taken before each move; the hand is replayed from its deal)."""
    rng = random.Random(seed)
    game = Game(seed % 4, [{"seed": seed}], Profile.from_options({"D12": "may-discard", "D21": "optional"}))
    while True:
        hand = game.hand
        seat = hand.to_act
        assert seat is not None
        before = (hand.notation(), list(hand.events), hand.legal_actions())
        try:
            game.apply(seat, choose(hand, rng))
        except SetupError as info:
            assert "deal 2" in str(info)
            break
    assert (game.hand.notation(), game.hand.events, game.hand.legal_actions()) == before
    assert game.results == [] and game.scores == [0, 0, 0, 0]
    assert game.events == before[1]  # the game's log is the hand's: nothing of the refused move


def test_a_refused_next_deal_leaves_the_hand_a_caller_holds_as_it_was() -> None:
    """Game.apply's contract: a refused next deal raises SetupError and the move is NOT applied, not even to the
    Hand object the caller took from ``game.hand`` before the move (a table holds it to show the hand)."""
    game = Game(0, [{"seed": 1}])
    held = game.hand
    game.apply(0, "pass")
    game.apply(1, "pass")
    before = (held.notation(), list(held.events), held.legal_actions(), held.to_act)
    with pytest.raises(SetupError, match="needs deal 2"):
        game.apply(3, "pass")
    assert game.hand is held
    assert held.phase == "calling" and held.result is None and held.to_act == 3
    assert (held.notation(), list(held.events), held.legal_actions(), held.to_act) == before
    assert game.results == [] and game.hands_played == 0 and len(game.events) == 2
    with pytest.raises(SetupError, match="needs deal 2"):  # the same move is refused again, the same way
        game.apply(3, "pass")
    assert held.notation() == before[0]
