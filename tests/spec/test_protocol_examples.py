"""The examples of spec/PROTOCOL.md, spec/SCENARIOS.md and the schemas hold against the spec and the reference
engine, as tests/test_readme.py holds the README's (issue 31 §2.7)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.adapters import parse_engine_spec
from reference_engine.wire import Session

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
TEXTS = {name: (SPEC / name).read_text(encoding="utf-8") for name in ("PROTOCOL.md", "SCENARIOS.md")}
SCHEMA_TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted((SPEC / "schema").rglob("*.schema.json")))
OPTIONS = {d["id"]: {o["id"] for o in d["options"]}
           for d in yaml.safe_load((SPEC / "decisions.yaml").read_text(encoding="utf-8"))["decisions"]}
UNKNOWN_ON_PURPOSE = {("D99", "x"), ("D7", "sideways")}
"""The protocol's own examples of an unknown decision and an option a decision does not have."""


def _named_options(text: str) -> list[tuple[str, str]]:
    found = []
    for decision, value in re.findall(r'\\?"(D\d+)\\?": *(\[[^\]]*\]|\\?"[a-z0-9-]+\\?")', text):
        for option in re.findall(r'[a-z0-9-]+', value.replace('\\"', '"')):
            found.append((decision, option))
    return found


@pytest.mark.parametrize("name", ["PROTOCOL.md", "SCENARIOS.md", "schemas"])
def test_every_option_an_example_names_exists_unless_it_is_unknown_on_purpose(name: str) -> None:
    text = SCHEMA_TEXT if name == "schemas" else TEXTS[name]
    named = _named_options(text)
    wrong = [(d, o) for d, o in named if (d, o) not in UNKNOWN_ON_PURPOSE and o not in OPTIONS.get(d, set())]
    assert not wrong, f"{name} names options spec/decisions.yaml does not have: {wrong}"
    if name == "PROTOCOL.md":
        assert ("D12", "may-discard") in named and ("D7", "sideways") in named


def _answer(*requests: dict[str, object]) -> dict[str, object]:
    session = Session()
    answer: dict[str, object] = {}
    for request in requests:
        answer = session.handle(request)
    return answer


HELLO = {"cmd": "hello", "protocol": 3}
HANDS = ["Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3",
         "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6", "Zok7",
         "Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 Sin9 WanSin"]


def test_the_which_error_wins_examples_hold_on_the_reference() -> None:
    """PROTOCOL.md: `{"D99": "x"}` with a hand "Sup1 Xx9" is malformed (3 before 6); "shout" before any start
    is malformed (5 before 8); an option a decision does not have is bad-setup."""
    text = TEXTS["PROTOCOL.md"]
    assert 'So `start` with `{"D99": "x"}` and a hand `"Sup1 Xx9"` is `malformed`' in text
    bad_hand = ["Sup1 Xx9", *HANDS[1:]]
    answer = _answer(HELLO, {"cmd": "start", "options": {"D99": "x"}, "setup": {"dealer": 0, "hands": bad_hand}})
    assert answer["error"]["kind"] == "malformed"  # type: ignore[index]
    assert _answer(HELLO, {"cmd": "act", "seat": 0, "action": "shout"})["error"]["kind"] == "malformed"  # type: ignore[index]
    answer = _answer(HELLO, {"cmd": "start", "options": {"D7": "sideways"}, "setup": {"dealer": 0, "hands": HANDS}})
    assert answer["error"]["kind"] == "bad-setup"  # type: ignore[index]
    assert _answer(HELLO, {"cmd": "start", "options": {"D7": "any-suit"}, "setup": {"dealer": 0, "hands": HANDS}})["ok"]


def test_the_events_example_holds_on_the_reference() -> None:
    """PROTOCOL.md's `act` example answers with the events the table gives for a play that promotes and wins."""
    block = re.search(r'\{"cmd": "act", "seat": 3, "action": "play Zok9"\}\n→ (\{.*\})', TEXTS["PROTOCOL.md"])
    assert block is not None
    shown = json.loads(block.group(1))
    # Dealer 0 calls (nobody holds the Five Tigers) and, holding no Sup or Gon, leads the Single Zok7 (PAT-5);
    # seat 1 holds no Zok and no Elder, so it discards; seat 3 beats with Zok9, the last card above Zok8, which
    # becomes an Elder in its hand (ELD-2), and wins the round with 1 trick: 1 + Zok8, Sup1, Sup9, Gon9 = 5 < 6,
    # so no claim is offered (CLAIM-1).
    hands = ["Zok2 Zok3 Zok4 Zok5 Zok6 Zok7 Sin1 Sin2 Sin3 Sin4 Sin5 Sin9",
             "Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Gon1 Gon2 Gon3 Gon4 Gon5", "WanSin",
             "Zok1 Zok8 Zok9 Sup1 Sup9 Gon6 Gon7 Gon8 Gon9 Sin6 Sin7 Sin8"]
    session = Session()
    session.handle(HELLO)
    assert session.handle({"cmd": "start", "setup": {"dealer": 0, "hands": hands}})["ok"]
    for seat, action in ((0, "call"), (0, "play Zok7"), (1, "discard Sup2")):
        assert session.handle({"cmd": "act", "seat": seat, "action": action})["ok"], action
    assert session.handle({"cmd": "act", "seat": 3, "action": "play Zok9"}) == shown


def test_every_engine_an_example_runs_is_a_spec_the_runner_takes() -> None:
    """The Node example's header (and any `--engine` in the protocol's pages) names `cmd:` or a known engine."""
    sources = [*TEXTS.values(), (ROOT / "docs" / "examples" / "node-engine" / "engine.js").read_text(encoding="utf-8")]
    engines = [shlex.split(m)[0] for text in sources for m in re.findall(r"--engine (\"[^\"]+\"|\S+)", text)]
    assert engines, "the Node example's header shows how to run it"
    for engine in engines:
        parse_engine_spec(engine)  # raises on a spec the runner refuses


def test_a_blank_line_gets_no_answer_and_a_newer_hello_is_unsupported() -> None:
    """PROTOCOL.md, Transport: a blank or whitespace line is skipped; every other line, JSON or not, is answered
    once; a `hello` for a version newer than the engine's is `unsupported` (the reference's choice)."""
    import subprocess
    import sys

    text = TEXTS["PROTOCOL.md"]
    assert "is no request: the runner never\n  sends one" in text and "answered\n  `unsupported` (the reference does" in text
    lines = ['{"cmd": "hello", "protocol": 4}', "", "   \t", "not json", '{"cmd": "hello", "protocol": 3}']
    proc = subprocess.run([sys.executable, "-m", "reference_engine"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60, check=True, cwd=ROOT)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == 3, answers
    assert answers[0]["error"]["kind"] == "unsupported"
    assert answers[1]["error"]["kind"] == "malformed"
    assert answers[2]["ok"] and answers[2]["protocol"] == 3


def test_a_cmd_that_is_no_string_is_unsupported_and_divide_false_asks_for_nothing() -> None:
    """PROTOCOL.md, "which error wins" 1 and 4, held by the reference."""
    assert "(a `cmd` that is not a string, such as `5`, among them): `unsupported`" in TEXTS["PROTOCOL.md"]
    assert _answer({"cmd": 5})["error"]["kind"] == "unsupported"  # type: ignore[index]
    assert _answer(HELLO, {"cmd": ["hello"]})["error"]["kind"] == "unsupported"  # type: ignore[index]
    session = Session()
    session.handle({"cmd": "hello", "protocol": 1})
    assert session.handle({"cmd": "start", "setup": {"dealer": 0, "seed": 3}})["ok"]
    assert session.handle({"cmd": "count", "depth": 1, "divide": False}) == {"ok": True, "counts": [2]}
    assert session.handle({"cmd": "count", "depth": 1, "divide": True})["error"]["kind"] == "unsupported"


def test_the_position_example_of_a_count_holds_on_the_reference() -> None:
    """PROTOCOL.md, "Bounds on one request": spec/README.md's lead counted to depth 3 is `[2, 9, …]` and visits
    11 positions, answered under `--count-nodes 11`, refused under 10 (tests/engine/test_wire.py runs the CLI)."""
    from tests.engine.test_wire import LEAD_HANDS

    text = " ".join(TEXTS["PROTOCOL.md"].split())
    assert "`counts` to depth 3 are `[2, 9, …]`" in text and "visits 2 + 9 = 11 positions" in text
    assert "answers it under `--count-nodes 11` and refuses it under `--count-nodes 10`" in text
    for bound, ok in ((11, True), (10, False)):
        session = Session()
        session.count_node_limit = bound
        session.handle(HELLO)
        assert session.handle({"cmd": "start", "setup": {"dealer": 0, "hands": LEAD_HANDS}})["ok"]
        answer = session.handle({"cmd": "count", "depth": 3})
        assert answer["ok"] is ok and (not ok or answer["counts"][:2] == [2, 9]), answer


def _scenario_format_example(heading: str, body: str) -> dict[str, Any]:
    """The first YAML example under ``heading`` of SCENARIOS.md whose body is ``body``, its hands dealt."""
    section = TEXTS["SCENARIOS.md"].split(heading, 1)[1]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.S)
    text = next(b for b in blocks if b.lstrip().startswith(f"{body}:") and (body != "count" or "divide:" in b))
    return {body: yaml.safe_load(text.replace("[ … ]", json.dumps(HANDS_0)))[body]}


HANDS_0 = ["Sup1 Sup4 Sup9 Gon1 Gon3 Gon5 Zok1 Zok2 Zok6 Sin7 Sin9 WanSin",
           "Sup2 Sup3 Sup8 Gon2 Gon4 Gon8 Zok3 Zok4 Zok8 Sin2 Sin3 Sin8", "Sin4",
           "Sup5 Sup6 Sup7 Gon6 Gon7 Gon9 Zok5 Zok7 Zok9 Sin1 Sin5 Sin6"]
"""The deal of count-calling-dealer0-set-of-ones, which SCENARIOS.md's divide example names."""


@pytest.mark.parametrize(("heading", "body"), [("## `count`", "count"), ("## `batch`", "batch")])
def test_the_divide_and_batch_examples_of_scenarios_md_pass_on_the_reference(
        heading: str, body: str, tmp_path: Path) -> None:
    """SCENARIOS.md's divide and batch examples, given count-calling-dealer0-set-of-ones's deal for their `[ … ]`:
    valid scenarios, and the reference passes them (the divide's values, the batch's refused and taken steps)."""
    from conformance.suite import Suite

    example = _scenario_format_example(heading, body)
    if body == "count":
        assert example["count"].get("divide") == {"call": 221, "pass": 4}, "the example with a divide"
    scenario = {"id": f"example-{body}", "title": "SCENARIOS.md's example", "clauses": ["CALL-1"], **example}
    (tmp_path / "example.yaml").write_text(yaml.safe_dump({"scenarios": [scenario]}), encoding="utf-8")
    suite = Suite.load(scenario_paths=[tmp_path])
    [result] = suite.run("reference")
    assert result.status == "pass", (result.reason, result.diff)
