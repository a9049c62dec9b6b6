"""The glossary's words per language come from that language's seed (docs/locale/terms.yaml).

Translators use these words; this test holds the data to the seeds: every term marked
``from_seed`` occurs in its seed at the line given, every language has every term, and
a term not found in its seed says why (the English and German seeds stop part-way).
The seeds are ``../shared/seeds`` beside the repository (or ``HAKKA_SEEDS_DIR``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.specdata import book_languages

ROOT = Path(__file__).resolve().parents[2]
TERMS = ROOT / "docs" / "locale" / "terms.yaml"
SEEDS_DIR = Path(os.environ.get("HAKKA_SEEDS_DIR", ROOT.parent / "shared" / "seeds"))
LANGUAGES = tuple(lang.code for lang in book_languages())  # spec/languages.yaml, the one table
KEYS = {"Sup", "Gon", "Zok", "Sin", "Wan Sin", "Elder", "Dreamer", "Dealer", "Privileged Player", "Run", "Set",
        "Single", "trick", "Five Tigers", "claim"}


def load() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(TERMS.read_text(encoding="utf-8"))
    return data


def misplaced(data: dict[str, Any], seeds_dir: Path) -> list[str]:
    """Every seed term that is not at its line of its seed, as readable lines."""
    problems = []
    for lang, terms in data["terms"].items():
        seed_file = seeds_dir / data["seeds"][lang]
        lines = seed_file.read_text(encoding="utf-8").splitlines()
        for key, t in terms.items():
            where = f"{TERMS.name}: {lang} {key!r}"
            if not t.get("from_seed"):
                if not t.get("note"):
                    problems.append(f"{where}: not from the seed, and no note says why")
                continue
            line = t.get("line")
            form = str(t.get("seed_form", ""))
            if not isinstance(line, int) or not 1 <= line <= len(lines):
                problems.append(f"{where}: line {line!r} is not a line of {seed_file.name}")
            elif not form or form not in lines[line - 1]:
                found = [n for n, text in enumerate(lines, 1) if form and form in text]
                problems.append(f"{where}: {form!r} is not on line {line} of {seed_file.name} (found on {found})")
    return problems


def test_every_language_has_every_term() -> None:
    data = load()
    assert set(data["terms"]) == set(LANGUAGES)
    missing = [f"{lang}: {sorted(KEYS - set(terms))}" for lang, terms in data["terms"].items() if set(terms) != KEYS]
    assert not missing, missing
    assert all(t["term"] for terms in data["terms"].values() for t in terms.values())


def test_each_seed_term_occurs_in_its_seed_at_its_line() -> None:
    if not SEEDS_DIR.is_dir():
        pytest.skip(f"seeds not found at {SEEDS_DIR} (shared/seeds beside the repository, or HAKKA_SEEDS_DIR)")
    assert misplaced(load(), SEEDS_DIR) == []


def test_the_check_finds_a_term_that_is_not_in_its_seed(tmp_path: Path) -> None:
    (tmp_path / "fr.txt").write_text("Le Donneur donne.\nLe Rêveur dort.\n", encoding="utf-8")
    data = {"seeds": {"fr": "fr.txt"}, "terms": {"fr": {
        "Dealer": {"term": "Donneur", "from_seed": True, "seed_form": "Donneur", "line": 1},
        "Dreamer": {"term": "Rêveur", "from_seed": True, "seed_form": "Rêveur", "line": 1},
        "claim": {"term": "réclamer", "from_seed": False, "line": None},
    }}}
    problems = misplaced(data, tmp_path)
    assert len(problems) == 2
    assert "'Rêveur' is not on line 1 of fr.txt (found on [2])" in problems[0]
    assert "no note says why" in problems[1]
