"""The rulebook in five languages: how generated text reaches the gettext catalogs.

Every word a reader sees goes through a catalog of ``docs/locale/<lang>/LC_MESSAGES/``:

* **Text from spec/ and the pages** (clause statements, notes, examples, decision
  questions, options, rationales, the glossary, the guides) is made of docutils
  nodes that Sphinx's ``gettext`` builder collects, one catalog per top-level page
  or folder (``rules.po``, ``decisions.po`` …). A generated node is collected only
  if it has a source: :func:`tnode` gives it ``spec/clauses.yaml`` and the line of
  its clause, and an RST ``rawsource`` (the msgid). Sphinx's Locale transform then
  replaces it by the translation, so a changed clause is a changed msgid: fuzzy in
  every language until it is translated again.
* **The extension's own words** (labels such as "Depends on", sentences with
  numbers, the drawing of scenarios) are ``_()`` / ``ngettext()`` of this module,
  extracted by babel from ``docs/_ext`` into the catalog ``hakka.po``. Numbers are
  placeholders (``{count}``), so a new scenario changes no msgid.

Clause and decision IDs are plain text in every msgid (``see PLAY-4``); they become
links after translation (:class:`AutolinkIDs`), so a translator keeps the ID and
writes no markup. Labels are put in front of a paragraph after translation too
(:class:`InsertLabels`), so a msgid is the clause's own text and nothing else.

Kept out of the catalogs, in English on every page: scenario titles and notes
(their nodes have no source), code, card notation, the protocol's JSON, and the
docstrings of the Python API (:class:`KeepApiEnglish`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes
from hakka_gettext import _, activate
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective


def on_config_inited(app: Sphinx, config: Config) -> None:
    """Load the extension's catalog from the first of ``locale_dirs`` that has one for the language."""
    dirs = [Path(app.srcdir) / d for d in config.locale_dirs] or [Path(app.srcdir) / "locale"]
    found = [d for d in dirs if (d / str(config.language) / "LC_MESSAGES" / "hakka.po").exists()]
    activate(found[0] if found else dirs[0], config.language)


# ------------------------------------------------------------- translatable nodes

_RST_SPECIAL = re.compile(r"([\\*`|])")


def rst_escape(text: str) -> str:
    """Plain text as RST that reads the same: the msgid, and what a translation is parsed as."""
    return _RST_SPECIAL.sub(r"\\\1", text)


def tnode(
    cls: type[nodes.TextElement],
    text: str,
    source: tuple[str, int | None],
    classes: list[str] | None = None,
    label: str | None = None,
) -> Any:
    """A node of text from spec/ that the gettext builder collects and the Locale transform translates.

    ``source`` is (file, line) of the text in spec/; ``label`` (an English ``N_`` message)
    is put in front after translation; IDs in the text become links after translation.
    """
    text = " ".join(text.split())
    node = cls(rst_escape(text), text, classes=classes or [])
    node.source, node.line = source
    node["hk_autolink"] = True
    node["hk_msg"] = True
    if label:
        node["hk_label"] = label
    return node


def english_only(node: nodes.Element) -> nodes.Element:
    """Keep a node (and what it holds) out of every catalog: it stays in English."""
    for sub in node.findall(nodes.TextElement):
        if not isinstance(sub, nodes.Inline):  # inline nodes are never collected, and Sphinx moves marked ones
            sub["translatable"] = False
    node["classes"].append("hk-english")
    return node


def seal(out: list[nodes.Node]) -> list[nodes.Node]:
    """Keep everything a directive built out of the catalogs except its messages (``tnode``).

    Sphinx gives a directive's nodes the directive's source line, so an ID, a file name or a
    sentence with a number would otherwise become a msgid; those are the extension's own words
    (``_()``, catalog hakka) or no words at all.
    """
    for top in out:
        if not isinstance(top, nodes.Element):
            continue
        for sub in top.findall(nodes.TextElement):
            if not sub.get("hk_msg") and not isinstance(sub, nodes.Inline):
                sub["translatable"] = False
    return out


def sealed(directive: type[SphinxDirective]) -> type[SphinxDirective]:
    """The directive, with :func:`seal` applied to what it returns."""

    class Sealed(directive):  # type: ignore[valid-type,misc]
        def run(self) -> list[nodes.Node]:
            return seal(super().run())

    Sealed.__name__ = Sealed.__qualname__ = directive.__name__
    Sealed.__doc__ = directive.__doc__
    return Sealed


def source_lines(path: Path) -> dict[str, int]:
    """``id -> line`` of each ``- id: X`` entry of a spec YAML file, for the catalogs' locations."""
    out: dict[str, int] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return out
    for n, line in enumerate(lines, 1):
        m = re.match(r"\s*- id:\s*\"?([A-Za-z0-9-]+)\"?\s*$", line)
        if m:
            out.setdefault(m.group(1), n)
    return out


# ------------------------------------------------------------- transforms after translation


def option_gloss(app: Sphinx) -> Callable[[str], str]:
    """An option's English summary → its translation in the page's catalogs (decisions.po translates it where
    the decisions page shows it), so that a statement can name an option by its ID and its translated name."""
    catalog: dict[str, str] | None = getattr(app, "_hakka_option_gloss", None)
    if catalog is None:
        from babel.messages.pofile import read_po

        catalog = {}
        language = str(app.config.language)
        for folder in app.config.locale_dirs or ["locale"]:
            po = Path(app.srcdir) / folder / language / "LC_MESSAGES" / "decisions.po"
            if po.is_file():
                with po.open("rb") as f:
                    for m in read_po(f, locale=language):
                        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string and not m.fuzzy:
                            catalog.setdefault(" ".join(m.id.split()), m.string)
        app._hakka_option_gloss = catalog  # type: ignore[attr-defined]
    found = catalog
    return lambda summary: found.get(rst_escape(" ".join(summary.split())), summary)


class AutolinkIDs(SphinxTransform):
    """Clause and decision IDs in generated text become links, in whichever language it now is."""

    default_priority = 26  # after Locale (20) and RemoveTranslatableInline (25)

    def apply(self, **kwargs: Any) -> None:
        from hakka_nodes import autolink, get_spec

        spec = get_spec(self.app)
        gloss = option_gloss(self.app) if str(self.config.language or "en") != "en" else None
        for node in list(self.document.findall(nodes.Element)):
            if not node.get("hk_autolink"):
                continue
            for text in list(node.findall(nodes.Text)):
                parent = text.parent
                if parent is None or isinstance(parent, nodes.FixedTextElement | nodes.literal | nodes.reference):
                    continue
                if isinstance(parent, addnodes.pending_xref) or isinstance(parent.parent, addnodes.pending_xref):
                    continue
                linked = autolink(str(text), spec, gloss)
                if len(linked) == 1 and isinstance(linked[0], nodes.Text):
                    continue
                parent.replace(text, linked)


class InsertLabels(SphinxTransform):
    """``Note``, ``Example``, ``Source`` … in front of the paragraph they label, in the page's language."""

    default_priority = 27

    def apply(self, **kwargs: Any) -> None:
        from hakka_nodes import label_span

        for node in list(self.document.findall(nodes.TextElement)):
            label = node.get("hk_label")
            if not label:
                continue
            node.insert(0, nodes.Text(" "))
            node.insert(0, label_span(_(label)))
            del node["hk_label"]


class KeepApiEnglish(SphinxTransform):
    """The Python API's docstrings stay in English: code documentation, like the code."""

    default_priority = 5  # before Locale, and before the gettext builder collects

    def apply(self, **kwargs: Any) -> None:
        for desc in self.document.findall(addnodes.desc):
            for sub in desc.findall(nodes.TextElement):
                sub["translatable"] = False


class tinline(nodes.Inline, nodes.TextElement):
    """A translatable run of text inside a line of other nodes (a clause title after its ID).

    Not a ``nodes.inline``: Sphinx's RemoveTranslatableInline would move those to the end of their parent.
    """


def visit_tinline_html(self: Any, node: tinline) -> None:
    self.body.append(self.starttag(node, "span", ""))


def depart_tinline_html(self: Any, node: tinline) -> None:
    self.body.append("</span>")


def tinline_text(text: str, source: tuple[str, int | None], classes: list[str] | None = None) -> tinline:
    node: tinline = tnode(tinline, text, source, classes)
    node["translatable"] = True
    return node


def setup(app: Sphinx) -> None:
    app.connect("config-inited", on_config_inited)
    app.add_node(tinline, html=(visit_tinline_html, depart_tinline_html))
    app.add_transform(KeepApiEnglish)
    app.add_transform(AutolinkIDs)
    app.add_transform(InsertLabels)
