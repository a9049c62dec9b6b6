"""The project's languages are one table, spec/languages.yaml (issue 28 §4), read through conformance.specdata."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from conformance.errors import InputError
from conformance.specdata import book_languages, default_languages, load_languages

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
CATALOGS = sorted([*(ROOT / "docs" / "locale").glob("*/LC_MESSAGES/*.po"),
                   *(ROOT / "hakka_play" / "locale").glob("*/LC_MESSAGES/*.po")])


def test_the_table_is_valid_against_its_schema() -> None:
    schema = json.loads((SPEC / "schema" / "languages.schema.json").read_text("utf-8"))
    jsonschema.validate(yaml.safe_load((SPEC / "languages.yaml").read_text("utf-8")), schema)


def test_the_book_is_in_five_languages_english_first_arabic_right_to_left() -> None:
    assert [lang.code for lang in book_languages()] == ["en", "de", "fr", "hi", "ar"]
    assert {lang.code for lang in default_languages() if lang.dir == "rtl"} == {"ar"}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: f"{p.parts[-4]}/{p.parts[-3]}/{p.name}")
def test_every_catalog_has_its_languages_plural_rule_and_its_language_is_in_the_book(po: Path) -> None:
    table = {lang.code: lang for lang in book_languages()}
    code = po.parts[-3]
    assert code in table, f"{po}: a catalog of a language that spec/languages.yaml does not give the book"
    with po.open("rb") as f:
        catalog = read_po(f)
    assert f"nplurals={catalog.num_plurals}; plural={catalog.plural_expr};" == table[code].plural


def test_every_translated_language_has_catalogs_for_the_book_and_the_table() -> None:
    for lang in book_languages()[1:]:
        assert (ROOT / "docs" / "locale" / lang.code / "LC_MESSAGES" / "hakka.po").is_file(), lang.code
        assert (ROOT / "hakka_play" / "locale" / lang.code / "LC_MESSAGES" / "table.po").is_file(), lang.code


def test_the_english_names_are_translated_in_the_rulebooks_catalog() -> None:
    for lang in book_languages()[1:]:
        with (ROOT / "docs" / "locale" / lang.code / "LC_MESSAGES" / "hakka.po").open("rb") as f:
            catalog = read_po(f)
        for named in default_languages():
            message = catalog.get(named.english)
            assert message is not None and message.string and not message.fuzzy, (lang.code, named.english)


def test_the_gettext_step_puts_the_english_names_into_the_template(tmp_path: Path) -> None:
    from docs.build_all import add_language_names

    pot = tmp_path / "hakka.pot"
    template = Catalog()
    template.add("seed {seed}", locations=[("../../_ext/hakka_render.py", 1)])
    with pot.open("wb") as f:
        write_po(f, template)
    add_language_names(pot)
    with pot.open("rb") as f:
        ids = {m.id for m in read_po(f) if m.id}
    assert ids == {"seed {seed}", *(lang.english for lang in default_languages())}


@pytest.mark.parametrize(("text", "wanted"), [
    ("languages: []\n", "English, the source of every message, must be the first language"),
    ("languages:\n  - code: en\n    name: English\n", "languages.yaml:2: a language needs exactly code, name"),
    ("languages:\n  - {code: en, name: E, english: E, dir: down, plural: 'nplurals=1; plural=0;', book: true}\n",
     "dir ltr or rtl"),
    ("languages:\n" + "  - {code: en, name: E, english: E, dir: ltr, plural: 'nplurals=1; plural=0;', book: true}\n" * 2,
     "languages.yaml:3: language 'en' is listed twice"),
    ("nothing: here\n", "expected a top-level `languages:` list"),
])
def test_a_broken_table_is_refused_naming_the_file_and_line(tmp_path: Path, text: str, wanted: str) -> None:
    (tmp_path / "languages.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_languages(tmp_path)
    assert wanted in str(info.value)


def test_a_missing_table_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"languages\.yaml: not found"):
        load_languages(tmp_path)
