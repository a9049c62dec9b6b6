"""The learning environments under hostile input (issue 27 §1): state strings, threads, resampling, steps."""

from __future__ import annotations

import base64
import pickle
import random
import sys
import threading

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from hakka_rl.actions import NUM_ACTIONS, EncodingError  # noqa: E402
from hakka_rl.openspiel_game import GAME_NAME, StateStringError, load_state  # noqa: E402
from hakka_rl.pettingzoo_env import env  # noqa: E402


def played(game, seed: int, moves: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# ------------------------------------------------------------ 1. state strings


class _Payload:
    def __reduce__(self):
        return (exec, ("import hakka_rl; hakka_rl.PWNED = True",))


def _with_dict(text: str, value: object) -> str:
    head, _, _ = text.rpartition("__dict__=")
    return head + "__dict__=" + base64.b64encode(pickle.dumps(value)).decode()


def test_a_state_string_holds_the_history_and_options_only():
    game = pyspiel.load_game(GAME_NAME, {"dealer": 2, "options": "D12:may-discard"})
    state = played(game, 1, 52)
    text = pyspiel.serialize_game_and_state(game, state)
    saved = base64.b64decode(text.rpartition("__dict__=")[2])
    # the pickled line names one class of this module and holds text and integers: no state object, no game object
    assert b"HakkaCardsGame" not in saved and b"_Core" not in saved and b"Hand" not in saved
    for text_loaded in (pyspiel.deserialize_game_and_state(text), load_state(text)):
        _, loaded = text_loaded
        assert loaded.history() == state.history() and str(loaded) == str(state)
        assert all(loaded.information_state_tensor(p) == state.information_state_tensor(p) for p in range(4))


def test_our_loader_never_unpickles_and_refuses_a_foreign_dict_line():
    import hakka_rl

    game = pyspiel.load_game(GAME_NAME)
    text = pyspiel.serialize_game_and_state(game, played(game, 2, 45))
    with pytest.raises(StateStringError, match="was not written by python_hakka_cards"):
        load_state(_with_dict(text, {"_core": _Payload()}))
    assert not hasattr(hakka_rl, "PWNED")


def test_a_string_whose_history_does_not_replay_is_refused():
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, 3, 40)
    text = pyspiel.serialize_game_and_state(game, state)
    history = text.split("history=")[1].split("\n")[0]
    last_player, _ = history.split(",")[-1].split(":")
    bad = text.replace(history, history.rpartition(",")[0] + f",{last_player}:247")  # a pick nobody may make
    with pytest.raises(StateStringError, match=r"history action 39 .* not legal"):
        load_state(bad)
    with pytest.raises(StateStringError, match=r"history line .* disagree"):
        pyspiel.deserialize_game_and_state(bad)  # its pickled history is the true one: they disagree
    # a consistent pair of lies still does not replay
    with pytest.raises(StateStringError, match="not legal"):
        pyspiel.deserialize_game_and_state(_with_dict(bad, _saved(game, bad)))


def _saved(game, text):
    from hakka_rl.openspiel_game import _Saved

    history = [int(item.split(":")[1]) for item in text.split("history=")[1].split("\n")[0].split(",")]
    return {"_core": _Saved(str(game), tuple(history))}


def test_openspiels_random_simulation_serializes_and_clones_every_state():
    # Issue 27 §2.1: random_sim_test(serialize=True) failed on the compiled wheel (a Hand that had given its
    # legal actions could not be pickled or deep-copied). This file runs against the compiled wheel in CI.
    game = pyspiel.load_game(GAME_NAME, {"dealer": 1, "options": "D12:may-discard"})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


# ------------------------------------------------------------ 3. a deserialized state works, mid-deal too


@pytest.mark.parametrize("moves", [20, 36, 50])
def test_a_deserialized_state_plays_on_and_resamples(moves):
    game = pyspiel.load_game(GAME_NAME, {"dealer": 3})
    state = played(game, 4, moves)
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    rng = random.Random(5)
    while not loaded.is_terminal():  # past the 37th card
        if not loaded.is_chance_node():
            loaded.resample_from_infostate(loaded.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
        loaded.apply_action(rng.choice(loaded.legal_actions()))
    assert sum(loaded.returns()) == 0


# ------------------------------------------------------------ 2. tensors under threads


def test_tensors_from_four_threads_are_the_single_threaded_ones():
    game = pyspiel.load_game(GAME_NAME)
    states = [played(game, seed, 37 + 5 * seed) for seed in range(8)]
    want = [[(s.observation_tensor(p), s.information_state_tensor(p)) for p in range(4)] for s in states]
    wrong: list[tuple[int, int]] = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        def work(offset: int) -> None:
            for n in range(3000):
                i, p = (n + offset) % len(states), (n * 3 + offset) % 4
                state = states[i]
                got = (state.observation_tensor(p), state.information_state_tensor(p))
                if got != want[i][p]:
                    wrong.append((i, p))
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old)
    assert wrong == []


# ------------------------------------------------------------ 4. resampling while another seat discards


def test_resampling_while_another_seat_is_part_way_through_a_discard():
    game = pyspiel.load_game(GAME_NAME)
    tried = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            if state.pending is not None and state.pending.picked:
                for player in {0, 1, 2, 3} - {state.current_player(), (game.dealer + 2) % 4}:
                    tried += 1
                    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                    assert other.information_state_string(player) == state.information_state_string(player)
    assert tried > 50


# ------------------------------------------------------------ 5. PettingZoo step()


@pytest.mark.parametrize("action", [0.5, 1.9, "0", True, None, 248, -1, np.float32(0.0)])
def test_step_refuses_what_is_no_legal_id_and_names_the_legal_ids(action):
    game = env()
    game.reset(seed=1)
    with pytest.raises(EncodingError, match=r"legal ids: 0 \(call\), 1 \(pass\)"):
        game.step(action)
    assert game.actions == []  # nothing was played


def test_numpy_integers_are_accepted_wherever_an_int_is():
    game, twin = env(), env()
    game.reset(seed=np.int64(3), options={"dealer": np.int8(1)})
    twin.reset(seed=3, options={"dealer": 1})
    assert game.deal == twin.deal
    game.step(np.int64(1))
    twin.step(1)
    assert game.actions == twin.actions == [("seat_1", 1)]
    with pytest.raises(ValueError, match="a seed is an integer"):
        game.reset(seed=1.5)


def test_after_every_agent_is_done_nothing_raises_a_key_error():
    game = env()
    game.reset(seed=4)
    rng = random.Random(4)
    for _agent in game.agent_iter():
        observation, _, done, truncated, _ = game.last()
        game.step(None if done or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game.agents == []
    game.step(None)  # PettingZoo's convention: a dead step with no agent left changes nothing
    assert game.last(observe=False)[2] is True
    with pytest.raises(EncodingError, match="the episode is over"):
        game.step(0)
    assert game.action_space("seat_0").n == NUM_ACTIONS


# ------------------------------------------------------------ 6. a decision given twice


def test_a_decision_given_twice_is_refused():
    with pytest.raises(Exception, match="decision D7 is given twice"):
        pyspiel.load_game(f"{GAME_NAME}(options=D7:any-suit;D7:same-suit)")
