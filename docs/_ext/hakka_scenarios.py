"""Scenarios drawn for a reader: under the clauses they test, in the catalogue, in a guide.

A scenario is drawn as a reader would work it out: the hands (dealt by the
reference engine for a ``seed`` or ``deck`` setup), each step with the Elders
at that moment, what the engine must show, and the result.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import hakka_render as R
from docutils import nodes
from hakka_data import Spec, SpecError, clause_page, elders_by_step, load_one_scenario, parse_cards, scenario_group, setup_hands
from hakka_gettext import N_, _, ngettext
from hakka_i18n import english_only
from hakka_nodes import get_spec, label_span, make_details, paras, raw, register_label, requires_nodes, xref
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

from conformance.loader import Scenario

EXAMPLES_PER_CLAUSE = 5


def render_scenario(spec: Spec, sc: Scenario, anchor: bool = True) -> nodes.container:
    """One scenario drawn for a reader: cards, who plays what, the result, the options.

    Its title and notes stay in English (out of the catalogs, said on the page); the labels
    and the drawing are in the page's language.
    """
    data = sc.data
    box = nodes.container(classes=["hk-scenario", f"hk-body-{sc.kind}"])
    if anchor:
        box["ids"].append(f"scenario-{sc.id}")
    box += scenario_head(sc)
    box += scenario_meta(spec, sc)

    options = dict(data["requires"]) if isinstance(data.get("requires"), dict) else {}
    try:
        box += raw(body_html(spec, sc, options))
    except (SpecError, KeyError, TypeError, ValueError) as exc:
        raise ExtensionError(f"hakka_spec: cannot draw scenario {sc.id} of {sc.file}: {exc!r}") from exc

    if data.get("notes"):
        notes = nodes.container(classes=["hk-sc-notes"])
        for p in paras(str(data["notes"]), spec):
            notes += p
        box += english_only(notes)
    if data.get("source"):
        box += raw(R.scenario_source_html(str(data["source"])))
    if scenario_group(sc) != "guide":
        foot = nodes.paragraph(classes=["hk-sc-file"])
        foot += nodes.Text(_("From") + " ")
        foot += nodes.literal(text=sc.file)
        box += foot
    return box


def scenario_head(sc: Scenario) -> nodes.paragraph:
    """The title (English) and the ID of a scenario."""
    head = nodes.paragraph(classes=["hk-sc-title"])
    head += nodes.strong(text=str(sc.data.get("title", sc.id)))
    head += nodes.Text(" ")
    head += nodes.literal(text=sc.id, classes=["hk-sc-id"])
    english_only(head)
    return head


def scenario_meta(spec: Spec, sc: Scenario) -> nodes.paragraph:
    """What a scenario tests, under which options, with which tags."""
    data = sc.data
    meta = nodes.paragraph(classes=["hk-sc-meta"])
    meta += label_span(_("Tests"))
    for i, cid in enumerate(data.get("clauses") or []):
        meta += nodes.Text(", " if i else " ")
        meta += xref(cid.lower(), cid, ("hk-id",)) if cid in spec.clause_by_id else nodes.Text(cid)
    req = requires_nodes(spec, data.get("requires"))
    if req:
        meta += nodes.Text("  ·  ")
        meta += label_span(_("Options"))
        meta += nodes.Text(" ")
        meta.extend(req)
    tags = [t for t in data.get("tags") or [] if t != "worked-example"]
    if tags:
        meta += nodes.Text("  ·  ")
        meta += label_span(_("Tags"))
        meta += nodes.Text(" ")
        meta += nodes.literal(text=", ".join(tags))
    return meta


def _deal_html(setup: dict[str, Any], options: dict[str, str]) -> tuple[R.Seats, str]:
    """The seats of a one-hand setup and its deal drawn as cards."""
    seats = R.Seats(int(setup["dealer"]))
    hands, how = setup_hands(setup, options)
    return seats, R.hands_html(hands, seats, how)


def _game_deals_html(setup: dict[str, Any], options: dict[str, str]) -> str:
    """A game's first Dealer and its deals in order, explicit hands drawn (folded)."""
    first = int(setup["first_dealer"])
    html = '<p class="hk-game-setup">' + escape(
        _("A whole game; the first Dealer is seat {seat}. Deals, in order:").format(seat=first)) + "</p>"
    for i, deal in enumerate(setup.get("deals") or [], 1):
        if "hands" in deal:
            # The Dealer of a later deal follows from the rules: the 1-card hand sits opposite him.
            dreamer = next((s for s, h in enumerate(deal["hands"]) if len(parse_cards(h)) == 1), None)
            dealer = (dreamer + 2) % 4 if dreamer is not None else first
            dealt, how = setup_hands({"dealer": dealer, "hands": deal["hands"]}, options)
        elif "deck" in deal or "seed" in deal:
            dealt, how = None, (_("a given deck order") if "deck" in deal else
                                _("seed {seed} (D33)").format(seed=deal["seed"]))
        else:
            dealt, how = None, "?"
        if dealt is not None:
            inner = R.hands_html(dealt, R.Seats(dealer), "hands")
            summary = escape(_("Deal {number}: explicit hands").format(number=i))
            html += f'<details class="hk-deal"><summary>{summary}</summary>{inner}</details>'
        else:
            line = _("Deal {number}: {how}, dealt by whoever deals it.").format(number=i, how=how)
            html += f'<p class="hk-deal">{escape(line)}</p>'
    return html


def _batch_html(body: dict[str, Any], options: dict[str, str]) -> str:
    """One `batch` request: its setup (or the refused one), what it asks for, its steps and the state after it."""
    setup = body["setup"]
    html = '<p class="hk-game-setup">' + escape(
        _("Sent as one batch request (state: {state}, observe: {observe}); each step's answer in it is checked.")
        .format(state=body.get("state", "every"), observe=body.get("observe", "none"))) + "</p>"
    if "start" in body:
        html += R.refused_setup_html({"start": setup, "error": body["start"]["error"],
                                      **({"before": body["before"]} if "before" in body else {})})
        seats = R.Seats(None)
    elif "game" in setup:
        html += _game_deals_html(setup["game"], options)
        seats = R.Seats(None)
    else:
        seats, deal = _deal_html(setup, options)
        html += deal
    if body.get("steps") and "start" not in body:  # a refused start takes no step (its notes name those sent)
        html += R.steps_html(body["steps"], seats)
    if body.get("final"):
        html += R.final_html(_("After the batch"), body["final"], seats)
    return html


def body_html(spec: Spec, sc: Scenario, options: dict[str, str]) -> str:
    data = sc.data
    if "pattern" in data:
        return R.pattern_html(data["pattern"])
    if "trajectory" in data:
        body = data["trajectory"]
        setup = body["setup"]
        seats, html = _deal_html(setup, options)
        steps = body.get("steps") or []
        if steps:
            html += R.steps_html(steps, seats, elders_by_step(spec, sc, "steps", options))
        if body.get("final"):
            html += R.final_html(_("At the end of the hand"), body["final"], seats)
        return html
    if "count" in data:
        body = data["count"]
        setup = body["setup"]
        if "first_dealer" in setup:  # a count inside a game counts the hand in play only
            seats, html = R.Seats(None), _game_deals_html(setup, options)
            if body.get("prefix"):
                html += R.steps_html(body["prefix"], seats)
        else:
            seats, html = _deal_html(setup, options)
            if body.get("prefix"):
                html += R.steps_html(body["prefix"], seats, elders_by_step(spec, sc, "prefix", options))
        rows = "".join(
            f"<tr><td>{d}</td><td>{int(c):,}</td></tr>" for d, c in enumerate(body.get("counts") or [], 1)
        )
        html += (
            '<table class="hk-counts"><caption>' + escape(_("Distinct legal action sequences (perft)")) + "</caption>"
            "<thead><tr><th>" + escape(_("depth")) + "</th><th>" + escape(_("sequences")) + "</th></tr></thead><tbody>"
            + rows + "</tbody></table>"
        )
        if body.get("divide"):
            caption = _("Divide at depth {depth}: the sequences each first action starts").format(
                depth=len(body["counts"]))
            rows = "".join(f"<tr><td>{R.action_html(str(a))}</td><td>{int(n):,}</td></tr>"
                           for a, n in body["divide"].items())
            html += (f'<table class="hk-counts hk-divide"><caption>{escape(caption)}</caption><thead><tr><th>'
                     + escape(_("first action")) + "</th><th>" + escape(_("sequences")) + "</th></tr></thead><tbody>"
                     + rows + "</tbody></table>")
        return html
    if "batch" in data:
        return _batch_html(data["batch"], options)
    if "setup" in data:
        return R.refused_setup_html(data["setup"])
    if "game" in data:
        body = data["game"]
        html = _game_deals_html(body["setup"], options)
        seats = R.Seats(None)
        steps = body.get("steps") or []
        if steps:
            inner = R.steps_html(steps, seats)
            summary = escape(ngettext("The {count} step", "The {count} steps", len(steps)).format(count=len(steps)))
            html += f'<details class="hk-steps-box"><summary>{summary}</summary>{inner}</details>'
        if body.get("final"):
            html += R.final_html(_("At the end of the game"), body["final"], seats)
        return html
    raise SpecError("no body (pattern, trajectory, game, count, setup or batch)")


def example_homes(spec: Spec) -> dict[str, str]:
    """``scenario id -> clause`` under which it is drawn in full: drawn once, on one page.

    In reading order, each clause is home to its first EXAMPLES_PER_CLAUSE worked examples that
    no earlier clause drew. A scenario with no home is drawn in full on its folder's page.
    """
    homes: dict[str, str] = {}
    for clause in spec.clauses:
        cid = clause["id"]
        for sc in [s for s in spec.worked_examples(cid) if s.id not in homes][:EXAMPLES_PER_CLAUSE]:
            homes[sc.id] = cid
    return homes


def _link_to_drawing(sc: Scenario, home: str | None, here: str | None) -> nodes.Node:
    """A link to where a scenario is drawn in full: under its home clause, else on its folder's page."""
    if home is None:
        return xref(f"scenario-{sc.id}", sc.id, ("hk-sc-link",))
    page = clause_page(home).split("/")[-1]
    inner = nodes.literal(text=sc.id)
    if here == page:
        return nodes.reference("", "", inner, refid=f"scenario-{sc.id}", internal=True)
    prefix = "" if here is not None else "../rules/"
    return nodes.reference("", "", inner, refuri=f"{prefix}{page}.html#scenario-{sc.id}", internal=True)


def examples_block(spec: Spec, cid: str, homes: dict[str, str]) -> list[nodes.Node]:
    """The worked examples under a clause, collapsed: those at home here drawn, the others linked."""
    found = spec.worked_examples(cid)
    generated = spec.generated_count(cid)
    if not found and not generated:
        return []
    summary = (
        ngettext("Worked example ({count})", "Worked examples ({count})", len(found)).format(count=len(found))
        if found
        else _("Worked examples")
    )
    box = make_details(summary, ["hk-examples"])
    here = clause_page(cid).split("/")[-1]
    for sc in found:
        if homes.get(sc.id) == cid:
            box += render_scenario(spec, sc)
    rest = [sc for sc in found if homes.get(sc.id) != cid]
    if rest:
        box += nodes.paragraph("", _("Also testing this clause, drawn elsewhere:"), classes=["hk-more"])
        bl = nodes.bullet_list(classes=["hk-more-list"])
        for sc in rest:
            p = nodes.paragraph()
            p += _link_to_drawing(sc, homes.get(sc.id), here)
            p += nodes.Text(" ")
            p += english_only(nodes.inline(text=str(sc.data.get("title", ""))))
            bl += nodes.list_item("", p)
        box += bl
    if generated:
        box += nodes.paragraph(
            "",
            ngettext(
                "Also {count} generated regression vector (conformance/scenarios/generated/, not drawn here).",
                "Also {count} generated regression vectors (conformance/scenarios/generated/, not drawn here).",
                generated,
            ).format(count=generated),
            classes=["hk-more"],
        )
    return [box]


def english_note() -> nodes.paragraph:
    """Said on every page that draws scenarios: their titles and notes are not translated."""
    return nodes.paragraph("", _("Scenario titles and notes are in English, as the scenario files are."),
                           classes=["hk-english-note"])


class ScenariosDirective(SphinxDirective):
    """``.. hakka-scenarios:: play``: every hand-worked scenario of one folder (drawn here or linked)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        group = self.arguments[0]
        found = [s for s in spec.scenarios if scenario_group(s) == group and not s.generated]
        homes = example_homes(spec)
        page = nodes.section(ids=[f"scenarios-{group}"], names=[f"scenarios-{group}"])
        page += nodes.title(text=_("Scenarios: {folder}").format(folder=group))
        files = sorted({s.file for s in found})
        intro = nodes.paragraph()
        intro += nodes.Text(
            ngettext(
                "{count} hand-worked scenario from {files}.",
                "{count} hand-worked scenarios from {files}.",
                len(found),
            ).format(count=len(found), files=", ".join(files))
            + " "
            + _("Each is drawn once: here, or under the clause it illustrates. Its anchor is scenario-<id>.")
        )
        page += intro
        page += english_note()
        current_file = None
        for sc in found:
            if sc.file != current_file:
                current_file = sc.file
                page += nodes.rubric(text=Path(sc.file).name)
            register_label(self, f"scenario-{sc.id}", str(sc.data.get("title", sc.id)))
            home = homes.get(sc.id)
            if home is None:
                page += render_scenario(spec, sc)
                continue
            box = nodes.container(ids=[f"scenario-{sc.id}"], classes=["hk-scenario", "hk-scenario-link"])
            box += scenario_head(sc)
            box += scenario_meta(spec, sc)
            p = nodes.paragraph(classes=["hk-drawn-under"])
            p += nodes.Text(_("Drawn in full under {clause}:").format(clause=home) + " ")
            p += _link_to_drawing(sc, home, None)
            box += p
            page += box
        return [page]


class ScenarioIndexDirective(SphinxDirective):
    """``.. hakka-scenario-index::``: the catalogue, one row per scenario with its title (English)."""

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        worked = [s for s in spec.scenarios if not s.generated]
        generated = spec.generated_count()
        intro = nodes.paragraph()
        intro += nodes.Text(
            ngettext(
                "{count} hand-worked scenario, by folder of conformance/scenarios/.",
                "{count} hand-worked scenarios, by folder of conformance/scenarios/.",
                len(worked),
            ).format(count=len(worked))
        )
        if generated:
            intro += nodes.Text(" " + ngettext(
                "{count} generated regression vector is run by the conformance suite but not drawn here.",
                "{count} generated regression vectors are run by the conformance suite but not drawn here.",
                generated,
            ).format(count=generated))
        intro += nodes.Text(" " + _("A scenario is at scenarios/<folder>.html#scenario-<id>."))
        out: list[nodes.Node] = [intro, english_note(), raw(filter_html(spec, worked))]
        homes = example_homes(spec)
        for g in spec.scenario_groups():
            out.extend(self.group_table(spec, g, [s for s in worked if scenario_group(s) == g], homes))
        return out

    @staticmethod
    def group_table(spec: Spec, group: str, mine: list[Scenario], homes: dict[str, str]) -> list[nodes.Node]:
        head = nodes.paragraph(classes=["hk-catalogue-group"])
        ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget=f"/scenarios/{group}",
                                    refexplicit=True)
        ref += nodes.inline(text=group)
        head += nodes.strong("", "", ref)
        head += nodes.Text(" — " + ngettext("{count} scenario", "{count} scenarios", len(mine)).format(count=len(mine)))
        table = nodes.table(classes=["hk-catalogue"])
        tg = nodes.tgroup(cols=4)
        table += tg
        for w in (30, 40, 15, 15):
            tg += nodes.colspec(colwidth=w)
        row = nodes.row()
        for h in (N_("Scenario"), N_("Title"), N_("Tests"), N_("Kind")):
            row += nodes.entry("", nodes.paragraph(text=_(h)))
        tg += nodes.thead("", row)
        body = nodes.tbody()
        tg += body
        for s in mine:
            row = nodes.row(classes=filter_classes(s))
            row += nodes.entry("", nodes.paragraph("", "", xref(f"scenario-{s.id}", s.id, ("hk-sc-link",))))
            row += nodes.entry("", english_only(nodes.paragraph(text=str(s.data.get("title", "")))))
            tests = nodes.paragraph()
            for i, cid in enumerate(s.data.get("clauses") or []):
                tests += nodes.Text(", " if i else "")
                tests += xref(cid.lower(), cid, ("hk-id",)) if cid in spec.clause_by_id else nodes.Text(cid)
            row += nodes.entry("", tests)
            row += nodes.entry("", nodes.paragraph(text=_(KINDS.get(s.kind, s.kind))))
            body += row
        return [head, table]


def filter_classes(sc: Scenario) -> list[str]:
    """The classes a catalogue row is filtered by (docs/_static/hakka.js): area, kind, decisions."""
    areas = {str(cid).split("-")[0].lower() for cid in sc.data.get("clauses") or []}
    requires = sc.data.get("requires")
    decisions = sorted(str(d).lower() for d in requires) if isinstance(requires, dict) else []
    return ["hk-sc-row", f"hk-kind-{sc.kind}", *(f"hk-area-{a}" for a in sorted(areas)),
            *(f"hk-dec-{d}" for d in decisions)]


def filter_html(spec: Spec, worked: list[Scenario]) -> str:
    """The catalogue's search box and filters by area, kind and decision (they work without a reload)."""
    areas = spec.areas()
    kinds = sorted({s.kind for s in worked}, key=list(KINDS).index)
    used = {str(d) for s in worked if isinstance(s.data.get("requires"), dict) for d in s.data["requires"]}
    decisions = [str(d["id"]) for d in spec.decisions if str(d["id"]) in used]

    def select(name: str, label: str, options: list[tuple[str, str]]) -> str:
        opts = '<option value="">' + escape(_("all")) + "</option>" + "".join(
            f'<option value="{escape(v)}">{escape(t)}</option>' for v, t in options
        )
        return f'<label>{escape(label)} <select name="{name}">{opts}</select></label>'

    shown = escape(_("{shown} of {total} scenarios shown"))
    return (
        f'<form class="hk-filter" role="search" data-hk-filter="" data-shown="{shown}">'
        "<label>" + escape(_("Search")) + ' <input type="search" name="q" placeholder="'
        + escape(_("ID, title or clause")) + '"></label>'
        + select("area", _("Area"), [(a.lower(), a + " · " + _(spec.area_title(a))) for a in areas])
        + select("kind", _("Kind"), [(k, _(KINDS[k])) for k in kinds])
        + select("dec", _("Option of a decision"), [(d.lower(), d) for d in decisions])
        + '<output name="shown" aria-live="polite"></output></form>'
    )


KINDS = {"pattern": N_("pattern"), "trajectory": N_("hand"), "game": N_("game"), "count": N_("count"),
         "setup": N_("refused start"), "batch": N_("batch")}


class ScenarioPreviewDirective(SphinxDirective):
    """``.. hakka-scenario-preview::`` with one scenario as YAML: validated, then drawn."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        try:
            sc = load_one_scenario("\n".join(self.content), self.env.docname.replace("/", "-"), spec.root)
        except SpecError as exc:
            raise self.error(f"the scenario is not a valid scenario: {exc}") from exc
        return [render_scenario(spec, sc, anchor=False)]
