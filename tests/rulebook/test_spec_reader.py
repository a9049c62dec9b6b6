"""The rulebook reads spec/ and the scenarios through the harness's one reader (issue 16, item 6)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from hakka_data import AREA_TITLES, SpecError, load_spec, scenario_group  # noqa: E402

from conformance.suite import Suite  # noqa: E402


def _copy(tmp_path: Path) -> Path:
    """spec/ and the scenarios, in a root of their own that a test may break."""
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    shutil.copytree(ROOT / "conformance" / "scenarios", tmp_path / "conformance" / "scenarios")
    return tmp_path


def test_the_book_reads_what_the_harness_reads() -> None:
    spec = load_spec(ROOT)
    suite = Suite.load(ROOT / "spec", [ROOT / "conformance" / "scenarios"])
    assert [s.id for s in spec.scenarios] == [s.id for s in suite.scenarios]
    assert [c["id"] for c in spec.clauses] == list(suite.spec.clauses or {})
    assert spec.areas() == [a.prefix for a in suite.spec.areas]
    assert [spec.area_title(a.prefix) for a in suite.spec.areas] == [a.title for a in suite.spec.areas]
    assert {a.title for a in suite.spec.areas} <= AREA_TITLES
    assert scenario_group(spec.scenarios[0]) == Path(spec.scenarios[0].file).parts[2]


def test_a_scenario_the_harness_refuses_stops_the_book(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    bad = root / "conformance" / "scenarios" / "patterns" / "zz-bad.yaml"
    bad.write_text("scenarios:\n  - id: zz-bad\n    title: t\n    clauses: [NOPE-1]\n"
                   "    pattern: {cards: Sup1, expect: single}\n", encoding="utf-8")
    with pytest.raises(SpecError, match="zz-bad"):
        load_spec(root)


def test_an_area_without_a_msgid_stops_the_book(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    clauses = root / "spec" / "clauses.yaml"
    clauses.write_text(clauses.read_text("utf-8").replace("title: Dealing,", "title: Shuffling,"), "utf-8")
    with pytest.raises(SpecError, match="Shuffling"):
        load_spec(root)
