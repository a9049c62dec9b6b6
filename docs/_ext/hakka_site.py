"""The site around the pages, per language: the switcher, ``<html lang dir>``, the title.

* **Language switcher**: every page links to the same page in each language's build
  (``docs/_build/html/<lang>/<page>.html``, siblings), in the sidebar
  (``_templates/langswitch.html``). Each language is named in its own script
  (its autonym), which is how a reader finds their language among others. It offers
  only the languages that exist beside this build: those built before it (a sibling
  ``../<lang>/index.html``) and those its command builds too (``hakka_languages``, which
  ``python -m docs.build_all`` sets); where some are missing, it names the command that
  builds them (``hakka_site_text["more_languages"]``), so that no link is dead.
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
from html import escape
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


def language_links(language: str, pagename: str, available: set[str] | None = None) -> list[dict[str, Any]]:
    """The same page in each available language's build: ``../`` up to the language folder, then
    across; the page itself for its own language (whatever its folder is called)."""
    up = "../" * (pagename.count("/") + 1)
    own = pagename.rsplit("/", 1)[-1] + ".html"
    return [
        {"code": code, "name": name, "dir": d, "url": own if code == language else f"{up}{code}/{pagename}.html",
         "current": code == language}
        for code, (name, d) in BOOK_LANGUAGES.items()
        if available is None or code in available or code == language
    ]


def more_languages(config: Config) -> str:
    """The switcher's line (HTML) naming the command that builds every language."""
    text = escape(site_text(config, "more_languages"))
    command = '<code class="docutils literal" dir="ltr" style="white-space: nowrap">python -m docs.build_all</code>'
    return text.replace("{command}", command)


def available_languages(app: Sphinx) -> set[str]:
    """The languages this build's switcher may link to: built beside it already, or built by the same command."""
    planned = {code.strip() for code in str(app.config.hakka_languages or "").split(",") if code.strip()}
    beside = {code for code in BOOK_LANGUAGES if (Path(app.outdir).parent / code / "index.html").exists()}
    return planned | beside | {str(app.config.language or "en")}


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    language = str(app.config.language or "en")
    available = available_languages(app)
    context["hk_languages"] = language_links(language, pagename, available)
    context["hk_more_languages"] = "" if set(BOOK_LANGUAGES) <= available else more_languages(app.config)
    context["hk_dir"] = direction(language)
    context["hk_switch_label"] = site_text(app.config, "language")


def add_dir(html: str, dir_: str) -> str:
    """``<html lang=…>`` with ``dir`` (the theme's template has no block around the tag)."""
    return _HTML_TAG.sub(lambda m: f'<html{m.group(1)} dir="{dir_}">', html, count=1)


# Attributes the theme writes in English whatever the language (alabaster's links to the previous and
# next page, the basic theme's sidebar label): passed through Sphinx's own catalog ("sphinx"), which
# docs/_theme_locale/<lang>/LC_MESSAGES/sphinx.po completes (docs/catalog_gate.py checks it).
THEME_ATTRIBUTES = (("title", "Previous document"), ("title", "Next document"), ("aria-label", "Main"))


def theme_words(html: str) -> str:
    """``html`` with the theme's English attributes in the build's language."""
    from sphinx.locale import _

    for attribute, word in THEME_ATTRIBUTES:
        html = html.replace(f'{attribute}="{word}"', f'{attribute}="{escape(_(word))}"')
    return html


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    dir_ = direction(app.config.language)
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = theme_words(add_dir(text, dir_))
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("hakka_site_text", {}, "html")
    app.add_config_value("hakka_languages", "", "html")  # "en,de,…": built by the same command
    app.connect("config-inited", on_config_inited, priority=900)
    app.connect("html-page-context", on_html_page_context)
    app.connect("build-finished", on_build_finished)
    app.add_css_file("hakka-layout.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
