"""The action table, the exact discard picks and the tensors of hakka_rl (issue 18 §1)."""

from __future__ import annotations

import random
import re

import pytest

np = pytest.importorskip("numpy")

from hakka_rl import encoding  # noqa: E402
from hakka_rl.actions import (  # noqa: E402
    NUM_ACTIONS,
    PICK_BASE,
    PLAY_MASKS,
    EncodingError,
    action_id,
    action_of,
    discard_ids,
    next_picks,
)
from hakka_rl.encoding import EncodedHand, PendingDiscard, encode_observation  # noqa: E402
from reference_engine import Action, DiscardOption, Hand, Kind, Profile  # noqa: E402
from reference_engine.cards import parse_mask  # noqa: E402
from reference_engine.patterns import tables_for  # noqa: E402

PROFILES = [
    Profile(),
    Profile.from_options({"D12": "may-discard", "D17": "yes", "D21": "automatic", "D24": "declared",
                          "D8": "followers-too", "D13": "lead", "D6": "privileged-player",
                          "D19": "face-up-and-discards", "D7": "any-suit"}),
    Profile.from_options({"D16": "lowest", "D22": "tricks-only", "D26": "winning-pattern", "D4": "caller"}),
]

DEAL = ["Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon1 Gon2 Gon3 Gon4 Gon5",
        "Sup1 Sup9 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6",
        "WanSin",
        "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9"]


def test_the_table_has_248_ids_and_each_play_is_the_pattern_its_block_says() -> None:
    assert NUM_ACTIONS == 248
    tables = tables_for(Profile.from_options({"D17": "yes"}))  # Wan Sin may join a Set of 1s
    kinds = [tables.classify(mask)[0] for mask in PLAY_MASKS]
    assert kinds == [Kind.SINGLE] * 37 + [Kind.RUN] * 112 + [Kind.SET] * 56
    assert len(set(PLAY_MASKS)) == len(PLAY_MASKS)
    # the hand-checked corners of the documented blocks
    assert action_of(42) == Action.parse("play WanSin")
    assert action_of(154) == Action.parse("play Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9")
    assert action_of(155) == Action.parse("play Gon1 Zok1 Sin1")  # the Set of 1s without Sup
    assert action_of(199) == Action.parse("play Sup9 Gon9 Zok9 Sin9")
    assert action_of(200) == Action.parse("play Sup1 Gon1 WanSin")
    assert action_of(210) == Action.parse("play Sup1 Gon1 Zok1 Sin1 WanSin")


def test_every_pattern_in_any_hand_has_an_id() -> None:
    """Every Run and Set of the whole deck (under the most permissive D17) is in the table: nothing more."""
    tables = tables_for(Profile.from_options({"D17": "yes"}))
    full = (1 << 37) - 1
    patterns = set(tables.runs_in_hand(full)) | set(tables.sets_in_hand(full)) | {1 << c for c in range(37)}
    assert patterns == set(PLAY_MASKS)


def test_ids_and_actions_round_trip() -> None:
    for i in range(PICK_BASE):
        assert action_id(action_of(i)) == i
    assert discard_ids(Action.parse("discard Zok1 Gon6 Gon7")) == (225, 226, 229)
    with pytest.raises(EncodingError, match="pick"):
        action_of(PICK_BASE)
    with pytest.raises(EncodingError, match="not an action id"):
        action_of(248)
    with pytest.raises(EncodingError, match="discard"):
        action_id(Action.parse("discard Sup1"))


@pytest.mark.parametrize(("n", "k"), [(1, 1), (5, 2), (4, 4), (12, 6), (9, 3)])
def test_pick_sequences_are_exactly_the_discards(n: int, k: int) -> None:
    """Picks in increasing card order: each concrete discard is one pick sequence, and every sequence ends."""
    rng = random.Random(n * 100 + k)
    allowed = sum(1 << c for c in rng.sample(range(37), n))
    option = DiscardOption(k, allowed)
    found: list[int] = []

    def walk(picked: int) -> None:
        if picked.bit_count() == k:
            found.append(picked)
            return
        nxt = next_picks(allowed, k, picked)
        assert nxt, f"a dead end after picking {picked:#x}"
        while nxt:
            low = nxt & -nxt
            walk(picked | low)
            nxt ^= low

    walk(0)
    assert sorted(found) == sorted(a.mask for a in option.expand())
    assert len(found) == len(set(found)) == option.size()


def _play_randomly(hand: EncodedHand, rng: random.Random, check: bool) -> int:
    steps = 0
    while True:
        if check:
            for seat in range(4):
                pending = hand.pending if hand.to_act == seat else None
                expected = encode_observation(hand.hand.observation(seat), pending)
                got = hand.information_state_tensor(seat)
                diff = np.flatnonzero(expected != got)
                assert not diff.size, f"seat {seat}, offsets {diff[:8]}: {hand.hand.notation()}"
                assert np.array_equal(hand.observation_tensor(seat), expected[: encoding.OBSERVATION_SIZE])
        if hand.over:
            return steps
        hand.apply_id(rng.choice(hand.legal_ids()))
        steps += 1


@pytest.mark.parametrize("profile", PROFILES, ids=["defaults", "options-1", "options-2"])
def test_incremental_tensors_equal_those_built_from_the_observation(profile: Profile) -> None:
    """At every step of 120 random hands, every seat's tensors (kept up from events) equal the ones
    built from scratch from ``observation(seat)``: the fast path cannot drift from what the seat sees."""
    rng = random.Random(18)
    for i in range(120):
        hand = EncodedHand(Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64), profile=profile))
        _play_randomly(hand, rng, check=True)


def test_an_encoded_hand_made_mid_hand_equals_one_played_from_the_deal() -> None:
    rng = random.Random(5)
    hand = EncodedHand(Hand.from_seed(dealer=1, seed=99))
    for _ in range(8):
        hand.apply_id(rng.choice(hand.legal_ids()))
    if hand.pending is None:
        fresh = EncodedHand(hand.hand.copy())
        for seat in range(4):
            assert np.array_equal(fresh.information_state_tensor(seat), hand.information_state_tensor(seat))


def test_tensors_by_hand_after_a_call_a_run_and_a_discard() -> None:
    """Values checked against the rules by hand: seat 0 calls and leads a Run, seat 1 cannot beat it and
    discards three cards face down (PLAY-4, PLAY-5), picked one by one."""
    hand = EncodedHand(Hand.deal(0, DEAL))
    hand.apply_id(0)  # call
    hand.apply_id(action_id(Action.parse("play Sup5 Sup6 Sup7")))
    assert hand.legal_ids()[0] >= PICK_BASE and len(hand.legal_ids()) == 10  # 12 cards, the 2 highest wait
    assert hand.apply_id(PICK_BASE + 14) == ()  # Gon6: no engine move yet
    assert hand.pending is not None and hand.pending.left == 2
    assert min(hand.legal_ids()) == PICK_BASE + 15  # only cards above Gon6 now
    mine = hand.observation_tensor(1)
    assert mine[encoding.PICKED + 14] == 1 and mine[encoding.PICKS_LEFT] == 2
    assert hand.observation_tensor(3)[encoding.PICKED:encoding.PICKED + 37].sum() == 0  # not seen by others
    hand.apply_id(PICK_BASE + 15)
    events = hand.apply_id(PICK_BASE + 18)  # Zok1: the discard goes to the engine
    assert [str(e) for e in events] == ["1 discard Gon6 Gon7 Zok1"]
    three = hand.observation_tensor(3)  # seat 3: seat 0 is relative seat 1, seat 1 relative seat 2
    run = parse_mask("Sup5 Sup6 Sup7")
    assert [i for i in range(37) if three[encoding.ROUND_CARDS + 37 + i]] == [4, 5, 6]
    assert three[encoding.ROUND_DISCARDS + 2] == 3 and three[encoding.OWN_DISCARDS:][:37].sum() == 0
    assert list(three[encoding.HAND_SIZES:encoding.HAND_SIZES + 4]) == [12, 9, 9, 1]
    assert three[encoding.TO_ACT] == 1 and three[encoding.LEADER + 1] == 1 and three[encoding.CALLER + 1] == 1
    assert [i for i in range(37) if three[encoding.PLAYED + i]] == [i for i in range(37) if run >> i & 1]
    one = hand.information_state_tensor(1)
    assert [i for i in range(37) if one[encoding.OWN_DISCARDS + i]] == [14, 15, 18]
    slot = encoding.HISTORY + 2 * encoding.SLOT  # the third action: seat 1's discard, its cards to itself only
    assert one[slot] == 1 and one[slot + encoding.SLOT_VERB + 3] == 1 and one[slot + encoding.SLOT_COUNT] == 3
    assert one[slot + encoding.SLOT_CARDS + 14] == 1
    seen_by_3 = hand.information_state_tensor(3)
    assert seen_by_3[slot + 2] == 1 and seen_by_3[slot + encoding.SLOT_CARDS:slot + encoding.SLOT_COUNT].sum() == 0


def test_hidden_cards_do_not_change_a_seats_tensors() -> None:
    """Two deals that differ only in cards seat 0 cannot see give seat 0 equal tensors (OBS-1)."""
    other = DEAL[:]
    other[1], other[3] = DEAL[3], DEAL[1]  # seats 1 and 3 swap their hands
    a, b = EncodedHand(Hand.deal(0, DEAL)), EncodedHand(Hand.deal(0, other))
    a.apply_id(0)
    b.apply_id(0)
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert not np.array_equal(a.information_state_tensor(1), b.information_state_tensor(1))


def test_an_illegal_id_is_refused_with_the_seat_and_the_legal_ids() -> None:
    hand = EncodedHand(Hand.deal(0, DEAL))
    with pytest.raises(EncodingError, match=r"id 6 \(play Sup1\) is not legal for seat 0 now; legal ids: 0 \(call\), 1 \(pass\)"):
        hand.apply_id(6)
    with pytest.raises(EncodingError, match="not an action id"):
        hand.apply_id(-1)


def test_copy_is_independent() -> None:
    hand = EncodedHand(Hand.deal(0, DEAL))
    hand.apply_id(0)
    hand.apply_id(action_id(Action.parse("play Sup5 Sup6 Sup7")))
    hand.apply_id(PICK_BASE + 14)
    twin = hand.copy()
    twin.apply_id(PICK_BASE + 15)
    assert hand.pending is not None and hand.pending.picked == 1 << 14
    assert twin.pending is not None and twin.pending.picked == (1 << 14) | (1 << 15)
    assert hand.observation_tensor(1)[encoding.PICKED + 15] == 0


def test_pending_discard_reports_picks_left() -> None:
    pending = PendingDiscard(allowed=0b1111, count=2, picked=0b1)
    assert pending.left == 1 and pending.next_picks() == 0b1110


def test_the_history_bound_holds_for_long_hands() -> None:
    """MAX_HISTORY (53) is never reached by 400 random hands under claims and continues (D21 optional)."""
    rng = random.Random(53)
    longest = 0
    for i in range(400):
        hand = EncodedHand(Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64)))
        _play_randomly(hand, rng, check=False)
        longest = max(longest, len(hand.hand.history))
    assert longest <= encoding.MAX_HISTORY


def test_the_rulebook_page_shows_the_same_id_table() -> None:
    """docs/rl.rst restates the id table: row for row that of the docstring (the tensor tables: test_layout.py)."""
    from pathlib import Path

    from hakka_rl import actions

    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.rst").read_text(encoding="utf-8")
    ranges = re.compile(r"^(\d+) - (\d+)\s+(\d+)\s", re.M)
    assert ranges.findall(page) == ranges.findall(actions.__doc__ or "") != []
