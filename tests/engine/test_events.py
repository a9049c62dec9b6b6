"""The events a move returns (reference_engine.events): what they say, checked against the independent
oracle; their text; and that a hand's log replays it."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference_engine
from reference_engine import Action, Cards, Game, Hand, IllegalActionError, MalformedError, Profile
from reference_engine.events import (
    Called,
    ClaimDeclined,
    ClaimMade,
    ClaimOffered,
    Declined,
    Discarded,
    EldersPromoted,
    Event,
    GameEnded,
    HandDealt,
    HandEnded,
    Offered,
    Passed,
    Played,
    RoundWon,
    SeatEvent,
    Taken,
    TigersDeclined,
    TigersOffered,
    TigersShown,
    parse_event,
)
from reference_engine.patterns import Kind
from reference_engine.profile import every_option_profile
from reference_engine.scoring import HandResult

from . import oracle as O
from .support import RNG_SEEDS, choose, make_hand, oracle_for, play_out, play_settings, random_profile, to_oracle_cards

NAMESPACE = {"Event": Event, "Cards": Cards, "Kind": Kind}
"""What a repr may name: ``Event.parse('...')``."""

TEXTS = [
    "0 call", "1 call (privileged)", "3 pass",
    "1 play Gon3 Gon4 Gon5 (run)", "0 play Sup2 Gon2 Zok2 (set)", "3 play WanSin (single)",
    "3 discard Sup2 Gon4", "1 discard (3 face down)",
    "0 wins 1 trick", "0 wins 3 tricks", "3 promotes Zok8 to Elder", "1 promotes Sup8 Gon7 to Elders",
    "0 may claim", "0 claim", "0 claim (automatic)", "0 continue",
    "1 may show the Five Tigers", "1 tigers", "1 tigers (automatic)", "1 decline",
    "hand ends (claim): winner 3, tricks 7, dreamer count 8, deltas 0 -12 8 4, next dealer 1, counts",
    "hand ends (five-tigers): winner 0, tricks 8, dreamer count 7, deltas 12 -6 0 -6, next dealer 0, counts",
    "hand ends (played-out): deltas 0 0 0 0, next dealer 2, counts",
    "hand ends (void): deltas 0 0 0 0, next dealer 1, does not count",
    "deal 2: dealer 1", "game over: scores 4 -2 0 -2",
]
KINDS = (Called, Passed, Played, Discarded, RoundWon, EldersPromoted, ClaimOffered, ClaimMade, ClaimDeclined,
         TigersOffered, TigersShown, TigersDeclined, HandEnded, HandDealt, GameEnded)


def check_text(event: Event) -> None:
    """The text round-trips, the repr evaluates, both to an equal (and equally hashed) event."""
    assert parse_event(str(event)) == event
    again = eval(repr(event), dict(NAMESPACE))
    assert again == event and hash(again) == hash(event) and type(again) is type(event)


@pytest.mark.parametrize("text", TEXTS)
def test_the_canonical_text_of_every_kind_reads_back(text: str) -> None:
    event = parse_event(text)
    assert str(event) == text
    check_text(event)


def test_the_texts_cover_every_kind() -> None:
    assert {type(parse_event(t)) for t in TEXTS} == set(KINDS)
    assert set(reference_engine.events.__all__) >= {k.__name__ for k in KINDS}


@pytest.mark.parametrize(("kind", "shape", "text"), [
    (ClaimOffered, Offered, "0 may claim"), (ClaimMade, Taken, "0 claim"), (ClaimDeclined, Declined, "0 continue"),
    (TigersOffered, Offered, "0 may show the Five Tigers"), (TigersShown, Taken, "0 tigers"),
    (TigersDeclined, Declined, "0 decline"),
])
def test_a_claim_and_the_five_tigers_share_one_shape(kind: type[SeatEvent], shape: type[SeatEvent], text: str) -> None:
    """"seat may X / seat X / seat declines": the text and the action come from the shape and the kind's move."""
    event = kind(0)
    assert isinstance(event, shape) and str(event) == text
    if isinstance(event, Offered):
        assert event.action is None
    else:
        assert isinstance(event, (Taken, Declined)) and event.action == event.move and event.move.verb == text[2:]
    if isinstance(event, Taken):
        automatic = kind(2, True)  # type: ignore[call-arg]  # Taken's own field
        assert automatic.action is None and str(automatic) == f"2 {event.move.verb} (automatic)"


def test_a_kind_s_seat_is_an_int_exactly_when_it_is_about_a_seat() -> None:
    for event in map(parse_event, TEXTS):
        if isinstance(event, SeatEvent):
            assert type(event.seat) is int
        else:
            assert isinstance(event, (HandEnded, HandDealt, GameEnded)) and getattr(event, "seat") is None  # noqa: B009


def test_the_kinds_of_a_choice_are_told_apart() -> None:
    alike: list[Event] = [ClaimOffered(1), TigersOffered(1), ClaimMade(1), TigersShown(1), ClaimDeclined(1),
                          TigersDeclined(1)]
    assert len(set(alike)) == len(alike) and len(set(alike + [ClaimMade(1), TigersDeclined(1)])) == len(alike)


def test_card_names_are_read_in_any_case_and_order() -> None:
    assert parse_event("1 play gon5 G3 Gon4 (run)") == Played(1, Cards.parse("Gon3 Gon4 Gon5").mask, Kind.RUN)
    assert str(parse_event("2 promotes s8 to Elder")) == "2 promotes Sup8 to Elder"


@pytest.mark.parametrize("text", [
    "", "call", "4 call", "0 call privileged", "0 play Sup2", "0 play Sup2 Sup3 (single)", "0 play Sup2 (none)",
    "0 play Sup2 Sup2 (run)", "0 discard", "0 discard (0 face down)", "0 discard (x face down)", "0 wins tricks",
    "0 wins -1 tricks", "0 promotes to Elders", "0 may", "0 claim now", "0 tigers automatic",
    "hand ends (draw): deltas 0 0 0 0, next dealer 1, counts", "hand ends (void): next dealer 1, counts",
    "hand ends (void): deltas 0 0 0, next dealer 1, counts", "hand ends (claim): winner 7, deltas 0 0 0 0, "
    "next dealer 1, counts", "deal 1: dealer 0", "deal 2: dealer 4", "game over: scores 1 2 3",
])
def test_malformed_text_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(MalformedError) as info:
        parse_event(text)
    assert repr(text) in str(info.value)


def test_events_are_checked_when_made() -> None:
    with pytest.raises(MalformedError):
        Played(4, 1, Kind.SINGLE)
    with pytest.raises(MalformedError):
        Played(0, 3, Kind.SINGLE)  # two cards are no Single (PAT-7)
    with pytest.raises(MalformedError):
        Played(0, 1, Kind.NONE)
    with pytest.raises(MalformedError):
        Discarded(0, 2, Cards.parse("Sup1").mask)
    with pytest.raises(MalformedError):
        EldersPromoted(0, 0)
    with pytest.raises(MalformedError):
        HandDealt(0, 1)
    with pytest.raises(MalformedError):
        HandEnded(HandResult("draw", None, None, None, (0, 0, 0, 0), 1, True))


def test_a_discard_shows_its_cards_to_its_seat_only() -> None:  # PLAY-5, OBS-1, D32
    discard = parse_event("3 discard Sup2 Gon4")
    assert discard.seen_by(3) is discard and discard.action == Action.parse("discard Sup2 Gon4")
    hidden = discard.seen_by(0)
    assert isinstance(hidden, Discarded) and hidden.hidden and hidden.cards is None and hidden.action is None
    assert (hidden.seat, hidden.count, str(hidden)) == (3, 2, "3 discard (2 face down)")
    assert hidden.seen_by(3) is hidden  # a hidden discard stays hidden
    assert parse_event("0 call").seen_by(1) == parse_event("0 call")


# ------------------------------------------------------------------ what the events say, from the oracle


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def result_text(r: O.Result) -> str:
    facts = [f"winner {r.winner}"] if r.winner is not None else []
    facts += [f"tricks {r.tricks}"] if r.tricks is not None else []
    facts += [f"dreamer count {r.dreamer_count}"] if r.dreamer_count is not None else []
    facts += ["deltas " + " ".join(map(str, r.deltas)), f"next dealer {r.next_dealer}",
              "counts" if r.counts else "does not count"]
    return f"hand ends ({r.end}): " + ", ".join(facts)


def expected_events(before: O.OracleHand, after: O.OracleHand, seat: int, action: Action) -> list[str]:
    """What a move caused, from the oracle's states before and after it (the rules' own model)."""
    verb, cards = action.verb, to_oracle_cards(action.mask)
    if verb == "call":
        out = [f"{seat} call (privileged)" if after.pp == seat else f"{seat} call"]  # CALL-4
    elif verb == "play":
        pattern = O.pattern_of(cards, before.options)
        assert pattern is not None
        out = [f"{seat} play {O.names(cards)} ({pattern.kind})"]
    elif verb == "discard":
        out = [f"{seat} discard {O.names(cards)}"]
    else:
        out = [f"{seat} {verb}"]
    promoted = after.elders() - before.elders()  # ELD-2, D19
    if promoted:
        out.append(f"{seat} promotes {O.names(promoted)} to {'Elder' if len(promoted) == 1 else 'Elders'}")
    gained = [(s, after.tricks[s] - before.tricks[s]) for s in range(4) if after.tricks[s] != before.tricks[s]]
    if verb in ("play", "discard") and len(before.round) == 2:  # the round's third action (PLAY-6)
        assert len(gained) == 1
        winner, tricks = gained[0]
        out.append(f"{winner} wins {plural(tricks, 'trick')}")
        if after.phase == "claim":  # CLAIM-1, D21 optional
            out.append(f"{winner} may claim")
        elif after.result is not None and after.result.end == "claim":  # D21 automatic
            out.append(f"{winner} claim (automatic)")
    if after.phase == "tigers" and before.phase != "tigers":  # TIG-1, D24 declared
        out.append(f"{after.to_act} may show the Five Tigers")
    if verb == "call" and after.result is not None and after.result.end == "five-tigers":  # D24 automatic
        out.append(f"{after.result.winner} tigers (automatic)")
    if after.result is not None and before.result is None:
        out.append(result_text(after.result))
    return out


def play_checked(hand: Hand, rng: random.Random, call_bias: float = 0.8, seen: set[str] | None = None,
                 orc: O.OracleHand | None = None) -> None:
    """Play ``hand`` out at random; each move's events must be what the oracle (``orc``, at the same
    point) says happened."""
    orc = orc or oracle_for(hand)
    while hand.to_act is not None:
        seat = hand.to_act
        action = choose(hand, rng, call_bias)
        before = copy.deepcopy(orc)
        logged = len(hand.events)
        events = hand.apply(seat, action)
        orc.apply(seat, action.verb, to_oracle_cards(action.mask))
        assert [str(e) for e in events] == expected_events(before, orc, seat, action), hand.notation()
        assert tuple(hand.events[logged:]) == events and events[0].action == action
        for event in events:
            check_text(event)
            if seen is not None:
                seen.add(type(event).__name__ + ("-automatic" if getattr(event, "automatic", False) else "")
                         + ("-privileged" if getattr(event, "privileged", False) else ""))


PROFILES = every_option_profile()


@pytest.mark.parametrize("profile", PROFILES, ids=[",".join(f"{k}={v}" for k, v in p.changed().items()) or "default"
                                                   for p in PROFILES])
def test_the_events_are_what_the_oracle_says_happened(profile: Profile) -> None:
    rng = random.Random(hash(tuple(profile.changed().items())) & 0xFFFF)
    for n in range(12):
        play_checked(Hand.from_seed(n % 4, rng.getrandbits(64), profile), rng, call_bias=0.3 if n % 4 == 0 else 0.9)


@play_settings(20, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), rng_seed=RNG_SEEDS)
def test_the_events_follow_the_oracle_under_random_option_combinations(seed: int, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    play_checked(Hand.from_seed(rng_seed % 4, seed, random_profile(rng)), rng)


TIGERS_HANDS = {0: "Sup1 Gon1 Zok1 Sin1 WanSin Sup5 Zok5 Sup2 Gon2 Zok2 Sin2 Sup3", 1: "Gon3 Zok3 Sin3 Sup4"}


def test_every_kind_of_event_a_hand_makes_is_met() -> None:
    """Random hands under the flow-changing options, and the Five Tigers dealt on purpose, meet every kind."""
    seen: set[str] = set()
    rng = random.Random(7)
    for options in ({}, {"D21": "automatic"}, {"D12": "may-discard", "D19": "face-up-and-discards"}):
        for n in range(40):
            play_checked(Hand.from_seed(n % 4, rng.getrandbits(64), Profile.from_options(options)), rng, 0.9, seen)
    calls_then: tuple[tuple[dict[str, str], list[tuple[int, str]]], ...] = (
        ({}, [(0, "call")]), ({"D24": "declared"}, [(0, "pass"), (1, "call")]),
        ({"D24": "declared"}, [(0, "call")]))
    for options, calls in calls_then:  # seat 0, the Dealer, holds the Five Tigers (TIG-1)
        for answer in ("tigers", "decline"):
            hand = make_hand(0, TIGERS_HANDS, dreamer_card="Gon5", profile=Profile.from_options(options),
                             five_tigers=True)
            orc = oracle_for(hand)
            for seat, verb in calls + ([(0, answer)] if options else []):
                before = copy.deepcopy(orc)
                events = hand.apply(seat, verb)
                orc.apply(seat, verb)
                assert texts(events) == expected_events(before, orc, seat, Action(verb))
            if hand.to_act is not None:  # declined: the hand is played
                play_checked(hand, rng, 0.9, seen, orc)
            seen |= {type(e).__name__ + ("-automatic" if getattr(e, "automatic", False) else "") for e in hand.events}
    hand_kinds = {k.__name__ for k in KINDS} - {"HandDealt", "GameEnded"}
    assert hand_kinds | {"Called-privileged", "ClaimMade-automatic", "TigersShown-automatic"} <= seen


# ------------------------------------------------------------------ hands worked out by hand

HANDS = [
    "Sup2 Sup3 Sup4 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3",
    "Sup5 Sup6 Gon1 Gon5 Gon6 Gon8 Zok5 Zok6 Zok8 Sin4 Sin5 Sin6",
    "Gon7",
    "Sup1 Sup7 Sup8 Gon9 Zok1 Zok7 Zok9 Sin1 Sin7 Sin8 Sin9 WanSin",
]


def texts(events: tuple[Event, ...]) -> list[str]:
    return [str(e) for e in events]


def test_a_hand_told_by_its_events() -> None:
    hand = Hand.deal(0, HANDS)
    assert texts(hand.apply(0, "call")) == ["0 call"]  # the Dealer calls: no Privileged Player (CALL-4)
    # A Run of Sup led; seat 1's only Run of 3 is of Sin and seat 3's too, which a Run of Sup beats (PAT-2):
    # both discard face down (PLAY-4); discards never win, so seat 0 takes 3 tricks (PLAY-6); with its one
    # Elder, Sup9, that makes 4, no claim (CLAIM-1). Nothing is promoted: Sup9 is still held (ELD-2).
    assert texts(hand.apply(0, "play Sup2 Sup3 Sup4")) == ["0 play Sup2 Sup3 Sup4 (run)"]
    assert texts(hand.apply(1, "discard Gon1 Gon8 Zok8")) == ["1 discard Gon1 Gon8 Zok8"]
    assert texts(hand.apply(3, "discard Sin8 Zok1 Gon9")) == ["3 discard Gon9 Zok1 Sin8", "0 wins 3 tricks"]
    # seat 0 leads again (PLAY-7): a Set of 2s; 5s beat it, 7s beat those (PAT-4). Seat 3 wins 3 tricks and
    # holds the Elders Sup1 Zok9 Sin1 Sin9 WanSin: 3 + 5 = 8, so it may claim (CLAIM-1, D21 optional)
    assert texts(hand.apply(0, "play Gon2 Zok2 Sin2")) == ["0 play Gon2 Zok2 Sin2 (set)"]
    assert texts(hand.apply(1, "play Sup5 Gon5 Zok5")) == ["1 play Sup5 Gon5 Zok5 (set)"]
    assert texts(hand.apply(3, "play Sup7 Zok7 Sin7")) == ["3 play Sup7 Zok7 Sin7 (set)", "3 wins 3 tricks",
                                                          "3 may claim"]
    assert texts(hand.apply(3, "continue")) == ["3 continue"]
    # seat 3 leads the non-Elder of its top suit, Sup8 (ELD-4); seat 0 must beat it with Sup9 (PAT-6, D12).
    # Sup9 gone, the highest Sup not gone is Sup6: it becomes an Elder, with the gone Sup7 Sup8 above it (ELD-2)
    assert texts(hand.apply(3, "play Sup8")) == ["3 play Sup8 (single)"]
    assert texts(hand.apply(0, "play Sup9")) == ["0 play Sup9 (single)", "0 promotes Sup6 Sup7 Sup8 to Elders"]
    # nobody beats a 9 that was an Elder (ELD-3): seat 1 discards, and seat 3 sees only how many cards (PLAY-5)
    events = hand.apply(1, "discard Sin4")
    assert texts(events) == ["1 discard Sin4", "0 wins 1 trick"]
    assert [str(e.seen_by(3)) for e in events] == ["1 discard (1 face down)", "0 wins 1 trick"]
    assert hand.observation(3).events[-2:] == tuple(e.seen_by(3) for e in events)
    # seat 0 leads Gon3 (Gon is its top suit now); seat 1 beats it with Gon6; seat 3 has no Gon and discards
    assert texts(hand.apply(0, "play Gon3")) == ["0 play Gon3 (single)"]
    assert texts(hand.apply(1, "play Gon6")) == ["1 play Gon6 (single)"]
    assert texts(hand.apply(3, "discard WanSin")) == ["3 discard WanSin", "1 wins 1 trick"]
    assert hand.tricks == [4, 1, 0, 3] and hand.phase == "playing" and hand.to_act == 1


def test_void_hand_and_the_claim_that_ends_one() -> None:
    hand = Hand.deal(0, HANDS)
    assert texts(hand.apply(0, "pass")) == ["0 pass"]
    assert texts(hand.apply(1, "pass")) == ["1 pass"]
    assert texts(hand.apply(3, "pass")) == ["3 pass", "hand ends (void): deltas 0 0 0 0, next dealer 1, does not count"]
    hand = Hand.deal(0, HANDS)
    for seat, action in [(0, "pass"), (1, "call"), (0, "play Sup2"), (1, "play Sup6"), (3, "play Sup8")]:
        hand.apply(seat, action)
    assert texts(hand.apply(3, "claim")) == [
        "3 claim", "hand ends (claim): winner 3, tricks 7, dreamer count 8, deltas 0 -12 8 4, next dealer 1, counts"]
    assert isinstance(hand.events[1], Called) and hand.events[1].privileged  # CALL-4: 1 is not the Dealer


def test_a_refused_action_makes_no_event() -> None:
    hand = Hand.deal(0, HANDS)
    with pytest.raises(IllegalActionError):
        hand.apply(1, "call")
    assert hand.events == []


# ------------------------------------------------------------------ games


def test_a_game_tells_the_next_deal_and_its_end() -> None:
    rng = random.Random(3)
    for first in range(4):
        game = Game(first, [{"seed": rng.getrandbits(64)} for _ in range(40)])
        scores = [0, 0, 0, 0]
        while not game.over:
            hand = game.hand
            seat = game.to_act
            assert seat is not None
            events = game.apply(seat, choose(hand, rng))
            assert game.events[-len(events):] == list(events)
            if hand.result is None:
                assert not any(isinstance(e, (HandDealt, GameEnded)) for e in events)
                continue
            scores = [s + d for s, d in zip(scores, hand.result.deltas, strict=True)]
            assert isinstance(events[-2], HandEnded) and events[-2].result == hand.result
            if game.over:  # D31: the 4th counting hand ends the game
                assert events[-1] == GameEnded((scores[0], scores[1], scores[2], scores[3]))
            else:  # the next hand is dealt by the Dealer the result names (CALL-2, CALL-3, D4, D5)
                assert events[-1] == HandDealt(game.deal_index + 1, hand.result.next_dealer)
                assert game.hand.dealer == hand.result.next_dealer
            check_text(events[-1])
        assert sum(isinstance(e, HandDealt) for e in game.events) == game.deal_index


# ------------------------------------------------------------------ the log replays the hand


def replay(hand: Hand, events: list[Event]) -> Hand:
    """A fresh deal of ``hand`` with the actions of ``events`` applied."""
    again = Hand.deal(hand.dealer, list(hand.dealt), hand.profile)
    for event in events:
        if event.action is not None and isinstance(event, SeatEvent):
            again.apply(event.seat, event.action)
    return again


@pytest.mark.parametrize("profile", PROFILES, ids=[",".join(f"{k}={v}" for k, v in p.changed().items()) or "default"
                                                   for p in PROFILES])
def test_the_log_of_a_complete_hand_replays_it(profile: Profile) -> None:
    rng = random.Random(len(profile.changed()) * 1000 + 17)
    for n in range(10):
        hand = Hand.from_seed(n % 4, rng.getrandbits(64), profile)
        play_out(hand, rng, call_bias=0.9)
        for log in (hand.events, [parse_event(str(e)) for e in hand.events]):  # from the events, or their text
            again = replay(hand, log)
            assert again.events == hand.events and again.result == hand.result
            assert again.notation() == hand.notation()


@play_settings(30)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), rng_seed=RNG_SEEDS)
def test_every_event_of_random_hands_reads_back(seed: int, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    hand = Hand.from_seed(rng_seed % 4, seed, random_profile(rng))
    play_out(hand, rng)
    for event in hand.events:
        check_text(event)
        for seat in range(4):
            check_text(event.seen_by(seat))
    assert hand.history == [(e.seat, e.action) for e in hand.events if isinstance(e, SeatEvent) and e.action is not None]
