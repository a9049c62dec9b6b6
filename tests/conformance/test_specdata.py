"""conformance/specdata.py is the one reader of spec/ (issue 16.6): the areas once, the table through it."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from conformance.errors import InputError
from conformance.loader import area_sort_key
from conformance.rulebook import Rulebook
from conformance.specdata import Area, default_spec_data, load_spec_data

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "spec"


def test_the_areas_are_listed_once_in_spec_and_the_rest_of_spec_agrees() -> None:
    spec = default_spec_data()
    assert [a.prefix for a in spec.areas][:3] == ["CARDS", "GAME", "DEAL"] and len(spec.areas) == 11
    ids = [a.id for a in spec.areas]
    enum = json.loads((SPEC / "schema" / "clauses.schema.json").read_text())["$defs"]["clause"]["properties"]["area"]
    assert enum["enum"] == ids  # the schema's vocabulary of a clause's `area`
    table = re.findall(r"^\| (\w+) \| `([A-Z]+)` \| (.+?) \|$", (SPEC / "README.md").read_text(), re.M)
    assert table == [(a.id, a.prefix, a.covers) for a in spec.areas]  # spec/README.md's table of areas
    by_id = {a.id: a for a in spec.areas}
    for rule, area in (spec.clauses or {}).items():
        assert rule.split("-")[0] == by_id[area].prefix, rule


def test_areas_sort_in_the_reading_order_of_spec() -> None:
    assert sorted(["OBS", "ZZZ", "CARDS", "PAT", "AAA"], key=area_sort_key) == ["CARDS", "PAT", "OBS", "AAA", "ZZZ"]
    assert default_spec_data().area_of_prefix("TIG") == Area("tigers", "TIG", "Five Tigers", "Five Tigers")


def _spec_copy(tmp_path: Path) -> Path:
    spec = tmp_path / "spec"
    spec.mkdir()
    for name in ("clauses.yaml", "decisions.yaml", "expectations.yaml"):
        shutil.copy(SPEC / name, spec / name)
    return spec


def test_the_play_table_reads_spec_through_the_one_reader(tmp_path: Path) -> None:
    source = (REPO / "conformance" / "rulebook.py").read_text()
    imported = {n.names[0].name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import)}
    assert "yaml" not in imported
    spec = _spec_copy(tmp_path)
    data = yaml.safe_load((spec / "decisions.yaml").read_text())
    data["decisions"][0]["title"] = "A title changed in this copy"
    (spec / "decisions.yaml").write_text(yaml.safe_dump(data))
    book = Rulebook.load(spec)
    first = data["decisions"][0]["id"]
    assert book.title(first) == "A title changed in this copy" == load_spec_data(spec).title(first)
    assert set(book.clauses) == set(load_spec_data(spec).clauses or {}) and book.href("PLAY-4")


def test_a_broken_spec_file_is_an_input_error_naming_it_for_the_table_too(tmp_path: Path) -> None:
    spec = _spec_copy(tmp_path)
    (spec / "clauses.yaml").write_text("clauses:\n  - id: [unclosed\n")
    with pytest.raises(InputError) as raised:
        Rulebook.load(spec)
    assert "clauses.yaml" in str(raised.value)
