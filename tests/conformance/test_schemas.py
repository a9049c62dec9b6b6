"""The JSON Schemas: valid 2020-12, and the runner's compiled (inlined) validators agree with them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import SPEC
from jsonschema import Draft202012Validator

from conformance.engine import Engine
from conformance.schemas import PROTOCOL_COMMANDS


def test_every_schema_is_valid_2020_12():
    files = sorted((SPEC / "schema").glob("*.schema.json")) + sorted((SPEC / "schema" / "protocol").glob("*.json"))
    assert len(files) >= 18
    for path in files:
        Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_one_request_and_one_response_schema_per_command():
    for cmd in PROTOCOL_COMMANDS:
        for kind in ("request", "response"):
            assert (SPEC / "schema" / "protocol" / f"{cmd}.{kind}.schema.json").is_file()


def _variants(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The message, and copies with one top-level field dropped or retyped."""
    out = [message]
    for key in message:
        out.append({k: v for k, v in message.items() if k != key})
        out.append({**message, key: [message[key]]})
    return out


def test_compiled_validators_agree_with_the_referencing_schemas(run, examples, schemas, monkeypatch):
    # Results keep transcripts of failures only: record every exchange here.
    transcript = []
    real_call = Engine.call

    def recording_call(self, message, variant=None):
        answer = real_call(self, message, variant)
        transcript.append((message, answer))
        return answer

    monkeypatch.setattr(Engine, "call", recording_call)
    _, engine = run("python:inprocess:ConfigurableSession", list(examples.values()))
    transcript.append(({"cmd": "hello"}, engine.info.raw))
    assert len(transcript) > 20
    checked = 0
    for request, response in transcript:
        cmd = request["cmd"]
        variant = None
        if cmd == "pattern":
            variant = "classify" if "classify" in request else "beats"
        name = f"protocol/{cmd}.response.schema.json"
        original = schemas._by_name[name]
        if variant:
            original = {"$ref": original["$id"] + f"#/$defs/{variant}"}
        reference = Draft202012Validator(original, registry=schemas.registry)
        for message in _variants(response):
            expected = reference.is_valid(message)
            assert schemas._responses[(cmd, variant)].is_valid(message) == expected, (cmd, message)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("good", [True, False])
def test_scenario_validator_agrees(schemas, examples, good):
    reference = Draft202012Validator(schemas._by_name["scenario.schema.json"], registry=schemas.registry)
    for s in examples.values():
        doc = {"scenarios": [dict(s.data)]}
        if not good:
            doc["scenarios"][0]["clauses"] = "PAT-1"
        assert reference.is_valid(doc) == schemas.scenario.is_valid(doc) == good
