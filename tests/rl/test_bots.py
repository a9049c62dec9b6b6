"""hakka_rl.ismcts: the IS-MCTS bot, at the table and on its own (issue 18 §4; budgets of simulations, issue 29 §2)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from hakka_play.bots import BOTS, RuleBot
from hakka_play.table import Table
from hakka_rl.ismcts import DEFAULT_SIMULATIONS, DEFAULT_TIME_LIMIT, SearchBot, TableBot
from hakka_rl.openspiel_game import GAME_NAME
from reference_engine import Hand, Profile
from reference_engine.sampling import resample
from reference_engine.wire import observation_json

REPO = Path(__file__).resolve().parents[2]


def view(hand: Hand, seat: int) -> dict[str, object]:
    seen = hand.observation(seat)
    obs = observation_json(seen)
    obs["round"] = [str(p) for p in seen.round]
    return obs


def positions() -> list[Hand]:
    """Hands at a choice of the seat to act, from Calling to late in Playing (rule-aware bots play them)."""
    found = []
    for seed in range(6):
        hand = Hand.from_seed(seed % 4, seed)
        rng = random.Random(seed)
        rule = RuleBot()
        for step in range(60):
            seat = hand.to_act
            if seat is None:
                break
            legal = hand.legal_actions()
            if step % 7 == seed % 3 and (len(legal.actions) > 1 or legal.discard is not None):
                found.append(hand.copy())
            hand.apply(seat, rule.choose(view(hand, seat), legal, rng))
    return found


def test_the_table_offers_the_search_bot_with_its_profile():
    assert "ismcts" in BOTS
    profile = Profile.from_options({"D12": "may-discard"})
    table = Table(humans=[0], seed=3, bot="ismcts", profile=profile)
    bots = [s.bot for s in table.seats if s.bot is not None]
    assert len(bots) == 3 and all(isinstance(b, TableBot) and b.profile == profile for b in bots)
    first = bots[0]
    assert isinstance(first, TableBot) and first.name == "IS-MCTS bot"
    assert first.simulations == DEFAULT_SIMULATIONS == 200 and first.time_limit == DEFAULT_TIME_LIMIT == 0.25


def test_without_open_spiel_the_table_works_and_does_not_offer_it():
    code = (
        "import importlib.util\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'pyspiel' else real(name, *a)\n"
        "from hakka_play.bots import BOTS\n"
        "from hakka_play.cli import _parser\n"
        "from hakka_play.table import Table\n"
        "t = Table(humans=[], seed=3, bot='rule'); t.play_bots()\n"
        "print(sorted(BOTS), t.game.over, '{random,rule,policy}' in _parser().format_help())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["['policy',", "'random',", "'rule']", "True", "True"]


def test_a_choice_is_legal_and_within_the_time_limit():
    bot = TableBot(Profile(), RuleBot(), simulations=100_000, time_limit=0.1)
    seconds = []
    for hand in positions()[:8]:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        started = time.perf_counter()
        action = bot.choose(view(hand, seat), legal, random.Random(1))
        seconds.append(time.perf_counter() - started)
        assert action in legal, (action, hand.notation())
    assert bot.timed_out  # 100,000 simulations: the limit stopped every search
    # the limit bounds a move; wall time on a shared machine adds the neighbours' share, hence the margins
    assert sorted(seconds)[len(seconds) // 2] < 0.1 + 0.1 and max(seconds) < 1.0, seconds


def test_a_discard_of_several_cards_comes_back_whole():
    hand = Hand.deal(0, ["Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon1 Gon2 Gon3 Gon4 Gon5",
                         "Sup1 Sup9 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
                         "WanSin",
                         "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9"])
    for seat, action in [(0, "call"), (0, "play Sup5 Sup6 Sup7")]:
        hand.apply(seat, action)
    legal = hand.legal_actions()
    assert not legal.actions and legal.discard is not None and legal.discard.count == 3  # PLAY-4: seat 1 cannot beat
    chosen = TableBot(Profile(), RuleBot(), simulations=20).choose(view(hand, 1), legal, random.Random(2))
    assert chosen.verb == "discard" and chosen.mask.bit_count() == 3 and chosen in legal


def test_the_choice_depends_on_the_seats_view_only():
    """Two hands the seat cannot tell apart (the hidden cards drawn again) get the same choice."""
    bot = TableBot(Profile(), RuleBot(), simulations=25, time_limit=None)
    chosen = positions()[::2][:4]
    assert len(chosen) == 4
    for hand in chosen:
        seat = hand.to_act
        assert seat is not None
        other = resample(hand, seat, random.Random(9))
        assert other.dealt != hand.dealt
        first = bot.choose(view(hand, seat), hand.legal_actions(), random.Random(5))
        second = bot.choose(view(other, seat), other.legal_actions(), random.Random(5))
        assert first == second


def test_a_view_no_deal_fits_falls_back_to_the_rule_aware_bot():
    hand = Hand.from_seed(0, 4)
    seen = view(hand, 0)
    seen["hand"] = str(seen["hand"]).rsplit(" ", 1)[0]  # a card short: no deal explains this view
    legal = hand.legal_actions()
    fallback = RuleBot()
    assert TableBot(Profile(), fallback, simulations=10).choose(seen, legal, random.Random(0)) == fallback.choose(
        seen, legal, random.Random(0))


def test_a_seed_gives_the_same_moves_whatever_the_time_limit():
    """The budget is simulations: with no limit and with a limit far above the search's time, each position's
    move is the same for the same seed (a limit that stops the search would be the only way to differ)."""
    moves = {}
    for limit in (None, 120.0):
        bot = TableBot(Profile(), RuleBot(), simulations=40, time_limit=limit)
        moves[limit] = [bot.choose(view(hand, hand.to_act), hand.legal_actions(), random.Random(i))
                        for i, hand in enumerate(positions()[:6]) if hand.to_act is not None]
        assert not bot.timed_out
    assert moves[None] == moves[120.0]
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    runs = [[SearchBot(game, simulations=60, time_limit=limit, seed=seed).step(state) for seed in range(4)]
            for limit in (None, 60.0, None)]
    assert runs[0] == runs[1] == runs[2]
    bot = SearchBot(game, simulations=60, seed=1)
    bot.step(state)
    assert bot.simulations == 60 and not bot.timed_out


def test_the_search_bot_plays_in_evaluate_bots_and_at_chance_nodes():
    """OpenSpiel's evaluate_bots calls restart_at and inform_action on every bot; the Dreamer's bot is never
    asked to step (DEAL-3). Asked at a chance node, the bot draws one of the outcomes."""
    game = pyspiel.load_game(GAME_NAME, {"dealer": 1})
    state = game.new_initial_state()
    bot = SearchBot(game, simulations=5, seed=3)
    outcomes = {a for a, _ in state.chance_outcomes()}
    assert bot.step(state) in outcomes
    bots = [SearchBot(game, simulations=8, seed=seat) for seat in range(4)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert len(returns) == 4 and sum(returns) == 0  # SCORE-7
    again = evaluate_bots(game.new_initial_state(), [SearchBot(game, simulations=8, seed=s) for s in range(4)],
                          np.random.RandomState(4))
    assert list(again) == list(returns)


def test_a_budget_that_cannot_search_is_refused():
    game = pyspiel.load_game(GAME_NAME)
    with pytest.raises(ValueError, match="simulations=0"):
        SearchBot(game, simulations=0)
    with pytest.raises(ValueError, match="time_limit=0"):
        SearchBot(game, time_limit=0)
