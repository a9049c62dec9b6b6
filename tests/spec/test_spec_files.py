"""Checks of the machine-readable rules: spec/clauses.yaml and spec/decisions.yaml.

They must match their JSON Schemas, refer to each other consistently, agree
with the decision table of spec/README.md, keep the fixed clause IDs, and quote
the source texts exactly. The source texts live outside the repository, in
``../shared/seeds`` beside the clone (override with ``HAKKA_SEEDS_DIR``); the
quote check is skipped when they are absent.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "spec"
SEEDS_DIR = Path(os.environ.get("HAKKA_SEEDS_DIR", REPO.parent / "shared" / "seeds"))

# Reading order of the clause areas, with their ID prefixes (spec/README.md).
AREAS = {
    "cards": "CARDS",
    "game": "GAME",
    "deal": "DEAL",
    "calling": "CALL",
    "patterns": "PAT",
    "elders": "ELD",
    "tigers": "TIG",
    "play": "PLAY",
    "claim": "CLAIM",
    "scoring": "SCORE",
    "observation": "OBS",
}

# The language of each seed file.
SEED_LANGS = {"000": "en", "001": "fr", "002": "hi", "003": "de", "004": "ar"}

# Clause IDs fixed by the project's brief; IDs are never removed or renumbered,
# so each of these must stay (new clauses may be added after them).
FIXED_CLAUSE_IDS = (
    [f"CARDS-{n}" for n in range(1, 4)]
    + [f"GAME-{n}" for n in range(1, 6)]
    + [f"DEAL-{n}" for n in range(1, 6)]
    + [f"CALL-{n}" for n in range(1, 7)]
    + [f"PAT-{n}" for n in range(1, 8)]
    + [f"ELD-{n}" for n in range(1, 7)]
    + ["TIG-1"]
    + [f"PLAY-{n}" for n in range(1, 9)]
    + [f"CLAIM-{n}" for n in range(1, 3)]
    + [f"SCORE-{n}" for n in range(1, 8)]
    + ["OBS-1"]
)

FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml when PyYAML has it: the corpus's scenarios load in a fraction of the pure-Python time."""
FILES = {"clauses": "clauses.yaml", "decisions": "decisions.yaml"}


def load_yaml(name: str) -> Any:
    with open(SPEC / FILES[name], encoding="utf-8") as f:
        return yaml.safe_load(f)


def load_schema(name: str) -> Any:
    with open(SPEC / "schema" / f"{name}.schema.json", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def clauses() -> list[dict[str, Any]]:
    data = load_yaml("clauses")
    assert isinstance(data, dict) and isinstance(data.get("clauses"), list)
    clauses: list[dict[str, Any]] = data["clauses"]
    return clauses


@pytest.fixture(scope="module")
def decisions() -> list[dict[str, Any]]:
    data = load_yaml("decisions")
    assert isinstance(data, dict) and isinstance(data.get("decisions"), list)
    decisions: list[dict[str, Any]] = data["decisions"]
    return decisions


def split_id(clause_id: str) -> tuple[str, int]:
    prefix, number = clause_id.rsplit("-", 1)
    return prefix, int(number)


def decision_number(decision_id: str) -> int:
    return int(decision_id[1:])


# --------------------------------------------------------------- schemas


@pytest.mark.parametrize("name", sorted(FILES))
def test_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = load_schema(name)
    assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
    assert schema.get("$id"), f"{name}.schema.json has no $id"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_matches_its_schema(name: str) -> None:
    validator = Draft202012Validator(load_schema(name))
    errors = sorted(validator.iter_errors(load_yaml(name)), key=lambda e: list(e.absolute_path))
    report = "\n".join(
        f"  {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors
    )
    assert not errors, f"spec/{FILES[name]} does not match its schema:\n{report}"


# --------------------------------------------------------------- clauses


def test_clause_ids_are_unique(clauses: list[dict[str, Any]]) -> None:
    dupes = [i for i, n in Counter(c["id"] for c in clauses).items() if n > 1]
    assert not dupes, f"duplicate clause IDs: {dupes}"


def test_clause_area_matches_its_id(clauses: list[dict[str, Any]]) -> None:
    wrong = [c["id"] for c in clauses if split_id(c["id"])[0] != AREAS[c["area"]]]
    assert not wrong, f"clauses whose ID prefix does not match their area: {wrong}"


def test_clauses_are_in_reading_order(clauses: list[dict[str, Any]]) -> None:
    order = list(AREAS.values())
    keys = [(order.index(split_id(c["id"])[0]), split_id(c["id"])[1]) for c in clauses]
    assert keys == sorted(keys), "clauses must be listed area by area (cards ... observation), by number"


def test_every_area_is_numbered_from_1_without_gaps(clauses: list[dict[str, Any]]) -> None:
    numbers: dict[str, list[int]] = {prefix: [] for prefix in AREAS.values()}
    for c in clauses:
        prefix, number = split_id(c["id"])
        numbers[prefix].append(number)
    for prefix, found in numbers.items():
        assert sorted(found) == list(range(1, len(found) + 1)), (
            f"{prefix} clauses must be numbered 1..n with no gap, found {sorted(found)}"
        )
        assert found, f"area {prefix} has no clause"


def test_fixed_clause_ids_are_all_present(clauses: list[dict[str, Any]]) -> None:
    ids = {c["id"] for c in clauses}
    missing = [i for i in FIXED_CLAUSE_IDS if i not in ids]
    assert not missing, f"fixed clause IDs missing from spec/clauses.yaml: {missing}"


def test_score_table_keeps_128_for_12_tricks(clauses: list[dict[str, Any]]) -> None:
    # Every language of the source says 128 (not 64) for 12 tricks; the docs
    # draw the table from SCORE-1's "t -> points" pairs.
    score_1 = next(c for c in clauses if c["id"] == "SCORE-1")
    pairs = [(int(a), int(b)) for a, b in re.findall(r"(\d+)\s*->\s*(\d+)", score_1["statement"])]
    assert pairs == [(6, 1), (7, 2), (8, 4), (9, 8), (10, 16), (11, 32), (12, 128)]


# ------------------------------------------------------------- decisions


def test_decision_ids_are_unique_and_numbered_d1_to_dn(decisions: list[dict[str, Any]]) -> None:
    ids = [d["id"] for d in decisions]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate decision IDs: {dupes}"
    assert ids == [f"D{n}" for n in range(1, len(ids) + 1)], (
        f"decisions must be listed D1, D2, ... in order with no gap, found {ids}"
    )


def test_decision_keys_are_unique(decisions: list[dict[str, Any]]) -> None:
    dupes = [k for k, n in Counter(d["key"] for d in decisions).items() if n > 1]
    assert not dupes, f"duplicate decision keys: {dupes}"


def test_default_is_the_first_option(decisions: list[dict[str, Any]]) -> None:
    for d in decisions:
        option_ids = [o["id"] for o in d["options"]]
        assert d["default"] in option_ids, f"{d['id']}: default {d['default']!r} is not one of {option_ids}"
        assert d["default"] == option_ids[0], f"{d['id']}: the default must be listed first"


def test_option_ids_are_unique_and_rejected_ones_are_not_options(
    decisions: list[dict[str, Any]],
) -> None:
    for d in decisions:
        option_ids = [o["id"] for o in d["options"]]
        assert len(option_ids) == len(set(option_ids)), f"{d['id']}: duplicate option IDs {option_ids}"
        rejected = [r["option"] for r in d["rejected"]]
        assert len(rejected) == len(set(rejected)), f"{d['id']}: duplicate rejected options {rejected}"
        both = set(option_ids) & set(rejected)
        assert not both, f"{d['id']}: {sorted(both)} is both an option and rejected"


def test_decision_origin(decisions: list[dict[str, Any]]) -> None:
    for d in decisions:
        expected = "rules-notes" if decision_number(d["id"]) <= 32 else "implementation"
        assert d["origin"] == expected, f"{d['id']}: origin must be {expected!r}"


def parse_readme_decision_table() -> dict[str, tuple[str, list[str]]]:
    """The decision table of spec/README.md: ID -> (key, options, default first)."""
    lines = (SPEC / "README.md").read_text(encoding="utf-8").splitlines()
    header = re.compile(r"^\|\s*ID\s*\|\s*key\s*\|\s*options")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    assert start is not None, "spec/README.md has no decision table (| ID | key | options ... |)"
    table: dict[str, tuple[str, list[str]]] = {}
    for line in lines[start + 2 :]:  # skip the header and the |---| row
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == 3, f"spec/README.md: unexpected decision row {line!r}"
        key = cells[1].strip("`")
        options = re.findall(r"`([^`]+)`", cells[2])
        assert cells[0] not in table, f"spec/README.md lists {cells[0]} twice"
        table[cells[0]] = (key, options)
    assert table, "spec/README.md: the decision table is empty"
    return table


def test_decisions_match_the_readme_table(decisions: list[dict[str, Any]]) -> None:
    table = parse_readme_decision_table()
    ours = {d["id"]: (d["key"], [o["id"] for o in d["options"]]) for d in decisions}
    assert sorted(ours, key=decision_number) == sorted(table, key=decision_number), (
        "spec/decisions.yaml and the table of spec/README.md list different decisions"
    )
    for decision_id, (key, options) in table.items():
        assert ours[decision_id] == (key, options), (
            f"{decision_id}: decisions.yaml has key/options {ours[decision_id]}, "
            f"spec/README.md has {(key, options)}"
        )


# ------------------------------------------------------ cross-references


def test_every_referenced_decision_and_clause_exists(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> None:
    clause_ids = {c["id"] for c in clauses}
    decision_ids = {d["id"] for d in decisions}
    for c in clauses:
        unknown = [d for d in c["decisions"] if d not in decision_ids]
        assert not unknown, f"{c['id']} refers to unknown decisions {unknown}"
    for d in decisions:
        unknown = [c for c in d["clauses"] if c not in clause_ids]
        assert not unknown, f"{d['id']} refers to unknown clauses {unknown}"


def test_clause_and_decision_references_agree(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> None:
    from_clauses = {(c["id"], d) for c in clauses for d in c["decisions"]}
    from_decisions = {(c, d["id"]) for d in decisions for c in d["clauses"]}
    only_clause = sorted(from_clauses - from_decisions)
    only_decision = sorted(from_decisions - from_clauses)
    assert not only_clause, f"clause lists decision, decision does not list clause: {only_clause}"
    assert not only_decision, f"decision lists clause, clause does not list decision: {only_decision}"


def test_every_interplay_names_others_that_exist_and_a_scenario_holds_it(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> None:
    """A decision's ``interplay`` (issue 31 §2.8) names other decisions and clauses that exist, and a
    hand-worked scenario whose ``requires`` names the decision and every decision it combines with."""
    known = {c["id"] for c in clauses} | {d["id"] for d in decisions}
    scenario_files = [p for p in (REPO / "conformance" / "scenarios").rglob("*.yaml") if "generated" not in p.parts]
    requires = [set(s["requires"]) for p in scenario_files
                for s in yaml.load(p.read_text(encoding="utf-8"), Loader=FAST_LOADER)["scenarios"] if isinstance(s.get("requires"), dict)]
    entries = [(d["id"], entry) for d in decisions for entry in d.get("interplay", [])]
    assert len(entries) >= 5
    for did, entry in entries:
        others = entry["with"]
        assert did not in others and set(others) <= known, f"{did}'s interplay with {others}"
        needed = {did, *(o for o in others if re.fullmatch(r"D[1-9][0-9]*", o))}
        assert any(needed <= names for names in requires), f"no scenario requires {sorted(needed)} together"

def test_decisions_named_in_a_statement_are_listed(clauses: list[dict[str, Any]]) -> None:
    for c in clauses:
        named = set(re.findall(r"\bD[1-9][0-9]*\b", c["statement"]))
        unlisted = sorted(named - set(c["decisions"]), key=decision_number)
        assert not unlisted, f"{c['id']}'s statement names {unlisted}, missing from its `decisions`"


def test_every_decision_is_used_by_some_clause(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> None:
    used = {d for c in clauses for d in c["decisions"]}
    unused = [d["id"] for d in decisions if d["id"] not in used]
    assert not unused, f"decisions no clause depends on: {unused}"


# ---------------------------------------------------------------- quotes


def all_quotes(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> Iterator[tuple[str, dict[str, str]]]:
    for item in [*clauses, *decisions]:
        for q in item.get("source", []):
            yield item["id"], q
        for example in item.get("examples", []):
            for q in example.get("source", []):
                yield f"{item['id']} (example {example['title']!r})", q


def test_quote_language_matches_its_seed(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> None:
    wrong = [
        f"{where}: seed {q['seed']} is {SEED_LANGS[q['seed']]!r}, not {q['lang']!r}"
        for where, q in all_quotes(clauses, decisions)
        if SEED_LANGS.get(q["seed"]) != q["lang"]
    ]
    assert not wrong, "\n".join(wrong)


def seed_texts() -> dict[str, str]:
    if not SEEDS_DIR.is_dir():
        pytest.skip(
            f"source texts not found at {SEEDS_DIR} (expected shared/seeds beside the "
            "repository, or set HAKKA_SEEDS_DIR); cannot check quotes"
        )
    texts = {}
    for seed in SEED_LANGS:
        files = sorted(SEEDS_DIR.glob(f"{seed}_*.txt"))
        assert len(files) == 1, f"expected one seed file {seed}_*.txt in {SEEDS_DIR}, found {files}"
        texts[seed] = files[0].read_text(encoding="utf-8")
    return texts


def test_every_quote_occurs_verbatim_in_its_seed(
    clauses: list[dict[str, Any]], decisions: list[dict[str, Any]]
) -> None:
    texts = seed_texts()
    missing = [
        f"{where}: seed {q['seed']} does not contain {q['quote']!r}"
        for where, q in all_quotes(clauses, decisions)
        if q["quote"] not in texts[q["seed"]]
    ]
    assert not missing, "quotes not found verbatim in the source texts:\n" + "\n".join(missing)
