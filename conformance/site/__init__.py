"""``hakka-conformance site``: a static results site built from run reports (and fuzz reports).

Where an engine stands beside the others: a front page with one row per
engine and one column per rule area, a page per engine (its failures grouped
by clause, each linked to the clause's page, the rulebook, the scenario and the
replay viewer), a page per clause, per decision option and per scenario, a diff
between two reports of one engine, and a badge per engine (SVG and the
shields.io endpoint JSON, ``spec/schema/badge/shields-endpoint.schema.json``).

The pages are plain files (no server, no script, no CDN) in each language of
the rulebook (``DIR/<lang>/``, the same page in each language linked as the
rulebook's switcher does); the site's own words come from ``messages.yaml``.
Reports of another corpus version than the site's are shown in a table of
their own, marked with their version, and never counted with the others.

Layers: a tool (layer 4). It reads reports, ``spec/`` through the one reader
and the scenario files through the loader; it talks to no engine.
"""
