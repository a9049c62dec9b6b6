"""The site around the pages, per language: the switcher, ``<html lang dir>``, the title.

* **Language switcher**: every page links to the same page in each language's build
  (``docs/_build/html/<lang>/<page>.html``, siblings), in the sidebar
  (``_templates/langswitch.html``). Each language is named in its own script
  (its autonym), which is how a reader finds their language among others.
* **Direction**: ``<html lang="ar" dir="rtl">`` (``ltr`` elsewhere). The theme's template
  writes ``<html lang>`` outside any block, so ``dir`` is added to each written page.
  The layout is mirrored by ``_static/hakka-layout.css`` (CSS logical properties).
* **Site furniture**: the HTML title is the front page's title, so its translation is
  the one of the front page's catalog (``index.po``); the sidebar's description and the
  switcher's label are per-language config (``hakka_site_text`` in conf.py: three words
  each, kept out of the catalogs so that adding them changed no translator's file).
  Theme strings (*Navigation*, *Quick search*) come from Sphinx's own translations.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

from conformance.specdata import book_languages

# Languages of the book, in the switcher's order: code -> (autonym, direction), from spec/languages.yaml.
BOOK_LANGUAGES: dict[str, tuple[str, str]] = {lang.code: (lang.name, lang.dir) for lang in book_languages()}
_HTML_TAG = re.compile(r"<html(?![^>]*\bdir=)([^>]*)>")


def direction(language: str | None) -> str:
    return BOOK_LANGUAGES.get(str(language or "en"), ("", "ltr"))[1]


def page_translation(srcdir: Path, config: Config, catalog: str, msgid: str) -> str:
    """``msgid``'s translation in a page catalog (``index.po``), or ``msgid`` if it has none yet."""
    from babel.messages.pofile import read_po

    for d in config.locale_dirs:
        po = Path(srcdir) / d / str(config.language) / "LC_MESSAGES" / f"{catalog}.po"
        if po.exists():
            with po.open("rb") as f:
                message = read_po(f).get(msgid)
            if message is not None and message.string and not message.fuzzy:
                return str(message.string)
    return msgid


def on_config_inited(app: Sphinx, config: Config) -> None:
    config.html_title = page_translation(Path(app.srcdir), config, "index", config.html_title)
    options = dict(config.html_theme_options)
    options["description"] = site_text(config, "description")
    config.html_theme_options = options


def site_text(config: Config, key: str) -> str:
    """``hakka_site_text[key]`` in the build's language (English where a language has none)."""
    table: dict[str, dict[str, str]] = config.hakka_site_text or {}
    entry = table.get(key, {})
    return entry.get(str(config.language), entry.get("en", key))


def language_links(language: str, pagename: str) -> list[dict[str, Any]]:
    """The same page in each language's build: ``../`` up to the language folder, then across."""
    up = "../" * (pagename.count("/") + 1)
    return [
        {"code": code, "name": name, "dir": d, "url": f"{up}{code}/{pagename}.html", "current": code == language}
        for code, (name, d) in BOOK_LANGUAGES.items()
    ]


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    language = str(app.config.language or "en")
    context["hk_languages"] = language_links(language, pagename)
    context["hk_dir"] = direction(language)
    context["hk_switch_label"] = site_text(app.config, "language")


def add_dir(html: str, dir_: str) -> str:
    """``<html lang=…>`` with ``dir`` (the theme's template has no block around the tag)."""
    return _HTML_TAG.sub(lambda m: f'<html{m.group(1)} dir="{dir_}">', html, count=1)


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    dir_ = direction(app.config.language)
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = add_dir(text, dir_)
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("hakka_site_text", {}, "html")
    app.connect("config-inited", on_config_inited, priority=900)
    app.connect("html-page-context", on_html_page_context)
    app.connect("build-finished", on_build_finished)
    app.add_css_file("hakka-layout.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
