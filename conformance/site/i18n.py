"""The site's own words in the rulebook's five languages (``messages.yaml``).

Each entry is an English message and its German, French, Hindi and Arabic
translations, written with the rulebook's terms (docs/locale/*/LC_MESSAGES:
*Klausel*, *clause*, *नियम-खंड*, *البند*; *Szenario*, *scénario*, *परिदृश्य*,
*السيناريو*). Scenario IDs, clause IDs, engine names and what engines said stay as
they are. tests/site/test_i18n.py checks that every message the pages use is in
the catalog, translated in every language.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

CATALOG = Path(__file__).resolve().parent / "messages.yaml"

LANGUAGES: dict[str, tuple[str, str]] = {
    "en": ("English", "ltr"),
    "de": ("Deutsch", "ltr"),
    "fr": ("Français", "ltr"),
    "hi": ("हिन्दी", "ltr"),
    "ar": ("العربية", "rtl"),
}
"""The rulebook's languages in its switcher's order: code → (autonym, direction) (docs/_ext/hakka_site.py)."""


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    entries: list[dict[str, str]] = yaml.safe_load(CATALOG.read_text(encoding="utf-8"))
    return {e["en"]: e for e in entries}


class Translator:
    """``t("{n} failed", n=3)`` in one language; a message missing from the catalog is an error, not English."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.used: set[str] = set()

    @property
    def dir(self) -> str:
        return LANGUAGES[self.lang][1]

    def __call__(self, msgid: str, **values: Any) -> str:
        self.used.add(msgid)
        entry = catalog().get(msgid)
        if entry is None:
            raise KeyError(f"{CATALOG.name}: no message {msgid!r}")
        return entry.get(self.lang, msgid).format(**values)
