"""Sphinx configuration of the Hakka Cards rulebook.

Build:  sphinx-build -W --keep-going -b html docs docs/_build/html   (English)
        python -m docs.build_all                                  (all five languages, docs/_build/html/<lang>/)

The book is written in English and translated through gettext catalogs in
locale/<lang>/LC_MESSAGES/ (locale/README.md says how): `-D language=fr` builds French.

The rules, decisions and worked examples are generated from spec/ and
conformance/scenarios/ at build time by the local extension _ext/hakka_spec.py;
nothing in them is copied by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))  # reference_engine and conformance, for autodoc and the CLI help

project = "Hakka Cards"
author = "the Hakka Cards project"
copyright = "the Hakka Cards project, MIT licence"
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "myst_parser",  # spec/PROTOCOL.md is included as it is written: one text, not a restatement
    "hakka_spec",
    "hakka_transcript",
    "hakka_site",  # language switcher, <html dir>, the title and description per language
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3

hakka_root = str(ROOT)

# Five languages, one source (Sphinx i18n, as the Python documentation's translations).
language = "en"
# locale/: the book's catalogs (the translators'); _theme_locale/: the theme words Sphinx's own
# catalog leaves empty for a language (Arabic "Navigation", "Go"), ahead of Sphinx's catalog.
locale_dirs = ["locale/", "_theme_locale/"]
gettext_compact = True  # one catalog per top-level page or folder: rules.po, decisions.po, guides.po …
gettext_uuid = False
gettext_location = True  # a message's location (spec/clauses.yaml:LINE for a clause) is shown to translators
translation_progress_classes = "untranslated"  # an untranslated paragraph is marked in the HTML (and counted)

# locale/REVIEW.md: the translators' review notes, not a page of the book.
exclude_patterns = ["_build", "examples/**/node_modules", "README.md", "**/README.md", "locale/REVIEW.md"]
templates_path = ["_templates"]  # langswitch.html: the language switcher in the sidebar
# The card stylesheet is shared with the play table: one file, copied into _static.
html_static_path = ["_static", str(ROOT / "hakka_play" / "static" / "cards.css")]
html_css_files = ["cards.css"]
html_theme = "alabaster"
html_title = "Hakka Cards rulebook"
html_theme_options = {
    "page_width": "1180px",
    "sidebar_width": "240px",
    "description": "Rules, decisions, conformance",
    "fixed_sidebar": False,
    "show_relbars": True,
    "show_powered_by": False,  # "Powered by" is alabaster's word, in no catalog
    "font_family": "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif",
    "head_font_family": "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif",
    "code_font_family": "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
}
# No relations.html: its words ("Related Topics", "Previous") are alabaster's own and in no
# catalog (alabaster 1.0 ships none); the relbars above and below each page link the same pages.
html_sidebars = {"**": ["about.html", "langswitch.html", "navigation.html", "searchbox.html"]}
html_show_sourcelink = False
# The site's own words beside the title (whose translation is the front page's, index.po):
# per language, outside the catalogs (docs/_ext/hakka_site.py).
hakka_site_text = {
    "description": {
        "en": "Rules, decisions, conformance",
        "de": "Regeln, Entscheidungen, Konformität",
        "fr": "Règles, décisions, conformité",
        "hi": "नियम, निर्णय, अनुरूपता",
        "ar": "القواعد، القرارات، المطابقة",
    },
    "language": {"en": "Language", "de": "Sprache", "fr": "Langue", "hi": "भाषा", "ar": "اللغة"},
    # The switcher of a build without the other languages beside it says how to build them.
    "more_languages": {
        "en": "The other languages are built by {command}",
        "de": "Die anderen Sprachen baut {command}",
        "fr": "Les autres langues se construisent avec {command}",
        "hi": "अन्य भाषाएँ {command} से बनती हैं",
        "ar": "تُبنى اللغات الأخرى بالأمر {command}",
    },
}

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}

# Sphinx warnings are errors in the documented build (-W); none are silenced here.
nitpicky = False
