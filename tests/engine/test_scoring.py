"""reference_engine.scoring: the table, the Dreamer's count and who pays whom (SCORE-1..7)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from reference_engine import SCORE_TABLE, Card, Cards, HandResult, Profile, table_value
from reference_engine.rules import DEFAULT_RULES
from reference_engine.scoring import Win, dreamer_count, number_matches

from . import oracle as O

TABLE_ROWS = [(6, 1), (7, 2), (8, 4), (9, 8), (10, 16), (11, 32), (12, 128)]  # SCORE-1


@pytest.mark.parametrize("tricks, points", TABLE_ROWS)
def test_table_row(tricks: int, points: int) -> None:
    assert table_value(tricks) == points
    assert SCORE_TABLE[tricks] == points


def test_twelve_tricks_score_128_not_64() -> None:
    assert table_value(12) == 128


@pytest.mark.parametrize("tricks", range(0, 6))
def test_below_six_scores_nothing(tricks: int) -> None:  # SCORE-2
    assert table_value(tricks) == 0


def idx(name: str) -> int:
    return Card.parse(name).index


def mask(text: str) -> int:
    return Cards.parse(text).mask


NO_MATCH_HAND = mask("Sup2 Sup3 Sup4 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3 Sin4")


def claim(
    *,
    winner: int = 1,
    tricks: int = 6,
    dealer: int = 0,
    privileged: int | None = None,
    dreamer_card: str = "Gon7",
    winning_hand: int = NO_MATCH_HAND,
    end: str = "claim",
    profile: Profile = Profile(),
) -> HandResult:
    win = Win(end=end, winner=winner, tricks=tricks, dealer=dealer, privileged=privileged,
              dreamer_card=idx(dreamer_card), winning_hand=winning_hand, next_dealer=dealer)
    return DEFAULT_RULES.score(win, profile)


@pytest.mark.parametrize("tricks, points", TABLE_ROWS)
def test_each_loser_pays_the_winner_the_table_value(tricks: int, points: int) -> None:  # SCORE-3
    result = claim(winner=1, tricks=tricks)
    assert result.deltas == (-points, 2 * points, 0, -points)
    assert (result.end, result.winner, result.tricks, result.dreamer_count) == ("claim", 1, tricks, 5)
    assert result.counts


def test_pp_penalty_source_example() -> None:  # SCORE-6: W wins with 6 tricks, Dreamer 5
    result = claim(winner=0, tricks=6, privileged=1)
    assert result.deltas == (2, -2, 0, 0)
    result = claim(winner=3, tricks=6, privileged=1)
    assert result.deltas == (0, -2, 0, 2)


def test_pp_who_wins_pays_nothing_extra() -> None:
    assert claim(winner=1, tricks=7, privileged=1).deltas == (-2, 4, 0, -2)


def test_dreamer_count_gon7_against_three_sevens() -> None:  # SCORE-4
    hand = mask("Sup7 Zok7 Sin7 Sup2 Sup3 Gon2 Gon3 Zok2 Zok3 Sin2 Sin3 Sup4")
    assert dreamer_count(idx("Gon7"), hand, Profile()) == 8
    result = claim(winner=1, tricks=6, winning_hand=hand)
    assert result.dreamer_count == 8
    # winner +1 +1; the Dreamer v(8) = 4 from each loser (D28 two-losers)
    assert result.deltas == (-5, 2, 8, -5)


def test_dreamer_payers_and_pp_penalty_variants() -> None:  # SCORE-5, SCORE-6, D28, D29
    hand = mask("Sup7 Zok7 Sin7 Sup2 Sup3 Gon2 Gon3 Zok2 Zok3 Sin2 Sin3 Sup4")  # d = 8, dv = 4
    v = 2  # 7 tricks
    cases = {
        ("two-losers", "all-shares"): (-(2 * v + 8), 2 * v, 8, 0),
        ("two-losers", "winner-share"): (-(2 * v + 4), 2 * v, 8, -4),
        ("all-three", "all-shares"): (-(2 * v + 8), 2 * v - 4, 12, 0),
        ("all-three", "winner-share"): (-(2 * v + 4), 2 * v - 4, 12, -4),
    }
    for (d28, d29), deltas in cases.items():
        profile = Profile.from_options({"D28": d28, "D29": d29})
        result = claim(winner=1, tricks=7, privileged=0, winning_hand=hand, profile=profile)
        assert result.deltas == deltas, (d28, d29)
    no_pp = claim(winner=1, tricks=7, winning_hand=hand, profile=Profile.from_options({"D28": "all-three"}))
    assert no_pp.deltas == (-2 - 4, 4 - 4, 12, -2 - 4)


@pytest.mark.parametrize(
    "dreamer, hand, options, count",
    [
        ("WanSin", "Sup1 Gon1", {}, 7),  # D27 number-one: a Dreamer Wan Sin matches the 1s
        ("WanSin", "Sup1 Gon1", {"D27": "no-match"}, 5),
        ("Sup1", "WanSin Gon1", {}, 7),  # a Dreamer 1 matches Wan Sin
        ("Sup1", "WanSin Gon1", {"D27": "no-match"}, 6),
        ("Gon7", "Sup7 Zok7 Sin7", {"D25": "matches-only"}, 3),  # D25
        ("Gon7", "Sup2", {"D25": "matches-only"}, 0),
        ("Gon9", "Sup9 Zok9 Sin9", {}, 8),
    ],
)
def test_dreamer_count_options(dreamer: str, hand: str, options: dict[str, str], count: int) -> None:
    assert dreamer_count(idx(dreamer), mask(hand), Profile.from_options(options)) == count


def test_number_matches_counts_cards_of_the_number() -> None:
    assert number_matches(idx("Gon7"), mask("Sup7 Zok7 Sin7 Sup6"), True) == 3
    assert number_matches(idx("Gon7"), mask("Sup6"), True) == 0


def test_tigers_winner_only() -> None:  # D34
    hand = mask("Sup1 Gon1 Zok1 Sin1 WanSin Sup7 Zok7 Sin7 Gon2 Gon3 Gon4 Zok2")
    as_claim = claim(winner=1, tricks=8, privileged=3, winning_hand=hand, end="five-tigers")
    assert as_claim.deltas == (0, 8, 8, -16)
    winner_only = claim(winner=1, tricks=8, privileged=3, winning_hand=hand, end="five-tigers",
                        profile=Profile.from_options({"D34": "winner-only"}))
    assert winner_only.deltas == (-4, 8, 0, -4)
    assert winner_only.end == "five-tigers"


def test_void_and_played_out_results() -> None:  # CALL-6, PLAY-8, D23, D31
    default = Profile()
    void = HandResult.void(1, default)
    assert (void.end, void.winner, void.deltas, void.next_dealer, void.counts) == ("void", None, (0, 0, 0, 0), 1, False)
    assert HandResult.void(1, Profile.from_options({"D31": "deals"})).counts
    assert HandResult.played_out(2, default).counts
    assert not HandResult.played_out(2, Profile.from_options({"D23": "replay"})).counts
    assert HandResult.played_out(2, Profile.from_options({"D23": "replay", "D31": "deals"})).counts


def test_result_json() -> None:
    from reference_engine.wire import result_json

    result = claim(winner=1, tricks=6)
    assert result_json(result) == {
        "end": "claim", "winner": 1, "tricks": 6, "dreamer_count": 5,
        "deltas": [-1, 2, 0, -1], "next_dealer": 0, "counts": True,
    }


SCORING_OPTIONS = [
    {"D25": a, "D27": b, "D28": c, "D29": d}
    for a, b, c, d in itertools.product(
        ["five-plus-matches", "matches-only"], ["number-one", "no-match"], ["two-losers", "all-three"],
        ["all-shares", "winner-share"],
    )
]


@pytest.mark.parametrize("options", SCORING_OPTIONS, ids=lambda o: ",".join(o.values()))
def test_deltas_sum_to_zero_and_match_the_oracle(options: dict[str, str]) -> None:  # SCORE-7
    profile = Profile.from_options(options)
    names = [f"{s}{n}" for s in ("Sup", "Gon", "Zok", "Sin") for n in range(1, 10)] + ["WanSin"]
    for dealer, winner_offset, pp_offset, tricks, dreamer in itertools.product(
        range(4), (0, 1, 3), (None, 1, 3), (5, 6, 9, 12), ("Gon7", "Sup1", "WanSin", "Zok9")
    ):
        winner = (dealer + winner_offset) % 4
        pp = None if pp_offset is None else (dealer + pp_offset) % 4
        rest = [n for n in names if n != dreamer]
        hand_names = rest[(tricks * 3) % 20:(tricks * 3) % 20 + 12]
        result = claim(winner=winner, tricks=tricks, dealer=dealer, privileged=pp, dreamer_card=dreamer,
                       winning_hand=mask(" ".join(hand_names)), profile=profile)
        assert sum(result.deltas) == 0
        assert result.deltas[(dealer + 2) % 4] >= 0  # the Dreamer never pays
        # the oracle's payments, built independently
        expected = oracle_deltas(dealer, winner, pp, tricks, dreamer, hand_names, options)
        assert list(result.deltas) == expected, (dealer, winner, pp, tricks, dreamer)


def oracle_deltas(dealer: int, winner: int, pp: int | None, tricks: int, dreamer: str, hand: list[str],
                  options: dict[str, str]) -> list[int]:
    """Build a finished OracleHand state and let it score the claim."""
    names = [f"{s}{n}" for s in ("Sup", "Gon", "Zok", "Sin") for n in range(1, 10)] + ["WanSin"]
    others = [n for n in names if n not in hand and n != dreamer]
    dealt: list[frozenset[Any]] = [frozenset()] * 4
    dealt[(dealer + 2) % 4] = frozenset({O.card_from_name(dreamer)})
    dealt[winner] = frozenset(O.card_from_name(n) for n in hand)
    losers = [s for s in ((dealer + 1) % 4, (dealer + 3) % 4, dealer) if s != winner]
    dealt[losers[0]] = frozenset(O.card_from_name(n) for n in others[:12])
    dealt[losers[1]] = frozenset(O.card_from_name(n) for n in others[12:24])
    orc = O.OracleHand(dealer=dealer, dealt=list(dealt), options=options)
    orc.pp = pp
    orc.caller = pp if pp is not None else dealer
    orc.tricks[winner] = tricks
    orc.hands[winner] = set()  # no Elders in hand: the count is the tricks alone
    orc._win(winner, "claim")
    assert orc.result is not None
    return orc.result.deltas
