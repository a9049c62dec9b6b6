"""Every link of the site is followed from the files, and every failure shown links to its clause and scenario."""

from __future__ import annotations

import json

from conformance.results import BAD_STATUSES
from conformance.site.model import slug


def test_every_link_of_the_site_resolves(site, links, rulebook_dir):
    checked = links.check_site(site, rulebook_dir)
    assert not checked.broken, f"{len(checked.broken)} broken link(s):\n" + "\n".join(checked.broken[:30])
    assert checked.pages > 100 and checked.local > 1000 and checked.rulebook > 100, checked


def test_every_failure_links_to_an_existing_clause_page_and_scenario(built, reports, links, rulebook_dir):
    data = json.loads(reports["fake"].read_text(encoding="utf-8"))
    bad = [r for r in data["results"] if r["status"] in BAD_STATUSES]
    assert len(bad) > 20  # the scripted engine fails many scenarios: the page has something to show
    page = built / "en" / "engines" / f"{slug(data['engine']['name'])}.html"
    text = page.read_text(encoding="utf-8")
    parsed = links.parse(page)
    for r in bad:
        scenario = f"../scenarios/{r['id']}.html"
        assert scenario in parsed.links, f"failure {r['id']} has no link to its scenario"
        assert (page.parent / scenario).resolve().is_file()
        clause = (r["rules"] or r["clauses"])[0]
        assert f"../clauses/{clause.lower()}.html" in parsed.links
        assert (built / "en" / "clauses" / f"{clause.lower()}.html").is_file()
    assert text.count('<li><p><strong>') == len(bad), "one item per failure, no more"
    checked = links.check_site(built, rulebook_dir)
    assert not checked.broken, checked.broken[:20]
