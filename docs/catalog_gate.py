"""The translations' gate: every catalog of every language complete, nothing fuzzy, prose translated.

    python -m docs.build_all check            # every language; exit 1 with one line per problem
    python -m docs.build_all check --lang fr

A catalog passes when, against the templates of the book as it is now (``docs/_build/gettext``):

* every message of the template is in the catalog (a template message the catalog lacks
  means ``python -m docs.build_all gettext`` was not run after a change: it counts as untranslated);
* no message is untranslated (an empty msgstr, or an empty plural form) and none is fuzzy;
* no **prose** message is its own English: a msgstr equal to its msgid is allowed only where the
  message is notation, decided by :func:`prose_words` (no list of exceptions).

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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

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
    kind: str  # missing, untranslated, fuzzy, english
    msgid: str

    def __str__(self) -> str:
        where = f"docs/locale/{self.language}/LC_MESSAGES/{self.catalog}.po"
        where += f":{self.line}" if self.line else ""
        text = " ".join(self.msgid.split())
        text = text if len(text) <= 90 else text[:87] + "..."
        what = {
            "missing": "is in the template but not in the catalog (run `python -m docs.build_all gettext`)",
            "untranslated": "is not translated",
            "fuzzy": "is fuzzy (check the msgstr against the changed English, then remove the flag)",
            "english": "is translated by its own English (a prose message, not notation)",
        }[self.kind]
        return f"{where}: {text!r} {what}"


def _texts(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, tuple | list) else [str(value or "")]


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
    return problems


def check(locale: Path, languages: Iterable[str], templates: Path | None = None) -> list[Problem]:
    """Every catalog of every language; a language without catalogs is one problem, not a pass."""
    problems: list[Problem] = []
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
    return problems
