"""The table in five languages (issue 19 item 4): complete catalogs, the seeds' own game terms, served per language.

* every catalog of ``hakka_play/locale`` holds every message of the template, translated, none
  fuzzy, with the same ``{placeholders}``; prose is never the English copied through;
* the template is what the sources hold today (``python -m hakka_play.i18n extract`` was run);
* each language's game terms are the seed's own words (``shared/seeds`` beside the clone, or
  ``HAKKA_SEEDS_DIR``), and the catalog uses them;
* the server serves each page and each message in the language asked (``Accept-Language``, the
  ``hakka_lang`` cookie, ``?lang=``), Arabic right-to-left, refusals included.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from hakka_play.i18n import (
    DEFAULT,
    LANGUAGES,
    TEMPLATE,
    catalog,
    extract,
    negotiate,
    plural_catalog,
    po_path,
    rulebook_text,
)

babel_pofile = pytest.importorskip("babel.messages.pofile", reason="Babel reads the catalogs (the play extra)")

REPO = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT]
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# The same word in English and in the language (names of the suits, words both languages share).
SAME_AS_ENGLISH = {
    "fr": {"Sup", "Gon", "Zok", "Sin", "Wan", "Wan Sin", "Invitations", "total", "points"},
    "de": {"Sup", "Gon", "Zok", "Sin", "Wan", "Wan Sin"},
    "hi": set(),
    "ar": set(),
}

# The seed's own words for the game's terms: (the table's English message, the word in that seed).
SEED_FILES = {"fr": "001", "hi": "002", "de": "003", "ar": "004"}
TERMS: dict[str, dict[str, tuple[str, str]]] = {
    "fr": {"Sup": ("Sup", "Sup"), "Gon": ("Gon", "Gon"), "Zok": ("Zok", "Zok"), "Sin": ("Sin", "Sin"),
           "Wan Sin": ("Wan Sin", "Wan Sin"), "Elder": ("Elder", "Aînée"), "Dreamer": ("Dreamer", "Rêveur"),
           "Dealer": ("Dealer", "Donneur"), "Privileged Player": ("Privileged Player", "Joueur Privilégié"),
           "Run": ("Run", "Séquence"), "Set": ("Set", "Série"), "Single": ("Single", "Carte Seule"),
           "trick": ("tricks", "levées"), "Five Tigers": ("Declare the Five Tigers", "Cinq Tigres"),
           "claim": ("Claim victory", "réclamer la victoire")},
    "de": {"Sup": ("Sup", "Sup"), "Gon": ("Gon", "Gon"), "Zok": ("Zok", "Zok"), "Sin": ("Sin", "Sin"),
           "Wan Sin": ("Wan Sin", "Wan Sin"), "Elder": ("Elder", "Ältesten-Karte"),
           "Privileged Player": ("Privileged Player", "Privilegierte"), "Run": ("Run", "Folge"), "Set": ("Set", "Satz"),
           "Single": ("Single", "Einzel-Karte"), "trick": ("tricks", "Stiche"),
           "Five Tigers": ("Declare the Five Tigers", "Fünf Tiger")},
    "hi": {"Sup": ("Sup", "सुप"), "Gon": ("Gon", "गोन"), "Zok": ("Zok", "जोक"), "Sin": ("Sin", "सिन"),
           "Wan Sin": ("Wan Sin", "वैन सिन"), "Elder": ("Elder", "एल्डर कार्ड"), "Dreamer": ("Dreamer", "ड्रीमर"),
           "Dealer": ("Dealer", "डीलर"), "Privileged Player": ("Privileged Player", "विशेषाधिकृत खिलाड़ी"),
           "Run": ("Run", "रन"), "Set": ("Set", "सेट"), "Single": ("Single", "सिंगल कार्ड"),
           "trick": ("tricks", "ट्रिक्स"), "Five Tigers": ("Declare the Five Tigers", "फाइव टाइगर"),
           "claim": ("Claim victory", "जीत का दावा")},
    "ar": {"Sup": ("Sup", "صب"), "Gon": ("Gon", "جون"), "Zok": ("Zok", "زوك"), "Sin": ("Sin", "سِن"),
           "Wan Sin": ("Wan Sin", "وان سِن"), "Elder": ("Elder", "أعلى مرتبة"), "Dreamer": ("Dreamer", "الحالم"),
           "Dealer": ("Dealer", "الموزع"), "Privileged Player": ("Privileged Player", "اللاعب المتميز"),
           "Run": ("Run", "تشغيلة"), "Set": ("Set", "مجموعة"), "Single": ("Single", "كارت مفرد"),
           "trick": ("tricks", "الأدوار"), "Five Tigers": ("Declare the Five Tigers", "النمور الخمسة"),
           "claim": ("Claim victory", "إعلان النصر")},
}
# The German seed stops in its Elder paragraph: it never names these, so the table's words are ours.
NOT_IN_PARTIAL_GERMAN_SEED = {"Dreamer": "Träumer", "Dealer": "Geber", "claim": "beanspruchen"}


def _read(lang: str):  # -> babel Catalog
    with po_path(lang).open("rb") as f:
        return babel_pofile.read_po(f, locale=lang)


def _key(msgid: object) -> str:
    """A message's singular: its msgid, or the first of a plural message's pair."""
    return str(msgid[0] if isinstance(msgid, tuple | list) else msgid)


def _template_ids() -> list[str]:
    with TEMPLATE.open("rb") as f:
        return [_key(m.id) for m in babel_pofile.read_po(f) if m.id]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalog_is_complete_with_nothing_fuzzy_and_the_same_placeholders(lang: str) -> None:
    po = _read(lang)
    messages = {_key(m.id): m for m in po if m.id}
    ids = _template_ids()
    assert ids and set(ids) == set(messages), f"{po_path(lang)} and {TEMPLATE} hold different messages"
    untranslated = [i for i, m in messages.items()
                    if not (all(m.string) if isinstance(m.string, tuple | list) else m.string)]
    fuzzy = [i for i, m in messages.items() if m.fuzzy]
    assert not untranslated and not fuzzy, f"{po_path(lang)}: untranslated {untranslated}, fuzzy {fuzzy}"
    for msgid, m in messages.items():
        if isinstance(m.id, tuple | list):  # a count message: a form for each of the language's plural forms
            forms = list(m.string)
            assert len(forms) == po.num_plurals == int(LANGUAGES[lang].plural.split("nplurals=")[1].split(";")[0]), (lang, msgid)
            wanted = set(PLACEHOLDER.findall(msgid))
            for i, form in enumerate(forms):
                used = set(PLACEHOLDER.findall(form))
                # a form of exactly one number ("one", "two" in Arabic) may say it in words instead of the count
                assert used <= wanted and wanted - used <= {_count_name(m.id)}, (lang, msgid, i, form)
                assert form not in m.id, f"{po_path(lang)}: {msgid!r} form {i} is the English copied through"
            continue
        assert set(PLACEHOLDER.findall(str(m.string))) == set(PLACEHOLDER.findall(msgid)), (lang, msgid, m.string)
        if msgid == m.string:
            assert msgid in SAME_AS_ENGLISH[lang], f"{po_path(lang)}: {msgid!r} is the English copied through"
    assert len(catalog(lang)) + len(plural_catalog(lang)) == len(ids)


def _count_name(msgid: tuple[Any, ...] | list[Any]) -> str:
    """The placeholder that holds a count message's number: the one whose word changes with it ({count}, {limit}, {people})."""
    names = [n for n in PLACEHOLDER.findall(msgid[0]) if n in ("count", "limit", "people")]
    assert len(names) == 1, msgid
    return str(names[0])


EXACT_FORMS = {"ar": {0, 1, 2}}
"""The plural forms that hold one number only (Arabic's "zero", "one" and "two"): only these may say it in words."""


@pytest.mark.parametrize("lang", TRANSLATED)
def test_only_a_form_of_one_number_drops_the_count(lang: str) -> None:
    for m in _read(lang):
        if m.id and isinstance(m.id, tuple | list):
            name = _count_name(m.id)
            for i, form in enumerate(m.string):
                if "{" + name + "}" not in form:
                    assert i in EXACT_FORMS.get(lang, set()), (lang, m.id[0], i, form)


def test_count_messages_take_each_languages_plural_form() -> None:
    """gettext plurals with each language's rule: Arabic's six forms (0, 1, 2, 3-10, 11-99, 100+), French's 0 and 1
    together, Hindi's (n > 1); the server's messages and the pages' read the same forms."""
    from hakka_play.i18n import NMsg, PageText, plural_expression

    won = [NMsg("You won with {count} trick", "You won with {count} tricks", n, count=n) for n in (1, 2, 3, 11, 12, 100)]
    assert [m.render("ar") for m in won] == [
        "ربحت بدور واحد", "ربحت بدورين", "ربحت بـ٣ أدوار", "ربحت بـ١١ دورًا", "ربحت بـ١٢ دورًا", "ربحت بـ١٠٠ دور"]
    assert [m.render("fr") for m in won[:3]] == [
        "Vous avez gagné avec 1 levée", "Vous avez gagné avec 2 levées", "Vous avez gagné avec 3 levées"]
    assert NMsg("{count} trick", "{count} tricks", 0, count=0).render("fr") == "0 levée"  # French: zero is singular
    assert NMsg("{count} trick", "{count} tricks", 0, count=0).render("hi") == "0 ट्रिक"
    assert NMsg("{count} trick", "{count} tricks", 0, count=0).render("en") == "0 tricks"
    assert NMsg("{count} trick", "{count} tricks", 1, count=1).render("de") == "1 Stich"
    page = __import__("json").loads(PageText("ar", catalog("ar")).json())
    assert page["plural"] == plural_expression("ar") and len(page["plurals"]["{count} trick"]) == 6


def test_the_template_holds_exactly_the_messages_of_the_sources() -> None:
    fresh = {_key(m.id) for m in extract() if m.id}
    assert fresh == set(_template_ids()), (
        f"the sources and {TEMPLATE} differ (run python -m hakka_play.i18n extract, then translate): "
        f"new {sorted(fresh - set(_template_ids()))}, gone {sorted(set(_template_ids()) - fresh)}")


def _seeds_dir() -> Path:
    for candidate in (os.environ.get("HAKKA_SEEDS_DIR"), REPO.parent / "shared" / "seeds",
                      REPO.parent.parent / "shared" / "seeds"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    pytest.skip("source texts not found (shared/seeds beside the repository, or set HAKKA_SEEDS_DIR)")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_languages_game_terms_are_its_seeds_own_words(lang: str) -> None:
    [seed] = sorted(_seeds_dir().glob(f"{SEED_FILES[lang]}_*.txt"))
    text = seed.read_text(encoding="utf-8").casefold()
    messages = catalog(lang)
    for term, (msgid, word) in TERMS[lang].items():
        assert word.casefold() in text, f"{seed.name} has no {word!r} (the table's word for {term})"
        assert word.casefold() in messages[msgid].casefold(), f"{lang}: {msgid!r} is {messages[msgid]!r}, not the seed's {word!r}"
    missing = set(TERMS["fr"]) - set(TERMS[lang])
    if lang == "de":
        assert missing == set(NOT_IN_PARTIAL_GERMAN_SEED)
        for term, word in NOT_IN_PARTIAL_GERMAN_SEED.items():
            assert word.casefold() not in text, f"the German seed now names {term}: take its word"
    else:
        assert not missing


def test_the_language_comes_from_the_switcher_then_the_session_then_the_browser() -> None:
    assert negotiate(accept="hi-IN,hi;q=0.9,en;q=0.8") == "hi"
    assert negotiate(accept="en;q=0.5, de;q=0.9") == "de"
    assert negotiate(accept="zh-CN, ja") == DEFAULT and negotiate() == DEFAULT
    assert negotiate(cookie="ar", accept="fr") == "ar"
    assert negotiate(query="fr", cookie="ar", accept="de") == "fr"
    assert negotiate(query="xx", cookie="nope", accept="de;q=0") == DEFAULT


TITLES = {"en": "Hakka Cards table", "de": "Hakka-Karten-Tisch", "fr": "Table de Cartes Hakka",
          "hi": "हक्का कार्ड टेबल", "ar": "طاولة لعبة الورق هاكا"}


def test_every_page_is_served_in_the_language_asked_arabic_right_to_left(live) -> None:
    httpx = pytest.importorskip("httpx", reason="the play extra's test client")
    from hakka_play.table import Table

    table = live.call(live.play.add_table, Table(humans=[0], seed=4))
    url = f"{live.base}/table/{table.id}?token={table.seats[0].token}"
    for lang, title in TITLES.items():
        page = httpx.get(url, headers={"Accept-Language": f"{lang};q=0.9,en;q=0.1"}).text
        assert f'<html lang="{lang}" dir="{LANGUAGES[lang].dir}">' in page and f"<title data-t>{title}</title>" in page
        for path in ("/", "/replay", f"/join/{table.id}?invite=x"):
            other = httpx.get(live.base + path, headers={"Accept-Language": lang}).text
            assert f'<html lang="{lang}" dir="{LANGUAGES[lang].dir}">' in other, path
    chosen = httpx.get(url + "&lang=ar", headers={"Accept-Language": "fr"})
    assert 'lang="ar" dir="rtl"' in chosen.text and chosen.cookies.get("hakka_lang") == "ar"
    kept = httpx.get(url, headers={"Accept-Language": "fr"}, cookies={"hakka_lang": "ar"}).text
    assert 'lang="ar" dir="rtl"' in kept, "the switcher's choice is kept for the session"
    missing = httpx.get(f"{live.base}/table/{table.id}?token=forged", headers={"Accept-Language": "hi"})
    assert missing.status_code == 404 and "ऐसी कोई सीट नहीं" in missing.text


def test_refusals_are_in_the_sockets_language_naming_their_clause(live) -> None:
    pytest.importorskip("httpx", reason="the play extra's test client")
    import json

    import httpx
    from websockets.sync.client import connect

    from conformance.rulebook import Rulebook
    from hakka_play.table import Table

    table = live.call(live.play.add_table, Table(humans=[0, 1], seed=11))
    seat1 = connect(f"{live.ws_base}/ws/{table.id}?token={table.seats[1].token}",
                    additional_headers={"Accept-Language": "de-DE,de;q=0.9"}, open_timeout=10)
    assert json.loads(seat1.recv(timeout=10))["lang"] == "de"
    seat1.recv(timeout=10)  # the view
    seat1.send(json.dumps({"type": "act", "action": "call"}))  # out of turn: the Dealer (seat 0) speaks first
    refused = json.loads(seat1.recv(timeout=10))
    assert refused["message"] == "Abgelehnt nach Regel CALL-1." and refused["rule"] == "CALL-1"
    english = " ".join(Rulebook.default().clauses["CALL-1"]["statement"].split())
    german = rulebook_text("de", english)  # the rulebook's German catalog translates the statement
    assert german != english
    assert refused["statement"] == {"text": german, "lang": "de"}  # the clause as the German rulebook states it
    assert refused["detail"] and refused["kind"] == "illegal"
    seat1.send(json.dumps({"type": "act", "seat": 0, "action": "call"}))
    assert json.loads(seat1.recv(timeout=10))["message"].startswith("diese Verbindung hält das Token von Platz 1")
    seat1.send("not json")
    assert json.loads(seat1.recv(timeout=10))["message"].startswith("eine Nachricht muss JSON sein")
    seat1.close()
    form = httpx.post(f"{live.base}/api/tables", content="{}", headers={"Content-Type": "text/plain", "Accept-Language": "ar"})
    assert form.json()["error"].startswith("يجب أن يكون الطلب بصيغة JSON")
    rebound = httpx.get(f"{live.base}/", headers={"Host": "evil.example", "Accept-Language": "fr"})
    assert rebound.status_code == 403 and rebound.json()["error"].startswith("L'hôte 'evil.example'")


def test_a_clause_statement_comes_from_the_rulebooks_catalog_when_it_has_one(tmp_path, monkeypatch) -> None:
    import hakka_play.i18n as i18n
    from conformance.rulebook import Rulebook

    clauses = Rulebook.default().clauses
    english = " ".join(clauses["CALL-1"]["statement"].split())
    folder = tmp_path / "fr" / "LC_MESSAGES" / "rules"
    folder.mkdir(parents=True)
    title = clauses["CALL-1"]["title"]
    (folder / "call.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'msgid "{english}"\nmsgstr "Le Donneur parle le premier."\n\n'
        f'msgid "{title}"\nmsgstr "Qui parle en premier"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "RULEBOOK_LOCALE", tmp_path)
    i18n.rulebook_catalog.cache_clear()
    try:
        assert i18n.statement(clauses, "CALL-1", "fr") == {"text": "Le Donneur parle le premier.", "lang": "fr"}
        assert i18n.statement(clauses, "CALL-1", "de") == {"text": english, "lang": "en"}  # no German catalog
        assert i18n.statement(clauses, "NO-1", "fr") is None
        assert i18n.rulebook_text("fr", title) == "Qui parle en premier" and i18n.rulebook_text("hi", title) == title
    finally:
        i18n.rulebook_catalog.cache_clear()


# Notation keeps its Western digits in every language: placeholders, clause IDs, flags and commands, code.
NOTATION = re.compile(r"\{\w+\}|\b[A-Z]+-\d+\b|--[\w-]+|hakka-play[^:;،)]*|`[^`]*`|\b[A-Za-z]+\d+\b|\bD\d+\b|\w+\.\w+")


def western_digits_in_prose(text: str) -> bool:
    return bool(re.search(r"[0-9]", NOTATION.sub("", text)))


def test_the_arabic_table_writes_its_numbers_in_the_seeds_digits() -> None:
    """One numeral system a page (issue 30 §4.7): the Arabic table writes numbers as the Arabic seed does, in
    Eastern Arabic digits, its messages included; the catalog's old "(6 لإعلان النصر)" fails this check."""
    wrong = []
    for m in _read("ar"):
        if m.id:
            for form in m.string if isinstance(m.string, tuple | list) else [m.string]:
                if western_digits_in_prose(str(form)):
                    wrong.append((m.id, form))
    assert not wrong, wrong
    assert western_digits_in_prose("الأدوار + الكروت الأعلى مرتبة في اليد: {count} (6 لإعلان النصر)")
    assert not western_digits_in_prose("الأدوار + الكروت الأعلى مرتبة في اليد: {count} (٦ لإعلان النصر)")
    assert not western_digits_in_prose("مرفوض بموجب القاعدة PLAY-4 (hakka-play --max-tables-per-address)")
