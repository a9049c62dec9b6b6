"""What every directive of the rulebook shares: the loaded spec and small docutils helpers.

Links (``xref``), labels, paragraphs whose clause and decision IDs become
links, labelled boxes, quotations of the source and the "requires" line of a
scenario. No page is built here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hakka_render as R
from docutils import nodes
from hakka_data import ID_IN_TEXT, LANGUAGES, SEED_LANGUAGES, Spec
from hakka_gettext import _, ngettext
from hakka_i18n import source_lines, tnode
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective


def spec_source(spec: Spec, kind: str, ident: str) -> tuple[str, int | None]:
    """(file, line) of a clause or decision in spec/, the location a catalog shows its texts at."""
    path = spec.root / "spec" / f"{kind}.yaml"
    key = (path, path.stat().st_mtime_ns if path.exists() else 0)
    lines = _SOURCE_LINES.get(key)
    if lines is None:
        lines = _SOURCE_LINES[key] = source_lines(path)
    return str(path), lines.get(ident)


_SOURCE_LINES: dict[tuple[Path, int], dict[str, int]] = {}


def get_spec(app: Sphinx) -> Spec:
    spec: Spec | None = getattr(app, "_hakka_spec", None)
    if spec is None:
        raise ExtensionError("hakka_spec: the spec was not loaded (builder-inited did not run)")
    return spec


def spec_root(app: Sphinx) -> Path:
    root = Path(app.config.hakka_root or Path(app.srcdir).parent)
    return root.resolve()


def xref(label: str, text: str, classes: tuple[str, ...] = ()) -> addnodes.pending_xref:
    node = addnodes.pending_xref(
        "", refdomain="std", reftype="ref", reftarget=label, refexplicit=True, refwarn=True
    )
    node += nodes.inline(text, text, classes=["hk-xref", *classes])
    return node


def register_label(directive: SphinxDirective, label: str, title: str) -> None:
    std = directive.env.get_domain("std")
    std.labels[label] = (directive.env.docname, label, title)  # type: ignore[attr-defined]
    std.anonlabels[label] = (directive.env.docname, label)  # type: ignore[attr-defined]


Gloss = Callable[[str], str]
"""An option's English summary (spec/decisions.yaml) → the same in the page's language."""

_AFTER_DECISION = re.compile(r"[^()\[\];.]*")  # the rest of the parenthesis or clause after a decision's ID


def _option_runs(text: str, decision: dict[str, Any], gloss: Gloss) -> list[nodes.Node]:
    """``text`` (what follows a decision's ID up to the next ID) with the decision's option IDs written as code,
    each followed by its translated summary: "Voreinstellung no" reads "Voreinstellung ``no`` (Nie)"."""
    options = {str(o["id"]): str(o.get("summary") or "") for o in decision.get("options", []) if isinstance(o, dict)}
    reach = _AFTER_DECISION.match(text)
    end = reach.end() if reach else 0
    if not options or not end:
        return [nodes.Text(text)]
    names = "|".join(re.escape(o) for o in sorted(options, key=len, reverse=True))
    out: list[nodes.Node] = []
    pos = 0
    for m in re.finditer(rf"(?<![\w`-])({names})(?![\w`-])", text[:end]):
        if m.start() > pos:
            out.append(nodes.Text(text[pos : m.start()]))
        out.append(nodes.literal(m.group(1), m.group(1), classes=["hk-option"]))
        summary = options[m.group(1)]
        if summary:
            out.append(nodes.Text(f" ({gloss(summary)})"))
        pos = m.end()
    if pos < len(text):
        out.append(nodes.Text(text[pos:]))
    return out


def autolink(text: str, spec: Spec, gloss: Gloss | None = None) -> list[nodes.Node]:
    """Text with every known clause and decision ID turned into a link.

    With ``gloss`` (a page in another language than English), an option ID named bare after its decision
    ("see D17, default no", translated) becomes code with the option's summary in the page's language.
    """
    out: list[nodes.Node] = []
    pos = 0
    decision: dict[str, Any] | None = None

    def text_until(end: int) -> None:
        if end <= pos:
            return
        chunk = text[pos:end]
        if decision is not None and gloss is not None:
            out.extend(_option_runs(chunk, decision, gloss))
        else:
            out.append(nodes.Text(chunk))

    for m in ID_IN_TEXT.finditer(text):
        ident = m.group(0)
        if ident not in spec.clause_by_id and ident not in spec.decision_by_id:
            continue
        text_until(m.start())
        out.append(xref(ident.lower(), ident, ("hk-id",)))
        decision = spec.decision_by_id.get(ident)
        pos = m.end()
    text_until(len(text))
    return out


def para(text: str, spec: Spec, classes: list[str] | None = None) -> nodes.paragraph:
    p = nodes.paragraph(classes=classes or [])
    p.extend(autolink(text, spec))
    return p


def paras(text: str, spec: Spec, classes: list[str] | None = None) -> list[nodes.paragraph]:
    return [para(" ".join(block.split()), spec, classes) for block in re.split(r"\n\s*\n", text.strip()) if block.strip()]


def raw(html: str) -> nodes.raw:
    return nodes.raw("", html, format="html")


def label_span(text: str) -> nodes.inline:
    return nodes.inline(text, text, classes=["hk-label"])


def labelled_box(css_class: str, label: str, text: str, source: tuple[str, int | None]) -> nodes.container:
    """A box of translatable paragraphs whose first one starts with a label (a clause's note, a rationale).

    ``label`` is an English message of the catalog hakka (``N_``), put in front after translation.
    """
    box = nodes.container(classes=[css_class])
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    for i, block in enumerate(blocks):
        box += tnode(nodes.paragraph, block, source, label=label if i == 0 else None)
    return box


def quotes(items: list[dict[str, Any]] | None, language: str | None = None) -> list[nodes.Node]:
    """The source quotes of a clause or decision, for a page in ``language``.

    Where that language's seed has the passage, its quotes come first and the others
    (the same passage in other seeds) are folded away; otherwise every quote is shown
    in its original language, after a note saying that this language's seed lacks it.
    """
    items = list(items or [])
    if not items:
        return []
    lang = language or "en"

    def html(q: dict[str, Any]) -> nodes.raw:
        return raw(R.quote_html(q.get("seed"), q.get("lang"), str(q.get("quote", ""))))

    def lang_of(q: dict[str, Any]) -> str:
        return str(q.get("lang") or SEED_LANGUAGES.get(str(q.get("seed", "")), ""))

    own = [q for q in items if lang_of(q) == lang]
    others = [q for q in items if lang_of(q) != lang]
    if not own:
        name = _(LANGUAGES.get(lang, (lang, "ltr"))[0])
        seeds = ", ".join(sorted({str(q.get("seed", "?")) for q in others}))
        note = nodes.paragraph(classes=["hk-quote-note"])
        note += nodes.Text(
            _("The {language} seed does not have this passage; it is quoted from seed {seeds}.").format(
                language=name, seeds=seeds
            )
        )
        return [note, *[html(q) for q in others]]
    out: list[nodes.Node] = [html(q) for q in own]
    if others:
        more = make_details(
            ngettext("The same in {count} other seed", "The same in {count} other seeds", len(others)).format(
                count=len(others)
            ),
            ["hk-other-quotes"],
        )
        more.extend(html(q) for q in others)
        out.append(more)
    return out


def decision_option_link(spec: Spec, did: str, option: str) -> list[nodes.Node]:
    default = spec.default_of(did)
    text = f"{did} {option}"
    classes = ("hk-opt", "hk-opt-default" if option == default else "hk-opt-other")
    return [xref(did.lower(), text, classes)]


def requires_nodes(spec: Spec, requires: Any) -> list[nodes.Node]:
    if requires in (None, "defaults"):
        return [nodes.Text(_("every decision at its default"))] if requires == "defaults" else []
    out: list[nodes.Node] = []
    for i, (did, opt) in enumerate(requires.items()):
        if i:
            out.append(nodes.Text(", "))
        out.extend(decision_option_link(spec, str(did), str(opt)))
    return out


class details(nodes.General, nodes.Element):
    """``<details><summary>…</summary>…</details>``: a worked example a reader opens if he wants it."""


def make_details(summary: str, classes: list[str]) -> details:
    node = details(classes=classes)
    node["summary"] = summary
    return node


def visit_details_html(self: Any, node: details) -> None:
    from html import escape

    self.body.append(self.starttag(node, "details"))
    self.body.append(f'<summary>{escape(node["summary"])}</summary>')


def depart_details_html(self: Any, node: details) -> None:
    self.body.append("</details>\n")
