"""The rulebook's translation pipeline, on a small book of two clauses and one decision.

What the real book relies on, each proved by a build of a tiny spec through the
real extension (docs/_ext), Sphinx's gettext builder and sphinx-intl:

* a clause statement and a decision's texts are collected into the catalogs, at
  their line of spec/*.yaml, as plain text (an ID stays an ID, no markup);
* words the extension writes itself, IDs alone and sentences with numbers are not
  page messages (those are in hakka.pot, with placeholders);
* a translated statement is shown, its IDs turned into links after translation,
  and the extension's labels come from hakka.po;
* when a clause changes, its message comes back fuzzy.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("sphinx_intl")
pytest.importorskip("babel")
from babel.messages.catalog import Message  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from docs.build_all import TRANSLATED  # noqa: E402

STATEMENT = "The deck has 37 cards; see CARDS-2 and D1."
CLAUSES = """clauses:
  - id: CARDS-1
    area: cards
    title: The deck
    statement: >-
      {statement}
    decisions: [D1]
  - id: CARDS-2
    area: cards
    title: Suit order
    statement: Sup ranks above Gon.
    decisions: []
areas:
  - {{id: cards, prefix: CARDS, title: The cards}}
"""
DECISIONS = """decisions:
  - id: D1
    key: direction
    title: Direction of play
    question: Which way does play go?
    options:
      - id: counterclockwise
        summary: To the right.
      - id: clockwise
        summary: To the left.
    default: counterclockwise
    rationale: The source says so.
  - id: D2
    key: deal_order
    title: Deal order
    question: Who gets the first card?
    options:
      - id: dealer-first
        summary: The Dealer first.
    default: dealer-first
    rationale: The deal goes round.
    interplay:
      - with: [D1]
        text: {interplay}
"""
INTERPLAY = "With D1 clockwise the Dealer is still dealt first."
CONF = """
import sys
sys.path.insert(0, {ext!r})
sys.path.insert(0, {root!r})
extensions = ["hakka_spec"]
hakka_root = {spec_root!r}
locale_dirs = ["locale/"]
gettext_compact = True
gettext_uuid = False
exclude_patterns = ["_build"]
"""
INDEX = """Book
====

.. toctree::

   rules/index
   decisions
   scenarios/index
"""


def make_book(tmp: Path, statement: str = STATEMENT) -> Path:
    spec_root = tmp / "root"
    (spec_root / "spec" / "schema" / "protocol").mkdir(parents=True, exist_ok=True)
    (spec_root / "conformance" / "scenarios").mkdir(parents=True, exist_ok=True)
    for name in ("PROTOCOL.md", "SCENARIOS.md"):
        (spec_root / "spec" / name).write_text("x\n", encoding="utf-8")
    # The harness's reader (Suite.load) reads every schema, the protocol's included.
    shutil.copytree(ROOT / "spec" / "schema", spec_root / "spec" / "schema", dirs_exist_ok=True)
    (spec_root / "spec" / "clauses.yaml").write_text(CLAUSES.format(statement=statement), encoding="utf-8")
    (spec_root / "spec" / "decisions.yaml").write_text(DECISIONS.format(interplay=INTERPLAY), encoding="utf-8")
    docs = tmp / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "conf.py").write_text(
        CONF.format(ext=str(ROOT / "docs" / "_ext"), root=str(ROOT), spec_root=str(spec_root)), encoding="utf-8"
    )
    (docs / "index.rst").write_text(INDEX, encoding="utf-8")
    (docs / "decisions.rst").write_text("Decisions\n=========\n\n.. hakka-decisions::\n", encoding="utf-8")
    return docs


def run(*args: str, cwd: Path = ROOT) -> None:
    proc = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def gettext(docs: Path) -> Path:
    pot = docs / "_build" / "gettext"
    run("-m", "sphinx", "-q", "-b", "gettext", str(docs), str(pot))
    run("-m", "babel.messages.frontend", "-q", "extract", "-o", str(pot / "hakka.pot"), str(ROOT / "docs" / "_ext"))
    run("-m", "sphinx_intl", "update", "-p", str(pot), "-d", str(docs / "locale"), "-l", "fr")
    return docs / "locale" / "fr" / "LC_MESSAGES"


def catalog(path: Path) -> dict[str, Message]:
    with path.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0]: m for m in read_po(f) if m.id}


def translate(path: Path, strings: dict[str, str]) -> None:
    with path.open("rb") as f:
        cat = read_po(f)
    for msgid, text in strings.items():
        cat[msgid].string = text
    with path.open("wb") as f:
        write_po(f, cat)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    docs = make_book(tmp_path_factory.mktemp("book"))
    return docs, gettext(docs)


def test_clause_and_decision_texts_are_collected_at_their_line_in_spec(book: tuple[Path, Path]) -> None:
    _docs, fr = book
    rules = catalog(fr / "rules.po")
    assert STATEMENT in rules
    assert any(loc[0].endswith("spec/clauses.yaml") and loc[1] == 2 for loc in rules[STATEMENT].locations)
    assert {"The deck", "Suit order"} <= set(rules)
    decisions = catalog(fr / "decisions.po")
    assert {"Direction of play", "Which way does play go?", "To the right.", "The source says so."} <= set(decisions)


def test_ids_labels_and_numbers_are_not_page_messages(book: tuple[Path, Path]) -> None:
    _docs, fr = book
    pages = set(catalog(fr / "rules.po")) | set(catalog(fr / "decisions.po"))
    assert not [m for m in pages if m.startswith(("CARDS-1", "D1 ", "Clauses ", "The 2 clauses", "Depends on"))]
    own = catalog(fr / "hakka.po")
    assert {"Depends on", "Source", "Why the default"} <= set(own)
    assert any(m.startswith("The {clauses} clauses of the rules") for m in own)


def test_a_translation_is_shown_with_its_ids_linked_and_the_labels_translated(book: tuple[Path, Path]) -> None:
    docs, fr = book
    translate(fr / "rules.po", {STATEMENT: "Le paquet a 37 cartes ; voir D1 et CARDS-2."})
    translate(fr / "hakka.po", {"Depends on": "Dépend de"})
    out = docs / "_build" / "html-fr"
    run("-m", "sphinx", "-q", "-W", "-b", "html", "-D", "language=fr", str(docs), str(out))
    page = (out / "rules" / "cards.html").read_text(encoding="utf-8")
    assert "Le paquet a 37 cartes" in page
    assert 'href="#cards-2"' in page and 'href="../decisions.html#d1"' in page
    assert "Dépend de" in page and "Depends on" not in page
    assert STATEMENT not in page


def test_an_interplay_is_one_message_shown_with_each_decision_it_names(book: tuple[Path, Path]) -> None:
    """A decision's interplay (issue 31 §2.8) is written and translated once, and shown, translated and
    labelled, in the section of the decision that holds it and of every decision it names."""
    docs, fr = book
    decisions = catalog(fr / "decisions.po")
    assert INTERPLAY in decisions and "Interplay" in catalog(fr / "hakka.po")
    translate(fr / "decisions.po", {INTERPLAY: "Avec D1 clockwise, le Donneur reçoit toujours la première carte."})
    translate(fr / "hakka.po", {"Interplay": "Combinaison des décisions"})
    out = docs / "_build" / "html-fr-interplay"
    run("-m", "sphinx", "-q", "-W", "-b", "html", "-D", "language=fr", str(docs), str(out))
    page = (out / "decisions.html").read_text(encoding="utf-8")
    sections = re.split(r'<section class="hk-decision" id="d[12]">', page)[1:]
    assert len(sections) == 2
    for section in sections:
        box = section.split('class="hk-interplay', 1)[1].split("</div>", 1)[0]
        assert "Combinaison des décisions" in box and "le Donneur reçoit toujours la première carte" in box
        assert 'href="#d1"' in box
    assert INTERPLAY not in page


def test_a_changed_clause_comes_back_fuzzy(tmp_path: Path) -> None:
    docs = make_book(tmp_path)
    fr = gettext(docs)
    translate(fr / "rules.po", {STATEMENT: "Le paquet a 37 cartes ; voir CARDS-2 et D1."})
    make_book(tmp_path, statement="The deck has 37 distinct cards; see CARDS-2 and D1.")
    gettext(docs)
    rules = catalog(fr / "rules.po")
    changed = rules["The deck has 37 distinct cards; see CARDS-2 and D1."]
    assert changed.fuzzy
    assert changed.string == "Le paquet a 37 cartes ; voir CARDS-2 et D1."


# ------------------------------------------------------------- the extension's own catalog (no build)

EXT = ROOT / "docs" / "_ext"
LITERAL_CALL = re.compile(r"""\b(?:N_|_|ngettext)\(\s*(["'])(.+?)(?<!\\)\1""")


def extracted() -> set[str]:
    """The msgids babel extracts from docs/_ext, as `python -m docs.build_all gettext` does."""
    from babel.messages.extract import extract_from_dir

    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    return {
        msg if isinstance(msg, str) else msg[0]
        for _file, _line, msg, _comments, _context in extract_from_dir(str(EXT), keywords=keywords)
    }


def test_every_message_written_in_docs_ext_is_extracted() -> None:
    """A `_()` babel cannot see (inside an f-string, say) would stay English in every language."""
    written = {m.group(2) for path in EXT.glob("*.py") for m in LITERAL_CALL.finditer(path.read_text("utf-8"))}
    found = extracted()
    # A literal continued on the next line ("a " "b") is the start of its message.
    missed = sorted(w for w in written if not any(m.startswith(w) for m in found))
    assert not missed, f"messages of docs/_ext that babel does not extract (in an f-string?): {missed}"


def test_the_committed_catalogs_hold_every_message_of_docs_ext() -> None:
    """Run `python -m docs.build_all gettext` after changing the extension's words."""
    wanted = extracted()
    for lang in TRANSLATED:
        have = set(catalog(ROOT / "docs" / "locale" / lang / "LC_MESSAGES" / "hakka.po"))
        assert not sorted(wanted - have), f"{lang}/hakka.po lacks {sorted(wanted - have)[:10]}"
