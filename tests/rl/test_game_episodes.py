"""A whole game of four hands as one episode, in both interfaces (issue 29 §3), and numpy integers wherever an
int is taken.

The expectations are the rules', not the environments' output: a game ends when its 4th counting hand ends
(GAME-1) and a void hand does not count (CALL-6, D31); the Dealer who passed hands the deal to the next seat
(D4, D5: every hand here where the Dealer passes); an agent's rewards over the game add up to the sums of its
deltas (GAME-4), and they sum to 0 (SCORE-7).
"""

from __future__ import annotations

import itertools
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
from pettingzoo.test.state_test import state_test  # noqa: E402

from hakka_rl.actions import EncodingError  # noqa: E402
from hakka_rl.gym_env import HakkaCardsEnv  # noqa: E402
from hakka_rl.ismcts import SearchBot  # noqa: E402
from hakka_rl.openspiel_game import GAME_NAME  # noqa: E402
from hakka_rl.pettingzoo_env import AGENTS, env, parallel_env, raw_env  # noqa: E402
from reference_engine import Hand  # noqa: E402
from reference_engine.scoring import HandResult  # noqa: E402
from tests.rl.test_openspiel import random_episode  # noqa: E402

CALL, PASS = 0, 1


Hands = list[tuple[int, HandResult, dict[str, float]]]


def _episode(game: raw_env, rng: random.Random, *, never_call: bool = False) -> tuple[dict[str, float], Hands]:
    """One episode by random legal ids (or passing whenever passing is legal); each agent's total reward and, for
    each hand, its Dealer and the rewards paid at its end (and, last, the info the episode ended with)."""
    totals = dict.fromkeys(AGENTS, 0.0)
    hands: Hands = []
    assert game.encoded is not None
    dealer = game.encoded.hand.dealer
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.final_info = info
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        encoded = game.encoded
        assert encoded is not None
        game.step(PASS if never_call and PASS in legal else rng.choice(legal))
        result = encoded.hand.result
        if result is not None:  # that step ended a hand
            hands.append((dealer, result, dict(game.rewards)))
            assert game.encoded is not None
            dealer = game.encoded.hand.dealer
    return totals, hands


def test_a_game_episode_plays_hands_until_four_count_and_pays_each_at_its_end():
    game = raw_env(episode="game")
    rng = random.Random(5)
    lengths = set()
    for seed in range(12):
        game.reset(seed=seed)
        totals, hands = _episode(game, rng)
        results = [result for _, result, _ in hands]
        counted = [result.counts for result in results]
        assert sum(counted) == 4 and counted[-1], counted  # GAME-1: it ends at the 4th hand that counts
        assert all(result.counts == (result.end != "void") for result in results)  # CALL-6, D31
        for (_, result, _), (next_dealer, _, _) in itertools.pairwise(hands):
            assert next_dealer == result.next_dealer  # every later Dealer follows from the Calling (D4, D5)
        for _, result, paid in hands:
            assert [paid[a] for a in AGENTS] == list(result.deltas)  # each hand paid at its last step
        scores = [sum(result.deltas[s] for result in results) for s in range(4)]  # GAME-4
        assert [totals[a] for a in AGENTS] == scores and sum(scores) == 0  # SCORE-7
        assert all(game.terminations.values()) and not any(game.truncations.values())
        assert game.final_info["game"] == {"scores": scores, "hands_played": 4, "deal": len(hands)}
        lengths.add(len(hands))
    assert max(lengths) > 4  # some game had a void hand, which did not count


def test_a_game_whose_hands_never_count_is_truncated_after_its_deals():
    """Every seat passes: each hand is void (CALL-6) and counts for nothing; the Dealer passed, so the next seat
    deals the next (D5 next-dealer); after max_deals deals the episode is truncated, nothing paid."""
    game = raw_env(episode="game", max_deals=5)
    game.reset(seed=3, options={"dealer": 2})
    totals, hands = _episode(game, random.Random(0), never_call=True)
    assert [dealer for dealer, _, _ in hands] == [2, 3, 0, 1, 2]
    assert all(result.end == "void" for _, result, _ in hands)
    assert totals == dict.fromkeys(AGENTS, 0.0)
    assert all(game.truncations.values()) and not any(game.terminations.values())


def test_the_deals_given_are_played_in_order():
    """reset(options={"dealer": d, "deals": [...]}): the first hand is the first deal's by d, each later hand the
    next deal's, dealt by the Dealer the game has come to (the cards a seed gives that Dealer, DEAL-5)."""
    game = raw_env(episode="game")
    deals = [{"seed": s} for s in (11, 12, 13, 14, 15, 16, 17, 18)]
    game.reset(options={"dealer": 1, "deals": deals})
    seen: list[tuple[int, object, tuple[int, ...]]] = []
    rng = random.Random(2)
    for _agent in game.agent_iter():
        assert game.deal is not None and game.encoded is not None
        dealer, deal = game.deal
        if not seen or seen[-1][1] is not deal:
            seen.append((dealer, deal, tuple(game.encoded.hand.dealt)))
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else rng.choice(np.flatnonzero(observation["action_mask"])))
    assert [given for _, given, _ in seen] == deals[:len(seen)] and seen[0][0] == 1
    for first, given, dealt in seen:
        assert isinstance(given, dict) and dealt == tuple(Hand.from_seed(first, given["seed"]).dealt)


def test_a_game_episode_passes_pettingzoos_own_tests():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's two notes on Dict observations: tests/rl/test_pettingzoo.py
        api_test(env(episode="game"), num_cycles=400)
        api_test(env(episode="game", max_deals=1, checked=True), num_cycles=200)  # truncated after one hand
        seed_test(lambda **kwargs: env(episode="game", **kwargs), num_cycles=400)
        parallel_api_test(parallel_env(episode="game"), num_cycles=300)
        parallel_seed_test(lambda: parallel_env(episode="game", illegal_reward=-1))
        state_test(env(episode="game", illegal_reward=-1), parallel_env(episode="game", illegal_reward=-1),
                   num_cycles=50)


def test_bad_game_options_are_refused_by_name():
    with pytest.raises(ValueError, match=r"episode='set'.*'hand'.*'game'"):
        raw_env(episode="set")
    with pytest.raises(ValueError, match=r"max_deals=0"):
        raw_env(episode="game", max_deals=0)
    with pytest.raises(ValueError, match=r"'deals'.*option of a game episode"):
        raw_env().reset(options={"deals": [{"seed": 1}]})
    with pytest.raises(ValueError, match=r"'deal'.*option of a one-hand episode"):
        raw_env(episode="game").reset(options={"deal": {"seed": 1}})
    with pytest.raises(ValueError, match=r"options\['deals'\]\[1\] is 7; a deal is a dict"):
        raw_env(episode="game").reset(options={"deals": [{"seed": 1}, 7]})


# ------------------------------------------------------------ OpenSpiel


def test_an_openspiel_game_of_four_hands():
    """Chance deals each hand when the one before it ends, by the next Dealer's order of the deal; the returns are
    0 until the game's end, then its scores: the sums of the hands' deltas (GAME-4), zero-sum (SCORE-7)."""
    g = pyspiel.load_game(GAME_NAME, {"episode": "game", "dealer": 3})
    assert g.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert g.max_game_length() == 16 * pyspiel.load_game(GAME_NAME).max_game_length()
    longer = 0
    for seed in range(6):
        state = g.new_initial_state()
        rng = np.random.RandomState(seed)
        hands, dealers = [], [3]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            hand = state.hand
            assert state.returns() == [0.0] * 4
            state.apply_action(int(rng.choice(state.legal_actions())))
            if hand.result is not None:  # that move ended a hand
                hands.append(hand.result)
                if not state.is_terminal():
                    assert state.is_chance_node() and state.hand is None  # the next hand's deal
                    dealers.append(hand.result.next_dealer)
                    assert state.observation_string(0).startswith(
                        f"deal {len(hands) + 1} counted {sum(r.counts for r in hands)} scores ")
        counted = [r.counts for r in hands]
        assert sum(counted) == 4 and counted[-1]
        assert [r.next_dealer for r in hands[:-1]] == dealers[1:]
        assert state.returns() == [float(sum(r.deltas[s] for r in hands)) for s in range(4)] == state.scores
        assert sum(state.returns()) == 0
        longer += len(hands) > 4
        again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, state))[1]
        assert again.returns() == state.returns() and again.history() == state.history()
    assert longer


def test_an_openspiel_game_passes_openspiels_checks():
    for params in ({"episode": "game"}, {"episode": "game", "dealer": -1}, {"episode": "game", "max_deals": 2}):
        pyspiel.random_sim_test(pyspiel.load_game(GAME_NAME, params), num_sims=2, serialize=True, verbose=False)


def test_a_resampled_state_of_a_game_keeps_the_hands_played_and_the_players_view():
    g = pyspiel.load_game(GAME_NAME, {"episode": "game", "dealer": -1})
    for seed in range(40):
        state, _ = random_episode(g, seed, until=140)
        if not state.is_terminal() and state.current_player() >= 0 and state._core.played:
            break
    else:  # pragma: no cover
        pytest.fail("no random game reached a second hand's play in 140 moves")
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    before = state._core.before_hand()
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.history()[:len(before)] == before and other.scores == state.scores
        assert other.legal_actions() == state.legal_actions()


def test_bad_game_parameters_are_refused_by_name():
    with pytest.raises(Exception, match="parameter episode must be 'hand'"):
        pyspiel.load_game(GAME_NAME, {"episode": "match"})
    with pytest.raises(Exception, match="parameter max_deals must be an integer >= 1"):
        pyspiel.load_game(GAME_NAME, {"episode": "game", "max_deals": 0})


# ------------------------------------------------------------ numpy integers wherever an int is


def _hand_episode(game: raw_env, *, numpy: bool) -> list[tuple[str, int]]:
    wrap = np.int64 if numpy else int
    game.reset(seed=wrap(4), options={"dealer": wrap(1), "deal": {"seed": wrap(99)}})
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else wrap(np.flatnonzero(observation["action_mask"])[-1]))
    return list(game.actions)


def test_numpy_integers_are_taken_wherever_an_int_is():
    game = raw_env(max_deals=np.int32(3), episode="game")
    assert game.max_deals == 3 and type(game.max_deals) is int
    assert _hand_episode(raw_env(), numpy=True) == _hand_episode(raw_env(), numpy=False)
    # OpenSpiel: pyspiel itself converts an action (a float is refused there, before the game sees it)
    g = pyspiel.load_game(GAME_NAME)
    state, twin = g.new_initial_state(), g.new_initial_state()
    while state.is_chance_node():
        action = state.chance_outcomes()[0][0]
        state.apply_action(np.int64(action))
        twin.apply_action(action)
    state.apply_action(np.uint8(CALL))
    twin.apply_action(CALL)
    assert state.history() == twin.history() and str(state) == str(twin)
    with pytest.raises(TypeError):
        state.apply_action(np.float64(1.0))
    # Gymnasium: seed and action
    gym, gym_twin = HakkaCardsEnv(seat=np.int8(2)), HakkaCardsEnv(seat=2)
    obs, info = gym.reset(seed=np.int64(7))
    assert info == gym_twin.reset(seed=7)[1]
    legal = np.flatnonzero(obs["action_mask"])
    assert gym.step(legal[0])[1:] == gym_twin.step(int(legal[0]))[1:]
    for not_an_id in (np.float64(1.0), True, 1.5):
        with pytest.raises(EncodingError, match="is not an action id"):
            _gym_step(not_an_id)
    with pytest.raises(ValueError, match="a seed is an integer"):
        HakkaCardsEnv().reset(seed=1.5)  # type: ignore[arg-type]
    # the search bot: a numpy budget and seed give the int's moves
    g = pyspiel.load_game(GAME_NAME)
    state = g.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert SearchBot(g, simulations=np.int64(12), seed=np.int64(5)).step(state) == SearchBot(
        g, simulations=12, seed=5).step(state)


def _gym_step(action: object) -> None:
    """A step of ``action`` in a Gymnasium env that ends illegal ids with a penalty: not an id at all, it raises."""
    gym = HakkaCardsEnv(illegal_reward=-1)
    gym.reset(seed=1)
    gym.step(action)  # type: ignore[arg-type]


def test_the_search_values_a_state_of_a_game_in_the_games_scores():
    """In a game the returns are the game's scores, so a playout's value is the scores so far plus the hand's
    deltas: a playout in which every seat passes makes the hand void (CALL-6, 0 each), so the value is the scores
    so far. And SearchBot plays a whole game through (its simulations cross into the next hand's deal)."""
    import random as stdlib_random

    from hakka_rl.ismcts import RandomPlayout
    from reference_engine import Action

    def passing(hand: Hand, seat: int, rng: stdlib_random.Random) -> Action:
        legal = hand.legal_actions()
        return next((a for a in legal.actions if a.verb == "pass"), legal.actions[0])

    g = pyspiel.load_game(GAME_NAME, {"episode": "game", "dealer": 1})
    rng = np.random.RandomState(0)
    state = g.new_initial_state()
    while not (state.is_player_node() and any(state.scores) and state.hand is not None and not state.hand.history):
        assert not state.is_terminal(), "the game ended before a hand began with scores to carry"
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    value = RandomPlayout(stdlib_random.Random(1), passing).evaluate(state)
    assert list(value) == [float(s) for s in state.scores] and any(value)
    bot = SearchBot(g, simulations=6, seed=2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sum(state.returns()) == 0 and state.returns() == [float(s) for s in state.scores]
