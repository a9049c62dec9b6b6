"""The site's pages: plain HTML, one set per language, relative links only (it opens from files)."""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..loader import Scenario
from ..report import rule_anchor
from ..rulebook import decision_anchor
from ..specdata import SpecData
from .i18n import LANGUAGES, Translator
from .model import Engine, RunReport, SiteData, by_clause, clauses_of, fuzz_summary, status_word

TWO_VERSIONS = ("The two reports ran different corpus versions ({old} and {new}): scenarios added or removed in between "
                "are listed apart.")
BADGES_NOTE = "Each engine has badges/ENGINE.svg and badges/ENGINE.json (the shields.io endpoint format) for its README."


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def clause_page(clause: str) -> str:
    return f"clauses/{quote(clause.lower())}.html"


def decision_page(decision: str, option: str) -> str:
    return f"decisions/{quote(decision.lower())}-{quote(option)}.html"


def scenario_page(sid: str) -> str:
    return f"scenarios/{quote(sid)}.html"


def engine_page(key: str) -> str:
    return f"engines/{quote(key)}.html"


def diff_page(key: str, index: int) -> str:
    return f"diff/{quote(key)}-{index}.html"


@dataclass
class Context:
    """What every page needs: the data, the spec, the corpus, the links out of the site."""

    data: SiteData
    spec: SpecData
    scenarios: Mapping[str, Scenario]
    rulebook: str
    """The rulebook's root (its language folders below it): a URL, or a folder relative to the site's root."""
    replay: str | None
    """The replay viewer's address (``hakka-play``), or None where the table is not installed."""
    areas: Sequence[str] = ()
    clauses: Sequence[str] = ()
    yaml_text: dict[str, str] = field(default_factory=dict)


class Page:
    """One page in one language: ``path`` below the language folder, its title and body."""

    def __init__(self, ctx: Context, t: Translator, path: str) -> None:
        self.ctx, self.t, self.path = ctx, t, path
        self.up = "../" * path.count("/")
        self.html = ""

    def href(self, target: str) -> str:
        return self.up + target

    def rulebook(self, rule: str) -> str:
        anchor = decision_anchor(rule) if rule in (self.ctx.spec.decisions or {}) else rule_anchor(rule)
        base = self.ctx.rulebook
        if "://" in base:
            return f"{base.rstrip('/')}/{self.t.lang}/{anchor}"
        return f"{self.up}../{base.strip('/')}/{self.t.lang}/{anchor}"

    def link(self, target: str, text: str, cls: str = "") -> str:
        attr = f' class="{cls}"' if cls else ""
        return f'<a href="{esc(self.href(target))}"{attr}>{esc(text)}</a>'

    def clause_links(self, clause: str) -> str:
        t = self.t
        title = self.ctx.spec.title(clause)
        return (f'{self.link(clause_page(clause), clause)} <span class="muted">{esc(title)}</span> '
                f'<a class="out" href="{esc(self.rulebook(clause))}">{esc(t("rulebook"))}</a>')

    def render(self, title: str, body: str) -> str:
        t, lang = self.t, self.t.lang
        switch = " ".join(
            f'<a href="{esc(self.up)}../{code}/{esc(self.path)}" hreflang="{code}" lang="{code}" dir="{d}"'
            + (' aria-current="page"' if code == lang else "") + f">{esc(name)}</a>"
            for code, (name, d) in LANGUAGES.items())
        nav = " · ".join([self.link("index.html", t("Engines")), self.link("clauses.html", t("Clauses")),
                          self.link("decisions.html", t("Decisions"))])
        return (f'<!doctype html>\n<html lang="{lang}" dir="{t.dir}">\n<head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<title>{esc(title)} · {esc(t("Hakka Cards conformance"))}</title>'
                f'<link rel="stylesheet" href="{esc(self.up)}../site.css"></head>\n<body>\n'
                f'<header><p class="brand">{self.link("index.html", t("Hakka Cards conformance"))} '
                f'<span class="muted">{esc(t("corpus {version}", version=self.ctx.data.version))}</span></p>'
                f'<nav aria-label="{esc(t("Site"))}">{nav}</nav>'
                f'<nav class="langs" aria-label="{esc(t("Language"))}">{switch}</nav></header>\n'
                f'<main>\n<h1>{esc(title)}</h1>\n{body}\n</main>\n</body>\n</html>\n')


def counts_cell(page: Page, counts: tuple[int, int, int], target: str | None) -> str:
    t = page.t
    passed, failed, skipped = counts
    title = t("{passed} passed, {failed} failed, {skipped} skipped", passed=passed, failed=failed, skipped=skipped)
    cls = "bad" if failed else "good" if passed else "none"
    # left to right in every language, as the legend: passed/failed/skipped reads the same way in Arabic
    text = (f'<bdi dir="ltr"><span class="p">{passed}</span>/<span class="f">{failed}</span>/'
            f'<span class="s">{skipped}</span></bdi>')
    inner = f'<a href="{esc(page.href(target))}" title="{esc(title)}">{text}</a>' if target else text
    return f'<td class="cell {cls}">{inner}</td>'


def status_cell(page: Page, result: dict[str, Any] | None) -> str:
    t = page.t
    if result is None:
        return f'<td class="cell none">{esc(t("not run"))}</td>'
    word = status_word(result["status"])
    shown = t(word) if result["status"] in ("pass", "fail", "skip") else f'{t(word)} ({result["status"]})'
    tip = f' title="{esc(result["reason"])}"' if result.get("reason") else ""
    return (f'<td class="cell {"good" if word == "passed" else "bad" if word == "failed" else "none"}"{tip}>'
            f'{page.link(scenario_page(result["id"]), shown)}</td>')


def legend(t: Translator) -> str:
    # each word isolated in its own <bdi>: three Arabic words and their slashes would otherwise form one
    # right-to-left run, read skipped/failed/passed from the left while the cells read passed/failed/skipped
    return (f'<p class="legend">{esc(t("Each cell:"))} <bdi dir="ltr"><bdi class="p">{esc(t("passed"))}</bdi>/'
            f'<bdi class="f">{esc(t("failed"))}</bdi>/<bdi class="s">{esc(t("skipped"))}</bdi></bdi></p>')


def options_text(page: Page, report: RunReport) -> str:
    t, engine = page.t, report.engine
    decisions = page.ctx.spec.decisions or {}
    if engine.get("configurable"):
        return esc(t("configurable: every option"))
    options: Mapping[str, str] = engine.get("options") or {}
    if not options:
        return "—"
    other = [(d, o) for d, o in options.items() if d in decisions and decisions[d].default != o]
    parts = [page.link(decision_page(d, o), f"{d}={o}") for d, o in other]
    return (", ".join(parts) + " · " if parts else "") + esc(t("{n} defaults", n=len(options) - len(other)))


def engine_row(page: Page, engine: Engine) -> str:
    r, t = engine.current, page.t
    e = r.engine
    caps = ", ".join(e.get("capabilities") or []) or "—"
    cells = [f'<th scope="row">{page.link(engine_page(engine.key), r.name)}</th>',
             f"<td>{esc(e.get('language') or '—')}</td>", f"<td>{esc(e.get('version') or '—')}</td>",
             f"<td>{esc(e.get('protocol') or '—')}</td>", f'<td class="caps">{esc(caps)}</td>',
             f'<td class="caps">{options_text(page, r)}</td>']
    for area in page.ctx.areas:
        results = r.area_results(area)
        cells.append(counts_cell(page, r.counts(results), f"{engine_page(engine.key)}#area-{area.lower()}")
                     if results else f'<td class="cell none">{esc(t("not run"))}</td>')
    cells.append(counts_cell(page, r.counts(), engine_page(engine.key)))
    if r.corpus_version != page.ctx.data.version:
        cells.append(f'<td class="old">{esc(t("corpus {version}", version=r.corpus_version))}</td>')
    return "<tr>" + "".join(cells) + "</tr>"


def engines_table(page: Page, engines: Iterable[Engine], old: bool = False) -> str:
    t = page.t
    head = [t("Engine"), t("Language"), t("Version"), t("Protocol"), t("Capabilities"), t("Decision options")]
    cols = "".join(f'<th scope="col">{esc(h)}</th>' for h in head)
    cols += "".join(f'<th scope="col" class="area">{esc(a)}</th>' for a in page.ctx.areas)
    cols += f'<th scope="col">{esc(t("Total"))}</th>' + (f'<th scope="col">{esc(t("Corpus"))}</th>' if old else "")
    rows = "\n".join(engine_row(page, e) for e in engines)
    return f'<div class="scroll"><table class="grid">\n<thead><tr>{cols}</tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>'


def front(ctx: Context, t: Translator) -> Page:
    page = Page(ctx, t, "index.html")
    intro = t("Every engine against every rule area of corpus {version}: each cell links to the detail.",
              version=ctx.data.version)
    body = [f"<p>{esc(intro)}</p>", legend(t), engines_table(page, ctx.data.main)]
    if ctx.data.others:
        versions = sorted({e.current.corpus_version for e in ctx.data.others})
        apart = t("These reports ran corpus {versions}, not {version}: they are shown apart and counted nowhere else.",
                  versions=", ".join(versions), version=ctx.data.version)
        body += [f'<h2 id="other-corpus">{esc(t("Reports of another corpus version"))}</h2>',
                 f'<p class="warn">{esc(apart)}</p>', engines_table(page, ctx.data.others, old=True)]
    badges = " ".join(f'<a href="{esc(page.up)}../badges/{esc(e.key)}.svg"><img src="{esc(page.up)}../badges/{esc(e.key)}.svg" '
                      f'alt="{esc(e.current.name)}"></a>' for e in ctx.data.engines.values())
    body += [f'<h2>{esc(t("Badges"))}</h2>', f'<p>{badges}</p>',
             f'<p class="muted">{esc(t(BADGES_NOTE))}</p>']
    return _done(page, t("Where each engine stands"), "\n".join(body))


def _done(page: Page, title: str, body: str) -> Page:
    page.html = page.render(title, body)
    return page


def failure_item(page: Page, r: dict[str, Any]) -> str:
    t, ctx = page.t, page.ctx
    links = [page.link(scenario_page(r["id"]), t("scenario (YAML)"))]
    if ctx.replay and r["id"] in ctx.scenarios:
        links.append(f'<a class="out" href="{esc(ctx.replay.rstrip("/"))}/replay/view?id={quote(r["id"])}">'
                     f'{esc(t("replay viewer"))}</a>')
    links += [page.link(clause_page(c), c) for c in clauses_of(r)[1:]]
    where = f' · {esc(r["where_text"])}' if r.get("where_text") else ""
    detail = "".join(f"<li><code>{esc(d)}</code></li>" for d in r.get("diff") or [])
    return (f'<li><p><strong>{esc(r["status"])}</strong> <code>{esc(r["id"])}</code> '
            f'<span class="muted">{esc(r["file"])}:{esc(r["line"])}{where}</span><br>{esc(r["reason"])}</p>'
            f'<p class="links">{" · ".join(links)}</p>' + (f"<ul class='diff'>{detail}</ul>" if detail else "") + "</li>")


def engine_detail(ctx: Context, t: Translator, engine: Engine) -> Page:
    page = Page(ctx, t, engine_page(engine.key))
    r = engine.current
    e = r.engine
    facts = [(t("Engine"), e.get("spec")), (t("Language"), e.get("language")), (t("Version"), e.get("version")),
             (t("Protocol"), e.get("protocol")), (t("Capabilities"), ", ".join(e.get("capabilities") or [])),
             (t("Corpus"), r.corpus_version), (t("Report"), r.label), (t("Duration"), f'{r.data["duration"]} s')]
    body = []
    if r.corpus_version != ctx.data.version:
        warn = t("This report ran corpus {old}, not {version}: its figures are not those of the other engines.",
                 old=r.corpus_version, version=ctx.data.version)
        body.append(f'<p class="warn">{esc(warn)}</p>')
    body.append("<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v if v not in (None, '') else '—')}</dd>" for k, v in facts)
                + f"<dt>{esc(t('Decision options'))}</dt><dd>{options_text(page, r)}</dd></dl>")
    body.append(f'<p><img src="{esc(page.up)}../badges/{esc(engine.key)}.svg" alt="{esc(t("badge"))}"></p>')
    rows = "".join(f'<tr id="area-{area.lower()}"><th scope="row">{esc(area)}</th>'
                   + counts_cell(page, r.counts(r.area_results(area)), None) + "</tr>"
                   for area in ctx.areas if r.area_results(area))
    body += [f'<h2>{esc(t("Rule areas"))}</h2>', legend(t), f'<table class="grid small"><tbody>{rows}</tbody></table>']
    failures = r.failures
    body.append(f'<h2 id="failures">{esc(t("Failures by clause ({n})", n=len(failures)))}</h2>')
    if not failures:
        body.append(f'<p class="good">{esc(t("No failure."))}</p>')
    for clause, items in sorted(by_clause(failures).items()):
        for item in items:
            item["where_text"] = f'{item["at"]} (line {item["at_line"] or item["line"]})' if item.get("at") else ""
        body.append(f'<section class="clause"><h3>{page.clause_links(clause)}</h3><ul class="failures">'
                    + "".join(failure_item(page, i) for i in items) + "</ul></section>")
    skipped = r.skipped
    if skipped:
        reasons: dict[str, list[str]] = {}
        for s in skipped:
            reasons.setdefault(s["reason"] or s["status"], []).append(s["id"])
        items_html = "".join(f"<li>{esc(reason)}: " + ", ".join(page.link(scenario_page(i), i) for i in ids) + "</li>"
                             for reason, ids in sorted(reasons.items()))
        body.append(f'<details><summary>{esc(t("Skipped ({n})", n=len(skipped)))}</summary><ul>{items_html}</ul></details>')
    body.append(fuzz_section(t, engine))
    if len(engine.reports) > 1:
        reports = engine.reports
        links = "".join(f"<li>{page.link(diff_page(engine.key, i), t('{old} → {new}', old=reports[i - 1].label, new=reports[i].label))}"
                        "</li>" for i in range(1, len(reports)))
        body += [f'<h2>{esc(t("Earlier reports"))}</h2>', f"<ul>{links}</ul>"]
    return _done(page, r.name, "\n".join(body))


def fuzz_section(t: Translator, engine: Engine) -> str:
    if not engine.fuzz:
        return ""
    out = [f'<h2 id="fuzz">{esc(t("Fuzzing against the reference"))}</h2><ul>']
    for path, data in engine.fuzz:
        s = fuzz_summary(data)
        line = t("hands played: {hands}; disagreements: {disagreements}; outcome classes reached: {reached} of {classes}",
                 hands=s["hands"], disagreements=s["disagreements"], reached=s["reached"], classes=s["classes"])
        extra = "" if s["complete"] else f' <strong>{esc(t("incomplete"))}</strong>'
        unreached = (f'<br><span class="muted">{esc(t("Not reached:"))} {esc(", ".join(s["unreached"]))}</span>'
                     if s["unreached"] else "")
        cls = "bad" if s["disagreements"] else "good"
        out.append(f'<li class="{cls}"><code>{esc(path.name)}</code>: {esc(line)}{extra}{unreached}</li>')
    return "".join(out) + "</ul>"


def engines_of(ctx: Context) -> list[Engine]:
    return ctx.data.main


def clause_detail(ctx: Context, t: Translator, clause: str) -> Page:
    page = Page(ctx, t, clause_page(clause))
    item = ctx.spec.items.get(clause, {})
    ids = sorted({s.id for s in ctx.scenarios.values() if clause in s.clauses}
                 | {rid for e in engines_of(ctx) for rid, r in e.current.results.items()
                    if clause in r["clauses"] or clause in (r.get("rules") or [])})
    book = f'<a class="out" href="{esc(page.rulebook(clause))}">{esc(t("The clause in the rulebook"))}</a>'
    body = [f'<p>{esc(item.get("title", ""))} · {book}</p>']
    if item.get("statement"):
        body.append(f'<blockquote lang="en" dir="ltr">{esc(item["statement"])}</blockquote>')
    body.append(scenario_grid(page, ids))
    return _done(page, clause, "\n".join(body))


def scenario_grid(page: Page, ids: Sequence[str]) -> str:
    t, engines = page.t, engines_of(page.ctx)
    if not ids:
        return f'<p>{esc(t("No scenario tests it."))}</p>'
    head = "".join(f'<th scope="col">{page.link(engine_page(e.key), e.current.name)}</th>' for e in engines)
    summary = "".join(counts_cell(page, e.current.counts([e.current.results[i] for i in ids if i in e.current.results]),
                                  engine_page(e.key)) for e in engines)
    rows = "".join(f'<tr><th scope="row">{page.link(scenario_page(i), i)}</th>'
                   + "".join(status_cell(page, e.current.results.get(i)) for e in engines) + "</tr>" for i in ids)
    note = ""
    if page.ctx.data.others:
        names = ", ".join(page.link(engine_page(e.key), f"{e.current.name} ({e.current.corpus_version})")
                          for e in page.ctx.data.others)
        note = f'<p class="warn">{esc(t("Not counted here (another corpus version):"))} {names}</p>'
    return (f'<h2>{esc(t("Which engines pass its scenarios"))}</h2>{legend(t)}<div class="scroll"><table class="grid">'
            f'<thead><tr><th scope="col">{esc(t("Scenario"))}</th>{head}</tr>'
            f'<tr><th scope="row">{esc(t("Total"))}</th>{summary}</tr></thead><tbody>{rows}</tbody></table></div>{note}')


def decision_detail(ctx: Context, t: Translator, decision: str, option: str) -> Page:
    page = Page(ctx, t, decision_page(decision, option))
    d = (ctx.spec.decisions or {})[decision]
    follow = [e for e in engines_of(ctx) if e.current.engine.get("configurable")
              or (e.current.engine.get("options") or {}).get(decision) == option]
    ids = sorted(s.id for s in ctx.scenarios.values()
                 if isinstance(s.requires, Mapping) and s.requires.get(decision) == option)
    default = f' ({esc(t("the default"))})' if d.default == option else ""
    names = ", ".join(page.link(engine_page(e.key), e.current.name) for e in follow) or "—"
    body = [f'<p>{esc(d.title)} · <a class="out" href="{esc(page.rulebook(decision))}">{esc(t("The decision in the rulebook"))}</a></p>',
            f'<p>{esc(t("Option"))}: <code>{esc(option)}</code>{default}</p>',
            f'<p>{esc(t("Engines that follow it:"))} {names}</p>', scenario_grid(page, ids)]
    return _done(page, f"{decision} = {option}", "\n".join(body))


def scenario_detail(ctx: Context, t: Translator, sid: str) -> Page:
    page = Page(ctx, t, scenario_page(sid))
    s = ctx.scenarios.get(sid)
    body = []
    if s is None:
        body.append(f'<p class="warn">{esc(t("Not in corpus {version}: a scenario of another version.", version=ctx.data.version))}</p>')
    else:
        body.append(f'<p>{esc(s.title)}</p><p class="muted"><code>{esc(s.file)}:{s.line}</code></p>')
        body.append("<ul>" + "".join(f"<li>{page.clause_links(c)}</li>" for c in s.clauses) + "</ul>")
        if ctx.replay:
            body.append(f'<p><a class="out" href="{esc(ctx.replay.rstrip("/"))}/replay/view?id={quote(sid)}">'
                        f'{esc(t("replay viewer"))}</a> <span class="muted">({esc(t("while hakka-play runs"))})</span></p>')
    rows = ""
    for e in ctx.data.engines.values():
        r = e.current.results.get(sid)
        reason = esc(r["reason"]) if r else ""
        rows += (f'<tr><th scope="row">{page.link(engine_page(e.key), e.current.name)}</th>{status_cell(page, r)}'
                 f"<td>{reason}</td></tr>")
    body.append(f'<table class="grid"><tbody>{rows}</tbody></table>')
    if s is not None:
        body.append(f'<h2>YAML</h2><pre lang="en" dir="ltr"><code>{esc(ctx.yaml_text.get(sid, ""))}</code></pre>')
    return _done(page, sid, "\n".join(body))


def diff_detail(ctx: Context, t: Translator, engine: Engine, index: int) -> Page:
    page = Page(ctx, t, diff_page(engine.key, index))
    old, new = engine.reports[index - 1], engine.reports[index]
    before, after = old.results, new.results
    groups: dict[str, list[str]] = {"broke": [], "fixed": [], "new": [], "gone": [], "other": []}
    for sid in sorted(set(before) | set(after)):
        a, b = before.get(sid), after.get(sid)
        if a is None:
            groups["new"].append(sid)
        elif b is None:
            groups["gone"].append(sid)
        elif status_word(a["status"]) != status_word(b["status"]):
            key = ("broke" if status_word(b["status"]) == "failed" else
                   "fixed" if status_word(a["status"]) == "failed" else "other")
            groups[key].append(sid)
    body = [f'<p>{esc(old.label)} → {esc(new.label)}</p>']
    if old.corpus_version != new.corpus_version:
        warn = t(TWO_VERSIONS, old=old.corpus_version, new=new.corpus_version)
        body.append(f'<p class="warn">{esc(warn)}</p>')
    titles = {"broke": t("Broke (passed or skipped before, failing now)"), "fixed": t("Fixed (failing before, not now)"),
              "new": t("Only in the newer report"), "gone": t("Only in the older report"),
              "other": t("Passed ↔ skipped")}
    for key, ids in groups.items():
        items = "".join(f"<li>{page.link(scenario_page(i), i)}: {esc((before.get(i) or {}).get('status', '—'))} → "
                        f"{esc((after.get(i) or {}).get('status', '—'))}</li>" for i in ids)
        body.append(f'<h2 class="{key}">{esc(titles[key])} ({len(ids)})</h2>' + (f"<ul>{items}</ul>" if ids else ""))
    return _done(page, t("{engine}: what changed", engine=new.name), "\n".join(body))


def clause_index(ctx: Context, t: Translator) -> Page:
    page = Page(ctx, t, "clauses.html")
    by_area: dict[str, list[str]] = {}
    for c in ctx.clauses:
        by_area.setdefault(c.split("-")[0], []).append(c)
    body = "".join(f"<h2>{esc(area)}</h2><ul>" + "".join(f"<li>{page.clause_links(c)}</li>" for c in cs) + "</ul>"
                   for area, cs in by_area.items())
    return _done(page, t("Clauses"), body)


def decision_index(ctx: Context, t: Translator) -> Page:
    page = Page(ctx, t, "decisions.html")
    items = []
    for did, d in (ctx.spec.decisions or {}).items():
        options = ", ".join(page.link(decision_page(did, o), o) + (f' ({esc(t("the default"))})' if o == d.default else "")
                            for o in d.options)
        items.append(f"<li><strong>{esc(did)}</strong> {esc(d.title)}: {options}</li>")
    return _done(page, t("Decisions"), "<ul>" + "".join(items) + "</ul>")


def all_pages(ctx: Context, t: Translator) -> list[Page]:
    pages = [front(ctx, t), clause_index(ctx, t), decision_index(ctx, t)]
    for engine in ctx.data.engines.values():
        pages.append(engine_detail(ctx, t, engine))
        pages += [diff_detail(ctx, t, engine, i) for i in range(1, len(engine.reports))]
    pages += [clause_detail(ctx, t, c) for c in ctx.clauses]
    pages += [decision_detail(ctx, t, did, o) for did, d in (ctx.spec.decisions or {}).items() for o in d.options]
    ids = sorted(set(ctx.scenarios) | {i for e in ctx.data.engines.values() for r in e.reports for i in r.results})
    pages += [scenario_detail(ctx, t, sid) for sid in ids]
    return pages


def write(pages: Sequence[Page], root: Path) -> int:
    total = 0
    for page in pages:
        out = root / page.path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page.html, encoding="utf-8")
        total += len(page.html.encode("utf-8"))
    return total


def relative_rulebook(base: str, site: Path) -> str:
    """The rulebook's root as the site links it: a URL as it is, a folder relative to the site's root."""
    if "://" in base:
        return base
    return Path(os.path.relpath(Path(base).resolve(), site.resolve())).as_posix()
