"""spec/expectations.yaml: every expectation key a scenario can name, and the clauses behind it."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

SPEC = Path(__file__).resolve().parents[2] / "spec"


def _load() -> dict[str, list[str]]:
    data = yaml.safe_load((SPEC / "expectations.yaml").read_text(encoding="utf-8"))
    Draft202012Validator(json.loads((SPEC / "schema" / "expectations.schema.json").read_text())).validate(data)
    keys: dict[str, list[str]] = data["keys"]
    return keys


def _scenario_keys() -> set[str]:
    """Every key of an `expect` in the scenario schema, with `result.*` and `game.*` spelled out."""
    defs = json.loads((SPEC / "schema" / "scenario.schema.json").read_text())["$defs"]
    keys = set(defs["expectBase"]["properties"]) | set(defs["expectGame"]["properties"])
    keys |= {f"result.{f}" for f in defs["handResultSubset"]["properties"]}
    keys |= {f"game.{f}" for f in defs["expectGame"]["properties"]["game"]["properties"]}
    return keys - {"result", "game"}


def test_every_expectation_key_has_its_clauses() -> None:
    missing = _scenario_keys() - set(_load())
    assert not missing, f"expectation keys without clauses in spec/expectations.yaml: {sorted(missing)}"


def test_every_clause_named_exists() -> None:
    clauses = {c["id"] for c in yaml.safe_load((SPEC / "clauses.yaml").read_text(encoding="utf-8"))["clauses"]}
    unknown = {(k, c) for k, cs in _load().items() for c in cs if c not in clauses}
    assert not unknown, unknown
