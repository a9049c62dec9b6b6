"""The extension's own words in the build's language: ``_``, ``N_``, ``ngettext`` of the catalog ``hakka``.

No Sphinx here (``hakka_data`` and the tests use it too). The messages are
extracted from ``docs/_ext`` by babel into ``hakka.pot`` (``python -m docs.build_all
gettext``); each language's ``docs/locale/<lang>/LC_MESSAGES/hakka.po`` is compiled
and loaded when a build of that language starts (:func:`activate`). Numbers are
placeholders (``{count}``) so that a new scenario changes no msgid.
"""

from __future__ import annotations

import gettext
from pathlib import Path

from conformance.specdata import book_languages

#: The rulebook's languages, English first (the source of every msgid): the one table, spec/languages.yaml.
LANGUAGES = tuple(lang.code for lang in book_languages())
DOMAIN = "hakka"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def current_language() -> str:
    """The language of the build (the one :func:`activate` loaded)."""
    return _language


def _(message: str) -> str:
    """The extension's own words, in the language of the build."""
    return _current.gettext(message)


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined; translate it with ``_`` where it is used."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def compile_catalog(po: Path, mo: Path) -> None:
    """``hakka.po`` → ``hakka.mo`` (fuzzy messages left out, as Sphinx does for the pages' catalogs)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return
    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=DOMAIN)
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as f:
        write_mo(f, catalog, use_fuzzy=False)


def activate(locale_dir: Path, language: str | None) -> None:
    """Load ``hakka.mo`` of ``language`` (English: none, the msgids are English)."""
    global _current, _language
    _current = gettext.NullTranslations()
    _language = language or "en"
    if not language or language == "en":
        return
    po = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if po.exists():
        compile_catalog(po, po.with_suffix(".mo"))
    _current = gettext.translation(DOMAIN, str(locale_dir), languages=[language], fallback=True)
