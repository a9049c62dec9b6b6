"""An event's text: `parse_event` reads exactly the protocol's `event` schema, and the schema holds exactly the
events that can happen (issue 27 §4.3). Twenty kinds of text both refuse; every text the engine writes both accept."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conformance.schemas import load_schemas
from reference_engine import Game, MalformedError, Profile
from reference_engine.events import parse_event

from .support import choose
from .test_events import TEXTS

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = load_schemas(ROOT / "spec" / "schema")
EVENT = SCHEMAS._validator("protocol/common.schema.json", "#/$defs/event")

REFUSED = {
    "a repeated fact": "hand ends (claim): winner 0, winner 0, tricks 6, dreamer count 5, deltas 2 -2 0 0, next dealer 1, counts",
    "contradictory facts": "hand ends (claim): winner 0, winner 1, tricks 6, dreamer count 5, deltas 2 -2 0 0, next dealer 1, counts",
    "counts twice, both ways": "hand ends (void): deltas 0 0 0 0, next dealer 1, does not count, counts",
    "facts out of order": "hand ends (claim): tricks 6, winner 0, dreamer count 5, deltas 2 -2 0 0, next dealer 1, counts",
    "a claim without a winner": "hand ends (claim): deltas 0 0 0 0, next dealer 0, counts",
    "a void hand with a winner": "hand ends (void): winner 1, deltas 0 0 0 0, next dealer 0, does not count",
    "a played-out hand that scores": "hand ends (played-out): deltas 1 -1 0 0, next dealer 1, counts",
    "an Arabic-Indic digit": "deal ٣: dealer 1",
    "a Python-only digit separator": "game over: scores 1_000 0 0 -1000",
    "a plus sign": "deal +3: dealer 1",
    "a leading zero": "0 wins 03 tricks",
    "minus zero": "game over: scores -0 0 0 0",
    "a round won with no trick": "0 wins 0 tricks",
    "a round won with more tricks than a pattern has cards": "0 wins 10 tricks",
    "the wrong number of trick(s)": "0 wins 2 trick",
    "one card promoted to Elders": "1 promotes Sup8 to Elders",
    "a leading space": " 0 pass",
    "two spaces": "0  pass",
    "a tab": "0\tpass",
    "a trailing newline": "0 pass\n",
}


def test_there_are_twenty_kinds() -> None:
    assert len(REFUSED) == 20


@pytest.mark.parametrize("text", list(REFUSED.values()), ids=list(REFUSED))
def test_the_parser_and_the_schema_both_refuse(text: str) -> None:
    assert list(EVENT.iter_errors(text)), f"the schema accepts {text!r}"
    with pytest.raises(MalformedError) as info:
        parse_event(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", TEXTS)
def test_every_canonical_text_is_in_the_schema(text: str) -> None:
    assert not list(EVENT.iter_errors(text)), text
    assert str(parse_event(text)) == text


@pytest.mark.parametrize("seed", range(12))
def test_every_event_of_random_games_is_in_the_schema(seed: int) -> None:
    """Whatever a game makes (under the default options and under automatic claims, declared Five Tigers and
    promotions by discards), the schema holds it and the parser reads it back."""
    rng = random.Random(seed)
    profile = Profile() if seed % 2 else Profile.from_options(
        {"D21": "automatic", "D24": "declared", "D19": "face-up-and-discards"})
    game = Game(seed % 4, [{"seed": rng.getrandbits(64)} for _ in range(40)], profile)
    made = 0
    while not game.over:
        seat = game.to_act
        assert seat is not None
        for event in game.apply(seat, choose(game.hand, rng)):
            for seen in {event, *(event.seen_by(s) for s in range(4))}:
                text = str(seen)
                assert not list(EVENT.iter_errors(text)), text
                assert parse_event(text) == seen
                made += 1
    assert made > 40
