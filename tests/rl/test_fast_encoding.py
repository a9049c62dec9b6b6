"""The fast paths of hakka_rl's encoding give exactly what the slow ones do (issue 18's speed target).

Each fast path is checked against an independent from-scratch computation: the state of a hand
just dealt against the one read from ``observation(seat)``; the legal-id masks against the engine's
legal actions through the action table; the tensors against :func:`encode_observation` when only
some seats look (so that the cached and the uncached paths of a pick both run).
"""

from __future__ import annotations

import enum
import random

import pytest

np = pytest.importorskip("numpy")

from hakka_rl import encoding  # noqa: E402
from hakka_rl.actions import NUM_ACTIONS, PICK_BASE, EncodingError, encode_action  # noqa: E402
from hakka_rl.encoding import EncodedHand, encode_observation, mask_of_bits  # noqa: E402
from hakka_rl.legal import ids_of_bits, legal_bits_of  # noqa: E402
from reference_engine import Hand, Phase, Profile  # noqa: E402

PROFILES = [
    Profile(),
    Profile.from_options({"D12": "may-discard", "D17": "yes", "D21": "automatic", "D24": "declared",
                          "D8": "followers-too", "D13": "lead", "D6": "privileged-player"}),
]


def _state(hand: EncodedHand) -> dict[str, object]:
    return {name: getattr(hand, name) for name in EncodedHand.__slots__ if name not in ("hand", "_cache", "_slots")}


@pytest.mark.parametrize("profile", PROFILES, ids=["defaults", "options"])
def test_a_hand_just_dealt_is_read_as_observation_reads_it(profile: Profile) -> None:
    """The fast path of a fresh hand (its deal) and the general one (four observations) agree field by field."""
    rng = random.Random(81)
    for i in range(200):
        hand = Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64), profile=profile)
        fast = EncodedHand(hand)
        slow = object.__new__(EncodedHand)
        EncodedHand.__init__(slow, hand.copy())  # the same path, then redone from the observations
        slow._seen_so_far(hand)
        assert _state(fast) == _state(slow), hand.notation()
        for seat in range(4):
            assert np.array_equal(fast.information_state_tensor(seat),
                                  encode_observation(hand.observation(seat)))


def test_a_hand_under_way_takes_the_general_path() -> None:
    hand = Hand.from_seed(dealer=2, seed=4)
    hand.apply(2, "call")
    hand.apply(2, hand.legal_actions().actions[0])
    encoded = EncodedHand(hand)
    assert encoded._history and encoded._caller == 2  # read from the events, not the deal
    for seat in range(4):
        assert np.array_equal(encoded.information_state_tensor(seat), encode_observation(hand.observation(seat)))


def _expected_ids(hand: EncodedHand) -> list[int]:
    """The legal ids from the engine's concrete legal actions and the pick rule, with no fast path."""
    pending = hand.pending
    if pending is None or not pending.picked:
        return sorted({encode_action(action)[0] for action in hand.hand.legal_actions()})
    option = hand.hand.legal_actions().discard
    assert option is not None
    picked, ids = pending.picked, set()
    for action in option.expand():
        rest = action.mask & ~picked
        if action.mask & picked == picked and rest and (rest & -rest) > picked:  # picks in increasing order
            ids.add(PICK_BASE + (rest & -rest).bit_length() - 1)
    return sorted(ids)


@pytest.mark.parametrize("profile", PROFILES, ids=["defaults", "options"])
def test_legal_ids_and_masks_equal_the_engines_legal_actions(profile: Profile) -> None:
    rng = random.Random(7)
    for i in range(60):
        hand = EncodedHand(Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64), profile=profile))
        while not hand.over:
            ids = _expected_ids(hand)
            assert hand.legal_ids() == ids == ids_of_bits(hand.legal_bits()), hand.hand.notation()
            assert legal_bits_of(hand.hand, hand.pending) == hand.legal_bits()
            mask = hand.legal_mask()
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,) and mask.flags.writeable
            assert mask.nonzero()[0].tolist() == ids
            mask[:] = 1  # the caller's own array: the next one is unchanged
            assert hand.legal_mask().nonzero()[0].tolist() == ids
            hand.apply_id(rng.choice(ids))


def test_masks_of_every_kind_of_legal_id_mask() -> None:
    """Verbs, plays, picks alone (made, not cached) and plays beside picks (D12 may-discard)."""
    for ids in ([0, 1], [6, 50, 210], [211, 230, 247], [7, 211, 212], [PICK_BASE + 36], list(range(NUM_ACTIONS))):
        bits = sum(1 << i for i in ids)
        for _ in range(2):  # made, then (perhaps) from the cache
            mask = mask_of_bits(bits)
            assert mask.nonzero()[0].tolist() == ids and mask.flags.writeable
            mask[:] = 0


@pytest.mark.parametrize("profile", PROFILES, ids=["defaults", "options"])
def test_tensors_equal_the_encoding_when_only_some_seats_look(profile: Profile) -> None:
    """A pick patches the picker's cached tensor, or leaves none: both paths, at random, stay exact."""
    rng = random.Random(29)
    for i in range(100):
        hand = EncodedHand(Hand.from_seed(dealer=i % 4, seed=rng.getrandbits(64), profile=profile))
        while True:
            for seat in rng.sample(range(4), rng.randrange(3)):
                pending = hand.pending if hand.to_act == seat else None
                expected = encode_observation(hand.hand.observation(seat), pending)[: encoding.OBSERVATION_SIZE]
                assert np.array_equal(hand.observation_view(seat), expected), (seat, hand.hand.notation())
                got = hand.observation_tensor(seat)
                assert np.array_equal(got, expected) and got.flags.writeable
                got[:] = -1  # the caller's own array
                assert np.array_equal(hand.observation_tensor(seat), expected)
            if hand.over:
                break
            hand.apply_id(rng.choice(hand.legal_ids()))


def test_the_view_is_read_only() -> None:
    hand = EncodedHand(Hand.from_seed(dealer=0, seed=3))
    view = hand.observation_view(0)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 1.0


class _Id(enum.IntEnum):
    CALL = 0
    PLAY_SUP1 = 6


def test_ids_of_other_int_types_are_taken_or_refused() -> None:
    """An int subclass and a numpy integer are ids (issue 27 §1.5); a bool or a float is not."""
    hand = EncodedHand(Hand.from_seed(dealer=0, seed=3))
    assert hand.hand.phase is Phase.CALLING
    for wrong in (True, np.bool_(True), np.float64(0.0), 0.0):
        with pytest.raises(EncodingError, match="not an action id"):
            hand.apply_id(wrong)  # type: ignore[arg-type]
    twin = hand.copy()
    assert [str(e) for e in twin.apply_id(np.int64(0))] == ["0 call"]
    with pytest.raises(EncodingError, match=r"not legal for seat 0 now; legal ids: 0 \(call\), 1 \(pass\)"):
        hand.apply_id(_Id.PLAY_SUP1)
    assert [str(e) for e in hand.apply_id(_Id.CALL)] == ["0 call"]


def test_the_legal_modules_doctest() -> None:
    import doctest

    from hakka_rl import legal

    result = doctest.testmod(legal)
    assert result.attempted and not result.failed
