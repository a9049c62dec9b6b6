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
from hakka_data import AREAS, INITIAL_ELDERS, Spec, SpecError, clause_page, option_ids, parse_cards, score_table
from hakka_nodes import autolink, get_spec, label_span, labelled_box, para, quotes, raw, register_label, xref
from hakka_scenarios import examples_block
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
        area_name, title = AREAS.get(prefix, (str(clauses[0].get("area", prefix)).lower(), prefix.title()))
        page = nodes.section(ids=[f"area-{prefix.lower()}"], names=[f"area-{prefix.lower()}"])
        page += nodes.title(text=f"{title}")
        intro = nodes.paragraph(classes=["hk-area-intro"])
        intro += nodes.Text(
            f"Clauses {prefix}-1 to {clauses[-1]['id']} (area “{area_name}”). Each clause states one rule "
            "at the default of the decisions it names; the quotations are the source rulebook's own words."
        )
        page += intro
        drawn: set[str] = set()
        for clause in clauses:
            page += self.clause_section(spec, clause, drawn)
        return [page]

    def clause_section(self, spec: Spec, clause: dict[str, Any], drawn: set[str]) -> nodes.section:
        cid = clause["id"]
        label = cid.lower()
        title_text = f"{cid} · {clause.get('title', '')}".rstrip(" ·")
        register_label(self, label, title_text)
        sec = nodes.section(ids=[label], names=[label], classes=["hk-clause"])
        sec += nodes.title(text=title_text)
        sec += para(" ".join(str(clause.get("statement", "")).split()), spec, ["hk-statement"])

        if clause.get("basis") == "derived":
            box = nodes.container(classes=["hk-derived"])
            p = nodes.paragraph()
            p += label_span("Derived")
            p += nodes.Text(" ")
            p.extend(autolink(" ".join(str(clause.get("explanation", "")).split()), spec))
            box += p
            sec += box
        if clause.get("notes"):
            sec += labelled_box("hk-notes", "Note", str(clause["notes"]), spec)
        for ex in clause.get("examples") or []:
            box = nodes.container(classes=["hk-clause-example"])
            p = nodes.paragraph()
            p += label_span("Example")
            p += nodes.Text(" ")
            p += nodes.strong(text=str(ex.get("title", "")))
            p += nodes.Text(". ")
            p.extend(autolink(" ".join(str(ex.get("text", "")).split()), spec))
            box += p
            box.extend(quotes(ex.get("source")))
            sec += box

        decs = clause.get("decisions") or []
        if decs:
            p = nodes.paragraph(classes=["hk-deps"])
            p += label_span("Depends on")
            for i, did in enumerate(decs):
                p += nodes.Text(", " if i else " ")
                d = spec.decision_by_id.get(did)
                if d is None:
                    p += nodes.Text(did)
                    logger.warning(f"hakka_spec: {cid} names {did}, which spec/decisions.yaml does not define")
                    continue
                p += xref(did.lower(), f"{did} {d.get('title', d.get('key', ''))}", ("hk-id",))
                p += nodes.Text(f" (default {spec.default_of(did)})")
            sec += p

        src = clause.get("source") or []
        if src:
            box = nodes.container(classes=["hk-sources"])
            p = nodes.paragraph(classes=["hk-sources-title"])
            p += label_span("Source")
            box += p
            box.extend(quotes(src))
            sec += box
        sec.extend(examples_block(spec, cid, drawn))
        return sec


class RulesIndexDirective(SphinxDirective):
    """``.. hakka-rules-index::``: the areas, each with its clauses."""

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        out: list[nodes.Node] = []
        intro = nodes.paragraph()
        intro += nodes.Text(
            f"The {len(spec.clauses)} clauses of the rules, in reading order. A clause's ID is also "
            "its address: clause PLAY-4 is at rules/play.html#play-4. Each clause links the "
            f"decisions it depends on ({len(spec.decisions)} in all, see "
        )
        ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget="/decisions", refexplicit=True)
        ref += nodes.inline(text="Decisions")
        intro += ref
        intro += nodes.Text(") and is followed by worked examples drawn from the conformance scenarios.")
        out.append(intro)
        out.append(raw(card_legend_html()))
        table = nodes.bullet_list(classes=["hk-area-list"])
        for prefix in spec.areas():
            clauses = spec.clauses_of(prefix)
            _, title = AREAS.get(prefix, (prefix.lower(), prefix.title()))
            item = nodes.list_item()
            p = nodes.paragraph()
            ref = addnodes.pending_xref(
                "", refdomain="std", reftype="doc", reftarget=f"/{clause_page(clauses[0]['id'])}", refexplicit=True
            )
            ref += nodes.inline(text=title)
            p += nodes.strong("", "", ref)
            p += nodes.Text(f"  ({prefix}-1 … {clauses[-1]['id']})")
            item += p
            sub = nodes.paragraph(classes=["hk-area-clauses"])
            for i, c in enumerate(clauses):
                if i:
                    sub += nodes.Text(" · ")
                sub += xref(c["id"].lower(), f"{c['id']} {c.get('title', '')}")
            item += sub
            table += item
        out.append(table)
        return out


def card_legend_html() -> str:
    from hakka_data import Card

    sample = [Card(n) for n in ("Sup7", "Gon7", "Zok7", "Sin7", "WanSin")]
    elders = [Card(n) for n in INITIAL_ELDERS]
    return (
        '<div class="hk-legend"><p><b>How cards are drawn.</b> Each card shows its number and its suit; '
        "the suits also differ in colour: Sup red, Gon green, Zok blue, Sin black, and the suitless "
        "Wan Sin purple.</p>"
        f"<p>{R.cards_html(sample, ())}</p>"
        "<p>A star marks an Elder. The Elders at the start of every hand (ELD-1):</p>"
        f"<p>{R.cards_html(elders)}</p>"
        "<p>A card drawn faded with a dashed border was discarded face down.</p></div>"
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
        for h in ("ID", "Question", "Default", "Other options"):
            row += nodes.entry("", nodes.paragraph(text=h))
        head += row
        body = nodes.tbody()
        group += body
        for d in spec.decisions:
            row = nodes.row()
            p = nodes.paragraph()
            p += xref(d["id"].lower(), d["id"], ("hk-id",))
            row += nodes.entry("", p)
            row += nodes.entry("", nodes.paragraph(text=str(d.get("title", ""))))
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
        title_text = f"{did} · {d.get('title', d.get('key', ''))}"
        register_label(self, label, title_text)
        sec = nodes.section(ids=[label], names=[label], classes=["hk-decision"])
        sec += nodes.title(text=title_text)
        meta = nodes.paragraph(classes=["hk-dec-meta"])
        meta += label_span("Key")
        meta += nodes.Text(" ")
        meta += nodes.literal(text=str(d.get("key", "")))
        origin = d.get("origin")
        if origin:
            meta += nodes.Text("  ·  ")
            meta += label_span("Found in")
            meta += nodes.Text(
                " " + {"rules-notes": "the close reading of the source", "implementation": "implementing the rules"}.get(
                    str(origin), str(origin)
                )
            )
        sec += meta
        q = para(" ".join(str(d.get("question", "")).split()), spec, ["hk-question"])
        sec += q
        if d.get("source"):
            box = nodes.container(classes=["hk-sources"])
            p = nodes.paragraph(classes=["hk-sources-title"])
            p += label_span("Source")
            box += p
            box.extend(quotes(d.get("source")))
            sec += box

        default = spec.default_of(did)
        opts = nodes.container(classes=["hk-options"])
        p = nodes.paragraph(classes=["hk-options-title"])
        p += label_span("Options")
        opts += p
        dl = nodes.definition_list(classes=["hk-option-list"])
        for o in d.get("options") or []:
            oid = str(o["id"]) if isinstance(o, dict) else str(o)
            item = nodes.definition_list_item(ids=[f"{label}-{oid}"])
            term = nodes.term()
            term += nodes.literal(text=oid)
            if oid == default:
                term += nodes.Text(" ")
                term += nodes.inline(text="default", classes=["hk-badge-default"])
            if isinstance(o, dict) and o.get("summary"):
                term += nodes.Text(f" — {o['summary']}")
            item += term
            defn = nodes.definition()
            if isinstance(o, dict) and o.get("meaning"):
                defn += para(" ".join(str(o["meaning"]).split()), spec)
            item += defn
            dl += item
        opts += dl
        sec += opts

        if d.get("rationale"):
            sec += labelled_box("hk-rationale", "Why the default", str(d["rationale"]), spec)
        rejected = d.get("rejected") or []
        p = nodes.paragraph(classes=["hk-rejected-title"])
        p += label_span("Rejected alternatives")
        if not rejected:
            p += nodes.Text(" none: every reading considered is an option above.")
            sec += p
        else:
            sec += p
            bl = nodes.bullet_list(classes=["hk-rejected"])
            for r in rejected:
                li = nodes.list_item()
                rp = nodes.paragraph()
                rp += nodes.literal(text=str(r.get("option", "")))
                rp += nodes.Text(": ")
                rp.extend(autolink(" ".join(str(r.get("reason", "")).split()), spec))
                li += rp
                bl += li
            sec += bl

        touched = spec.clauses_touched_by(did)
        p = nodes.paragraph(classes=["hk-touches"])
        p += label_span("Clauses")
        if not touched:
            p += nodes.Text(" none")
        for i, cid in enumerate(touched):
            p += nodes.Text(", " if i else " ")
            p += xref(cid.lower(), cid, ("hk-id",)) if cid in spec.clause_by_id else nodes.Text(cid)
        sec += p

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
            p += label_span("Scenarios under another option")
            for i, s in enumerate(needing):
                p += nodes.Text(", " if i else " ")
                p += xref(f"scenario-{s.id}", f"{s.id} ({s.data['requires'][did]})", ("hk-sc-link",))
            sec += p
        return sec


class ScoreTableDirective(SphinxDirective):
    """``.. hakka-score-table::``: SCORE-1's table, read from the clause itself."""

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        try:
            pairs = score_table(spec)
        except SpecError as exc:
            raise self.error(str(exc)) from exc
        rows = []
        for tricks, points in pairs:
            doubling = 2 ** (tricks - 6)
            note = ""
            cls = ""
            if points != doubling:
                note = f"not {doubling}: the source says {points} in every language that gives the table"
                cls = ' class="hk-special"'
            rows.append(f"<tr{cls}><td>{tricks}</td><td>{points}</td><td>{escape(note)}</td></tr>")
        html = (
            '<table class="hk-score"><thead><tr><th>Tricks (count)</th><th>Points</th><th></th></tr></thead>'
            "<tbody><tr><td>0–5</td><td>0</td><td>below 6 scores nothing (SCORE-2)</td></tr>"
            + "".join(rows)
            + "</tbody></table>"
        )
        return [raw(html)]
