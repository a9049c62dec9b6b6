"""The rulebook builds without a warning, and every anchor and link in it holds.

The book is built once per session into a temporary folder with ``-W`` (every
Sphinx warning is an error). Then:

* every clause of spec/clauses.yaml has its anchor at its documented address
  ``rules/<prefix>.html#<id>``; every decision at ``decisions.html#<id>``;
  every hand-worked scenario at ``scenarios/<folder>.html#scenario-<id>``;
* every internal link (an ``href`` to a local ``.html`` file, with an optional
  ``#fragment``) points to a file that exists and, if it has a fragment, to an
  ``id`` that exists in that file.

The link checker is itself tested on a small broken tree, so this test can fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))


# ------------------------------------------------------------------ HTML


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name == "href" and tag in ("a", "area"):
                self.hrefs.append(value)


def scan(html_dir: Path) -> dict[Path, _Collector]:
    """Every .html file of a built site, with its ids and hrefs."""
    out = {}
    for path in sorted(html_dir.rglob("*.html")):
        c = _Collector()
        c.feed(path.read_text(encoding="utf-8"))
        out[path.resolve()] = c
    return out


def broken_links(html_dir: Path) -> list[str]:
    """Internal links whose file or fragment does not exist, as readable lines."""
    pages = scan(html_dir)
    problems = []
    for path, page in pages.items():
        for href in page.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith("//"):
                continue  # external
            if parts.path and not parts.path.endswith(".html"):
                continue  # _sources, _static, downloads: not pages
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.is_relative_to(html_dir.resolve()):
                continue  # another language's build (the switcher): tests/rulebook/test_languages.py
            shown = f"{path.relative_to(html_dir.resolve())}: href={href!r}"
            if target not in pages:
                problems.append(f"{shown}: no such page")
                continue
            fragment = unquote(parts.fragment)
            if fragment and fragment not in pages[target].ids:
                problems.append(f"{shown}: no id {fragment!r} in {target.relative_to(html_dir.resolve())}")
    return problems


_IDS: dict[Path, set[str]] = {}


def ids_of(html_dir: Path, page: str) -> set[str]:
    path = html_dir / page
    if path not in _IDS:
        assert path.exists(), f"the book has no page {page}"
        c = _Collector()
        c.feed(path.read_text(encoding="utf-8"))
        _IDS[path] = c.ids
    return _IDS[path]


# ------------------------------------------------------------------ build


if TYPE_CHECKING:
    from collections.abc import Callable

    from hakka_data import Spec  # docs/_ext, imported at run time only once Sphinx is known to be there

    Book = Callable[[str], Path]  # tests/rulebook/conftest.py

_SPEC: list[Spec] = []


@pytest.fixture(scope="session")
def built(book: Book) -> Path:
    """The English book, built with -W (tests/rulebook/conftest.py)."""
    _SPEC.append(_load_spec())  # the spec as it is when the book is built
    return book("en")


def _load_spec() -> Spec:
    from hakka_data import load_spec

    return load_spec(ROOT)


def _spec() -> Spec:
    return _SPEC[0] if _SPEC else _load_spec()


def test_every_clause_has_its_anchor(built: Path) -> None:
    spec = _spec()
    missing = []
    for clause in spec.clauses:
        cid = clause["id"]
        page = f"rules/{cid.split('-')[0].lower()}.html"
        if cid.lower() not in ids_of(built, page):
            missing.append(f"{page}#{cid.lower()}")
    assert not missing, f"clauses without their anchor: {missing}"
    assert spec.clauses, "spec/clauses.yaml has no clause"


def test_every_decision_has_its_anchor(built: Path) -> None:
    spec = _spec()
    ids = ids_of(built, "decisions.html")
    missing = [d["id"] for d in spec.decisions if d["id"].lower() not in ids]
    assert not missing, f"decisions without an anchor in decisions.html: {missing}"
    assert spec.decisions, "spec/decisions.yaml has no decision"


def test_every_hand_worked_scenario_has_its_anchor(built: Path) -> None:
    from hakka_data import scenario_group

    spec = _spec()
    missing = []
    for sc in spec.scenarios:
        if sc.generated:
            continue
        page = f"scenarios/{scenario_group(sc)}.html"
        if f"scenario-{sc.id}" not in ids_of(built, page):
            missing.append(f"{page}#scenario-{sc.id}")
    assert not missing, f"scenarios without their anchor: {missing}"


def test_no_generated_vector_is_drawn(built: Path) -> None:
    spec = _spec()
    generated = {f"scenario-{s.id}" for s in spec.scenarios if s.generated}
    if not generated:
        pytest.skip("no generated vectors yet")
    drawn = set()
    for page in scan(built).values():
        drawn |= page.ids & generated
    assert not drawn, f"generated vectors drawn as worked examples: {sorted(drawn)[:10]}"


def test_internal_links_resolve(built: Path) -> None:
    problems = broken_links(built)
    assert not problems, f"{len(problems)} broken internal link(s):\n" + "\n".join(problems[:40])


def test_arabic_quotes_are_right_to_left(built: Path) -> None:
    text = "".join(p.read_text(encoding="utf-8") for p in (built / "rules").glob("*.html"))
    arabic = re.findall(r'<blockquote lang="ar" dir="(\w+)"', text)
    assert arabic, "no Arabic quotation in the rules"
    assert set(arabic) == {"rtl"}


# ------------------------------------------------------- the checker itself


def test_link_checker_reports_broken_links(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="rules/play.html#play-4">ok</a>'
        '<a href="rules/play.html#play-99">bad fragment</a>'
        '<a href="rules/nowhere.html">bad page</a>'
        '<a href="#top">ok, same page</a><a href="#gone">bad, same page</a>'
        '<a href="https://example.org/x.html#y">external</a><a href="_static/x.css">not a page</a>'
        '<div id="top"></div>',
        encoding="utf-8",
    )
    (tmp_path / "rules" / "play.html").write_text(
        '<section id="play-4"></section><a href="../index.html#top">back</a>', encoding="utf-8"
    )
    problems = broken_links(tmp_path)
    assert len(problems) == 3, problems
    assert any("play-99" in p for p in problems)
    assert any("nowhere.html" in p for p in problems)
    assert any("'gone'" in p for p in problems)


# ------------------------------------------------ the spec as the book reads it


def test_the_book_keeps_no_copy_of_the_shuffle_the_deal_or_the_elders() -> None:
    """Deals (D2, D33) and Elders (ELD-2, D19) are drawn through the reference engine's API."""
    pytest.importorskip("yaml")
    import hakka_data

    for name in ("seeded_deck", "splitmix64", "deal", "elders_after", "PERMANENT_ELDERS"):
        assert not hasattr(hakka_data, name), f"hakka_data.{name}: the engine owns that rule"
    for path in (DOCS / "_ext").glob("*.py"):
        assert "9e3779b97f4a7c15" not in path.read_text(encoding="utf-8").lower(), f"{path.name}: a SplitMix64 copy"


def test_the_elders_drawn_under_each_step_follow_eld_2() -> None:
    """Hand-worked scenarios: Sup8 becomes an Elder the moment Sup9 is played (ELD-2); a refused action
    promotes nothing, and three cards promoted at once are drawn from the next step on."""
    pytest.importorskip("yaml")
    from hakka_data import INITIAL_ELDERS, elders_by_step

    spec = _spec()
    sc = spec.scenario_by_id["src-sup8-becomes-elder"]
    before = elders_by_step(spec, sc, "steps", {})
    assert set(INITIAL_ELDERS) == {"Sup9", "Gon9", "Zok9", "Sin9", "Sup1", "Sin1", "WanSin"}  # ELD-1
    assert len(before) == len(sc.body["steps"]) and set(before[0]) == set(INITIAL_ELDERS)
    assert "Sup8" not in before[2]  # before seat 1 plays Sup9
    assert "Sup8" in before[3] and "Sup9" in before[3]  # after: promoted; Sup9 stays an Elder

    worked = spec.scenario_by_id["example-hand-claim-with-privileged-penalty"]
    steps = worked.body["steps"]
    elders = elders_by_step(spec, worked, "steps", {})
    refused = [n for n, step in enumerate(steps) if "reject" in step]
    assert refused and all(elders[n + 1] == elders[n] for n in refused)  # a refused action changes nothing
    promoting = steps.index({"seat": 0, "do": "play Sup7 Sup8 Sup9"})  # its notes: Sup6 becomes an Elder
    assert not {"Sup6", "Sup7", "Sup8"} & set(elders[promoting])
    assert {"Sup6", "Sup7", "Sup8"} <= set(elders[promoting + 1]) and "Sup5" not in elders[promoting + 1]


def test_the_front_page_states_the_decision_range_of_the_spec(built: Path) -> None:
    ids = [d["id"] for d in _spec().decisions]
    text = (built / "index.html").read_text(encoding="utf-8")
    assert f"({ids[0]} … {ids[-1]})" in text


def test_every_transcript_matches_the_directive_that_shows_it() -> None:
    from hakka_node_runs import TRANSCRIPTS, all_blocks, read

    blocks = all_blocks()
    assert len(blocks) >= 3, "the guides show no recorded run"
    for block in blocks:
        assert read(block)
    assert {b.path for b in blocks} == set(TRANSCRIPTS.glob("*.txt")), "a transcript no page uses"


def test_transcripts_are_what_the_node_engine_does_now() -> None:
    """Re-record with Node.js and compare (durations aside): the book shows the runner as it is."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    proc = subprocess.run([sys.executable, str(DOCS / "_ext" / "hakka_node_runs.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_score_table_is_read_from_score_1() -> None:
    pytest.importorskip("yaml")
    from hakka_data import score_table

    table = dict(score_table(_spec()))
    assert table[12] == 128, "12 tricks score 128, not 64 (SCORE-1)"
    assert table == {6: 1, 7: 2, 8: 4, 9: 8, 10: 16, 11: 32, 12: 128}
    engine = pytest.importorskip("reference_engine")
    assert table == dict(engine.SCORE_TABLE)


def test_protocol_page_includes_every_protocol_schema() -> None:
    page = (DOCS / "reference" / "protocol.md").read_text(encoding="utf-8")
    schemas = sorted(p.name for p in (ROOT / "spec" / "schema" / "protocol").glob("*.json"))
    assert schemas, "spec/schema/protocol/ is empty"
    missing = [name for name in schemas if f"spec/schema/protocol/{name}" not in page]
    assert not missing, f"docs/reference/protocol.md does not include {missing}"


def test_node_example_engine_passes_the_pattern_scenarios() -> None:
    """The guide 'Connect your engine' runs this; it must stay true."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    pytest.importorskip("conformance.cli")
    engine = DOCS / "examples" / "node-engine" / "engine.js"
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "--engine", f"cmd:{node} {engine}", "--area", "PAT", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ},
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"^PAT\s+[1-9]\d*\s+0\s+0\s+0\s", proc.stdout, re.M), proc.stdout[-2000:]


def test_guide_scenarios_pass_against_the_reference_engine(tmp_path: Path) -> None:
    """The scenarios the guide 'Add a regression scenario' shows are correct by the rules."""
    yaml = pytest.importorskip("yaml")
    pytest.importorskip("conformance.cli")
    pytest.importorskip("reference_engine")
    text = (DOCS / "guides" / "add-a-scenario.rst").read_text(encoding="utf-8")
    blocks = re.findall(r"\.\. hakka-scenario-preview::\n\n((?:   .*\n|\n)+)", text)
    assert blocks, "the guide shows no scenario"
    scenarios = [yaml.safe_load("\n".join(line[3:] for line in block.splitlines())) for block in blocks]
    path = tmp_path / "guide.yaml"
    path.write_text(yaml.safe_dump({"scenarios": scenarios}, sort_keys=False), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "--scenarios", str(path), "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert f"{len(scenarios)} scenario(s)" in proc.stdout
