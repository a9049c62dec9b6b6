"""The rulebook in its five languages, read from the built HTML of each (tests/rulebook/conftest.py).

* each clause page in each language shows, first, a quote from that language's seed wherever
  spec/clauses.yaml has one, and otherwise the note saying which seed has the passage;
* every page has ``<html lang dir>`` right for its language (Arabic ``rtl``), and a language
  switcher whose links go to the same page in each language's build, all of which exist;
* the furniture (title, description) is in the page's language, and in Arabic the label of a
  quote uses the Arabic comma.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.specdata import book_languages

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = tuple(lang.code for lang in book_languages())  # spec/languages.yaml, the one table
PAGES = ("index.html", "rules/play.html", "glossary.html", "decisions.html", "reference/protocol.html")
Book = Callable[[str], Path]


def clauses() -> list[dict[str, Any]]:
    with (ROOT / "spec" / "clauses.yaml").open(encoding="utf-8") as f:
        return list(yaml.safe_load(f)["clauses"])


class ClauseQuotes(HTMLParser):
    """Per clause section (``<section class="hk-clause" id=…>``): its source quotes in order, and whether a note is shown.

    Only the clause's own sources count (``<div class="hk-sources">``), not those of its examples.
    A quote is (lang, text, folded): folded when it is inside ``<details>`` (the other seeds).
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.quotes: dict[str, list[tuple[str, str, bool]]] = {}
        self.notes: set[str] = set()
        self._section: str | None = None
        self._depth = 0  # <section> nesting inside the current clause
        self._details = 0
        self._quote: tuple[str, list[str]] | None = None
        self._divs = 0  # <div> nesting inside the sources box, 0 outside it

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section":
            if "hk-clause" in (a.get("class") or "").split() and a.get("id"):
                self._section, self._depth = str(a["id"]).upper(), 0
            elif self._section:
                self._depth += 1
        elif self._section is None:
            return
        elif tag == "div" and (self._divs or "hk-sources" in (a.get("class") or "").split()):
            self._divs += 1
        elif not self._divs:
            return
        elif tag == "details":
            self._details += 1
        elif tag == "blockquote":
            self._quote = (str(a.get("lang") or ""), [])
        elif tag == "p" and "hk-quote-note" in (a.get("class") or "").split():
            self.notes.add(self._section)

    def handle_endtag(self, tag: str) -> None:
        if self._section is None:
            return
        if tag == "div" and self._divs:
            self._divs -= 1
        elif tag == "section":
            if self._depth:
                self._depth -= 1
            else:
                self._section = None
        elif tag == "details":
            self._details -= 1
        elif tag == "blockquote" and self._quote is not None:
            lang, parts = self._quote
            self.quotes.setdefault(self._section, []).append((lang, "".join(parts).strip(), self._details > 0))
            self._quote = None

    def handle_data(self, data: str) -> None:
        if self._quote is not None:
            self._quote[1].append(data)


def page_of(cid: str) -> str:
    return f"rules/{cid.split('-')[0].lower()}.html"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_clause_shows_the_quote_of_its_language_seed_first(book: Book, lang: str) -> None:
    html = book(lang)
    parsed: dict[str, ClauseQuotes] = {}
    wrong = []
    for clause in clauses():
        cid, sources = clause["id"], clause.get("source", [])
        page = page_of(cid)
        if page not in parsed:
            parsed[page] = ClauseQuotes()
            parsed[page].feed((html / page).read_text(encoding="utf-8"))
        shown = parsed[page].quotes.get(cid, [])
        own = {" ".join(q["quote"].split()) for q in sources if q["lang"] == lang}
        if not sources:
            continue
        if not shown:
            wrong.append(f"{cid}: no quote on {page}")
        elif own:
            first_lang, first_text, folded = shown[0]
            if first_lang != lang or folded or " ".join(first_text.split()) not in own:
                wrong.append(f"{cid}: first quote on {lang}/{page} is {first_lang} {first_text[:40]!r}, not its {lang} seed's")
            missing = own - {" ".join(t.split()) for la, t, f in shown if la == lang and not f}
            if missing:
                wrong.append(f"{cid}: {lang} quotes not shown unfolded: {sorted(missing)[:2]}")
        elif cid not in parsed[page].notes:
            wrong.append(f"{cid}: the {lang} seed lacks the passage but {lang}/{page} has no note saying so")
    assert not wrong, "\n".join(wrong)


def test_clauses_yaml_quotes_every_seed_that_has_the_passage() -> None:
    """The languages quoted per clause (19.2): the complete seeds (fr, hi, ar) are each quoted in every clause."""
    lacking = [f"{c['id']} lacks {lang}" for c in clauses() for lang in ("fr", "hi", "ar")
               if c.get("basis") != "derived" and lang not in {q["lang"] for q in c.get("source", [])}]
    assert not lacking, "\n".join(lacking)


HTML_TAG = re.compile(r"<html\b[^>]*>")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_has_lang_and_dir_and_a_switcher_that_keeps_the_page(book: Book, lang: str) -> None:
    html = book(lang)
    want_dir = "rtl" if lang == "ar" else "ltr"
    wrong = []
    for page in sorted(html.rglob("*.html")):
        rel = page.relative_to(html).as_posix()
        if rel.startswith(("_", "genindex", "search")) and rel not in ("genindex.html", "search.html"):
            continue
        text = page.read_text(encoding="utf-8")
        tag = HTML_TAG.search(text)
        if tag is None or f'lang="{lang}"' not in tag.group(0) or f'dir="{want_dir}"' not in tag.group(0):
            wrong.append(f"{rel}: {tag.group(0) if tag else 'no <html>'}")
        links = re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', text)
        if sorted(code for _href, code in links) != sorted(LANGUAGES):
            wrong.append(f"{rel}: switcher links to {links}")
        for href, code in links:
            if (page.parent / href).resolve() != (html.parent / code / rel).resolve():
                wrong.append(f"{rel}: the {code} link {href} is not the same page")
    assert not wrong, "\n".join(wrong[:20])


def test_the_switcher_links_resolve_between_the_built_languages(book: Book) -> None:
    for lang in ("fr", "ar"):
        book(lang)
    for page in PAGES:
        text = (book("ar") / page).read_text(encoding="utf-8")
        for href, code in re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', text):
            if code in ("fr", "ar"):
                assert ((book("ar") / page).parent / href).resolve().exists(), f"ar/{page}: {href} does not exist"


def test_the_furniture_is_in_the_page_language(book: Book) -> None:
    fr = (book("fr") / "index.html").read_text(encoding="utf-8")
    assert "<title>Livre de règles des Cartes Hakka" in fr
    assert "Règles, décisions, conformité" in fr and "Rules, decisions, conformance" not in fr
    assert "Recherche rapide" in fr  # the theme's own words, from Sphinx's French catalog
    ar = (book("ar") / "rules" / "cards.html").read_text(encoding="utf-8")
    assert "كتاب قواعد لعبة الورق هاكا" in ar and "Hakka Cards rulebook" not in ar
    assert re.search(r'<span class="hk-lang">[^<]+</span>، ', ar), "an Arabic quote label joins with the Arabic comma"
    assert not re.search(r'<span class="hk-lang">[^<]+</span>, ', ar)


def test_the_area_is_named_in_the_page_language(book: Book) -> None:
    ar = (book("ar") / "rules" / "call.html").read_text(encoding="utf-8")
    intro = re.search(r'<p class="hk-area-intro">(.*?)</p>', ar, re.S)
    assert intro is not None and "calling" not in intro.group(1), intro.group(1) if intro else "no intro"


@pytest.mark.parametrize(("lang", "sup", "wan"), [("hi", "सुप", "वैन सिन"), ("ar", "صب", "وان سِن"), ("de", "Sup", "Wan Sin")])
def test_a_drawn_card_names_its_suit_in_the_page_language(tmp_path: Path, lang: str, sup: str, wan: str) -> None:
    """As the table's cards do (hakka_play/static/cards.js): the seed's word on the face and in the label."""
    import shutil
    import sys

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    import hakka_gettext
    from hakka_data import Card
    from hakka_render import card_html

    shutil.copytree(ROOT / "docs" / "locale" / lang, tmp_path / lang)
    hakka_gettext.activate(tmp_path, lang)
    try:
        sup3, wan_sin = card_html(Card("Sup3")), card_html(Card("WanSin"))
    finally:
        hakka_gettext.activate(tmp_path, "en")
    three = "٣" if lang == "ar" else "3"  # the page's numerals: the Arabic seed's digits, as the Arabic table writes them
    assert f'<span class="hk-suit" aria-hidden="true">{sup}</span>' in sup3 and f'aria-label="{sup} {three}"' in sup3
    assert f'<span class="hk-num" aria-hidden="true">{three}</span>' in sup3
    assert f'aria-label="{wan}"' in wan_sin


def test_an_option_named_after_its_decision_reads_as_code_with_its_translated_name() -> None:
    """REVIEW.md's "Voreinstellung no": a translated statement names a decision's option by its ID; the page
    shows the ID as code and the option's summary in the page's language (decisions.po's translation)."""
    import sys

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from docutils import nodes
    from hakka_data import load_spec
    from hakka_nodes import autolink

    spec = load_spec(ROOT)
    german = {"Never": "Nie", "The next seat": "Der nächste Platz"}
    linked = autolink("nie Teil einer Folge (PAT-1, siehe D18, Voreinstellung no) noch", spec, lambda s: german.get(s, s))
    code = [n.astext() for n in linked if isinstance(n, nodes.literal)]
    assert code == ["no"]
    text = "".join(n.astext() for n in linked)
    assert text == "nie Teil einer Folge (PAT-1, siehe D18, Voreinstellung no (Nie)) noch", text
    # only after its own decision, and never inside a word or outside the parenthesis
    plain = autolink("no (PAT-1, siehe D18) no, nobody", spec, lambda s: german.get(s, s))
    assert not [n for n in plain if isinstance(n, nodes.literal)]
    assert not [n for n in autolink("siehe D18, Voreinstellung no", spec) if isinstance(n, nodes.literal)], "English: as written"
