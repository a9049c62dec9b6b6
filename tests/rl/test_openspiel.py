"""hakka_rl.openspiel_game: the OpenSpiel game passes OpenSpiel's own checks (issue 18 §2, §5)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from conformance.adapters import parse_engine_spec  # noqa: E402
from conformance.engine import Engine  # noqa: E402
from conformance.paths import default_spec_dir  # noqa: E402
from conformance.schemas import load_schemas  # noqa: E402
from hakka_rl.actions import action_of, describe, is_pick, pick_card  # noqa: E402
from hakka_rl.encoding import encode_observation  # noqa: E402
from hakka_rl.layout import INFORMATION_STATE, OBSERVATION  # noqa: E402
from hakka_rl.openspiel_game import GAME_NAME, HakkaCardsState, state_of_hand  # noqa: E402
from reference_engine import Hand  # noqa: E402
from reference_engine.cards import NAMES, mask_text  # noqa: E402
from reference_engine.scoring import SCORE_TABLE  # noqa: E402

OPTIONS = "D12:may-discard;D21:automatic;D19:face-up-and-discards;D8:followers-too"


def game(**params: object):
    return pyspiel.load_game(GAME_NAME, params)


def random_episode(g, seed: int, until: int | None = None, *, call: bool = False,
                   ) -> tuple[HakkaCardsState, list[tuple[int, int]]]:
    """A state after random moves (all of them, or ``until``), with the (player, action) of each move;
    ``call``: the first seat that may call does (so that the hand is played, not void)."""
    rng = np.random.RandomState(seed)
    state = g.new_initial_state()
    moves: list[tuple[int, int]] = []
    while not state.is_terminal() and (until is None or len(moves) < until):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probs))
        else:
            legal = state.legal_actions()
            action = 0 if call and 0 in legal else int(rng.choice(legal))
        moves.append((state.current_player(), action))
        state.apply_action(action)
    return state, moves


def test_the_game_type_is_the_one_the_issue_asks_for():
    g = game()
    kind = g.get_type()
    assert kind.short_name == "python_hakka_cards"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM and g.utility_sum() == 0  # SCORE-7
    assert g.num_players() == 4 and g.num_distinct_actions() == 248 and g.max_chance_outcomes() == 37
    assert g.information_state_tensor_shape() == [INFORMATION_STATE.size]
    assert g.observation_tensor_shape() == [OBSERVATION.size]
    # SCORE-1: the most a seat can gain is two losers' shares of the top of the score table
    assert g.max_utility() == 2 * max(SCORE_TABLE.values())


@pytest.mark.parametrize("options", ["", OPTIONS])
def test_openspiel_random_simulation_with_serialization(options):
    """OpenSpiel's own API checks (basic_tests.cc RandomSimTest): legal actions, chance, returns, clones,
    tensors of every player at every state, and each state serialized and deserialized."""
    pyspiel.random_sim_test(game(options=options, dealer=1), num_sims=4, serialize=True, verbose=False)


def test_the_dreamer_sits_out_and_the_returns_are_the_score_deltas():
    for seed in range(6):
        g = game(dealer=seed % 4)
        state, moves = random_episode(g, seed)
        dreamer = (seed % 4 + 2) % 4
        assert dreamer not in {p for p, _ in moves}, "the Dreamer never acts (DEAL-3)"
        assert state.hand is not None and state.hand.result is not None
        assert state.returns() == [float(d) for d in state.hand.result.deltas]
        assert sum(state.returns()) == 0  # SCORE-7: the game is declared zero-sum


def test_serialized_states_come_back_equal():
    g = game(options=OPTIONS)
    for seed in range(3):
        state, _ = random_episode(g, seed, until=37 + 10 + seed * 7)
        text = pyspiel.serialize_game_and_state(g, state)
        _, back = pyspiel.deserialize_game_and_state(text)
        assert str(back) == str(state) and back.history() == state.history()
        assert [back.information_state_string(p) for p in range(4)] == [
            state.information_state_string(p) for p in range(4)]


def test_a_clone_is_independent():
    state, _ = random_episode(game(), 0, until=45)
    clone = state.clone()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before and str(clone) != before


def test_the_tensors_equal_the_encoding_from_scratch_at_every_step():
    """The state encodes lazily (a search asks for no tensor); what it gives equals hakka_rl.encoding's."""
    g = game(options=OPTIONS)
    steps = 0
    for seed in range(4):
        rng = np.random.RandomState(seed)
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                continue
            hand = state.hand
            assert hand is not None
            for seat in range(4):
                want = encode_observation(hand.observation(seat), state.pending if seat == hand.to_act else None)
                assert np.array_equal(np.asarray(state.information_state_tensor(seat)), want)
                assert np.array_equal(np.asarray(state.observation_tensor(seat)), want[:OBSERVATION.size])
            steps += 1
            state.apply_action(0 if 0 in state.legal_actions() else int(rng.choice(state.legal_actions())))
    assert steps > 40


def test_resampling_keeps_the_players_information_state_and_makes_a_real_history():
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    g = game(options=OPTIONS)
    checked = picking = 0
    for seed in range(6):
        rng = np.random.RandomState(seed)
        state = g.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if not state.is_chance_node() and len(state.history()) % 2 == 0:
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == state.information_state_string(player)
                assert np.array_equal(world.information_state_tensor(player), state.information_state_tensor(player))
                assert world.legal_actions() == state.legal_actions()
                again = g.new_initial_state()
                for action in world.history():  # the history is one the game really has
                    again.apply_action(action)
                assert str(again) == str(world)
                checked += 1
                picking += state.pending is not None and state.pending.picked != 0
            if state.is_chance_node():
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            else:  # call when the seat may, so that few hands end void
                state.apply_action(0 if 0 in state.legal_actions() else int(rng.choice(state.legal_actions())))
    assert checked > 30 and picking > 0, (checked, picking)


def test_resampling_reaches_other_hands():
    state, _ = random_episode(game(), 5, until=40)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    player = state.current_player()
    others = {str(state.resample_from_infostate(player, sampler)) for _ in range(10)}
    assert len(others) >= 8


def test_openspiel_ismcts_runs_with_the_games_own_resampling():
    """OpenSpiel's IS-MCTS bot as shipped: it calls state.resample_from_infostate at every simulation."""
    g = game()
    state, _ = random_episode(g, 2, until=38)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=20, random_state=rng)
    assert bot.step(state) in state.legal_actions()


def test_a_bad_parameter_is_refused_with_its_name():
    with pytest.raises(ValueError, match=r"parameter dealer must be a seat 0-3, or -1 for a Dealer drawn by chance, not 7 \(GAME-5\)"):
        game(dealer=7)
    with pytest.raises(ValueError, match=r"parameter options: 'D7' is not DECISION:OPTION"):
        game(options="D7")
    with pytest.raises(Exception, match=r"not an option of D7"):
        game(options="D7:sideways")


def test_a_hand_of_another_dealer_is_no_state_of_the_game():
    with pytest.raises(ValueError, match=r"a hand dealt by seat 1 .* is no state of this game \(dealer 0"):
        state_of_hand(game(), Hand.from_seed(1, 3), random.Random(0))


def _engine_moves(moves: list[tuple[int, int]]) -> tuple[str, list[tuple[int, str]]]:
    """The deck and the engine actions of a recorded episode, read from its ids alone (hakka_rl.actions):
    the first 37 moves are the deal; consecutive picks of one seat make one discard."""
    deck = " ".join(NAMES[card] for _, card in moves[:37])
    actions: list[tuple[int, str]] = []
    picking: tuple[int, int] | None = None
    for player, action in moves[37:]:
        if is_pick(action) and picking is not None and picking[0] == player:
            picking = (player, picking[1] | 1 << pick_card(action))
            continue
        if picking is not None:
            actions.append((picking[0], f"discard {mask_text(picking[1])}"))
            picking = None
        if is_pick(action):
            picking = (player, 1 << pick_card(action))
        else:
            actions.append((player, str(action_of(action))))
    if picking is not None:
        actions.append((picking[0], f"discard {mask_text(picking[1])}"))
    return deck, actions


def test_a_recorded_episode_replays_through_the_conformance_runner_with_the_same_scores():
    """Issue 18, done when: the environment cannot drift from the rules. An OpenSpiel episode's moves,
    sent through the harness's Engine to the reference engine as any engine's would be, score the same."""
    engine = Engine(parse_engine_spec("reference"), load_schemas(default_spec_dir() / "schema"))
    scored = 0
    try:
        for seed, dealer in [(11, 0), (12, 3), (13, 2), (14, 1)]:
            state, moves = random_episode(game(dealer=dealer, options="D21:automatic"), seed, call=True)
            deck, actions = _engine_moves(moves)
            start = {"cmd": "start", "setup": {"dealer": dealer, "deck": deck}, "options": {"D21": "automatic"}}
            assert engine.call(start)["ok"], start
            for seat, action in actions:
                answer = engine.call({"cmd": "act", "seat": seat, "action": action})
                assert answer["ok"], (seat, action, answer, [describe(a) for _, a in moves[37:]])
            result = engine.call({"cmd": "state"})["result"]
            assert result is not None and [float(d) for d in result["deltas"]] == state.returns()
            scored += any(state.returns())
    finally:
        engine.close()
    assert scored >= 2, "hands won by a claim, not only hands that score nothing"


@pytest.mark.parametrize("name", ["hakka_rl.openspiel_game", "hakka_rl.ismcts"])
def test_module_doctests(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed


def _outcome(method, *args):
    """What ``method(*args)`` gives, or the kind of error it raises (pyspiel raises SpielError for a bad player)."""
    try:
        return method(*args)
    except pyspiel.SpielError:
        return pyspiel.SpielError


def _python_and_cpp_methods_agree(state) -> None:
    """Each Python-level method of HakkaCardsState against pyspiel.State's C++ method, called unbound."""
    base = pyspiel.State
    assert state.is_chance_node() == base.is_chance_node(state)
    assert state.is_player_node() == base.is_player_node(state)
    assert state.is_terminal() == base.is_terminal(state)
    assert state.legal_actions() == base.legal_actions(state)
    assert state.legal_actions_mask() == base.legal_actions_mask(state)
    for player in range(-4, 6):  # the pseudo-players (chance -1, terminal -4 ...), the seats, and beyond
        assert _outcome(state.legal_actions, player) == _outcome(base.legal_actions, state, player)
        assert _outcome(state.legal_actions_mask, player) == _outcome(base.legal_actions_mask, state, player)
    for args in [(), (-1,), (0,), (1,), (2,), (3,), (4,)]:  # () : the current player's
        for name in ["observation_tensor", "information_state_tensor", "observation_string",
                     "information_state_string"]:
            mine = _outcome(getattr(state, name), *args)
            theirs = _outcome(getattr(base, name), state, *args)
            assert mine == theirs, (name, args, str(state))


def test_the_python_level_methods_give_what_pyspiels_cpp_methods_give_at_every_state():
    """legal_actions, legal_actions_mask, is_chance_node, the tensors and strings are Python-level (Python
    callers skip pybind11's C++ -> Python trampolines); at every state of random games, chance nodes, partial
    discards and terminal states included, they give what pyspiel.State's C++ methods give, and the chance
    outcomes are the cards not yet dealt, each equally likely (DEAL-4)."""
    kinds = {"chance": 0, "picking": 0, "terminal": 0, "player": 0}
    for seed in range(8):
        g = game(dealer=seed % 4, options=OPTIONS if seed % 2 else "")
        rng = np.random.RandomState(seed)
        state = g.new_initial_state()
        while True:
            checked = state if seed % 3 else state.clone()  # a clone's Python-side fields too
            _python_and_cpp_methods_agree(checked)
            if state.is_terminal():
                kinds["terminal"] += 1
                break
            if state.is_chance_node():
                kinds["chance"] += 1
                left = sorted(set(range(37)) - set(state.deck))
                assert state.chance_outcomes() == [(card, 1.0 / len(left)) for card in left]
                state.apply_action(int(rng.choice(left)))
                continue
            kinds["player"] += 1
            kinds["picking"] += state.pending is not None and state.pending.picked != 0
            legal = state.legal_actions()
            state.apply_action(0 if 0 in legal and seed % 2 else int(rng.choice(legal)))
    assert kinds["terminal"] == 8 and kinds["chance"] == 8 * 37 and kinds["picking"] > 0, kinds


def _seen(state) -> tuple[object, ...]:
    """Everything pyspiel and a seat can read of a state."""
    seats = range(4)
    tensors = () if state.is_chance_node() else tuple(
        (tuple(state.information_state_tensor(p)), tuple(state.observation_tensor(p))) for p in seats)
    return (str(state), state.current_player(), state.legal_actions(), state.returns(),
            [(h.player, h.action) for h in state.full_history()],
            state.move_number(), [state.information_state_string(p) for p in seats],
            [state.observation_string(p) for p in seats], tensors)


def test_a_state_of_a_hand_is_the_state_its_history_leads_to():
    """state_of_hand (what resampling returns) writes the history without replaying the engine, the hand given
    being its outcome: a new state that plays that history move by move, through the engine, is the same state,
    and plays on the same (a partial discard included)."""
    checked = 0
    for seed in range(8):
        g = game(dealer=seed % 4, options=OPTIONS if seed % 2 else "")
        rng = np.random.RandomState(seed)
        state = g.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
        while not state.is_terminal():
            if state.pending is None or not state.pending.picked:
                made = state_of_hand(g, state.hand, random.Random(seed))
                again = g.new_initial_state()
                for action in made.history():
                    again.apply_action(action)
                assert _seen(made) == _seen(again)
                assert made.hand is not state.hand  # its own copy
                follow = int(rng.choice(made.legal_actions()))
                made.apply_action(follow)
                again.apply_action(follow)
                assert _seen(made) == _seen(again)
                checked += 1
            legal = state.legal_actions()
            state.apply_action(0 if 0 in legal else int(rng.choice(legal)))
    assert checked > 100, checked


def _check_information_state_strings(state, seats) -> None:
    for seat in seats:
        events = "; ".join(str(e.seen_by(seat)) for e in state.hand.events)
        head = f"seat {seat} dealer {state.hand.dealer} dealt {mask_text(state.hand.dealt[seat])} | {events}"
        pending = state.pending
        picked = f" | picked {mask_text(pending.picked)}" if pending and pending.picked and (
            seat == state.current_player()) else ""
        assert state.information_state_string(seat) == head + picked


def test_the_information_state_string_written_a_move_at_a_time_is_the_one_written_at_once():
    """A state writes only the events that are new since a seat's last information-state string: asked at every
    move (and on clones, which carry what was written, and go their own way), it is always every event of the
    hand as that seat sees it (OBS-1), in order, as written from scratch."""
    for seed in range(4):
        state, _ = random_episode(game(options=OPTIONS), seed, until=37)
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            _check_information_state_strings(state, range(4) if rng.rand() < 0.7 else ())  # or several moves later
            legal = state.legal_actions()
            if rng.rand() < 0.2:
                clone = state.clone()
                clone.apply_action(legal[-1])
                _check_information_state_strings(clone, range(4))
            state.apply_action(0 if 0 in legal else int(rng.choice(legal)))


def test_a_dealer_drawn_by_chance():
    """dealer=-1: the first chance node draws the Dealer, each seat 1/4 (DEAL-1), so every seat may be the Dreamer;
    the game still passes OpenSpiel's checks, serialized states included."""
    g = game(dealer=-1)
    state = g.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(d, 0.25) for d in range(4)]
    assert g.max_game_length() == game().max_game_length() + 1
    dreamers = set()
    for seed in range(12):
        final, moves = random_episode(g, seed)
        dealer = moves[0][1]
        assert final.hand is not None and final.hand.dealer == dealer
        dreamers.add(final.hand.dreamer)
        assert (dealer + 2) % 4 not in {p for p, _ in moves[38:]}  # the Dreamer never acts (DEAL-3)
        assert sum(final.returns()) == 0
    assert dreamers == {0, 1, 2, 3}
    pyspiel.random_sim_test(g, num_sims=3, serialize=True, verbose=False)
    mid, _ = random_episode(g, 3, until=45, call=True)
    assert mid.current_player() >= 0
    other = mid.resample_from_infostate(mid.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(mid.current_player()) == mid.information_state_string(mid.current_player())
    early, _ = random_episode(g, 4, until=10)
    assert early.observation_string(0).startswith(f"seat 0 dealer {early.history()[0]} dealing")
    assert early.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0)).history()[0] == \
        early.history()[0]
    with pytest.raises(Exception, match="or -1 for a Dealer drawn by chance"):
        game(dealer=4)
