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
    assert [p.kind for p in check(tmp_path, ["xx"])] == ["missing"]
