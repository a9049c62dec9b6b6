"""Scenarios drawn for a reader: under the clauses they test, in the catalogue, in a guide.

A scenario is drawn as a reader would work it out: the hands (dealt by the
reference engine for a ``seed`` or ``deck`` setup), each step with the Elders
at that moment, what the engine must show, and the result.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

import hakka_render as R
from docutils import nodes
from hakka_data import Scenario, Spec, SpecError, elders_by_step, parse_cards, setup_hands
from hakka_nodes import get_spec, label_span, paras, raw, register_label, requires_nodes, xref
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

EXAMPLES_PER_CLAUSE = 5


def render_scenario(spec: Spec, sc: Scenario, anchor: bool = True) -> nodes.container:
    """One scenario drawn for a reader: cards, who plays what, the result, the options."""
    data = sc.data
    box = nodes.container(classes=["hk-scenario", f"hk-body-{sc.body}"])
    if anchor:
        box["ids"].append(f"scenario-{sc.id}")

    head = nodes.paragraph(classes=["hk-sc-title"])
    head += nodes.strong(text=str(data.get("title", sc.id)))
    head += nodes.Text(" ")
    head += nodes.literal(text=sc.id, classes=["hk-sc-id"])
    box += head

    meta = nodes.paragraph(classes=["hk-sc-meta"])
    meta += label_span("Tests")
    for i, cid in enumerate(data.get("clauses") or []):
        meta += nodes.Text(", " if i else " ")
        meta += xref(cid.lower(), cid, ("hk-id",)) if cid in spec.clause_by_id else nodes.Text(cid)
    req = requires_nodes(spec, data.get("requires"))
    if req:
        meta += nodes.Text("  ·  ")
        meta += label_span("Options")
        meta += nodes.Text(" ")
        meta.extend(req)
    tags = [t for t in data.get("tags") or [] if t != "worked-example"]
    if tags:
        meta += nodes.Text("  ·  ")
        meta += label_span("Tags")
        meta += nodes.Text(" " + ", ".join(tags))
    box += meta

    options = dict(data["requires"]) if isinstance(data.get("requires"), dict) else {}
    try:
        box += raw(body_html(spec, sc, options))
    except (SpecError, KeyError, TypeError, ValueError) as exc:
        raise ExtensionError(f"hakka_spec: cannot draw scenario {sc.id} of {sc.file}: {exc!r}") from exc

    if data.get("notes"):
        notes = nodes.container(classes=["hk-sc-notes"])
        for p in paras(str(data["notes"]), spec):
            notes += p
        box += notes
    if data.get("source"):
        box += raw(R.scenario_source_html(str(data["source"])))
    if sc.group != "guide":
        foot = nodes.paragraph(classes=["hk-sc-file"])
        foot += nodes.Text("From ")
        foot += nodes.literal(text=sc.file)
        box += foot
    return box


def _deal_html(setup: dict[str, Any], options: dict[str, str]) -> tuple[R.Seats, str]:
    """The seats of a one-hand setup and its deal drawn as cards."""
    seats = R.Seats(int(setup["dealer"]))
    hands, how = setup_hands(setup, options)
    return seats, R.hands_html(hands, seats, how)


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
            html += R.steps_html(steps, seats, elders_by_step(setup, steps, options))
        if body.get("final"):
            html += R.final_html("At the end of the hand", body["final"], seats)
        return html
    if "count" in data:
        body = data["count"]
        setup = body["setup"]
        seats, html = _deal_html(setup, options)
        if body.get("prefix"):
            html += R.steps_html(body["prefix"], seats, elders_by_step(setup, body["prefix"], options))
        rows = "".join(
            f"<tr><td>{d}</td><td>{int(c):,}</td></tr>" for d, c in enumerate(body.get("counts") or [], 1)
        )
        html += (
            '<table class="hk-counts"><caption>Distinct legal action sequences (perft)</caption>'
            "<thead><tr><th>depth</th><th>sequences</th></tr></thead><tbody>" + rows + "</tbody></table>"
        )
        return html
    if "setup" in data:
        return R.refused_setup_html(data["setup"])
    if "game" in data:
        body = data["game"]
        setup = body["setup"]
        first = int(setup["first_dealer"])
        html = f'<p class="hk-game-setup">A whole game; the first Dealer is seat {first}. Deals, in order:</p>'
        for i, deal in enumerate(setup.get("deals") or [], 1):
            if "hands" in deal:
                # The Dealer of a later deal follows from the rules: the 1-card hand sits opposite him.
                dreamer = next((s for s, h in enumerate(deal["hands"]) if len(parse_cards(h)) == 1), None)
                dealer = (dreamer + 2) % 4 if dreamer is not None else first
                dealt, how = setup_hands({"dealer": dealer, "hands": deal["hands"]}, options)
            elif "deck" in deal or "seed" in deal:
                dealt, how = None, ("a given deck order" if "deck" in deal else f"seed {deal['seed']} (D33)")
            else:
                dealt, how = None, "?"
            if dealt is not None:
                inner = R.hands_html(dealt, R.Seats(dealer), "hands")
                html += f'<details class="hk-deal"><summary>Deal {i}: explicit hands</summary>{inner}</details>'
            else:
                html += f'<p class="hk-deal">Deal {i}: {escape(how)}, dealt by whoever deals it.</p>'
        seats = R.Seats(None)
        steps = body.get("steps") or []
        if steps:
            inner = R.steps_html(steps, seats)
            html += f'<details class="hk-steps-box"><summary>The {len(steps)} steps</summary>{inner}</details>'
        if body.get("final"):
            html += R.final_html("At the end of the game", body["final"], seats)
        return html
    raise SpecError("no body (pattern, trajectory, game or count)")


def examples_block(spec: Spec, cid: str, drawn_on_page: set[str]) -> list[nodes.Node]:
    """The worked examples under a clause: the first few drawn, the rest listed by ID."""
    found = spec.worked_examples(cid)
    generated = spec.generated_count(cid)
    if not found and not generated:
        return []
    box = nodes.container(classes=["hk-examples"])
    title = nodes.paragraph(classes=["hk-examples-title"])
    title += nodes.Text(f"Worked examples ({len(found)})" if found else "Worked examples")
    box += title
    shown = found[:EXAMPLES_PER_CLAUSE]
    for sc in shown:
        if sc.id in drawn_on_page:
            p = nodes.paragraph(classes=["hk-seeabove"])
            p += nodes.Text("See above: ")
            p += nodes.reference("", sc.data.get("title", sc.id), refid=f"scenario-{sc.id}", internal=True)
            p += nodes.Text(" ")
            p += nodes.literal(text=sc.id)
            box += p
        else:
            drawn_on_page.add(sc.id)
            box += render_scenario(spec, sc)
    rest = found[EXAMPLES_PER_CLAUSE:]
    if rest:
        p = nodes.paragraph(classes=["hk-more"])
        p += nodes.Text(f"{len(rest)} more scenario{'s' if len(rest) > 1 else ''} test {cid}: ")
        for i, sc in enumerate(rest):
            if i:
                p += nodes.Text(", ")
            p += xref(f"scenario-{sc.id}", sc.id, ("hk-sc-link",))
        box += p
    if generated:
        p = nodes.paragraph(classes=["hk-more"])
        p += nodes.Text(
            f"Also {generated} generated regression vector{'s' if generated > 1 else ''} "
            "(conformance/scenarios/generated/, not drawn here)."
        )
        box += p
    return [box]


class ScenariosDirective(SphinxDirective):
    """``.. hakka-scenarios:: play``: every hand-worked scenario of one folder."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        group = self.arguments[0]
        found = [s for s in spec.scenarios if s.group == group and not s.generated]
        page = nodes.section(ids=[f"scenarios-{group}"], names=[f"scenarios-{group}"])
        page += nodes.title(text=f"Scenarios: {group}")
        files = sorted({s.file for s in found})
        intro = nodes.paragraph()
        intro += nodes.Text(
            f"{len(found)} hand-worked scenario{'s' if len(found) != 1 else ''} from "
            + ", ".join(files)
            + ". Each is drawn as a reader would work it out; its anchor is scenario-<id>."
        )
        page += intro
        current_file = None
        for sc in found:
            if sc.file != current_file:
                current_file = sc.file
                rub = nodes.rubric(text=Path(sc.file).name)
                page += rub
            register_label(self, f"scenario-{sc.id}", str(sc.data.get("title", sc.id)))
            page += render_scenario(spec, sc)
        return [page]


class ScenarioIndexDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        spec = get_spec(self.env.app)
        out: list[nodes.Node] = []
        worked = [s for s in spec.scenarios if not s.generated]
        intro = nodes.paragraph()
        generated = spec.generated_count()
        intro += nodes.Text(
            f"{len(worked)} hand-worked scenarios, by folder of conformance/scenarios/. "
            + (
                f"{generated} generated regression vectors are run by the conformance suite but not drawn here. "
                if generated
                else ""
            )
            + "A scenario is at scenarios/<folder>.html#scenario-<id>."
        )
        out.append(intro)
        bl = nodes.bullet_list()
        for g in spec.scenario_groups():
            mine = [s for s in worked if s.group == g]
            item = nodes.list_item()
            p = nodes.paragraph()
            ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget=f"/scenarios/{g}", refexplicit=True)
            ref += nodes.inline(text=g)
            p += nodes.strong("", "", ref)
            p += nodes.Text(f" — {len(mine)} scenarios: ")
            for i, s in enumerate(mine):
                if i:
                    p += nodes.Text(", ")
                p += xref(f"scenario-{s.id}", s.id, ("hk-sc-link",))
            item += p
            bl += item
        out.append(bl)
        return out


class ScenarioPreviewDirective(SphinxDirective):
    """``.. hakka-scenario-preview::`` with one scenario as YAML: validated, then drawn."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        import yaml

        spec = get_spec(self.env.app)
        text = "\n".join(self.content)
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise self.error(f"the scenario is not valid YAML: {exc}") from exc
        schema_path = spec.root / "spec" / "schema" / "scenario.schema.json"
        try:
            import jsonschema
        except ImportError:  # no schema check then, as before
            pass
        else:
            schema = json.loads(schema_path.read_text(encoding="utf-8"))
            errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors({"scenarios": [data]}), key=str)
            if errors:
                raise self.error(f"the scenario does not follow {schema_path.name}: {errors[0].message}")
        for cid in data.get("clauses") or []:
            if cid not in spec.clause_by_id:
                raise self.error(f"the scenario names {cid}, which is not a clause")
        sc = Scenario(data, f"{self.env.docname}.rst", "guide", 0)
        return [render_scenario(spec, sc, anchor=False)]
