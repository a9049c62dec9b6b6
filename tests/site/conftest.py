"""The results site's fixtures and its link checker (no __init__.py here: a package `site` would be the
standard library's): reports made here (the reference in-process and a fake that fails), and the site.

``HAKKA_SITE_DIR`` (set by .ci/run) names a site CI built from the reports of the reference and the three
engines of the workplace; without it, a site is built here, so the browser test never skips for want of one.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from conformance.cli import main

FAKES = Path(__file__).resolve().parents[1] / "conformance" / "fakes"


def run_report(tmp: Path, name: str, engine: str, *extra: str) -> Path:
    path = tmp / f"{name}.json"
    if str(FAKES) not in sys.path:
        sys.path.insert(0, str(FAKES))
    status = main(["run", "--engine", engine, "-q", "--json", str(path), *extra])
    assert status in (0, 1) and path.is_file(), f"run {engine}: exit {status}"
    return path


def edited(source: Path, target: Path, change: Any) -> Path:
    data = json.loads(source.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    change(data)
    target.write_text(json.dumps(data), encoding="utf-8")
    return target


@pytest.fixture(scope="session")
def reports(tmp_path_factory) -> dict[str, Path]:
    """The reference (in-process), a fake that fails (the scripted engine) and its fuzz report, an older
    reference report and a report of an older corpus version."""
    tmp = tmp_path_factory.mktemp("reports")
    ref = run_report(tmp, "reference", "reference")
    fake = run_report(tmp, "fake", "python:inprocess:ScriptedSession")
    fuzz = tmp / "fuzz-fake.json"
    assert main(["fuzz", "--engine", "python:inprocess:ScriptedSession", "--hands", "10", "--no-write",
                 "--report", str(fuzz)]) == 1, "the fake disagrees with the reference"

    def older(data: dict[str, Any]) -> None:  # the reference as it was: two scenarios failing, now fixed
        data["created"] = "2026-01-01T00:00:00Z"
        for r in data["results"][:2]:
            r.update(status="fail", reason="an older build of the engine disagreed")

    def old_corpus(data: dict[str, Any]) -> None:  # another engine, run on an earlier corpus release
        data["engine"]["name"] = "hakka-old-corpus"
        data["corpus"]["version"] = "0.9.0"

    return {"reference": ref, "fake": fake, "fuzz-fake": fuzz,
            "reference-older": edited(ref, tmp / "reference-older.json", older),
            "old-corpus": edited(ref, tmp / "old-corpus.json", old_corpus)}


@pytest.fixture(scope="session")
def site(request) -> Path:
    """CI's site (HAKKA_SITE_DIR), else one built here from :func:`reports`."""
    given = os.environ.get("HAKKA_SITE_DIR")
    if given:
        assert (Path(given) / "en" / "index.html").is_file(), f"HAKKA_SITE_DIR={given}: no site there"
        return Path(given)
    return Path(request.getfixturevalue("built"))


@pytest.fixture(scope="session")
def built(reports, tmp_path_factory) -> Path:
    """Always a site built here from :func:`reports` (whose failures and versions the tests know)."""
    out = Path(tmp_path_factory.mktemp("built")) / "site"
    assert main(["site", *map(str, reports.values()), "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def links() -> SimpleNamespace:
    """The link checker: ``links.check_site(root, rulebook_dir)``, ``links.parse(page)``."""
    return SimpleNamespace(check_site=check_site, parse=parse)


@pytest.fixture(scope="session")
def rulebook_dir() -> Path | None:
    """The built rulebook (HAKKA_DOCS_HTML, set by .ci/run), whose pages the site's clause links must reach."""
    given = os.environ.get("HAKKA_DOCS_HTML")
    return Path(given) if given and (Path(given) / "en" / "index.html").is_file() else None


# ------------------------------------------------------------------ every link, followed from the files


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        for name in ("href", "src"):
            if a.get(name) and tag in ("a", "img", "link"):
                self.links.append(str(a[name]))


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def parsed(path: Path, cache: dict[Path, _Page]) -> _Page:
    """``path``'s page, parsed once (``cache.setdefault(path, parse(path))`` would parse it at every link)."""
    if path not in cache:
        cache[path] = parse(path)
    return cache[path]


@dataclass
class Checked:
    pages: int = 0
    local: int = 0
    rulebook: int = 0
    replay: int = 0
    broken: list[str] = field(default_factory=list)


def check_site(root: Path, rulebook_dir: Path | None = None) -> Checked:
    """Follow every ``href`` and ``src`` of every page. A link into the rulebook (out of the site's folder)
    is followed when ``rulebook_dir`` holds the built book, else only its form is checked; a replay
    link must name a scenario the site has a page for."""
    out = Checked()
    cache: dict[Path, _Page] = {}
    root = root.resolve()
    for path in sorted(root.rglob("*.html")):
        if root / "rulebook" in path.parents:
            continue  # a rulebook copied in (site --copy-rulebook): its own links are tests/rulebook's
        out.pages += 1
        page = parsed(path, cache)
        for link in page.links:
            _check(link, path, root, rulebook_dir, cache, out)
    return out


_RULE = re.compile(r"/(en|de|fr|hi|ar)/(rules/[a-z]+\.html#[a-z]+-[0-9a-z]+|decisions\.html#d[0-9]+)$")


def _check(link: str, path: Path, root: Path, rulebook: Path | None, cache: dict[Path, _Page], out: Checked) -> None:
    parts = urlsplit(link)
    where = f"{path.relative_to(root)}: {link}"
    if parts.scheme in ("http", "https"):
        if "/replay/view" in parts.path:
            out.replay += 1
            sid = unquote(parts.query.removeprefix("id="))
            if not (root / "en" / "scenarios" / f"{sid}.html").is_file():
                out.broken.append(f"{where}: a replay of no scenario of the site")
        elif _RULE.search(link):
            out.rulebook += 1
        else:
            out.broken.append(f"{where}: a link out of the site to neither the rulebook nor the replay viewer")
        return
    if parts.scheme:
        out.broken.append(f"{where}: scheme {parts.scheme}")
        return
    target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
    if root not in target.parents and target != root:
        if not _RULE.search(link):
            out.broken.append(f"{where}: leaves the site, and is no rulebook address")
            return
        out.rulebook += 1
        if not target.is_file():
            if rulebook is not None:  # the book is built: its page must be there
                out.broken.append(f"{where}: no such rulebook page ({target})")
            return
        if parts.fragment and parts.fragment not in parsed(target, cache).ids:
            out.broken.append(f"{where}: the rulebook page has no #{parts.fragment}")
        return
    if _RULE.search(link):
        out.rulebook += 1  # a rulebook copied into the site (site --copy-rulebook)
    else:
        out.local += 1
    if not target.is_file():
        out.broken.append(f"{where}: no such file")
    elif parts.fragment and target.suffix == ".html" and parts.fragment not in parsed(target, cache).ids:
        out.broken.append(f"{where}: no #{parts.fragment} there")
