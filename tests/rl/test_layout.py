"""The tensors' layouts are declared once (issue 28 §3): the docs, the encoder's writers and the observer follow."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from hakka_rl import encoding
from hakka_rl.encoding import EncodedHand, encode_observation
from hakka_rl.layout import HISTORY_SLOT, INFORMATION_STATE, MAX_HISTORY, OBSERVATION, Layout, table
from reference_engine import Hand, Profile

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl.rst"


def _page_tables() -> list[list[tuple[int, int]]]:
    """The (offset, size) rows of each offset/size table of docs/rl.rst, in page order."""
    text = PAGE.read_text(encoding="utf-8")
    tables = []
    for block in re.findall(r"^offset\s+size\s+content\n=+.*?\n(.*?)\n=+", text, re.M | re.S):
        tables.append([(int(a), int(b)) for a, b in re.findall(r"^(\d+)\s+(\d+)\s", block, re.M)])
    return tables


def test_the_rulebook_tables_are_the_declared_layouts():
    observation, information_state = _page_tables()
    assert observation == [(offset, size) for offset, size, _ in OBSERVATION.rows()]
    assert information_state == [(offset, size) for offset, size, _ in INFORMATION_STATE.rows()]
    text = PAGE.read_text(encoding="utf-8")
    assert f"observation tensor has {OBSERVATION.size} values" in text
    assert f"information-state tensor ({INFORMATION_STATE.size} values)" in text
    assert f"{MAX_HISTORY} slots of {HISTORY_SLOT.size} values" in text


def test_the_encoder_constants_are_the_layout_offsets():
    for piece in OBSERVATION:
        assert getattr(encoding, piece.name.upper()) == piece.offset
    assert (OBSERVATION.size, INFORMATION_STATE.size) == (encoding.OBSERVATION_SIZE, encoding.INFORMATION_STATE_SIZE)
    assert (INFORMATION_STATE["dealt"].offset, INFORMATION_STATE["history"].offset) == (encoding.DEALT, encoding.HISTORY)
    assert HISTORY_SLOT["cards"].offset == encoding.SLOT_CARDS and HISTORY_SLOT["count"].offset == encoding.SLOT_COUNT


def test_the_fast_writer_joins_the_pieces_in_the_layout_order():
    assert tuple(piece.name for piece in OBSERVATION) == EncodedHand.JOINED


def test_each_writer_writes_each_piece_as_the_reference_does():
    """Piece by piece (a failure names the piece): the fast writer, its pick patch and the reference agree."""
    rng = random.Random(28)
    profile = Profile.from_options({"D12": "may-discard"})
    for seed in range(30):
        hand = EncodedHand(Hand.from_seed(dealer=seed % 4, seed=seed, profile=profile))
        while not hand.over:
            seat = hand.to_act
            assert seat is not None
            hand.observation_tensor(seat)  # cached, so that the next pick patches it (_pick)
            hand.apply_id(rng.choice(hand.legal_ids()))
            for viewer in range(4):
                want = INFORMATION_STATE.views(encode_observation(hand.hand.observation(viewer), hand.pending))
                got = INFORMATION_STATE.views(hand.information_state_tensor(viewer))
                for name in ("dealt", "history"):
                    assert np.array_equal(got[name], want[name]), (seed, viewer, name)
                want_obs = OBSERVATION.views(want["observation"].copy())
                got_obs = OBSERVATION.views(hand.observation_tensor(viewer))
                for piece in OBSERVATION:
                    assert np.array_equal(got_obs[piece.name], want_obs[piece.name]), (seed, viewer, piece.name)


def test_the_observer_has_a_named_view_for_each_piece():
    pytest.importorskip("pyspiel")
    import pyspiel

    from hakka_rl.openspiel_game import GAME_NAME

    game = pyspiel.load_game(GAME_NAME)
    for params, layout in (({"perfect_recall": False}, OBSERVATION), ({"perfect_recall": True}, INFORMATION_STATE)):
        observer = game.make_py_observer(pyspiel.IIGObservationType(**params))
        names = [piece.name for piece in OBSERVATION] + ([p.name for p in INFORMATION_STATE][1:] if layout is
                                                         INFORMATION_STATE else [])
        assert list(observer.dict) == names
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        observer.set_from(state, 0)
        assert observer.dict["hand"].sum() == 12 and observer.dict["round_cards"].shape == (4, 37)
        assert np.shares_memory(observer.dict["tricks"], observer.tensor)
        if layout is INFORMATION_STATE:
            assert observer.dict["dealt"].sum() == 12 and observer.dict["history"].shape == (MAX_HISTORY, 50)


def test_a_layout_refuses_a_name_twice_and_a_tensor_of_another_size():
    with pytest.raises(ValueError, match="given twice"):
        Layout("x", [("a", (1,), ""), ("a", (2,), "")])
    with pytest.raises(ValueError, match="a tensor of 3 values"):
        Layout("x", [("a", (1,), ""), ("b", (2,), "")]).views(np.zeros(4))
    assert table(OBSERVATION).count("\n") == len(OBSERVATION.pieces) + 3
