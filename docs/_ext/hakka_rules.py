"""The rule pages: the clauses of each area, the rules index, the decisions, the score table, cards.

Each clause and decision is drawn from ``spec/clauses.yaml`` and
``spec/decisions.yaml`` with its stable anchor (``rules/play.html#play-4``,
``decisions.html#d7``), its sources and the scenarios that test it.
"""

from __future__ import annotations

from html import escape
from typing import Any, ClassVar

import hakka_render as R
from docutils import nodes
from docutils.parsers.rst import directives
from hakka_data import INITIAL_ELDERS, Spec, SpecError, clause_page, option_ids, parse_cards, score_table
from hakka_gettext import N_, _
from hakka_i18n import tinline_text, tnode
from hakka_nodes import get_spec, label_span, labelled_box, quotes, raw, register_label, spec_source, xref
from hakka_scenarios import example_homes, examples_block
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)


class AreaDirective(SphinxDirective):
    """``.. hakka-area:: PLAY``: every clause of an area, in reading order."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        prefix = self.arguments[0]
        clauses = spec.clauses_of(prefix)
        if not clauses:
            raise self.error(f"no clause of area {prefix} in spec/clauses.yaml")
        # The area is named by its translated title: the spec's key ("calling") is English.
        title = spec.area_title(prefix)
        page = nodes.section(ids=[f"area-{prefix.lower()}"], names=[f"area-{prefix.lower()}"])
        page += nodes.title(text=_(title))
        intro = nodes.paragraph(classes=["hk-area-intro"])
        intro += nodes.Text(
            _(
                "Clauses {first} to {last} (area “{area}”). Each clause states one rule at the default "
                "of the decisions it names; the quotations are the source rulebook's own words."
            ).format(first=f"{prefix}-1", last=clauses[-1]["id"], area=_(title))
        )
        page += intro
        homes = example_homes(spec)
        for clause in clauses:
            page += self.clause_section(spec, clause, homes)
        return [page]

    def clause_section(self, spec: Spec, clause: dict[str, Any], homes: dict[str, str]) -> nodes.section:
        cid = clause["id"]
        label = cid.lower()
        src = spec_source(spec, "clauses", cid)
        title_text = f"{cid} · {clause.get('title', '')}".rstrip(" ·")
        register_label(self, label, title_text)
        sec = nodes.section(ids=[label], names=[label], classes=["hk-clause"])
        title = nodes.title()
        title += nodes.Text(f"{cid} · ")
        title += tinline_text(str(clause.get("title", "")), src)
        sec += title
        sec += tnode(nodes.paragraph, str(clause.get("statement", "")), src, ["hk-statement"])

        if clause.get("basis") == "derived":
            box = nodes.container(classes=["hk-derived"])
            box += tnode(nodes.paragraph, str(clause.get("explanation", "")), src, label=N_("Derived"))
            sec += box
        if clause.get("notes"):
            sec += labelled_box("hk-notes", N_("Note"), str(clause["notes"]), src)
        for ex in clause.get("examples") or []:
            box = nodes.container(classes=["hk-clause-example"])
            box += tnode(nodes.paragraph, str(ex.get("title", "")), src, ["hk-example-title"], label=N_("Example"))
            box += tnode(nodes.paragraph, str(ex.get("text", "")), src)
            box.extend(quotes(ex.get("source"), self.env.config.language))
            sec += box

        decs = clause.get("decisions") or []
        if decs:
            p = nodes.paragraph(classes=["hk-deps"])
            p += label_span(_("Depends on"))
            for i, did in enumerate(decs):
                p += nodes.Text(", " if i else " ")
                d = spec.decision_by_id.get(did)
                if d is None:
                    p += nodes.Text(did)
                    logger.warning(f"hakka_spec: {cid} names {did}, which spec/decisions.yaml does not define")
                    continue
                p += xref(did.lower(), did, ("hk-id",))
                p += nodes.Text(" (" + _("default {option}").format(option=spec.default_of(did)) + ")")
            sec += p

        sources = clause.get("source") or []
        if sources:
            box = nodes.container(classes=["hk-sources"])
            p = nodes.paragraph(classes=["hk-sources-title"])
            p += label_span(_("Source"))
            box += p
            box.extend(quotes(sources, self.env.config.language))
            sec += box
        sec.extend(examples_block(spec, cid, homes))
        return sec


class RulesIndexDirective(SphinxDirective):
    """``.. hakka-rules-index::``: the areas, each with its clauses."""

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        out: list[nodes.Node] = []
        intro = nodes.paragraph()
        intro += nodes.Text(
            _(
                "The {clauses} clauses of the rules, in reading order. A clause's ID is also its address: "
                "clause PLAY-4 is at rules/play.html#play-4. Each clause links the decisions it depends on "
                "({decisions} in all, see "
            ).format(clauses=len(spec.clauses), decisions=len(spec.decisions))
        )
        ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget="/decisions", refexplicit=True)
        ref += nodes.inline(text=_("Decisions"))
        intro += ref
        intro += nodes.Text(_(") and is followed by worked examples drawn from the conformance scenarios."))
        out.append(intro)
        out.append(raw(card_legend_html()))
        table = nodes.bullet_list(classes=["hk-area-list"])
        for prefix in spec.areas():
            clauses = spec.clauses_of(prefix)
            title = spec.area_title(prefix)
            item = nodes.list_item()
            p = nodes.paragraph()
            ref = addnodes.pending_xref(
                "", refdomain="std", reftype="doc", reftarget=f"/{clause_page(clauses[0]['id'])}", refexplicit=True
            )
            ref += nodes.inline(text=_(title))
            p += nodes.strong("", "", ref)
            p += nodes.Text(f"  ({prefix}-1 … {clauses[-1]['id']})")
            item += p
            # The clause titles, as links: each is the msgid of its clause's title on the rules page.
            sub = nodes.paragraph(classes=["hk-area-clauses"])
            for i, c in enumerate(clauses):
                if i:
                    sub += nodes.Text(" · ")
                sub += xref(c["id"].lower(), c["id"])
                sub += nodes.Text(" ")
                sub += tinline_text(str(c.get("title", "")), spec_source(spec, "clauses", c["id"]))
            item += sub
            table += item
        out.append(table)
        return out


def card_legend_html() -> str:
    from hakka_data import Card

    sample = [Card(n) for n in ("Sup7", "Gon7", "Zok7", "Sin7", "WanSin")]
    elders = [Card(n) for n in INITIAL_ELDERS]
    return (
        '<div class="hk-legend"><p><b>' + escape(_("How cards are drawn.")) + "</b> "
        + escape(_("Each card shows its number and its suit; the suits also differ in colour: Sup red, "
                   "Gon green, Zok blue, Sin black, and the suitless Wan Sin purple."))
        + f"</p><p>{R.cards_html(sample, ())}</p>"
        + "<p>" + escape(_("A star marks an Elder. The Elders at the start of every hand (ELD-1):")) + "</p>"
        + f"<p>{R.cards_html(elders)}</p>"
        + "<p>" + escape(_("A card drawn faded with a dashed border was discarded face down.")) + "</p></div>"
    )


class CardLegendDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        return [raw(card_legend_html())]


class CardsDirective(SphinxDirective):
    """``.. hakka-cards:: Sup3 Sup4 Sup5``: draw cards in a hand-written page."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {"elders": directives.unchanged, "discarded": directives.flag}

    def run(self) -> list[nodes.Node]:
        try:
            cards = parse_cards(self.arguments[0])
            elders = parse_cards(self.options["elders"]) if "elders" in self.options else None
        except SpecError as exc:
            raise self.error(str(exc)) from exc
        names = [c.name for c in elders] if elders is not None else list(INITIAL_ELDERS)
        return [raw(f'<p class="hk-inline-cards">{R.cards_html(cards, names, "discarded" in self.options)}</p>')]


class DecisionsDirective(SphinxDirective):
    """``.. hakka-decisions::``: every decision with its options, default and rationale."""

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        out: list[nodes.Node] = [self.summary(spec)]
        for d in spec.decisions:
            out.append(self.decision_section(spec, d))
        return out

    def summary(self, spec: Spec) -> nodes.Node:
        table = nodes.table(classes=["hk-decision-summary"])
        group = nodes.tgroup(cols=4)
        table += group
        for w in (8, 30, 22, 40):
            group += nodes.colspec(colwidth=w)
        head = nodes.thead()
        group += head
        row = nodes.row()
        for h in (N_("ID"), N_("Question"), N_("Default"), N_("Other options")):
            row += nodes.entry("", nodes.paragraph(text=_(h)))
        head += row
        body = nodes.tbody()
        group += body
        for d in spec.decisions:
            row = nodes.row()
            p = nodes.paragraph()
            p += xref(d["id"].lower(), d["id"], ("hk-id",))
            row += nodes.entry("", p)
            row += nodes.entry("", tnode(nodes.paragraph, str(d.get("title", "")), spec_source(spec, "decisions", d["id"])))
            row += nodes.entry("", nodes.paragraph("", "", nodes.literal(text=str(spec.default_of(d["id"])))))
            others = [o for o in option_ids(d) if o != spec.default_of(d["id"])]
            p = nodes.paragraph()
            for i, o in enumerate(others):
                if i:
                    p += nodes.Text(", ")
                p += nodes.literal(text=o)
            if not others:
                p += nodes.Text("—")
            row += nodes.entry("", p)
            body += row
        return table

    def decision_section(self, spec: Spec, d: dict[str, Any]) -> nodes.section:
        did = d["id"]
        label = did.lower()
        src = spec_source(spec, "decisions", did)
        title_text = f"{did} · {d.get('title', d.get('key', ''))}"
        register_label(self, label, title_text)
        sec = nodes.section(ids=[label], names=[label], classes=["hk-decision"])
        title = nodes.title()
        title += nodes.Text(f"{did} · ")
        title += tinline_text(str(d.get("title", d.get("key", ""))), src)
        sec += title
        meta = nodes.paragraph(classes=["hk-dec-meta"])
        meta += label_span(_("Key"))
        meta += nodes.Text(" ")
        meta += nodes.literal(text=str(d.get("key", "")))
        origin = d.get("origin")
        if origin:
            meta += nodes.Text("  ·  ")
            meta += label_span(_("Found in"))
            meta += nodes.Text(" " + _(ORIGINS.get(str(origin), str(origin))))
        sec += meta
        sec += tnode(nodes.paragraph, str(d.get("question", "")), src, ["hk-question"])
        if d.get("source"):
            box = nodes.container(classes=["hk-sources"])
            p = nodes.paragraph(classes=["hk-sources-title"])
            p += label_span(_("Source"))
            box += p
            box.extend(quotes(d.get("source"), self.env.config.language))
            sec += box
        sec += self.options_box(spec, d, src)
        if d.get("rationale"):
            sec += labelled_box("hk-rationale", N_("Why the default"), str(d["rationale"]), src)
        sec.extend(self.interplay(spec, did))
        sec.extend(self.rejected(d, src))
        sec.extend(self.touches(spec, did))
        return sec

    def options_box(self, spec: Spec, d: dict[str, Any], src: tuple[str, int | None]) -> nodes.container:
        label = d["id"].lower()
        default = spec.default_of(d["id"])
        opts = nodes.container(classes=["hk-options"])
        p = nodes.paragraph(classes=["hk-options-title"])
        p += label_span(_("Options"))
        opts += p
        dl = nodes.definition_list(classes=["hk-option-list"])
        for o in d.get("options") or []:
            oid = str(o["id"]) if isinstance(o, dict) else str(o)
            item = nodes.definition_list_item(ids=[f"{label}-{oid}"])
            term = nodes.term()
            term += nodes.literal(text=oid)
            if oid == default:
                term += nodes.Text(" ")
                term += nodes.inline(text=_("default"), classes=["hk-badge-default"])
            item += term
            defn = nodes.definition()
            if isinstance(o, dict) and o.get("summary"):
                defn += tnode(nodes.paragraph, str(o["summary"]), src, ["hk-option-summary"])
            if isinstance(o, dict) and o.get("meaning"):
                defn += tnode(nodes.paragraph, str(o["meaning"]), src)
            item += defn
            dl += item
        opts += dl
        return opts

    def interplay(self, spec: Spec, did: str) -> list[nodes.Node]:
        """How this decision combines with others: its own ``interplay`` entries and those of every decision
        that names it, each written once in spec/decisions.yaml and translated once."""
        boxes: list[nodes.Node] = []
        for owner in spec.decisions:
            for entry in owner.get("interplay") or []:
                if owner["id"] == did or did in entry.get("with", []):
                    src = spec_source(spec, "decisions", owner["id"])
                    boxes.append(labelled_box("hk-interplay", N_("Interplay"), str(entry["text"]), src))
        return boxes

    def rejected(self, d: dict[str, Any], src: tuple[str, int | None]) -> list[nodes.Node]:
        rejected = d.get("rejected") or []
        p = nodes.paragraph(classes=["hk-rejected-title"])
        p += label_span(_("Rejected alternatives"))
        if not rejected:
            p += nodes.Text(" " + _("none: every reading considered is an option above."))
            return [p]
        bl = nodes.bullet_list(classes=["hk-rejected"])
        for r in rejected:
            li = nodes.list_item()
            li += nodes.paragraph("", "", nodes.literal(text=str(r.get("option", ""))), classes=["hk-rejected-option"])
            li += tnode(nodes.paragraph, str(r.get("reason", "")), src)
            bl += li
        return [p, bl]

    def touches(self, spec: Spec, did: str) -> list[nodes.Node]:
        default = spec.default_of(did)
        touched = spec.clauses_touched_by(did)
        p = nodes.paragraph(classes=["hk-touches"])
        p += label_span(_("Clauses"))
        if not touched:
            p += nodes.Text(" " + _("none"))
        for i, cid in enumerate(touched):
            p += nodes.Text(", " if i else " ")
            p += xref(cid.lower(), cid, ("hk-id",)) if cid in spec.clause_by_id else nodes.Text(cid)
        out: list[nodes.Node] = [p]
        needing = [
            s
            for s in spec.scenarios
            if not s.generated
            and isinstance(s.data.get("requires"), dict)
            and did in s.data["requires"]
            and s.data["requires"][did] != default
        ]
        if needing:
            p = nodes.paragraph(classes=["hk-touches"])
            p += label_span(_("Scenarios under another option"))
            for i, s in enumerate(needing):
                p += nodes.Text(", " if i else " ")
                p += xref(f"scenario-{s.id}", f"{s.id} ({s.data['requires'][did]})", ("hk-sc-link",))
            out.append(p)
        return out


ORIGINS = {"rules-notes": N_("the close reading of the source"), "implementation": N_("implementing the rules")}


class ScoreTableDirective(SphinxDirective):
    """``.. hakka-score-table::``: SCORE-1's table, read from the clause itself, with a header on every column."""

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        try:
            pairs = score_table(spec)
        except SpecError as exc:
            raise self.error(str(exc)) from exc
        table = nodes.table(classes=["hk-score"])
        group = nodes.tgroup(cols=3)
        table += group
        for w in (20, 15, 65):
            group += nodes.colspec(colwidth=w)
        head = nodes.thead()
        row = nodes.row()
        for h in (N_("Tricks (count)"), N_("Points"), N_("Note")):
            row += nodes.entry("", nodes.paragraph(text=_(h)))
        head += row
        group += head
        body = nodes.tbody()
        group += body
        low = pairs[0][0] - 1 if pairs else 5
        body += self.row(f"0–{low}", "0", _("below {tricks} scores nothing (SCORE-2)").format(tricks=low + 1))
        for tricks, points in pairs:
            doubling = 2 ** (tricks - pairs[0][0]) if pairs else points
            note = ""
            if points != doubling:
                note = _("not {doubling}: the source says {points} in every language that gives the table").format(
                    doubling=doubling, points=points
                )
            body += self.row(str(tricks), str(points), note, special=bool(note))
        return [table]

    @staticmethod
    def row(tricks: str, points: str, note: str, special: bool = False) -> nodes.row:
        row = nodes.row(classes=["hk-special"] if special else [])
        row += nodes.entry("", nodes.paragraph(text=tricks))
        row += nodes.entry("", nodes.paragraph(text=points))
        p = nodes.paragraph(text=note)
        p["hk_autolink"] = True
        row += nodes.entry("", p)
        return row
