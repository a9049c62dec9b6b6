"""reference_engine.hand: dealing, Calling, Playing, claims and errors of one hand.

The fixed deal used by most tests (dealer 0, Dreamer seat 2 holding Gon7):

    seat 0: Sup2 Sup3 Sup4 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3
    seat 1: Sup5 Sup6 Gon1 Gon5 Gon6 Gon8 Zok5 Zok6 Zok8 Sin4 Sin5 Sin6
    seat 3: Sup1 Sup7 Sup8 Gon9 Zok1 Zok7 Zok9 Sin1 Sin7 Sin8 Sin9 WanSin

After ``call`` by the Dealer, seat 0 leads Sup2, seat 1 follows Sup6, seat 3
beats with Sup8 and wins 1 trick; he holds 6 Elders (Sup1 Gon9 Zok9 Sin1 Sin9
WanSin), so 1 + 6 = 7 ≥ 6 lets him claim (CLAIM-1).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from reference_engine import (
    Action,
    Cards,
    HakkaError,
    Hand,
    IllegalActionError,
    MalformedError,
    Profile,
    SetupError,
    deal_sequence,
)
from reference_engine.cards import seeded_deck
from reference_engine.hand import HAND_FIELDS

from .support import make_hand, play_out, snapshot

SEAT0 = "Sup2 Sup3 Sup4 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3"
SEAT1 = "Sup5 Sup6 Gon1 Gon5 Gon6 Gon8 Zok5 Zok6 Zok8 Sin4 Sin5 Sin6"
SEAT3 = "Sup1 Sup7 Sup8 Gon9 Zok1 Zok7 Zok9 Sin1 Sin7 Sin8 Sin9 WanSin"
HANDS = [SEAT0, SEAT1, "Gon7", SEAT3]


def fixed(profile: Profile = Profile()) -> Hand:
    return Hand.deal(0, HANDS, profile)


def after_first_round(profile: Profile = Profile(), pp: bool = False) -> Hand:
    hand = fixed(profile)
    if pp:
        hand.apply(0, "pass")
        hand.apply(1, "call")
    else:
        hand.apply(0, "call")
    hand.apply(0, "play Sup2")
    hand.apply(1, "play Sup6")
    hand.apply(3, "play Sup8")
    return hand


# ------------------------------------------------------------------ dealing


def test_deal_sequence_dealer_first() -> None:  # DEAL-4, D2
    assert deal_sequence(0) == [0, 1, 2, 3] + [0, 1, 3] * 11
    assert deal_sequence(2) == [2, 3, 0, 1] + [2, 3, 1] * 11
    assert deal_sequence(3) == [3, 0, 1, 2] + [3, 0, 2] * 11


def test_deal_sequence_dealer_last() -> None:  # D2
    last = Profile.from_options({"D2": "dealer-last"})
    assert deal_sequence(0, last) == [1, 2, 3, 0] + [1, 3, 0] * 11
    assert deal_sequence(1, last) == [2, 3, 0, 1] + [2, 0, 1] * 11


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("order", ["dealer-first", "dealer-last"])
def test_from_deck_follows_the_deal_sequence(dealer: int, order: str) -> None:
    profile = Profile.from_options({"D2": order})
    deck = seeded_deck(99 + dealer)
    hand = Hand.from_deck(dealer, deck, profile)
    seq = deal_sequence(dealer, profile)
    assert len(seq) == 37
    for seat in range(4):
        mine = {card for card, s in zip(deck, seq, strict=True) if s == seat}
        assert hand.dealt[seat] == sum(1 << i for i in mine)
        assert len(hand.hand_of(seat)) == (1 if seat == (dealer + 2) % 4 else 12)
    # the Dreamer gets the card dealt third (dealer-first) or second (dealer-last)
    assert hand.dreamer_card == deck[2 if order == "dealer-first" else 1]


def test_from_deck_text_and_from_seed_agree() -> None:
    deck = seeded_deck(5)
    text = " ".join(str(Cards(1 << i)) for i in deck)
    assert Hand.from_deck(1, text).dealt == Hand.from_seed(1, 5).dealt == Hand.from_deck(1, deck).dealt


def test_deal_roles() -> None:  # DEAL-2, CALL-1
    hand = Hand.deal(1, [SEAT0, SEAT1, SEAT3, "Gon7"])
    assert hand.dealer == 1 and hand.dreamer == 3
    assert hand.active_seats == (1, 2, 0)
    assert hand.phase == "calling" and hand.to_act == 1
    assert str(hand.hand_of(3)) == "Gon7"
    assert hand.next_seat(2) == 0  # GAME-5: the Dreamer is skipped


def _raises_setup(rule: str, seat: int | None, fn: Callable[..., object], *args: object) -> SetupError:
    with pytest.raises(SetupError) as info:
        fn(*args)
    assert info.value.rule == rule, str(info.value)
    assert info.value.seat == seat, str(info.value)
    assert info.value.kind == "bad-setup"
    return info.value


def test_deal_needs_four_seats() -> None:
    _raises_setup("DEAL-4", None, Hand.deal, 0, [SEAT0, SEAT1, "Gon7"])


def test_deal_wrong_count_names_the_seat() -> None:  # DEAL-4
    short = " ".join(SEAT1.split()[:11])
    err = _raises_setup("DEAL-4", 1, Hand.deal, 0, [SEAT0, short, "Gon7 Sup6", SEAT3])
    assert "seat 1" in str(err)


def test_deal_dreamer_must_hold_one_card() -> None:  # DEAL-4
    err = _raises_setup("DEAL-4", 2, Hand.deal, 0, [SEAT0, SEAT1, SEAT3, "Gon7"])
    assert "Dreamer" in str(err)


def test_deal_duplicate_card_names_the_seat() -> None:  # CARDS-1
    dup = SEAT3.replace("WanSin", "Sup2")
    err = _raises_setup("CARDS-1", 3, Hand.deal, 0, [SEAT0, SEAT1, "Gon7", dup])
    assert "Sup2" in str(err)


def test_deal_malformed_card_names_the_seat() -> None:  # CARDS-1
    bad = SEAT1.replace("Gon1", "Gon0")
    err = _raises_setup("CARDS-1", 1, Hand.deal, 0, [SEAT0, bad, "Gon7", SEAT3])
    assert "Gon0" in str(err)


def test_deal_card_named_twice_in_one_hand() -> None:  # CARDS-1
    twice = SEAT1.replace("Gon1", "Gon5")
    _raises_setup("CARDS-1", 1, Hand.deal, 0, [SEAT0, twice, "Gon7", SEAT3])


def test_deal_rejects_a_mask_holding_no_card_of_the_deck() -> None:  # CARDS-1
    """A raw int mask with a bit beyond the 37 cards is not a hand of cards."""
    masks = [Cards.parse(h).mask for h in HANDS]
    masks[3] = (masks[3] & ~Cards.parse("WanSin").mask) | (1 << 40)
    with pytest.raises(SetupError):
        Hand.deal(0, masks)


def test_deal_accepts_masks_cards_and_text_alike() -> None:
    masks = [Cards.parse(h).mask for h in HANDS]
    as_cards = [Cards.parse(h) for h in HANDS]
    assert Hand.deal(0, masks).dealt == Hand.deal(0, as_cards).dealt == fixed().dealt


@pytest.mark.parametrize("dealer", [-1, 4, "0", True, None])
def test_bad_dealer(dealer: object) -> None:
    with pytest.raises(SetupError) as info:
        Hand.deal(dealer, HANDS)
    assert info.value.rule == "GAME-5"


@pytest.mark.parametrize(
    "deck",
    [
        seeded_deck(1)[:36],
        seeded_deck(1) + [0],
        seeded_deck(1)[:36] + [seeded_deck(1)[0]],
        [i % 37 for i in range(1, 38)][:36] + [37],
    ],
    ids=["36 cards", "38 cards", "a card twice", "index 37"],
)
def test_from_deck_rejects_a_bad_deck(deck: list[int]) -> None:
    with pytest.raises(SetupError) as info:
        Hand.from_deck(0, deck)
    assert info.value.rule == "CARDS-1"


def test_from_deck_text_malformed() -> None:
    text = " ".join(str(Cards(1 << i)) for i in seeded_deck(1)).replace("Zok3", "Zok33")
    with pytest.raises(SetupError) as info:
        Hand.from_deck(0, text)
    assert info.value.rule == "CARDS-1" and "Zok33" in str(info.value)


# ------------------------------------------------------------------ calling


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_calls_no_privileged_player(dealer: int) -> None:  # CALL-2, CALL-4, D30
    hand = Hand.from_seed(dealer, 11)
    hand.apply(dealer, "call")
    assert hand.caller == dealer and hand.privileged is None
    assert hand.phase == "playing" and hand.to_act == dealer  # PLAY-1
    rng = random.Random(dealer)
    play_out(hand, rng)
    assert hand.result is not None and hand.result.next_dealer == dealer  # CALL-2


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("d4", ["next-seat", "caller"])
def test_pass_pass_call_makes_dealer_plus_3_privileged(dealer: int, d4: str) -> None:  # CALL-3, CALL-4
    hand = Hand.from_seed(dealer, 12, Profile.from_options({"D4": d4}))
    hand.apply(dealer, "pass")
    assert hand.to_act == (dealer + 1) % 4
    hand.apply((dealer + 1) % 4, "pass")
    assert hand.to_act == (dealer + 3) % 4  # the Dreamer is skipped
    hand.apply((dealer + 3) % 4, "call")
    assert hand.privileged == (dealer + 3) % 4
    assert hand.phase == "playing" and hand.to_act == dealer  # D6 dealer
    play_out(hand, random.Random(dealer))
    assert hand.result is not None
    assert hand.result.next_dealer == ((dealer + 1) % 4 if d4 == "next-seat" else (dealer + 3) % 4)


def test_first_leader_privileged_player() -> None:  # D6
    hand = Hand.from_seed(0, 12, Profile.from_options({"D6": "privileged-player"}))
    hand.apply(0, "pass")
    hand.apply(1, "call")
    assert hand.to_act == 1


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize(
    "options, offset, counts",
    [({}, 1, False), ({"D5": "same-dealer"}, 0, False), ({"D4": "caller"}, 1, False), ({"D31": "deals"}, 1, True)],
)
def test_all_pass_is_a_void_hand(dealer: int, options: dict[str, str], offset: int, counts: bool) -> None:  # CALL-6, D5
    hand = Hand.from_seed(dealer, 13, Profile.from_options(options))
    for seat in (dealer, (dealer + 1) % 4, (dealer + 3) % 4):
        assert hand.to_act == seat
        hand.apply(seat, "pass")
    assert hand.phase == "ended" and hand.to_act is None
    result = hand.result
    assert result is not None
    assert (result.end, result.winner, result.tricks, result.dreamer_count) == ("void", None, None, None)
    assert result.deltas == (0, 0, 0, 0)
    assert result.next_dealer == (dealer + offset) % 4
    assert result.counts is counts
    assert not hand.legal_actions()


# ------------------------------------------------------------------ illegal actions


def expect_illegal(hand: Hand, seat: int, action: str, rule: str) -> None:
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(seat, action)
    assert info.value.rule == rule, str(info.value)
    assert info.value.seat == seat
    assert info.value.kind == "illegal"
    assert snapshot(hand) == before, "a refused action changed the state"
    assert not hand.can_apply(seat, action)
    with pytest.raises(IllegalActionError):
        hand.check(seat, action)


def test_illegal_in_calling() -> None:
    hand = fixed()
    expect_illegal(hand, 1, "call", "CALL-1")  # the Dealer speaks first
    expect_illegal(hand, 3, "pass", "CALL-1")
    expect_illegal(hand, 2, "call", "DEAL-3")  # the Dreamer never speaks
    expect_illegal(hand, 0, "play Sup2", "CALL-1")
    expect_illegal(hand, 0, "claim", "CALL-1")


def test_dreamer_never_plays() -> None:  # DEAL-3
    hand = fixed()
    hand.apply(0, "call")
    expect_illegal(hand, 2, "play Gon7", "DEAL-3")
    expect_illegal(hand, 2, "pass", "DEAL-3")


def test_illegal_leads() -> None:
    hand = fixed()
    hand.apply(0, "call")
    expect_illegal(hand, 1, "play Sup5", "PLAY-3")  # not his turn
    expect_illegal(hand, 3, "play Sup7 Sup8 Sup9", "PLAY-3")
    expect_illegal(hand, 0, "call", "CALL-5")  # Calling is over
    expect_illegal(hand, 0, "pass", "CALL-5")
    expect_illegal(hand, 0, "play Sup9", "ELD-4")  # an Elder before the non-Elders of the top suit
    expect_illegal(hand, 0, "play Gon2", "PAT-5")  # not the top suit
    expect_illegal(hand, 0, "play Sin2", "PAT-5")
    expect_illegal(hand, 0, "play Sup2 Sup3", "PAT-7")  # two cards
    expect_illegal(hand, 0, "play Sup2 Gon2 Zok3", "PAT-7")
    expect_illegal(hand, 0, "play Sup2 Sup4 Sup9", "PAT-7")  # gap
    expect_illegal(hand, 0, "claim", "CLAIM-1")  # not eligible
    expect_illegal(hand, 0, "continue", "CLAIM-1")
    # holding: a card he does not have
    with pytest.raises(IllegalActionError):
        hand.apply(0, "play Sup5")


def test_legal_leads_of_the_fixed_deal() -> None:
    hand = fixed()
    hand.apply(0, "call")
    legal = {str(a) for a in hand.legal_actions()}
    assert legal == {
        "play Sup2", "play Sup3", "play Sup4",  # PAT-5, ELD-4
        "play Sup2 Sup3 Sup4", "play Gon2 Gon3 Gon4", "play Zok2 Zok3 Zok4",  # runs
        "play Sup2 Gon2 Zok2", "play Sup2 Gon2 Sin2", "play Sup2 Zok2 Sin2", "play Gon2 Zok2 Sin2",
        "play Sup2 Gon2 Zok2 Sin2",
        "play Sup3 Gon3 Zok3", "play Sup3 Gon3 Sin3", "play Sup3 Zok3 Sin3", "play Gon3 Zok3 Sin3",
        "play Sup3 Gon3 Zok3 Sin3",
        "play Sup4 Gon4 Zok4",
    }


def test_illegal_follows() -> None:
    hand = fixed()
    hand.apply(0, "call")
    hand.apply(0, "play Sup2")
    assert hand.to_act == 1
    expect_illegal(hand, 1, "discard Gon1", "PLAY-4")  # he can beat with Sup5 or Sup6
    expect_illegal(hand, 1, "play Sin4 Sin5 Sin6", "PLAY-3")  # wrong size
    expect_illegal(hand, 1, "play Gon5", "PAT-6")  # D7 same-suit: does not beat
    expect_illegal(hand, 1, "play Sup5 Sup6", "PAT-7")
    expect_illegal(hand, 0, "play Sup3", "PLAY-3")  # not his turn any more
    assert {str(a) for a in hand.legal_actions()} == {"play Sup5", "play Sup6"}
    assert hand.legal_actions().discard is None


def test_discard_when_unable_to_beat() -> None:  # PLAY-4, D12
    hand = fixed()
    hand.apply(0, "call")
    hand.apply(0, "play Zok2 Zok3 Zok4")  # seat 1 holds no Sup, Gon or better Zok run
    legal = hand.legal_actions()
    assert legal.actions == ()
    assert legal.discard is not None and legal.discard.count == 3
    assert legal.discard.allowed == hand.hands[1]
    expect_illegal(hand, 1, "discard Gon1", "PLAY-4")  # wrong count
    hand.apply(1, "discard Gon1 Sin4 Zok8")
    assert hand.to_act == 3


def test_claim_after_winning_a_round() -> None:  # PLAY-6, PLAY-7, CLAIM-1
    hand = after_first_round()
    assert hand.tricks == [0, 0, 0, 1]
    assert hand.phase == "claim" and hand.to_act == 3
    assert hand.claim_count(3) == 7
    assert {str(a) for a in hand.legal_actions()} == {"claim", "continue"}
    expect_illegal(hand, 3, "play Sup7", "CLAIM-1")
    expect_illegal(hand, 0, "claim", "PLAY-3")
    hand.apply(3, "claim")
    result = hand.result
    assert result is not None and result.end == "claim"
    assert (result.winner, result.tricks, result.dreamer_count) == (3, 7, 8)
    # v(7) = 2 from each loser; the Dreamer (Gon7 vs Sup7 Zok7 Sin7: 5 + 3 = 8) collects v(8) = 4 from each
    assert result.deltas == (-6, -6, 8, 4)
    assert result.next_dealer == 0 and result.counts
    expect_illegal(hand, 3, "claim", "CLAIM-2")


def test_continue_leads_the_next_round() -> None:  # PLAY-7
    hand = after_first_round()
    hand.apply(3, "continue")
    assert hand.phase == "playing" and hand.to_act == 3 and hand.plays == []
    # top suit Sup: Sup7 is the only non-Elder (Sup1 is an Elder)
    singles = {str(a) for a in hand.legal_actions() if len(a.cards) == 1}
    assert singles == {"play Sup7"}
    expect_illegal(hand, 3, "play Sup1", "ELD-4")


def test_automatic_claim() -> None:  # D21 automatic
    hand = after_first_round(Profile.from_options({"D21": "automatic"}))
    assert hand.phase == "ended"
    assert hand.result is not None and hand.result.end == "claim" and hand.result.tricks == 7


@pytest.mark.parametrize(
    "options, deltas",
    [
        ({}, (0, -12, 8, 4)),  # SCORE-6, D29 all-shares: PP pays 2v and 2dv
        ({"D29": "winner-share"}, (-4, -8, 8, 4)),
        ({"D28": "all-three"}, (0, -12, 12, 0)),
        ({"D28": "all-three", "D29": "winner-share"}, (-4, -8, 12, 0)),
        ({"D22": "tricks-only"}, (0, -8, 8, 0)),  # count 1: v = 0, the Dreamer still paid by the PP
    ],
)
def test_privileged_player_pays_when_another_wins(options: dict[str, str], deltas: tuple[int, ...]) -> None:
    hand = after_first_round(Profile.from_options(options), pp=True)
    assert hand.privileged == 1
    hand.apply(3, "claim")
    assert hand.result is not None
    assert hand.result.deltas == deltas
    assert sum(hand.result.deltas) == 0
    assert hand.result.next_dealer == 1  # D4 next-seat: the Dealer passed


@pytest.mark.parametrize(
    "options, deltas",
    [
        ({"D28": "all-three"}, (-6, -6, 12, 0)),
        ({"D25": "matches-only"}, (-2, -2, 0, 4)),  # d = 3
        ({"D22": "tricks-only"}, (-4, -4, 8, 0)),  # count 1 → v = 0
    ],
)
def test_claim_scoring_variants(options: dict[str, str], deltas: tuple[int, ...]) -> None:
    hand = after_first_round(Profile.from_options(options))
    hand.apply(3, "claim")
    assert hand.result is not None and hand.result.deltas == deltas


@pytest.mark.parametrize("d26, count", [("dealt-hand", 8), ("hand-at-claim", 7), ("winning-pattern", 6)])
def test_dreamer_matches(d26: str, count: int) -> None:  # D26
    # seat 0 leads the run Sup5 Sup6 Sup7 (nobody holds a better Sup run), keeps Zok7 Sin7;
    # Dreamer Gon7: dealt 3 sevens, 2 at the claim, 1 in the winning pattern
    seat0 = "Sup5 Sup6 Sup7 Sup9 Gon9 Zok9 Sin9 Sin1 Zok7 Sin7 Gon2 Gon3"
    hand = make_hand(0, {0: seat0}, dreamer_card="Gon7", profile=Profile.from_options({"D26": d26}))
    hand.apply(0, "call")
    hand.apply(0, "play Sup5 Sup6 Sup7")
    for seat in (1, 3):
        legal = hand.legal_actions()
        assert legal.actions == () and legal.discard is not None  # no better Sup run anywhere
        hand.apply(seat, Action("discard", sum(c.bit for c in list(Cards(hand.hands[seat]))[:3])))
    assert hand.phase == "claim" and hand.claim_count(0) == 3 + 5
    hand.apply(0, "claim")
    result = hand.result
    assert result is not None and result.dreamer_count == count
    dv = {6: 1, 7: 2, 8: 4}[count]
    assert result.deltas == (8, -4 - dv, 2 * dv, -4 - dv)


# ------------------------------------------------------------------ Five Tigers


TIGER_SEAT1 = "Sup1 Gon1 Zok1 Sin1 WanSin Sup2 Sup3 Sup4 Gon2 Gon3 Gon4 Zok2"


@pytest.mark.parametrize(
    "options, calls, deltas",
    [
        ({}, [(0, "call")], (-4, 8, 0, -4)),
        ({}, [(0, "pass"), (1, "pass"), (3, "call")], (0, 8, 0, -8)),  # the PP pays for both (D34 as-claim)
        ({"D34": "winner-only"}, [(0, "pass"), (1, "pass"), (3, "call")], (-4, 8, 0, -4)),
    ],
)
def test_five_tigers_automatic(options: dict[str, str], calls: list[tuple[int, str]], deltas: tuple[int, ...]) -> None:
    hand = make_hand(0, {1: TIGER_SEAT1}, dreamer_card="Gon7", profile=Profile.from_options(options), five_tigers=True)
    for seat, verb in calls:
        hand.apply(seat, verb)
    assert hand.phase == "ended"
    result = hand.result
    assert result is not None
    assert (result.end, result.winner, result.tricks) == ("five-tigers", 1, 8)
    assert result.deltas == deltas


def test_five_tigers_dreamer_counted_from_dealt_hand() -> None:  # D34 as-claim, D26
    seat1 = "Sup1 Gon1 Zok1 Sin1 WanSin Sup7 Zok7 Sin7 Gon2 Gon3 Gon4 Zok2"
    for d26 in ("dealt-hand", "hand-at-claim", "winning-pattern"):
        hand = make_hand(0, {1: seat1}, dreamer_card="Gon7", profile=Profile.from_options({"D26": d26}), five_tigers=True)
        hand.apply(0, "call")
        assert hand.result is not None
        assert hand.result.dreamer_count == 8
        assert hand.result.deltas == (-8, 8, 8, -8)
    hand = make_hand(0, {1: seat1}, dreamer_card="Gon7", profile=Profile.from_options({"D34": "winner-only"}), five_tigers=True)
    hand.apply(0, "call")
    assert hand.result is not None and hand.result.deltas == (-4, 8, 0, -4)


def test_five_tigers_declared() -> None:  # D24 declared
    profile = Profile.from_options({"D24": "declared"})
    hand = make_hand(0, {1: TIGER_SEAT1}, dreamer_card="Gon7", profile=profile, five_tigers=True)
    hand.apply(0, "call")
    assert hand.phase == "tigers" and hand.to_act == 1
    assert {str(a) for a in hand.legal_actions()} == {"tigers", "decline"}
    expect_illegal(hand, 0, "play Sup5", "PLAY-3")
    expect_illegal(hand, 1, "play Sup2", "TIG-1")
    declined = hand.copy()
    declined.apply(1, "decline")
    assert declined.phase == "playing" and declined.to_act == 0
    hand.apply(1, "tigers")
    assert hand.result is not None and hand.result.end == "five-tigers" and hand.result.deltas == (-4, 8, 0, -4)


def test_no_five_tigers_without_a_call() -> None:  # CALL-6 first
    hand = make_hand(0, {1: TIGER_SEAT1}, dreamer_card="Gon7", five_tigers=True)
    for seat in (0, 1, 3):
        hand.apply(seat, "pass")
    assert hand.result is not None and hand.result.end == "void"


# ------------------------------------------------------------------ Elders


def test_a_nine_played_face_up_promotes_the_eight_at_once() -> None:  # ELD-2, D35
    # seat 0 leads Sup7 Sup8 Sup9; Sup6 becomes an Elder immediately
    seat0 = "Sup7 Sup8 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3 Sin4"
    hand = make_hand(0, {0: seat0}, dreamer_card="Gon7")
    hand.apply(0, "call")
    hand.apply(0, "play Sup7 Sup8 Sup9")
    assert Cards(hand.elders) == Cards.parse("Sup1 Sup6 Sup7 Sup8 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin")
    assert hand.to_act == 1  # mid-round: the promotion did not wait for the round's end


@pytest.mark.parametrize("d19, promoted", [("face-up", False), ("face-up-and-discards", True)])
def test_discards_promote_only_under_d19_face_up_and_discards(d19: str, promoted: bool) -> None:
    # seat 1 holds Gon9 and must discard it: does Gon8 become an Elder?
    seat0 = "Sup7 Sup8 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3 Sin4"
    seat1 = "Gon9 Gon1 Gon5 Gon6 Zok5 Zok6 Zok8 Sin5 Sin6 Sin7 Sin8 Sin9"
    hand = make_hand(0, {0: seat0, 1: seat1}, dreamer_card="Gon7", profile=Profile.from_options({"D19": d19}))
    hand.apply(0, "call")
    hand.apply(0, "play Sup7 Sup8 Sup9")
    hand.apply(1, "discard Gon9 Gon1 Gon5")
    assert bool(Cards.parse("Gon8").mask & hand.elders) is promoted


# ------------------------------------------------------------------ misc API


def test_copy_is_independent() -> None:
    hand = fixed()
    hand.apply(0, "call")
    before = snapshot(hand)
    other = hand.copy()
    other.apply(0, "play Sup2")
    other.apply(1, "play Sup5")
    assert snapshot(hand) == before
    assert hand.to_act == 0 and other.to_act == 3


def test_copy_copies_every_slot() -> None:
    hand = fixed()
    hand.apply(0, "call")
    hand.apply(0, "play Sup2")
    other = hand.copy()
    for name in HAND_FIELDS:
        assert getattr(other, name) == getattr(hand, name), name
    assert other.hands is not hand.hands and other.events is not hand.events
    assert other.round is not hand.round and other.round.plays is not hand.round.plays


def test_apply_accepts_text_and_actions_alike() -> None:
    a, b = fixed(), fixed()
    a.apply(0, "call")
    b.apply(0, Action.parse("call"))
    a.apply(0, "PLAY s2")
    b.apply(0, Action("play", Cards.parse("Sup2").mask))
    assert snapshot(a) == snapshot(b)


def test_malformed_action_text_raises_malformed_and_changes_nothing() -> None:
    hand = fixed()
    before = snapshot(hand)
    with pytest.raises(MalformedError) as info:
        hand.apply(0, "cal")
    assert info.value.seat == 0 and "cal" in str(info.value)
    assert snapshot(hand) == before


def test_history_records_every_action() -> None:
    hand = after_first_round()
    assert [(s, str(a)) for s, a in hand.history] == [(0, "call"), (0, "play Sup2"), (1, "play Sup6"), (3, "play Sup8")]


# ------------------------------------------------------------------ option combinations


def test_pp_leads_wan_sin_only_when_top_suit_has_only_elders_under_d9_exempt_d11_top_suit_elder() -> None:
    """D9 exempt: Wan Sin may be led "by a PP at any time under D11 any-elder, or when T holds
    only Elders under top-suit-elder" (decisions.yaml D9, RULES-SEMANTICS.md). Here T = Sup
    still holds the non-Elders Sup2 and Sup3, so the PP may not lead Wan Sin."""
    profile = Profile.from_options({"D9": "exempt", "D11": "top-suit-elder", "D6": "privileged-player"})
    seat1 = "Sup2 Sup3 Sup9 WanSin Gon2 Gon4 Gon6 Gon8 Zok2 Zok4 Zok6 Zok8"
    hand = make_hand(0, {1: seat1}, dreamer_card="Gon7", profile=profile)
    hand.apply(0, "pass")
    hand.apply(1, "call")
    assert hand.privileged == 1 and hand.to_act == 1
    singles = {str(a) for a in hand.legal_actions() if len(a.cards) == 1}
    assert singles == {"play Sup2", "play Sup3", "play Sup9"}  # D11 top-suit-elder adds Sup9, not Wan Sin


def test_pp_leads_wan_sin_any_time_under_d9_exempt_d11_any_elder() -> None:
    profile = Profile.from_options({"D9": "exempt", "D6": "privileged-player"})
    seat1 = "Sup2 Sup3 Sup9 WanSin Gon2 Gon4 Gon6 Gon9 Zok2 Zok4 Zok6 Zok8"
    hand = make_hand(0, {1: seat1}, dreamer_card="Gon7", profile=profile)
    hand.apply(0, "pass")
    hand.apply(1, "call")
    singles = {str(a) for a in hand.legal_actions() if len(a.cards) == 1}
    assert singles == {"play Sup2", "play Sup3", "play Sup9", "play Gon9", "play WanSin"}


@pytest.mark.parametrize(
    "verb, mask, problem",
    [("play", 1 << 40, "not a set of cards"), ("discard", 1 << 37, "not a set of cards"),
     ("jump", 0, "unknown verb"), ("play", 0, "needs at least one card"), ("call", 1, "takes no cards"),
     ("play", True, "not a set of cards")],
    ids=["play beyond the deck", "discard beyond the deck", "unknown verb", "play no card", "call with cards",
         "a bool mask"],
)
def test_an_action_outside_the_notation_cannot_be_built(verb: str, mask: int, problem: str) -> None:
    """Action validates itself: a value Action.parse would never produce is refused at construction."""
    with pytest.raises(MalformedError, match=problem):
        Action(verb, mask)


def test_a_non_action_is_refused_cleanly() -> None:
    hand = fixed()
    hand.apply(0, "call")
    before = snapshot(hand)
    with pytest.raises(HakkaError):
        hand.apply(0, ("play", 1 << 40))
    assert snapshot(hand) == before
    assert not hand.can_apply(0, ("play", 1))


@pytest.mark.parametrize("d8", ["leader-only", "followers-too"])
def test_follower_suit_rule(d8: str) -> None:  # D8, D14
    seat0 = "Sup8 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3 Sin4 Sin5"
    seat1 = "Sup2 Sup3 Gon1 Gon5 Gon6 Gon8 Zok6 Zok7 Zok8 Zok9 Sin8 Sin9"
    hand = make_hand(0, {0: seat0, 1: seat1}, dreamer_card="Gon7", profile=Profile.from_options({"D8": d8}))
    hand.apply(0, "call")
    hand.apply(0, "play Sup8")  # the only non-Elder of his top suit
    legal = hand.legal_actions()
    assert legal.actions == ()  # Sup9 is with the leader: nobody can beat Sup8
    assert legal.discard is not None and legal.discard.count == 1
    if d8 == "leader-only":
        assert Cards(legal.discard.allowed) == Cards.parse(seat1)
        hand.apply(1, "discard Gon5")
    else:
        assert Cards(legal.discard.allowed) == Cards.parse("Sup2 Sup3")  # his top suit T
        expect_illegal(hand, 1, "discard Gon5", "D8")
        hand.apply(1, "discard Sup3")
    assert hand.to_act == 3
