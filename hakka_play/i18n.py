"""The table's words in five languages: one gettext catalog per language, for the server and the pages.

Every string a person reads at the table, the lobby or the replay viewer (the pages' HTML, their
scripts, the server's own messages and refusals) is an English message of one template,
``locale/table.pot``, translated in ``locale/<lang>/LC_MESSAGES/table.po``: the workflow of the
rulebook's Sphinx catalogs (extract → update → translate), read here with Babel (no compiled
``.mo`` to keep in step). ``python -m hakka_play.i18n extract`` re-extracts the template from
the sources (``_("…")`` in Python and JavaScript, ``data-t`` elements in HTML) and updates every
catalog; a changed English message comes back fuzzy, and ``tests/play/test_i18n.py`` fails until it
is translated again.

A message about a count has a form per plural category of its language (gettext's ``msgid_plural``,
Babel's ``ngettext``: ``NMsg`` here, ``HK.n`` in the pages), chosen by the language's ``Plural-Forms``
of spec/languages.yaml (Arabic has six). Every number a message shows is written in the page's
numerals (:func:`number`): the Arabic pages use the Eastern Arabic digits (٠–٩) that the Arabic seed
and the Arabic rulebook's prose use, the others Western digits; notation (card names such as
``Sup3``, clause IDs, URLs) keeps its Western digits, as it does in the rulebook.

A page's language: ``?lang=`` (the page's switcher), else the ``hakka_lang`` cookie (kept for the
browser session), else ``Accept-Language``, else English.

>>> Msg("Seat {seat}", seat=2).render("fr")
'Place 2'
>>> Msg("Seat {seat}", seat=-3).render("ar")  # one numeral system a page: the seed's Eastern Arabic digits
'المقعد \\u061c-٣'
>>> negotiate(accept="ar-EG,ar;q=0.9,en;q=0.5")
'ar'
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # the table's catalogs need no web server
    from starlette.requests import HTTPConnection

from conformance.specdata import Language, book_languages

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE_DIR / "table.pot"
DOMAIN = "table"
COOKIE = "hakka_lang"
DEFAULT = "en"


LANGUAGES: dict[str, Language] = {lang.code: lang for lang in book_languages()}
"""The table's languages, the rulebook's: the one table, spec/languages.yaml (code, name in itself, direction)."""


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _read(lang: str) -> tuple[Mapping[str, str], Mapping[str, tuple[str, ...]]]:
    """The translated, non-fuzzy messages of ``lang``: the plain ones, and the plural ones (singular → forms)."""
    path = po_path(lang)
    if lang == DEFAULT or not path.is_file():
        return {}, {}
    from babel.messages.pofile import read_po  # Babel: the gettext reader Sphinx itself uses

    with path.open("rb") as f:
        po = read_po(f, locale=lang)
    plain: dict[str, str] = {}
    forms: dict[str, tuple[str, ...]] = {}
    for m in po:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, str) and isinstance(m.string, str) and m.string:
            plain[m.id] = m.string
        elif isinstance(m.id, tuple | list) and isinstance(m.string, tuple | list) and all(m.string):
            forms[str(m.id[0])] = tuple(str(x) for x in m.string)
    return plain, forms


def catalog(lang: str) -> Mapping[str, str]:
    """The translated, non-fuzzy messages of ``lang`` (English: none, the messages are English)."""
    return _read(lang)[0]


def plural_catalog(lang: str) -> Mapping[str, tuple[str, ...]]:
    """The translated messages about a count: the singular msgid → one text per plural form of ``lang``."""
    return _read(lang)[1]


def plural_expression(lang: str) -> str:
    """The C expression of ``lang``'s Plural-Forms (spec/languages.yaml), n → the index of a form."""
    rule = LANGUAGES[lang].plural if lang in LANGUAGES else "nplurals=2; plural=(n != 1);"
    return rule.split("plural=", 1)[1].rstrip("; ")


@cache
def _plural_rule(lang: str) -> Callable[[int], int]:
    import gettext as _gettext

    return _gettext.c2py(plural_expression(lang))


def gettext(lang: str, message: str) -> str:
    return catalog(lang).get(message, message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of a message about ``n`` things in ``lang`` (English's when it has no translation)."""
    forms = plural_catalog(lang).get(singular)
    if forms:
        index = _plural_rule(lang)(n)
        return forms[index] if index < len(forms) else forms[-1]
    return singular if n == 1 else plural


EASTERN_ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def number(lang: str, n: int) -> str:
    """``n`` in the numerals of ``lang``'s pages, as the browser writes it (cards.js: ``Intl.NumberFormat``
    without grouping, so that a bound reads as the flag that sets it, ``16384``).

    >>> [number(lang, -1234) for lang in ("en", "de", "ar")]
    ['-1234', '-1234', '\\u061c-١٢٣٤']
    """
    if lang == "ar":  # the seed's digits; the minus after an Arabic letter mark, so it stays before the number
        return ("\u061c-" if n < 0 else "") + str(abs(n)).translate(EASTERN_ARABIC)
    return str(n)


def _numbers(lang: str, params: Mapping[str, object]) -> dict[str, object]:
    return {k: number(lang, v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in params.items()}


class Msg:
    """An English message with its parameters, put into a language when it is shown.

    ``Msg`` is an extraction keyword: ``Msg("a message is at most {limit} characters", limit=4096)``.
    """

    __slots__ = ("params", "text")

    def __init__(self, text: str, /, **params: object) -> None:
        self.text = text
        self.params = params

    def render(self, lang: str) -> str:
        return gettext(lang, self.text).format(**_numbers(lang, self.params))

    def __str__(self) -> str:
        return self.render(DEFAULT)

    def __repr__(self) -> str:
        return f"Msg({self.text!r}, **{self.params!r})"


class NMsg(Msg):
    """A message about a count, with its English singular and plural: ``NMsg("{limit} byte", "{limit} bytes",
    limit, limit=limit)``; the count chooses the form in each language (an extraction keyword, ngettext's)."""

    __slots__ = ("count", "plural")

    def __init__(self, singular: str, plural: str, count: int, /, **params: object) -> None:
        super().__init__(singular, **params)
        self.plural = plural
        self.count = count

    def render(self, lang: str) -> str:
        return ngettext(lang, self.text, self.plural, self.count).format(**_numbers(lang, self.params))


def _rulebook_locale() -> Path:
    shipped = LOCALE_DIR.parent / "_rulebook_locale"  # the wheel's copy of docs/locale (pyproject maps it)
    return shipped if shipped.is_dir() else LOCALE_DIR.parents[1] / "docs" / "locale"


RULEBOOK_LOCALE = _rulebook_locale()
"""The rulebook's Sphinx catalogs (the same workflow), in the wheel or in a checkout: a clause statement
translated there is shown translated at the table too."""


@cache
def rulebook_catalog(lang: str) -> Mapping[str, str]:
    """Every translated message of the rulebook's catalogs of ``lang``, by its whitespace-normalised English."""
    folder = RULEBOOK_LOCALE / lang / "LC_MESSAGES"
    if lang == DEFAULT or not folder.is_dir():
        return {}
    from babel.messages.pofile import read_po

    out: dict[str, str] = {}
    for path in sorted(folder.rglob("*.po")):
        with path.open("rb") as f:
            for m in read_po(f, locale=lang):
                if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string and not m.fuzzy:
                    out[" ".join(m.id.split())] = m.string
    return out


def rulebook_text(lang: str, english: str) -> str:
    """A text of spec/ (a clause's title, say) in ``lang`` where the rulebook's catalog has it, else as it is."""
    return rulebook_catalog(lang).get(" ".join(english.split()), english)


def statement(clauses: Mapping[str, Mapping[str, Any]], rule: str, lang: str) -> dict[str, str] | None:
    """A clause's statement and its language: from the rulebook's catalog of ``lang`` when it has the
    statement, else the English of spec/clauses.yaml (shown with the clause ID)."""
    text = clauses.get(rule, {}).get("statement")
    if not isinstance(text, str):
        return None
    english = " ".join(text.split())
    translated = rulebook_catalog(lang).get(english)
    return {"text": translated, "lang": lang} if translated else {"text": english, "lang": DEFAULT}


def _(text: str) -> str:
    """Marks a message for extraction where it is translated later (the English text itself)."""
    return text


def negotiate(query: str | None = None, cookie: str | None = None, accept: str | None = None) -> str:
    """The page's language: the switcher's choice, then the session's, then the browser's."""
    for chosen in (query, cookie):
        if chosen and chosen.strip().lower() in LANGUAGES:
            return chosen.strip().lower()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _sep, rest = part.strip().partition(";")
        weight = 1.0
        if rest.strip().startswith("q="):
            try:
                weight = float(rest.strip()[2:])
            except ValueError:
                weight = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and weight > 0:
            ranked.append((-weight, i, code))
    return min(ranked)[2] if ranked else DEFAULT


def choose(query: Mapping[str, str], cookies: Mapping[str, str], headers: Mapping[str, str]) -> str:
    """:func:`negotiate` for a Starlette request or WebSocket (its query, cookies and headers)."""
    return negotiate(query.get("lang"), cookies.get(COOKIE), headers.get("accept-language"))


def language(conn: HTTPConnection) -> str:
    """The language of a Starlette request or WebSocket (:func:`choose`)."""
    return choose(conn.query_params, conn.cookies, conn.headers)


@dataclass(frozen=True)
class PageText:
    """What the browser needs to speak ``lang``: sent inside every page (``#hk-i18n``)."""

    lang: str
    messages: Mapping[str, str] = field(default_factory=dict)

    def json(self) -> str:
        data: dict[str, Any] = {
            "lang": self.lang, "dir": LANGUAGES[self.lang].dir, "messages": dict(self.messages),
            "plurals": {k: list(v) for k, v in plural_catalog(self.lang).items()},
            "plural": plural_expression(self.lang),
            "languages": {code: language.name for code, language in LANGUAGES.items()},
        }
        return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")  # safe inside <script>


_ELEMENT = re.compile(r"(<(\w+)\b[^<>]*\sdata-t>)([^<]*)(</\2>)")
"""An element whose text is a message: ``data-t`` is its last attribute, its content plain text."""
_HTML_TAG = re.compile(r"<html\b[^>]*>")
_I18N_SCRIPT = '<script id="hk-i18n" type="application/json">{}</script>'


def _elements(text: str) -> Iterator[re.Match[str]]:
    return _ELEMENT.finditer(text)


def page(path: Path, lang: str) -> str:
    """A static page in ``lang``: ``<html lang dir>``, every ``data-t`` element's text, the catalog."""
    text = path.read_text(encoding="utf-8")

    def translate(m: re.Match[str]) -> str:
        english = html.unescape(m.group(3).strip())
        return m.group(1) + html.escape(gettext(lang, english), quote=False) + m.group(4)

    text = _ELEMENT.sub(translate, text)
    text = _HTML_TAG.sub(f'<html lang="{lang}" dir="{LANGUAGES[lang].dir}">', text, count=1)
    return text.replace(_I18N_SCRIPT, _I18N_SCRIPT.replace("{}", PageText(lang, catalog(lang)).json()))


# ------------------------------------------------------------------ the gettext workflow

def extract_html(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: object) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extractor for the pages: the text of every element marked ``data-t``."""
    text = fileobj.read().decode("utf-8")
    for m in _elements(text):
        yield text.count("\n", 0, m.start(3)) + 1, None, html.unescape(m.group(3).strip()), []


METHODS = [
    ("**.py", "python"),
    ("static/**.js", "javascript"),
    ("static/**.html", "hakka_play.i18n:extract_html"),
]
KEYWORDS = {"_": (1,), "Msg": (1,), "NMsg": (1, 2), "ngettext": (1, 2)}


def extract() -> Any:
    """The template, freshly extracted from the sources of hakka_play (a Babel ``Catalog``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog(project="hakka-cards table", msgid_bugs_address="", fuzzy=False)
    root = Path(__file__).resolve().parent
    for filename, lineno, message, comments, context in extract_from_dir(
            root, METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        if (isinstance(message, str) and message) or (isinstance(message, tuple) and all(message)):
            template.add(message, None, [(f"hakka_play/{filename}", lineno)], auto_comments=comments,
                         context=context)
    return template


def update() -> None:
    """``pybabel extract`` + ``pybabel update``: write the template, merge it into every catalog."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = extract()
    with TEMPLATE.open("wb") as f:
        write_po(f, template, width=100, omit_header=False, sort_output=False)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        if path.is_file():
            with path.open("rb") as f:
                po = read_po(f, locale=lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            po = Catalog(locale=lang, project="hakka-cards table", fuzzy=False)
        po.update(template, no_fuzzy_matching=False)
        with path.open("wb") as f:
            write_po(f, po, width=100, ignore_obsolete=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["extract"]:
        print("usage: python -m hakka_play.i18n extract   (re-extract locale/table.pot, update every catalog)",
              file=sys.stderr)
        return 2
    update()
    print(f"{TEMPLATE}: {len(extract())} messages; catalogs updated: "
          + ", ".join(str(po_path(lang)) for lang in LANGUAGES if lang != DEFAULT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
