"""The translations' gate: every catalog of every language complete, nothing fuzzy, prose translated.

    python -m docs.build_all check            # every language; exit 1 with one line per problem
    python -m docs.build_all check --lang fr

A catalog passes when, against the templates of the book as it is now (``docs/_build/gettext``):

* every message of the template is in the catalog (a template message the catalog lacks
  means ``python -m docs.build_all gettext`` was not run after a change: it counts as untranslated);
* no message is untranslated (an empty msgstr, or an empty plural form) and none is fuzzy;
* no **prose** message is its own English: a msgstr equal to its msgid is allowed only where the
  message is notation, decided by :func:`prose_words` (no list of exceptions);
* no msgstr uses, in its prose, a word of its language's list of **wrong terms**
  (``locale/wrong_terms.yaml``: English left in prose, or a word of the wrong sense, each with the
  word to use), which :func:`check_wrong_terms` applies to the table's catalogs too;
* every word the **theme** writes in the book's pages (:data:`THEME_WORDS`) has a translation in
  Sphinx's own catalogs: the book's additions in ``docs/_theme_locale/<lang>/LC_MESSAGES/sphinx.po``
  first, then the catalog Sphinx ships; neither empty, nor its own English, nor a wrong term.

:func:`prose_words` removes what stays as it is in every language (``locale/README.md``,
"What stays as it is"): literals and code (````x````, ```x```), roles and links, placeholders
(``{count}``), clause, decision and scenario IDs, option names and other identifiers
(``any-suit``, ``to_act``, ``engine.name``), file paths, card notation and the suits' names
(``Sup3``, ``Wan Sin``), abbreviations in capitals (``ID``, ``PP``), numbers and punctuation.
What is left are the message's words. A message identical to its English passes if nothing is
left, or, in a language written in Latin script (de, fr), if one word is left: one word the
same in both languages is a cognate (French *Options*, *Source*, *Transport*); two words the
same are English copied through. In a language of another script (hi, ar) a Latin word left
over is always English.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parent
WRONG_TERMS = DOCS / "locale" / "wrong_terms.yaml"
THEME_LOCALE = DOCS / "_theme_locale"
TABLE_LOCALE = DOCS.parent / "hakka_play" / "locale"
"""The play table's catalogs (``table.po``), whose prose the wrong-terms check reads too."""

#: The words of the theme (Sphinx's basic theme, alabaster and Sphinx's HTML writer) that the book's
#: pages show, in the "sphinx" catalog. Alabaster writes the first three in English whatever the
#: language; docs/_ext/hakka_site.py passes them through the same catalog.
THEME_WORDS = (
    "Previous document", "Next document", "Main",
    "Navigation", "Quick search", "Go", "Search", "search", "Index",
    "Link to this heading", "Link to this term", "Link to this definition", "Link to this table",
    "Link to this code", "Link to this image",
    "Please activate JavaScript to enable the search\n    functionality.",
    "Searching for multiple words only shows matches that contain\n    all words.",
)

#: Languages written in Latin script, where a single word may be the same as in English.
LATIN_SCRIPT = frozenset({"en", "de", "fr"})

_NOTATION = [
    r"``.*?``",  # RST literal
    r":[a-z:]+:`[^`]*`",  # RST role
    r"`[^`]*`_{0,2}",  # MyST code, RST interpreted text or link
    r"\[[^\]]*\]\([^)]*\)",  # MyST link
    r"https?://\S+",
    r"\{[A-Za-z_][A-Za-z0-9_]*\}",  # placeholder
    r"<[^<>\s]+>",  # <scenario id>, <file>
    r"\|[a-z-]+\|",  # substitution
    r"\S*[/\\]\S*",  # a path
    r"\S+\.(?:json|ya?ml|py|md|rst|txt|html|js)\b",
    r"\b[A-Z]+-[0-9]+\b|\bD[0-9]+\b",  # clause and decision IDs
    r"\b[a-z0-9]+(?:[-_.][a-z0-9]+)+\b",  # identifiers: any-suit, to_act, engine.name, play-follow-001
    r"\b(?:Sup|Gon|Zok|Sin)[0-9]*\b|\bWan ?Sin\b",  # card notation and the suits' names (CARDS-1)
    r"\b[A-Z]{2,}[0-9]*s?\b",  # abbreviations and IDs in capitals: ID, PP, JSON, FAIL
]
_NOTATION_RE = re.compile("|".join(f"(?:{p})" for p in _NOTATION))
#: Code, links, placeholders and paths: where a wrong term may stand (the first ten of _NOTATION).
_CODE_RE = re.compile("|".join(f"(?:{p})" for p in _NOTATION[:10]))
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_LATIN = re.compile(r"[A-Za-z]")


def prose_words(msgid: str) -> list[str]:
    """The words of a message once its notation, code and IDs are taken out."""
    return _WORD.findall(_NOTATION_RE.sub(" ", msgid))


def copy_allowed(msgid: str, language: str) -> bool:
    """May the translation of ``msgid`` into ``language`` be ``msgid`` itself?"""
    words = prose_words(msgid)
    if not words:
        return True
    if language in LATIN_SCRIPT:
        return len(words) == 1
    return not any(_LATIN.search(w) for w in words)


@dataclass(frozen=True)
class Problem:
    language: str
    catalog: str
    line: int | None
    kind: str  # missing, untranslated, fuzzy, english, wrong-term
    msgid: str
    detail: str = ""  # wrong-term: the word and the word to use
    folder: str = "docs/locale"

    def __str__(self) -> str:
        where = f"{self.folder}/{self.language}/LC_MESSAGES/{self.catalog}.po"
        where += f":{self.line}" if self.line else ""
        text = " ".join(self.msgid.split())
        text = text if len(text) <= 90 else text[:87] + "..."
        what = {
            "missing": "is in the template but not in the catalog (run `python -m docs.build_all gettext`)",
            "untranslated": "is not translated",
            "fuzzy": "is fuzzy (check the msgstr against the changed English, then remove the flag)",
            "english": "is translated by its own English (a prose message, not notation)",
            "wrong-term": f"is translated with {self.detail}",
        }[self.kind]
        return f"{where}: {text!r} {what}"


def _texts(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, tuple | list) else [str(value or "")]


@dataclass(frozen=True)
class WrongTerm:
    wrong: str
    use: str
    why: str
    scope: str = "all"  # or "theme": the theme's words only

    def found_in(self, text: str) -> bool:
        """Does ``text`` use the word in its prose (outside code, links and placeholders)?"""
        prose = _CODE_RE.sub(" ", text)
        if all(c == "-" or unicodedata.name(c, "").startswith("LATIN") for c in self.wrong):
            return re.search(rf"(?<![\w-]){re.escape(self.wrong)}(?![\w-])", prose, re.I) is not None
        return self.wrong in prose


def load_wrong_terms(path: Path = WRONG_TERMS) -> dict[str, list[WrongTerm]]:
    """``locale/wrong_terms.yaml``: per language, the words its prose must not use."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    terms: dict[str, list[WrongTerm]] = {}
    for lang, entries in data.items():
        for n, entry in enumerate(entries):
            if not isinstance(entry, dict) or not {"wrong", "use", "why"} <= set(entry) <= {
                    "wrong", "use", "why", "scope"} or entry.get("scope", "all") not in ("all", "theme"):
                raise ValueError(f"{path}: {lang}[{n}] needs the keys wrong, use, why (and may have scope: "
                                 f"all or theme): {entry!r}")
            if not isinstance(entry["wrong"], str):
                raise ValueError(f"{path}: {lang}[{n}]: quote the word {entry['wrong']!r} (YAML reads it as "
                                 f"{type(entry['wrong']).__name__})")
            terms.setdefault(str(lang), []).append(WrongTerm(entry["wrong"], str(entry["use"]), str(entry["why"]),
                                                             str(entry.get("scope", "all"))))
    return terms


def _wrong(message_strings: Sequence[str], terms: Sequence[WrongTerm]) -> list[WrongTerm]:
    return [t for t in terms if any(t.found_in(s) for s in message_strings)]


def _describe(term: WrongTerm) -> str:
    return f"{term.wrong!r} ({term.why}): write {term.use}"


def check_wrong_terms(po: Path, language: str, terms: Mapping[str, Sequence[WrongTerm]] | None = None,
                      folder: str = "docs/locale") -> list[Problem]:
    """The msgstrs of ``po`` that use a wrong term of ``language`` (any catalog: the book's, the table's)."""
    from babel.messages.pofile import read_po

    wanted = [t for t in (load_wrong_terms() if terms is None else terms).get(language, []) if t.scope == "all"]
    with po.open("rb") as f:
        catalog = read_po(f)
    return [
        Problem(language, po.stem, m.lineno, "wrong-term", _texts(m.id)[0], _describe(term), folder)
        for m in catalog if m.id and not m.fuzzy
        for term in _wrong(_texts(m.string), wanted)
    ]


def _sphinx_catalog(language: str) -> Path:
    import sphinx

    return Path(sphinx.__file__).parent / "locale" / language / "LC_MESSAGES" / "sphinx.po"


def check_theme(languages: Iterable[str], theme_locale: Path = THEME_LOCALE,
                terms: Mapping[str, Sequence[WrongTerm]] | None = None) -> list[Problem]:
    """Every word of :data:`THEME_WORDS` translated for each language by the book's theme catalog or Sphinx's."""
    from babel.messages.pofile import read_po

    terms = load_wrong_terms() if terms is None else terms
    problems: list[Problem] = []
    for lang in languages:
        ours = theme_locale / lang / "LC_MESSAGES" / "sphinx.po"
        catalogs = []
        for po in (ours, _sphinx_catalog(lang)):
            if po.exists():
                with po.open("rb") as f:
                    catalogs.append(read_po(f))
        for word in THEME_WORDS:
            found = [m for cat in catalogs if (m := cat.get(word)) is not None and m.string and not m.fuzzy]
            line = found[0].lineno if found and ours.exists() and catalogs[0].get(word) is found[0] else None
            where = dict(language=lang, catalog="sphinx", line=line, msgid=word, folder="docs/_theme_locale")
            if not found:
                problems.append(Problem(kind="untranslated", **where))  # type: ignore[arg-type]
                continue
            strings = _texts(found[0].string)
            if word in strings and not copy_allowed(word, lang):
                problems.append(Problem(kind="english", **where))  # type: ignore[arg-type]
            for term in _wrong(strings, terms.get(lang, [])):
                problems.append(Problem(kind="wrong-term", detail=_describe(term), **where))  # type: ignore[arg-type]
    return problems


def check_catalog(po: Path, language: str, template: Path | None = None) -> list[Problem]:
    """The problems of one ``.po`` (against its ``.pot`` where one is given)."""
    from babel.messages.pofile import read_po

    name = po.stem
    with po.open("rb") as f:
        catalog = read_po(f)
    problems: list[Problem] = []
    if template is not None and template.exists():
        with template.open("rb") as f:
            pot = read_po(f)
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        for m in pot:
            key = m.id if isinstance(m.id, str) else (m.id[0] if m.id else "")
            if key and key not in have:
                problems.append(Problem(language, name, None, "missing", key))
    for m in catalog:
        if not m.id:  # the header; obsolete (#~) messages are not iterated
            continue
        ids, strings = _texts(m.id), _texts(m.string)
        line = m.lineno
        if not all(strings):
            problems.append(Problem(language, name, line, "untranslated", ids[0]))
        elif m.fuzzy:
            problems.append(Problem(language, name, line, "fuzzy", ids[0]))
        elif any(s in ids for s in strings) and not all(copy_allowed(i, language) for i in ids):
            problems.append(Problem(language, name, line, "english", ids[0]))
    return problems + check_wrong_terms(po, language)


def check(locale: Path, languages: Iterable[str], templates: Path | None = None,
          theme_locale: Path | None = THEME_LOCALE, table_locale: Path | None = TABLE_LOCALE) -> list[Problem]:
    """Every catalog of every language, the theme's words (unless ``theme_locale`` is None), and the wrong
    terms of the play table's catalogs (unless ``table_locale`` is None; the table's own tests check the rest
    of them); a language without catalogs is one problem, not a pass."""
    languages = list(languages)
    problems: list[Problem] = check_theme(languages, theme_locale) if theme_locale is not None else []
    for lang in languages:
        folder = locale / lang / "LC_MESSAGES"
        pos = sorted(folder.glob("*.po"))
        if not pos:
            problems.append(Problem(lang, "*", None, "missing", f"no catalog in {folder}"))
        known = {po.stem for po in pos}
        if templates is not None:
            for pot in sorted(templates.glob("*.pot")):
                if pot.stem not in known:
                    problems.append(Problem(lang, pot.stem, None, "missing", f"the whole catalog {pot.name}"))
        for po in pos:
            pot_file = templates / f"{po.stem}.pot" if templates is not None else None
            problems.extend(check_catalog(po, lang, pot_file))
        table = table_locale / lang / "LC_MESSAGES" / "table.po" if table_locale is not None else None
        if table is not None and table.is_file():
            problems.extend(check_wrong_terms(table, lang, folder="hakka_play/locale"))
    return problems
