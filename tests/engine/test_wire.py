"""reference_engine.wire and __main__: the engine's side of spec/PROTOCOL.md.

Every response is validated against its JSON Schema in spec/schema/protocol/.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_engine import DEFAULT_PROFILE, Cards, Hand, seeded_deck
from reference_engine.wire import (
    BATCH_ANSWER_LIMIT,
    CAPABILITY_ORDER,
    COMMANDS,
    COUNT_NODE_LIMIT,
    PROTOCOL_VERSIONS,
    Session,
    capabilities,
    request_problem,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "spec" / "schema" / "protocol"

HANDS = [
    "Sup2 Sup3 Sup4 Sup9 Gon2 Gon3 Gon4 Zok2 Zok3 Zok4 Sin2 Sin3",
    "Sup5 Sup6 Gon1 Gon5 Gon6 Gon8 Zok5 Zok6 Zok8 Sin4 Sin5 Sin6",
    "Gon7",
    "Sup1 Sup7 Sup8 Gon9 Zok1 Zok7 Zok9 Sin1 Sin7 Sin8 Sin9 WanSin",
]


def _validators() -> dict[str, Any] | None:
    try:
        import jsonschema
        from referencing import Registry, Resource
    except ImportError:
        return None
    if not SCHEMAS.is_dir():
        return None
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.json")}
    registry: Registry[Any] = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in docs.values()
    )
    return {
        name[: -len(".schema.json")]: jsonschema.Draft202012Validator(doc, registry=registry)
        for name, doc in docs.items()
    }


VALIDATORS = _validators()


class Checked:
    """A Session whose every request and response is checked against the protocol schemas."""

    @staticmethod
    def hands_of_seed(seed: int) -> list[str]:
        from reference_engine import Hand
        hand = Hand.from_seed(dealer=0, seed=seed)
        return [str(hand.hand_of(seat)) for seat in range(4)]

    def __init__(self) -> None:
        self.session = Session()

    def __call__(self, request: dict[str, Any], *, valid_request: bool = True) -> dict[str, Any]:
        cmd = request.get("cmd")
        if VALIDATORS is not None and valid_request:
            VALIDATORS["request"].validate(request)
        response = self.session.handle(request)
        json.dumps(response)  # JSON-serialisable
        if VALIDATORS is not None and f"{cmd}.response" in VALIDATORS:
            VALIDATORS[f"{cmd}.response"].validate(response)
        assert isinstance(response.get("ok"), bool)
        return response


@pytest.fixture
def s() -> Checked:
    return Checked()


def test_schemas_are_there() -> None:
    if VALIDATORS is None:
        pytest.skip("jsonschema/referencing not installed or spec/schema/protocol missing")
    assert {"hello.response", "state.response", "act.response", "request"} <= set(VALIDATORS)


def test_hello(s: Checked) -> None:
    r = s({"cmd": "hello", "protocol": 2})
    assert r["ok"] and r["protocol"] == 2
    assert r["options"] == DEFAULT_PROFILE.options()
    assert r["configurable"] is True
    assert set(r["capabilities"]) == {"hands", "deck", "seed", "game", "observe", "pattern", "count", "divide",
                                      "batch", "playout", "events"}


def test_hello_speaks_protocol_1_to_a_protocol_1_runner(s: Checked) -> None:
    r = s({"cmd": "hello", "protocol": 1})
    assert r["ok"] and r["protocol"] == 1
    assert set(r["capabilities"]) == {"pattern", "count", "observe", "game"}  # protocol 1's vocabulary
    r = s({"cmd": "hello", "protocol": PROTOCOL_VERSIONS[-1] + 1})
    assert r["ok"] is False and r["error"]["kind"] == "unsupported"


def test_start_act_state(s: Checked) -> None:
    assert s({"cmd": "hello", "protocol": 2})["ok"]  # events are protocol 2's (before hello a session reads 1)
    assert s({"cmd": "start", "setup": {"dealer": 0, "hands": HANDS}}) == {"ok": True}
    st = s({"cmd": "state"})
    assert st["phase"] == "calling" and st["to_act"] == 0
    assert st["legal"] == {"actions": ["call", "pass"], "discard": None}
    assert (st["dealer"], st["dreamer"], st["privileged"]) == (0, 2, None)
    assert st["hands"] == HANDS
    assert st["elders"] == "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"
    assert st["result"] is None and st["game"] is None
    assert st["round"] is None
    # each answer with its events (capability `events`): 1 is not the Dealer, so its call makes it the PP (CALL-4)
    for seat, action, events in [(0, "pass", ["0 pass"]), (1, "call", ["1 call (privileged)"]),
                                 (0, "play Sup2", ["0 play Sup2 (single)"]), (1, "play Sup6", ["1 play Sup6 (single)"])]:
        assert s({"cmd": "act", "seat": seat, "action": action}) == {"ok": True, "events": events}
    st = s({"cmd": "state"})
    assert st["phase"] == "playing" and st["round"] == {"leader": 0, "plays": [
        {"seat": 0, "action": "play Sup2"}, {"seat": 1, "action": "play Sup6"}]}
    # Sup8 beats Sup6 (PAT-6) and wins 1 trick (PLAY-6); Sup9 is still held, so no Elder (ELD-2); 1 trick and
    # 6 Elders in hand (Sup1 Gon9 Zok9 Sin1 Sin9 WanSin) make 7: a claim is offered (CLAIM-1)
    assert s({"cmd": "act", "seat": 3, "action": "play Sup8"}) == {
        "ok": True, "events": ["3 play Sup8 (single)", "3 wins 1 trick", "3 may claim"]}
    st = s({"cmd": "state"})
    assert st["phase"] == "claim" and st["to_act"] == 3 and st["privileged"] == 1
    assert st["tricks"] == [0, 0, 0, 1]
    assert st["round"] is None  # defined in phase `playing` only
    s({"cmd": "act", "seat": 3, "action": "claim"})
    st = s({"cmd": "state"})
    assert st["phase"] == "ended" and st["to_act"] is None
    assert st["result"] == {"end": "claim", "winner": 3, "tricks": 7, "dreamer_count": 8,
                            "deltas": [0, -12, 8, 4], "next_dealer": 1, "counts": True}


@pytest.mark.parametrize(
    "request_, kind, rule",
    [
        ({"cmd": "act", "seat": 1, "action": "call"}, "illegal", "CALL-1"),
        ({"cmd": "act", "seat": 2, "action": "call"}, "illegal", "DEAL-3"),
        ({"cmd": "act", "seat": 0, "action": "shout"}, "malformed", None),
        ({"cmd": "act", "seat": 0, "action": "play Sup0"}, "malformed", None),
    ],
)
def test_act_errors_leave_the_state_unchanged(s: Checked, request_: dict[str, Any], kind: str, rule: str | None) -> None:
    s({"cmd": "start", "setup": {"dealer": 0, "hands": HANDS}})
    before = s({"cmd": "state"})
    r = s(request_)
    assert r["ok"] is False and r["error"]["kind"] == kind
    if rule:
        assert r["error"]["rule"] == rule
    assert s({"cmd": "state"}) == before


@pytest.mark.parametrize(
    "setup, rule",
    [
        ({"dealer": 0, "hands": [HANDS[0], HANDS[1], HANDS[3], HANDS[2]]}, "DEAL-4"),
        ({"dealer": 0, "hands": [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]}, "CARDS-1"),
        ({"dealer": 0, "deck": "Sup1 Sup2"}, "CARDS-1"),
    ],
)
def test_bad_setup(s: Checked, setup: dict[str, Any], rule: str) -> None:
    r = s({"cmd": "start", "setup": setup})
    assert r["ok"] is False and r["error"]["kind"] == "bad-setup" and r["error"]["rule"] == rule


def test_unknown_option_is_bad_setup(s: Checked) -> None:
    r = s({"cmd": "start", "options": {"D7": "sideways"}, "setup": {"dealer": 0, "seed": 1}})
    assert r["error"]["kind"] == "bad-setup" and r["error"]["rule"] == "D7"
    r = s({"cmd": "start", "options": {"D99": "x"}, "setup": {"dealer": 0, "seed": 1}})
    assert r["error"]["kind"] == "bad-setup"


def test_no_hand_yet_and_unknown_cmd(s: Checked) -> None:
    r = s({"cmd": "state"})
    assert r["ok"] is False
    r = s({"cmd": "fly"}, valid_request=False)
    assert r["ok"] is False and r["error"]["kind"] == "unsupported"
    r = s({"cmd": "act", "seat": 0}, valid_request=False)
    assert r["ok"] is False
    assert Session().handle([1, 2])["error"]["kind"] == "malformed"  # type: ignore[arg-type]


def test_options_reach_the_hand(s: Checked) -> None:
    s({"cmd": "start", "options": {"D7": "any-suit"}, "setup": {"dealer": 0, "hands": HANDS}})
    s({"cmd": "act", "seat": 0, "action": "call"})
    s({"cmd": "act", "seat": 0, "action": "play Sup2"})
    legal = s({"cmd": "state"})["legal"]["actions"]
    assert "play Gon5" in legal  # D7 any-suit: any higher number beats


def test_seed_and_deck_setups_agree(s: Checked) -> None:
    s({"cmd": "start", "setup": {"dealer": 1, "seed": 77}})
    by_seed = s({"cmd": "state"})["hands"]
    deck = " ".join(str(Cards(1 << i)) for i in seeded_deck(77))
    s({"cmd": "start", "options": {}, "setup": {"dealer": 1, "deck": deck}})
    assert s({"cmd": "state"})["hands"] == by_seed
    hand = Hand.from_seed(1, 77)
    assert by_seed == [str(hand.hand_of(i)) for i in range(4)]


def test_observe(s: Checked) -> None:
    s({"cmd": "start", "setup": {"dealer": 0, "hands": HANDS}})
    obs = s({"cmd": "observe", "seat": 1})["observation"]
    assert obs["hand"] == HANDS[1]
    assert obs["dreamer_card"] is None
    assert s({"cmd": "observe", "seat": 2})["observation"]["dreamer_card"] == "Gon7"
    assert HANDS[0] not in json.dumps(obs)


def test_pattern(s: Checked) -> None:
    assert s({"cmd": "pattern", "classify": "sup5 S3 Sup4"}) == {"ok": True, "pattern": "run"}
    assert s({"cmd": "pattern", "classify": "Sup1 Gon1 WanSin"})["pattern"] == "none"
    assert s({"cmd": "pattern", "options": {"D17": "yes"}, "classify": "Sup1 Gon1 WanSin"})["pattern"] == "set"
    initial = "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"
    assert s({"cmd": "pattern", "current": "Sup7", "challenger": "Sup8", "elders": initial, "led": True})["beats"] is True
    assert s({"cmd": "pattern", "current": "Sup8", "challenger": "Sup7",
              "elders": "Sup8 Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin", "led": True})["beats"] is False
    assert s({"cmd": "pattern", "current": "Sup7", "challenger": "Sup8 Sup9 Sup6", "elders": initial, "led": False})["beats"] is False
    r = s({"cmd": "pattern", "classify": "Sup3 Sup3"}, valid_request=False)
    assert r["ok"] is False and r["error"]["kind"] == "malformed"


@pytest.mark.parametrize("current, challenger, elders, why", [
    ("Sup8", "Sup9", "Sup8 Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin", "Sup9 is on the table"),
    ("Sup1", "Sup9", "", "from the start of every hand"),
    ("Sup7", "Sup7", "Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin", "both patterns"),
    ("Sup5", "Sup6", "Sup7 Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin", "without a gap"),
])
def test_pattern_questions_no_hand_reaches_are_refused(s: Checked, current: str, challenger: str,
                                                        elders: str, why: str) -> None:
    r = s({"cmd": "pattern", "current": current, "challenger": challenger, "elders": elders, "led": True})
    assert r["ok"] is False and r["error"]["kind"] == "bad-setup" and why in r["error"]["message"]


def test_refused_start_keeps_the_hand_in_play(s: Checked) -> None:
    s({"cmd": "start", "setup": {"dealer": 0, "hands": HANDS}})
    s({"cmd": "act", "seat": 0, "action": "call"})
    before = s({"cmd": "state"})
    for bad in ({"dealer": 1, "hands": HANDS}, {"dealer": 0, "deck": "Sup1"},
                {"game": {"first_dealer": 0, "deals": [{"seed": "1"}, {"deck": "Sup1 Sup1"}]}}):
        assert s({"cmd": "start", "setup": bad})["error"]["kind"] == "bad-setup"
    assert s({"cmd": "start", "options": {"D7": "sideways"}, "setup": {"dealer": 0, "seed": "1"}})["ok"] is False
    assert s({"cmd": "state"}) == before


def test_seeds_travel_as_decimal_strings() -> None:
    big = 2**64 - 1
    for protocol, seed in ((1, big), (1, str(big)), (2, str(big))):
        session = Session()
        session.handle({"cmd": "hello", "protocol": protocol})
        assert session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": seed}}) == {"ok": True}
        assert session.handle({"cmd": "state"})["hands"] == Checked.hands_of_seed(big)
    for bad in ("-1", "01", "1e3", "1 ", str(10**20), 2**64, -1, 1.0, True):
        r = Session().handle({"cmd": "start", "setup": {"dealer": 0, "seed": bad}})
        assert r["error"]["kind"] == "malformed", bad
    # Of the schema's decimal form but past 2^64-1: no 64-bit seed to deal from (DEAL-5).
    for past in (str(2**64), "9" * 20):
        r = Session().handle({"cmd": "start", "setup": {"dealer": 0, "seed": past}})
        assert r["error"] == {"kind": "bad-setup", "message": r["error"]["message"], "rule": "DEAL-5"}, past


def test_a_seed_the_schema_lets_through_but_d33_cannot_shuffle_is_a_bad_setup() -> None:
    """PROTOCOL.md "Which error wins": the schema decides malformed; 20 digits above 2^64-1 is D33's."""
    session = Session()
    session.handle({"cmd": "hello", "protocol": 2})
    for seed in (str(2**64), "99999999999999999999"):
        r = session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": seed}})
        assert r["error"]["kind"] == "bad-setup" and r["error"]["rule"] == "DEAL-5", seed
        r = session.handle({"cmd": "start", "setup": {"game": {"first_dealer": 0, "deals": [{"seed": seed}]}}})
        assert r["error"]["kind"] == "bad-setup", seed


def test_protocol_2_takes_seeds_as_decimal_strings_only() -> None:
    session = Session()
    session.handle({"cmd": "hello", "protocol": 2})
    for setup in ({"dealer": 0, "seed": 5}, {"game": {"first_dealer": 0, "deals": [{"seed": 5}]}}):
        r = session.handle({"cmd": "start", "setup": setup})
        assert r["error"]["kind"] == "malformed" and "decimal string" in r["error"]["message"], setup
    r = session.handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "5"}, "steps": [], "playout": {"seed": 5}})
    assert r["error"]["kind"] == "malformed"


def test_count_divide_adds_up_to_the_count(s: Checked) -> None:
    s({"cmd": "hello", "protocol": 2})
    s({"cmd": "start", "setup": {"dealer": 0, "seed": "3"}})
    r = s({"cmd": "count", "depth": 3, "divide": True})
    assert sorted(r["divide"]) == ["call", "pass"] and sum(r["divide"].values()) == r["counts"][-1]


def test_count(s: Checked) -> None:
    s({"cmd": "start", "setup": {"dealer": 0, "seed": 3}})
    before = s({"cmd": "state"})
    r = s({"cmd": "count", "depth": 2})
    assert r["ok"] and r["counts"][0] == 2 and len(r["counts"]) == 2
    assert s({"cmd": "state"}) == before
    assert s({"cmd": "count", "depth": 0}, valid_request=False)["ok"] is False


def test_game_over_the_wire(s: Checked) -> None:
    deals = [{"seed": n} for n in range(10)]
    s({"cmd": "start", "options": {"D31": "deals"}, "setup": {"game": {"first_dealer": 2, "deals": deals}}})
    for n in range(4):
        st = s({"cmd": "state"})
        assert st["phase"] == "calling" and st["game"]["hands_played"] == n
        # until the next hand ends, `result` is that of the most recent ended hand
        assert (st["result"] is None) if n == 0 else (st["result"]["end"] == "void")
        dealer = st["dealer"]
        assert dealer == (2 + n) % 4  # D5 next-dealer after each void hand
        for seat in (dealer, (dealer + 1) % 4, (dealer + 3) % 4):
            assert s({"cmd": "act", "seat": seat, "action": "pass"})["ok"]
    st = s({"cmd": "state"})
    assert st["phase"] == "game-over" and st["to_act"] is None
    assert st["game"]["scores"] == [0, 0, 0, 0] and len(st["game"]["results"]) == 4
    assert st["result"]["end"] == "void"
    seen = s({"cmd": "observe", "seat": 1})["observation"]
    assert seen["phase"] == "game-over" and seen["to_act"] is None  # one vocabulary with `state`
    assert seen["result"] == st["result"]


def test_subprocess_line_protocol() -> None:
    lines = [
        json.dumps({"cmd": "hello", "protocol": 1}),
        "this is not json",
        "",
        json.dumps({"cmd": "start", "setup": {"dealer": 0, "seed": 5}}),
        json.dumps({"cmd": "act", "seat": 0, "action": "call"}),
        json.dumps({"cmd": "state"}),
        json.dumps({"cmd": "stop"}),
        json.dumps({"cmd": "hello", "protocol": 1}),  # after stop: never answered
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "reference_engine"], input="\n".join(lines) + "\n",
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 6  # one per non-empty request line, none after stop
    assert out[0]["ok"] and out[0]["protocol"] == 1
    assert out[1] == {"ok": False, "error": {"kind": "malformed", "message": out[1]["error"]["message"]}}
    assert out[2] == {"ok": True} and out[3] == {"ok": True}
    assert out[4]["phase"] == "playing" and out[4]["to_act"] == 0
    assert out[5] == {"ok": True}


# ------------------------------------------------------------------ the command table against the schemas
# The engine checks request shapes with the standard library (reference_engine/wire/shapes.py), named by
# one table (wire/commands.py); these tests keep both in step with spec/schema/protocol/ itself.


def _schema_docs() -> dict[str, Any]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.json")}


def _request_validator(protocol: int) -> Any:
    """request.schema.json as it reads under ``protocol``: from 2 on, a seed is a decimal string only."""
    import jsonschema
    from referencing import Registry, Resource

    docs = _schema_docs()
    if protocol >= 2:
        docs["common.schema.json"]["$defs"]["seed"] = {"$ref": "#/$defs/decimalSeed"}
    registry: Registry[Any] = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in docs.values())
    return jsonschema.Draft202012Validator(docs["request.schema.json"], registry=registry)


def test_every_command_of_the_table_is_a_request_of_the_schemas_with_the_same_fields() -> None:
    docs = _schema_docs()
    assert docs["request.schema.json"]["properties"]["cmd"]["enum"] == list(COMMANDS)
    branches = [b["then"]["$ref"] for b in docs["request.schema.json"]["allOf"]]
    assert branches == [c.request_schema for c in COMMANDS.values()]
    for command in COMMANDS.values():
        request, response = docs[command.request_schema], docs[command.response_schema]
        assert set(request["properties"]) == {"cmd", *command.fields}, command.name
        assert set(request["required"]) == {"cmd", *command.required}, command.name
        assert request["additionalProperties"] is False and response["$id"].endswith(command.response_schema)


def test_the_capabilities_and_versions_are_defined_once() -> None:
    import conformance
    from conformance.schemas import PROTOCOL_COMMANDS

    vocabulary = _schema_docs()["common.schema.json"]["$defs"]["capability"]["anyOf"][0]["enum"]
    assert list(CAPABILITY_ORDER) == vocabulary
    named = {c.capability for c in COMMANDS.values() if c.capability} | \
        {f.capability for c in COMMANDS.values() for f in c.features}
    assert named == set(vocabulary)  # every capability is a row or a feature of the table, and nothing else
    assert capabilities(PROTOCOL_VERSIONS[-1]) == CAPABILITY_ORDER
    assert tuple(reversed(PROTOCOL_VERSIONS)) == conformance.ASKING_ORDER
    assert conformance.PROTOCOL_VERSIONS is PROTOCOL_VERSIONS  # one name, one order (oldest first)
    assert tuple(COMMANDS) == PROTOCOL_COMMANDS


_ODD = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-5, max_value=2**65), st.floats(allow_nan=False),
    st.sampled_from(["", "Sup1", "S3 S4 S5", "18446744073709551615", "18446744073709551616", "007", "7",
                     "call", "D7", "any-suit", "x", "every", "last"]),
    st.lists(st.sampled_from(["Sup1", 1, None, {"seat": 0, "action": "call"}]), max_size=4),
    st.dictionaries(st.sampled_from(["D7", "x", "seat", "action", "seed", "choices"]), st.sampled_from([1, "1", [0]])),
)
_VALID: dict[str, dict[str, Any]] = {
    "hello": {"protocol": 2},
    "start": {"setup": {"dealer": 0, "seed": "5"}, "options": {"D7": "any-suit"}},
    "act": {"seat": 0, "action": "call"},
    "state": {},
    "observe": {"seat": 1},
    "pattern": {"current": "Sup7", "challenger": "Sup8", "elders": "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin", "led": True},
    "count": {"depth": 2, "divide": True},
    "stop": {},
    "batch": {"setup": {"dealer": 0, "seed": "5"}, "steps": [{"seat": 0, "action": "call"}], "observe": "last",
              "state": "last", "playout": {"choices": [1, 0], "seed": "3"}},
}
_SETUPS = [{"dealer": 1, "deck": "x"}, {"dealer": 0, "seed": "5", "deck": "x"}, {"seed": "5"}, {"dealer": 0, "seed": 5},
           {"game": {"first_dealer": 0, "deals": [{"seed": "1"}]}}, {"game": {"first_dealer": 0, "deals": []}},
           {"game": {"first_dealer": 0, "deals": [{"seed": 1}]}}, {"game": {"first_dealer": 0, "deals": [{"seed": 1.5}]}},
           {"game": {"first_dealer": True, "deals": [{"seed": "1"}]}}, {"game": {"first_dealer": 0}, "dealer": 0},
           {"dealer": 0, "hands": ["a", "b", "c"]}, {"dealer": 0, "hands": ["Sup1", "Sup2", "Sup3", 4]},
           {"dealer": 0, "hands": ["Sup1", "Sup2", "", "Sup4"]}, {"dealer": 7, "seed": "1"}]
_SEPARATORS = ["\t", "\n", "\r\n", "\x0b", "\x85", "\xa0", "\u2003", "\u3000",  # white space (PROTOCOL.md)
               "\ufeff", "\x1f", "\u200b", ","]  # and what is no separator: the word is then no card
_CARDS = st.tuples(st.lists(st.sampled_from(["Sup1", "s2", "GON3", "w", "n9", "zok5", "Zok6"]), min_size=1, max_size=4,
                            unique=True), st.sampled_from([" "] * 6 + ["  ", *_SEPARATORS]),
                   st.sampled_from([""] * 6 + [" ", "\t", "\u3000", "\x1c"])
                   ).map(lambda t: t[2] + t[1].join(t[0]) + t[2])
_DECIMAL = st.integers(0, 2**66).map(str)
_FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "seat": st.integers(-1, 4), "protocol": st.integers(0, 4), "depth": st.integers(0, 2), "led": st.booleans(),
    "divide": st.booleans(), "action": st.sampled_from(["call", "PASS", "play Sup1", "play", "x", ""]),
    "classify": _CARDS, "current": _CARDS, "challenger": _CARDS, "elders": _CARDS | st.just(""),
    "options": st.dictionaries(st.from_regex(r"D[0-9]{1,2}", fullmatch=True),
                               st.from_regex(r"[a-z0-9]{1,3}(-[a-z0-9]{1,2})?-?", fullmatch=True), max_size=2),
    "setup": st.fixed_dictionaries({"dealer": st.integers(0, 4)}, optional={"seed": _DECIMAL | st.integers(0, 9),
                                                                            "deck": _CARDS}),
    "steps": st.lists(st.fixed_dictionaries({"seat": st.integers(0, 4), "action": st.sampled_from(["call", "pass"])},
                                            optional={"x": st.just(1)}), max_size=3),
    "observe": st.sampled_from(["every", "last", "none", "all"]), "state": st.sampled_from(["every", "last", "none"]),
    "playout": st.fixed_dictionaries({}, optional={"choices": st.lists(st.integers(-1, 5), max_size=3),
                                                   "seed": _DECIMAL | st.integers(0, 9)}),
}
_NESTED = [("steps", [{"seat": 7, "action": "call"}]), ("steps", [{"seat": 0}]), ("steps", [{"seat": 0, "action": 3}]),
           ("steps", [{"seat": 0, "action": "call", "x": 1}]), ("steps", {}), ("playout", {"seed": 5}),
           ("playout", {"choices": [-1]}), ("playout", {"choices": "0 1"}), ("playout", {"rounds": 1}),
           ("playout", {}), ("observe", "all"), ("state", "none")]


@st.composite
def _requests(draw: st.DrawFn) -> dict[str, Any]:
    """A valid request of each kind, then (mostly) one change: a field's value, a missing or an extra field."""
    cmd = draw(st.sampled_from(sorted(_VALID)))
    request: dict[str, Any] = {"cmd": cmd, **_VALID[cmd]}
    change = draw(st.sampled_from(["none", "value", "value", "odd", "drop", "extra", "setup", "nested"]))
    fields = sorted(k for k in request if k != "cmd")
    if change == "value" and fields:
        name = draw(st.sampled_from(fields))
        request[name] = draw(_FIELD_VALUES.get(name, _ODD))
    elif change == "odd" and fields:
        request[draw(st.sampled_from(fields))] = draw(_ODD)
    elif change == "drop" and fields:
        del request[draw(st.sampled_from(fields))]
    elif change == "extra":
        request[draw(st.sampled_from(["seat", "extra", "classify", "divide", "led", "steps"]))] = draw(_ODD | st.just("Sup3"))
    elif change == "setup" and "setup" in request:
        request["setup"] = draw(st.sampled_from(_SETUPS))
    elif change == "nested" and cmd == "batch":
        field, value = draw(st.sampled_from(_NESTED))
        request[field] = value
    return request


@pytest.mark.parametrize("protocol", PROTOCOL_VERSIONS)
def test_the_request_shapes_accept_exactly_what_the_schemas_accept(protocol: int) -> None:
    """What spec/schema/protocol/request.schema.json refuses, the engine answers `malformed`; what it accepts,
    the engine's shape check accepts (protocol 2 and later: seeds as decimal strings only)."""
    validator = _request_validator(protocol)

    @settings(max_examples=700, deadline=None, derandomize=True)
    @given(_requests())
    def check(request_: dict[str, Any]) -> None:
        schema_ok = validator.is_valid(request_)
        session = Session()
        if request_["cmd"] != "hello":
            session.handle({"cmd": "hello", "protocol": protocol})
        answer = session.handle(request_)
        assert "Traceback" not in json.dumps(answer)
        if protocol not in COMMANDS[request_["cmd"]].versions:
            assert answer["error"]["kind"] == "unsupported", (request_, answer)
            return
        problem = request_problem(request_, protocol)
        if not schema_ok:
            assert problem is not None and answer["error"]["kind"] == "malformed", (request_, answer)
        elif not _has_float(request_):
            # JSON Schema's `integer` also matches 1.0; PROTOCOL.md says integers are written without a
            # fraction, and the reference refuses 1.0 as malformed. Every other valid request is accepted.
            assert problem is None, (request_, problem)
            if request_["cmd"] != "act":  # an act's text is any string by its schema, and malformed if not an action
                assert answer["ok"] is True or answer["error"]["kind"] != "malformed", (request_, answer)
        assert answer["ok"] is True or answer["error"]["kind"] != "internal", (request_, answer)

    check()


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


# ------------------------------------------------------------------ every request checked, in its version (issue 20.3)


def _after_hello(protocol: int) -> Session:
    session = Session()
    assert session.handle({"cmd": "hello", "protocol": protocol})["ok"]
    return session


def test_a_batch_without_steps_is_malformed_not_an_engine_fault() -> None:
    answer = _after_hello(2).handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}})
    assert answer == {"ok": False, "error": {"kind": "malformed", "message": "bad batch request: missing field 'steps'"}}


def test_requests_of_protocol_2_are_refused_before_hello_and_under_protocol_1() -> None:
    batch = {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": []}
    before = Session().handle(batch)
    assert before["error"]["kind"] == "illegal" and "hello" in before["error"]["message"]
    assert _after_hello(1).handle(batch)["error"]["kind"] == "unsupported"
    assert _after_hello(2).handle(batch)["ok"] is True
    divide = {"cmd": "count", "depth": 1, "divide": True}
    v1 = _after_hello(1)
    v1.handle({"cmd": "start", "setup": {"dealer": 0, "seed": 1}})
    refused = v1.handle(divide)
    assert refused["error"]["kind"] == "unsupported" and "'divide'" in refused["error"]["message"]
    assert v1.handle({"cmd": "count", "depth": 1}) == {"ok": True, "counts": [2]}
    assert "batch" not in v1.handle({"cmd": "hello", "protocol": 1})["capabilities"]
    fresh = Session()
    fresh.handle({"cmd": "start", "setup": {"dealer": 0, "seed": 1}})
    assert fresh.handle(divide)["error"]["kind"] == "illegal"  # before hello: send hello first


class _Faulty(Session):
    """A session whose `state` hits an engine bug that names a file."""

    def _state(self, _message: dict[str, Any]) -> dict[str, Any]:
        raise FileNotFoundError(2, "No such file", "/home/someone/secret/engine.py")


def test_an_engine_fault_answers_a_short_reference_and_keeps_its_traceback_out_of_the_answer() -> None:
    session, reported = _Faulty(), []
    session.on_fault = lambda ref, trace: reported.append((ref, trace))
    session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": "1"}})
    answer = session.handle({"cmd": "state"})
    message = answer["error"]["message"]
    assert answer["error"]["kind"] == "internal" and "fault-1" in message
    assert "Traceback" not in message and "/" not in message and "secret" not in message, message
    assert reported and reported[0][0] == "fault-1" and "Traceback" in reported[0][1] and "secret" in reported[0][1]
    assert list(session.faults) == reported


def test_the_server_writes_a_fault_s_traceback_to_stderr_not_to_stdout() -> None:
    program = ("import sys, reference_engine.__main__ as m\n"
               "from reference_engine.wire import Session\n"
               "def boom(self, message): raise KeyError('/home/someone/secret')\n"
               "Session._state = boom\n"
               "m.main([])\n")
    lines = [{"cmd": "hello", "protocol": 2}, {"cmd": "start", "setup": {"dealer": 0, "seed": "1"}}, {"cmd": "state"},
             {"cmd": "stop"}]
    proc = subprocess.run([sys.executable, "-c", program], input="".join(json.dumps(x) + "\n" for x in lines),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    answer = json.loads(proc.stdout.splitlines()[2])
    assert answer["error"]["kind"] == "internal" and "secret" not in proc.stdout and "Traceback" not in proc.stdout
    assert "fault-1" in proc.stderr and "Traceback" in proc.stderr and "secret" in proc.stderr


# ------------------------------------------------------------------ bounds on one request (issue 20.4)


def test_a_count_past_its_node_bound_is_refused_naming_the_bound_and_how_to_raise_it() -> None:
    assert Session.count_node_limit is not None  # a count from a deal at depth 8 ran past 30 s unbounded
    session = _after_hello(2)
    session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": "1"}})
    before = session.handle({"cmd": "state"})
    session.count_node_limit = 400
    refused = session.handle({"cmd": "count", "depth": 4})  # visits 468 positions
    assert refused["error"]["kind"] == "unsupported"
    assert "400 positions" in refused["error"]["message"] and "--count-nodes" in refused["error"]["message"]
    assert session.handle({"cmd": "count", "depth": 3}) == {"ok": True, "counts": [2, 8, 458]}
    assert session.handle({"cmd": "state"}) == before


LEAD_HANDS = ["Sup3 Sup4 Sup5 Gon5 Gon9 Zok5 Zok6 Zok7 Zok9 Sin2 Sin3 Sin9",
              "Sup6 Sup7 Sup8 Gon4 Gon6 Gon7 Gon8 Zok1 Zok2 Zok3 Zok4 Zok8", "Sin4",
              "Sup1 Sup2 Sup9 Gon1 Gon2 Gon3 Sin1 Sin5 Sin6 Sin7 Sin8 WanSin"]
"""spec/README.md's worked lead: Dealer 0 calls or passes (2 positions); after a call Calling ends and the
Dealer leads one of 7 plays, after a pass seat 1 calls or passes (9 positions): a count to depth 3 visits
2 + 9 = 11 positions, to depth 2 visits 2 (spec/PROTOCOL.md, "Bounds on one request")."""


def _served(monkeypatch: pytest.MonkeyPatch, bound: int, depth: int) -> tuple[Any, Any, Any]:
    """``python -m reference_engine --count-nodes <bound>`` (its own main, in this process): the state, the
    answer to a count to ``depth`` with divide, and the state after it."""
    import io

    from reference_engine.__main__ import main

    lines = [{"cmd": "hello", "protocol": 3}, {"cmd": "start", "setup": {"dealer": 0, "hands": LEAD_HANDS}},
             {"cmd": "state"}, {"cmd": "count", "depth": depth, "divide": True}, {"cmd": "state"}, {"cmd": "stop"}]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("".join(json.dumps(x) + "\n" for x in lines)
                                                                  .encode())))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    main(["--count-nodes", str(bound)])
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers[:3]] == [True, True, True] and answers[5] == {"ok": True}
    return answers[2], answers[3], answers[4]


@pytest.mark.parametrize(("depth", "positions"), [(3, 11), (2, 2)])
def test_a_count_at_its_bound_is_answered_and_one_position_past_it_refused(
        monkeypatch: pytest.MonkeyPatch, depth: int, positions: int) -> None:
    """A position is one reached by 1 to depth - 1 actions, each concrete action once; neither the current
    state nor the positions at exactly ``depth`` actions are visited."""
    before, answered, after = _served(monkeypatch, positions, depth)
    assert answered["ok"] and answered["counts"][:2] == [2, 9] and len(answered["counts"]) == depth
    assert sum(answered["divide"].values()) == answered["counts"][-1] and after == before
    before, refused, after = _served(monkeypatch, positions - 1, depth)
    assert refused["error"]["kind"] == "unsupported", refused
    message = refused["error"]["message"]
    assert f"more than {positions - 1} position" in message and "--count-nodes N" in message
    assert after == before  # an error never changes state


def test_a_count_at_depth_8_from_a_deal_is_refused_within_seconds() -> None:
    session = _after_hello(2)
    session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": "1"}})
    started = time.monotonic()
    refused = session.handle({"cmd": "count", "depth": 8, "divide": True})
    assert refused["error"]["kind"] == "unsupported" and f"{COUNT_NODE_LIMIT} positions" in refused["error"]["message"]
    assert time.monotonic() - started < 25


def test_a_batch_past_its_answer_bound_is_refused_and_leaves_the_session_as_it_was() -> None:
    session = _after_hello(2)
    session.handle({"cmd": "start", "setup": {"dealer": 1, "seed": "2"}})
    before = session.handle({"cmd": "state"})
    steps = [{"seat": 1, "action": "call"}] * 33_000
    started = time.monotonic()
    refused = session.handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": steps, "observe": "every"})
    assert time.monotonic() - started < 2
    message = refused["error"]["message"]
    assert refused["error"]["kind"] == "unsupported" and f"{BATCH_ANSWER_LIMIT} answers" in message
    assert "--batch-answers" in message
    # a playout that runs past the room left is refused after the fact, and undone
    session.batch_answer_limit = 20
    refused = session.handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "playout": {}})
    assert refused["error"]["kind"] == "unsupported" and "playout" in refused["error"]["message"]
    assert session.handle({"cmd": "state"}) == before
    session.batch_answer_limit = 200
    assert session.handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [], "playout": {},
                           "state": "last"})["ok"] is True


def test_the_server_s_bounds_are_engine_options() -> None:
    lines = [{"cmd": "hello", "protocol": 2}, {"cmd": "start", "setup": {"dealer": 0, "seed": "1"}},
             {"cmd": "count", "depth": 3}, {"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": [],
                                            "state": "last"}, {"cmd": "stop"}]
    proc = subprocess.run([sys.executable, "-m", "reference_engine", "--count-nodes", "5", "--batch-answers", "1"],
                          input="".join(json.dumps(x) + "\n" for x in lines), capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    count, batch = (json.loads(line) for line in proc.stdout.splitlines()[2:4])
    assert "5 positions" in count["error"]["message"] and "1 answers" in batch["error"]["message"]


# ------------------------------------------------------------------ the protocol's open words (issue 21 §1)


def test_which_error_wins_when_a_request_has_two_faults() -> None:
    """spec/PROTOCOL.md "Which error wins": the schema first, then the text, then the rules, then now."""
    session = _after_hello(3)
    bad_cards = {"dealer": 0, "hands": ["Sup1 Xx9", HANDS[1], HANDS[2], HANDS[3]]}
    assert session.handle({"cmd": "start", "options": {"D99": "x"}, "setup": bad_cards})["error"]["kind"] == "malformed"
    assert session.handle({"cmd": "act", "seat": 0, "action": "shout"})["error"]["kind"] == "malformed"  # no hand yet
    assert session.handle({"cmd": "act", "seat": 0, "action": "call"})["error"]["kind"] == "illegal"
    for hands in (["", HANDS[1], HANDS[2], HANDS[3]], HANDS[:3]):  # facts that fit two kinds: the schema's
        assert session.handle({"cmd": "start", "setup": {"dealer": 0, "hands": hands}})["error"]["kind"] == "malformed"
    twice = {"dealer": 0, "hands": [HANDS[0].replace("Sup3", "Sup2"), HANDS[1], HANDS[2], HANDS[3]]}
    assert session.handle({"cmd": "start", "setup": twice})["error"]["kind"] == "bad-setup"  # a card dealt twice
    assert session.handle({"cmd": "start", "options": {"D99": "x"}, "setup": {"dealer": 0, "seed": "1"}}
                          )["error"]["kind"] == "bad-setup"


@pytest.mark.parametrize("text, kind", [("PASS", None), ("Call", None), ("call Sup3", "malformed"),
                                        ("pass Gon4", "malformed"), ("play", "malformed"), ("shout", "malformed")])
def test_action_text_verbs_are_case_insensitive_and_text_that_is_no_action_is_malformed(text: str,
                                                                                         kind: str | None) -> None:
    session = _after_hello(3)
    session.handle({"cmd": "start", "setup": {"dealer": 0, "hands": HANDS}})
    answer = session.handle({"cmd": "act", "seat": 0, "action": text})
    assert answer["ok"] is True if kind is None else answer["error"]["kind"] == kind, answer


def test_where_a_batch_error_goes() -> None:
    """spec/PROTOCOL.md, batch: the schema refuses the whole batch; the rules refuse its start or a step."""
    session = _after_hello(3)
    for bad in ({"setup": {"dealer": 7, "seed": "1"}, "steps": []},
                {"setup": {"dealer": 0, "seed": "1"}, "steps": [{"seat": 7, "action": "call"}]}):
        answer = session.handle({"cmd": "batch", **bad})
        assert answer["ok"] is False and answer["error"]["kind"] == "malformed" and session.hand is None, bad
    refused = session.handle({"cmd": "batch", "setup": {"dealer": 0, "deck": "Sup1"}, "steps": [{"seat": 0, "action": "call"}]})
    assert refused["ok"] is True and refused["start"]["error"]["kind"] == "bad-setup" and refused["steps"] == []
    steps = [{"seat": 0, "action": "play"}, {"seat": 0, "action": "CALL"}]
    played = session.handle({"cmd": "batch", "setup": {"dealer": 0, "seed": "1"}, "steps": steps, "state": "last"})
    assert played["steps"][1]["act"]["error"]["kind"] == "malformed" and played["steps"][2]["act"]["ok"] is True


def test_count_inside_a_game_counts_the_hand_in_play_and_never_runs_into_the_next_deal() -> None:
    """spec/PROTOCOL.md, count: a sequence ends with the hand; an action act would refuse for a missing deal counts."""
    single = _after_hello(3)
    single.handle({"cmd": "start", "setup": {"dealer": 0, "seed": "1"}})
    expected = single.handle({"cmd": "count", "depth": 4})["counts"]
    for deals in ([{"seed": "1"}], [{"seed": "1"}, {"seed": "2"}]):
        game = _after_hello(3)
        game.handle({"cmd": "start", "setup": {"game": {"first_dealer": 0, "deals": deals}}})
        assert game.handle({"cmd": "count", "depth": 4})["counts"] == expected, deals
        for seat in (0, 1):
            game.handle({"cmd": "act", "seat": seat, "action": "pass"})
        third = game.handle({"cmd": "act", "seat": 3, "action": "pass"})  # voids the hand: deal 2 is needed
        assert third["ok"] is (len(deals) == 2)
    one_deal = _after_hello(3)
    one_deal.handle({"cmd": "start", "setup": {"game": {"first_dealer": 0, "deals": [{"seed": "1"}]}}})
    for session in (one_deal, single):
        for seat in (0, 1):
            session.handle({"cmd": "act", "seat": seat, "action": "pass"})
    # seat 3 may call or pass: the voiding pass is counted though act refuses it here, and nothing follows it
    in_game = one_deal.handle({"cmd": "count", "depth": 2, "divide": True})
    assert in_game["counts"][0] == 2 and in_game["divide"]["pass"] == 0
    assert in_game == single.handle({"cmd": "count", "depth": 2, "divide": True})


def test_at_game_over_every_count_is_zero(s: Checked) -> None:
    deals = [{"seed": n} for n in range(10)]
    s({"cmd": "start", "options": {"D31": "deals"}, "setup": {"game": {"first_dealer": 2, "deals": deals}}})
    for _n in range(4):
        dealer = s({"cmd": "state"})["dealer"]
        for seat in (dealer, (dealer + 1) % 4, (dealer + 3) % 4):
            s({"cmd": "act", "seat": seat, "action": "pass"})
    assert s({"cmd": "state"})["phase"] == "game-over"
    assert s({"cmd": "count", "depth": 3})["counts"] == [0, 0, 0]


def test_no_option_makes_a_pattern_answer_depend_on_led() -> None:
    """spec/PROTOCOL.md, pattern: an engine answers a beats question the same for `led` true and false."""
    from reference_engine.profile import DECISIONS

    questions = [("Sup7", "Sup8"), ("Sup1", "Sup2"), ("Sup9", "WanSin"), ("Gon2 Gon3 Gon4", "Gon5 Gon6 Gon7"),
                 ("Zok7 Sin7 Gon7", "Zok8 Sin8 Gon8"), ("WanSin", "Sup1"), ("Sin1", "Sin2")]
    elders = "Sup1 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"
    profiles: list[dict[str, str]] = [{}] + [{decision: o} for decision, _key, options in DECISIONS for o in options[1:]]
    session = _after_hello(3)
    for chosen in profiles:
        for current, challenger in questions:
            answers = {session.handle({"cmd": "pattern", "options": chosen, "current": current,
                                       "challenger": challenger, "elders": elders, "led": led}).get("beats")
                       for led in (True, False)}
            assert len(answers) == 1, (chosen, current, challenger, answers)


def test_a_playout_that_reaches_a_missing_deal_leaves_the_session_as_it_was() -> None:
    """spec/PROTOCOL.md: an error never changes state, a refused batch included. A game of one deal: the
    playout's move that ends its first hand needs a second deal, and the whole batch is refused."""
    session = Session()
    session.handle({"cmd": "hello", "protocol": 3})
    assert session.handle({"cmd": "start", "setup": {"dealer": 1, "seed": "5"}})["ok"]
    session.handle({"cmd": "act", "seat": 2, "action": "pass"})
    before = session.handle({"cmd": "state"})
    answer = session.handle({"cmd": "batch", "setup": {"game": {"first_dealer": 0, "deals": [{"seed": "1"}]}},
                             "steps": [], "playout": {"seed": "3"}, "state": "last"})
    assert answer["ok"] is False and answer["error"]["kind"] == "bad-setup" and "deal 2" in answer["error"]["message"]
    assert session.handle({"cmd": "state"}) == before
