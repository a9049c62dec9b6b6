"""The protocol's `events` (capability `events`, spec/PROTOCOL.md "Events"): act answers and batch steps
carry the text of the events the engine's moves return, and every text fits the schema's grammar."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from reference_engine import Hand, parse_event
from reference_engine.events import SeatEvent
from reference_engine.wire import Session

from .support import choose, random_profile

SCHEMAS = Path(__file__).resolve().parents[2] / "spec" / "schema" / "protocol"
jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")


def validator(name: str, pointer: str = "") -> Any:
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.json")}
    registry = referencing.Registry().with_resources(
        (doc["$id"], referencing.Resource.from_contents(doc)) for doc in docs.values())
    schema = docs[name] if not pointer else {"$ref": docs[name]["$id"] + pointer}
    return jsonschema.Draft202012Validator(schema, registry=registry)


EVENT = validator("common.schema.json", "#/$defs/event")
ACT = validator("act.response.schema.json")
BATCH = validator("batch.response.schema.json")


def session(protocol: int = 2) -> Session:
    s = Session()
    assert s.handle({"cmd": "hello", "protocol": protocol})["ok"]
    return s


def test_events_are_declared_under_protocol_2_only() -> None:
    assert "events" in session(2).handle({"cmd": "hello", "protocol": 2})["capabilities"]
    assert "events" not in session(1).handle({"cmd": "hello", "protocol": 1})["capabilities"]


def test_act_answers_carry_the_moves_events_and_protocol_1_answers_are_unchanged() -> None:
    rng = random.Random(1)
    for protocol in (2, 1):
        s = session(protocol)
        assert s.handle({"cmd": "start", "setup": {"dealer": 1, "seed": "12" if protocol == 2 else 12}})["ok"]
        mirror = Hand.from_seed(1, 12)
        while mirror.to_act is not None:
            seat, action = mirror.to_act, choose(mirror, rng)
            answer = s.handle({"cmd": "act", "seat": seat, "action": str(action)})
            events = mirror.apply(seat, action)
            ACT.validate(answer)
            assert answer == ({"ok": True, "events": [str(e) for e in events]} if protocol == 2 else {"ok": True})
        refused = s.handle({"cmd": "act", "seat": 0, "action": "call"})
        assert refused["ok"] is False and "events" not in refused


def test_a_games_answer_tells_the_next_deal() -> None:
    s = session()
    s.handle({"cmd": "start", "setup": {"game": {"first_dealer": 0, "deals": [{"seed": "1"}, {"seed": "2"}]}}})
    s.handle({"cmd": "act", "seat": 0, "action": "pass"})
    s.handle({"cmd": "act", "seat": 1, "action": "pass"})
    assert s.handle({"cmd": "act", "seat": 3, "action": "pass"})["events"] == [
        "3 pass", "hand ends (void): deltas 0 0 0 0, next dealer 1, does not count", "deal 2: dealer 1"]


def test_batch_steps_carry_the_events_given_steps_and_playout_alike() -> None:
    for seed in range(12):
        s = session()
        setup = {"dealer": seed % 4, "seed": str(seed)}
        answer = s.handle({"cmd": "batch", "setup": setup, "steps": [{"seat": seed % 4, "action": "call"}],
                           "playout": {"seed": str(seed)}, "state": "last"})
        BATCH.validate(answer)
        mirror = Hand.from_seed(seed % 4, seed)
        entries = answer["steps"][1:]
        steps = [{"seat": seed % 4, "action": "call"}] + [e["step"] for e in entries[1:]]
        for entry, step in zip(entries, steps, strict=True):
            events = mirror.apply(step["seat"], step["action"])
            assert entry["act"] == {"ok": True, "events": [str(e) for e in events]}
        assert mirror.to_act is None


def test_every_event_text_fits_the_schema() -> None:
    rng = random.Random(8)
    kinds: set[str] = set()
    for n in range(300):
        hand = Hand.from_seed(n % 4, rng.getrandbits(64), random_profile(rng))
        while hand.to_act is not None:
            hand.apply(hand.to_act, choose(hand, rng, 0.9))
        for event in hand.events:
            for seen in {event, event.seen_by(event.seat + 1 & 3 if isinstance(event, SeatEvent) else 0)}:
                EVENT.validate(str(seen))
                kinds.add(type(seen).__name__)
    assert len(kinds) >= 10
    for text in ("deal 2: dealer 1", "game over: scores 4 -2 0 -2", "1 tigers (automatic)", "1 decline",
                 "1 may show the Five Tigers", "0 claim (automatic)"):
        EVENT.validate(str(parse_event(text)))
    for wrong in ("0 play Sup2", "5 call", "0 discard (two face down)", "hand ends (claim)"):
        assert not EVENT.is_valid(wrong)
