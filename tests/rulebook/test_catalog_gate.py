"""The translations' gate (docs/catalog_gate.py, ``python -m docs.build_all check``).

It passes every language's complete catalogs, and it fails, naming the file, the line and
what is wrong, on a copy of them broken in each way it exists to catch: an empty msgstr, a
fuzzy message, prose left in English, a message of the templates missing from the catalog.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "docs" / "locale"
pytest.importorskip("babel")
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from conformance.specdata import book_languages  # noqa: E402
from docs.catalog_gate import check, copy_allowed, prose_words  # noqa: E402


@pytest.mark.parametrize("lang", [lang.code for lang in book_languages()][1:])
def test_every_catalog_of_the_language_passes_the_gate(lang: str) -> None:
    problems = check(LOCALE, [lang])
    assert not problems, "\n".join(map(str, problems[:30])) + f"\n({len(problems)} problems)"


def test_notation_may_stay_as_it_is_and_prose_may_not() -> None:
    for notation in ["``hakka-conformance run``", "`engine.name`, `engine.version`", "2 < 3 < ... < 8 < 1 < 9",
                     "spec/schema/protocol/act.request.schema.json", "Wan Sin", "PP", "PLAY-4 D7",
                     "``FAIL <scenario id> (<file>:<line>) [<clauses>]``", "{count}"]:
        assert prose_words(notation) == [], notation
        assert copy_allowed(notation, "ar") and copy_allowed(notation, "fr")
    assert copy_allowed("Options", "fr")  # one word the same in French and English: a cognate
    assert not copy_allowed("Options", "ar") and not copy_allowed("Options", "hi")
    assert not copy_allowed("Depends on", "fr")
    assert not copy_allowed("The deck has 37 cards; see CARDS-2.", "de")


def _po(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _save(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as f:
        write_po(f, catalog, width=0)


@pytest.fixture
def broken(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the French catalogs, one message broken each way; returns it and the broken msgids."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE / "fr", locale / "fr")
    hakka = locale / "fr" / "LC_MESSAGES" / "hakka.po"
    catalog = _po(hakka)
    catalog["Depends on"].string = ""
    catalog["Why the default"].flags.add("fuzzy")
    catalog["Rejected alternatives"].string = "Rejected alternatives"
    catalog["Seat"].string = "Seat"  # one word the same as the English: allowed in French
    _save(catalog, hakka)
    templates = tmp_path / "pot"
    templates.mkdir()
    pot = Catalog()
    pot.add("Depends on")
    pot.add("A sentence added to the extension since the last regeneration")
    _save(pot, templates / "hakka.pot")
    _save(Catalog(), templates / "newpage.pot")
    return locale, {"untranslated": "Depends on", "fuzzy": "Why the default", "english": "Rejected alternatives",
                    "missing": "A sentence added to the extension since the last regeneration"}


def test_a_broken_catalog_fails_the_gate_with_file_line_and_reason(broken: tuple[Path, dict[str, str]]) -> None:
    locale, want = broken
    problems = check(locale, ["fr"], locale.parent / "pot")
    found = {(p.kind, p.msgid) for p in problems}
    for kind, msgid in want.items():
        assert (kind, msgid) in found, f"the gate missed the {kind} message {msgid!r}: {found}"
    assert ("missing", "the whole catalog newpage.pot") in found
    assert len(problems) == len(want) + 1, "\n".join(map(str, problems))  # "Seat" = "Seat" passes
    shown = "\n".join(map(str, problems))
    assert "docs/locale/fr/LC_MESSAGES/hakka.po:" in shown and "is fuzzy" in shown and "own English" in shown


def test_the_command_fails_on_the_broken_catalog_and_passes_on_french(broken: tuple[Path, dict[str, str]]) -> None:
    locale, _want = broken
    cmd = [sys.executable, "-m", "docs.build_all", "check", "--no-extract", "--lang", "fr"]
    bad = subprocess.run([*cmd, "--locale", str(locale)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "is not translated" in bad.stdout and "incomplete: fr" in bad.stdout, bad.stdout
    good = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert good.returncode == 0 and "complete: fr" in good.stdout, good.stdout + good.stderr


def test_a_language_without_catalogs_fails(tmp_path: Path) -> None:
    assert [p.kind for p in check(tmp_path, ["xx"], theme_locale=None)] == ["missing"]


# ---------------------------------------------------------------------------------------------
# Wrong terms and the theme's words (issue 30 §5): each check fails on the catalogs as they were.

# (language, catalog, the start of the msgid, the msgstr as it stood before issue 30, the wrong word)
OLD = [
    ("hi", "rules", "When a hand ends with a winner (a claim or Five Tigers), the Dreamer wakes",
     "जब हाथ में कोई विजेता न हो तो यह शून्य (null) होती है।", "null"),
    ("hi", "guides", "the scenario cannot apply: it needs a capability",
     "या ऐसे निर्णय विकल्प जिनका non-configurable इंजन पालन नहीं करता;", "non-configurable"),
    ("hi", "guides", "Every scenario the adapter can answer passes.", "(इंजन configurable नहीं है)", "configurable"),
    ("hi", "rules", "Each seat's game score starts at 0", "उस सीट के deltas (SCORE-3 से SCORE-7) का योग", "deltas"),
    ("hi", "reference", "After the batch, the session is", "batch के बाद सत्र वहीं है", "batch"),
    ("hi", "reference", "Every random decision is a *draw*", "(पर दिया गया एक choice फिर भी खर्च करता है)", "choice"),
    ("hi", "rules", "A Set is 3 or more cards of the same number.",
     "(देखें D17, डिफ़ॉल्ट no; yes के अंतर्गत वैन सिन 1s के सेट में जुड़ सकता है)", "no"),
    ("ar", "reference", "This is the normative contract between", "على نهج بروتوكول الحزام في Bowtie", "الحزام"),
    ("ar", "guides", "Add a regression scenario", "إضافة سيناريو انحدار", "انحدار"),
    ("fr", "rules", "When a hand ends with a winner (a claim or Five Tigers), the Dreamer wakes",
     "Il est nul (null) lorsque la main n’a pas de vainqueur.", "null"),
]


def _msgid(catalog: Catalog, start: str) -> str:
    found = [m.id for m in catalog if m.id and isinstance(m.id, str) and m.id.startswith(start)]
    assert len(found) == 1, f"{start!r}: {len(found)} messages"
    return found[0]


@pytest.mark.parametrize(("lang", "name", "start", "old", "word"), OLD, ids=[f"{o[0]}-{o[4]}" for o in OLD])
def test_the_wrong_terms_check_fails_on_the_old_string(tmp_path: Path, lang: str, name: str, start: str,
                                                       old: str, word: str) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE / lang, locale / lang)
    po = locale / lang / "LC_MESSAGES" / f"{name}.po"
    catalog = _po(po)
    msgid = _msgid(catalog, start)
    assert check(locale, [lang], theme_locale=None) == []  # as it is now
    catalog[msgid].string = old
    _save(catalog, po)
    problems = check(locale, [lang], theme_locale=None)
    assert {(p.kind, p.msgid) for p in problems} == {("wrong-term", msgid)}, "\n".join(map(str, problems))
    assert any(f"{word!r}" in str(p) for p in problems)
    assert f"{name}.po:" in str(problems[0]) and "write " in str(problems[0])


def test_a_word_written_as_code_is_notation_and_passes() -> None:
    from docs.catalog_gate import load_wrong_terms

    null = next(t for t in load_wrong_terms()["hi"] if t.wrong == "null")
    assert null.found_in("अन्यथा null") and null.found_in("अन्यथा Null")
    assert not null.found_in("अन्यथा ``null``") and not null.found_in("अन्यथा `null`")
    assert not null.found_in("nullable") and not null.found_in("{null}")


def test_an_unquoted_yaml_word_is_refused(tmp_path: Path) -> None:
    from docs.catalog_gate import load_wrong_terms

    bad = tmp_path / "wrong_terms.yaml"
    bad.write_text("fr:\n  - {wrong: null, use: aucun, why: English}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="quote the word"):
        load_wrong_terms(bad)


def test_the_theme_check_fails_without_the_books_theme_catalogs(tmp_path: Path) -> None:
    """Sphinx's catalogs alone leave the theme's words English: French Go, alabaster's tooltips, Hindi permalinks."""
    from docs.catalog_gate import check_theme

    assert check_theme(["de", "fr", "hi", "ar"]) == []
    found = {(p.language, p.kind, p.msgid) for p in check_theme(["de", "fr", "hi", "ar"], tmp_path)}
    for want in [("fr", "wrong-term", "Go"), ("de", "untranslated", "Previous document"),
                 ("fr", "untranslated", "Next document"), ("ar", "untranslated", "Main"),
                 ("hi", "untranslated", "Link to this term"), ("ar", "untranslated", "Link to this heading")]:
        assert want in found, f"the theme check missed {want}: {sorted(found)}"


# None left: French "Seat {seat}" is "Place {seat}" too, with hakka_play/i18n.py's doctest and tests/play/test_browser.py.
TABLE_LEFT: set[tuple[str, str]] = set()


def test_the_tables_catalogs_have_no_wrong_term() -> None:
    from docs.catalog_gate import check_wrong_terms

    problems = [p for lang in ("de", "fr", "hi", "ar")
                for p in check_wrong_terms(ROOT / "hakka_play" / "locale" / lang / "LC_MESSAGES" / "table.po", lang,
                                           folder="hakka_play/locale")]
    assert {(p.language, p.msgid) for p in problems} == TABLE_LEFT, "\n".join(map(str, problems))


# The table's msgstrs as they stood before issue 30 (hakka_play/locale): the wrong word each one used.
TABLE_OLD = [
    ("de", "Does the challenger beat the play on the table?", "Sticht die gespielte Kombination die auf dem Tisch?", "sticht"),
    ("de", "Your turn: beat the best play, or discard.", "Sie sind am Zug: stechen Sie die beste Kombination oder werfen Sie ab.",
     "stechen"),
    ("fr", "Seat {seat}", "Siège {seat}", "siège"),
    ("fr", "every seat of this table is taken", "tous les sièges de cette table sont pris", "sièges"),
]


@pytest.mark.parametrize(("lang", "msgid", "old", "word"), TABLE_OLD, ids=[f"{t[0]}-{t[3]}" for t in TABLE_OLD])
def test_the_table_check_fails_on_the_old_string(tmp_path: Path, lang: str, msgid: str, old: str, word: str) -> None:
    from docs.catalog_gate import check_wrong_terms

    po = tmp_path / "table.po"
    shutil.copy(ROOT / "hakka_play" / "locale" / lang / "LC_MESSAGES" / "table.po", po)
    assert check_wrong_terms(po, lang, folder="hakka_play/locale") == []
    catalog = _po(po)
    catalog[msgid].string = old
    _save(catalog, po)
    problems = check_wrong_terms(po, lang, folder="hakka_play/locale")
    assert {(p.kind, p.msgid) for p in problems} == {("wrong-term", msgid)}
    assert any(f"{word!r}" in str(p).lower() for p in problems), problems


def test_the_gate_command_reads_the_tables_catalogs_too(tmp_path: Path) -> None:
    """``python -m docs.build_all check`` (CI's gate, before the tests) refuses a wrong term in a table catalog,
    not only the tests: French "siège" planted in a copy of the table's catalog is named at its catalog."""
    table = tmp_path / "fr" / "LC_MESSAGES" / "table.po"
    table.parent.mkdir(parents=True)
    shutil.copy(ROOT / "hakka_play" / "locale" / "fr" / "LC_MESSAGES" / "table.po", table)
    assert check(LOCALE, ["fr"], theme_locale=None, table_locale=tmp_path) == []
    catalog = _po(table)
    catalog["Seat {seat}"].string = "Siège {seat}"
    _save(catalog, table)
    problems = check(LOCALE, ["fr"], theme_locale=None, table_locale=tmp_path)
    assert [(p.catalog, p.kind, p.msgid) for p in problems] == [("table", "wrong-term", "Seat {seat}")]
