"""``hakka-conformance site REPORT.json... --out DIR``: build the results site."""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..errors import InputError
from ..loader import Scenario
from ..paths import PACKAGE_DIR, display_path
from ..suite import Suite
from . import badges, model, pages
from .i18n import LANGUAGES, Translator

STATIC = Path(__file__).resolve().parent / "site.css"
DEFAULT_REPLAY = "http://127.0.0.1:8765"
"""Where ``hakka-play`` serves its replay viewer by default (``hakka-play --port``)."""
DEFAULT_RULEBOOK = PACKAGE_DIR.parent / "docs" / "_build" / "html"
"""Where ``python -m docs.build_all`` writes the rulebook, one folder per language."""


def add_site_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    p: argparse.ArgumentParser = sub.add_parser(
        "site", help="build a static results site (and badges) from run reports",
        description="A static site from `run --json` reports (and `fuzz --report` reports): every engine against "
                    "every rule area, a page per engine, clause, decision option and scenario, diffs between "
                    "reports of one engine, and DIR/badges/ENGINE.svg and .json. It opens from files, offline.")
    p.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    p.add_argument("--out", "-o", type=Path, required=True, metavar="DIR", help="the folder to write (replaced)")
    p.add_argument("--rulebook", metavar="URL|DIR", default=None,
                   help="the built rulebook's root, its language folders below it (default: the checkout's "
                        "docs/_build/html, linked relatively)")
    p.add_argument("--copy-rulebook", action="store_true",
                   help="copy the built rulebook (--rulebook DIR) into DIR/rulebook and link there, so that the "
                        "folder stands alone (a CI artifact, a copy on a phone)")
    p.add_argument("--replay", metavar="URL", default=None,
                   help=f"the replay viewer of hakka-play (default {DEFAULT_REPLAY} where the table is installed)")
    p.add_argument("--no-replay", action="store_true", help="no links to the replay viewer")
    p.add_argument("--corpus-version", metavar="VERSION", default=None,
                   help="the corpus version the site counts (default: the newest among the reports); reports "
                        "of other versions are shown apart, as such")
    p.add_argument("--scenarios", metavar="PATH", action="append", type=Path,
                   help="the scenario files the reports ran (default: the packaged corpus)")
    return p


@dataclass
class Built:
    pages: int
    bytes: int
    seconds: float
    notes: list[str]


def replay_address(given: str | None, disabled: bool) -> str | None:
    if disabled:
        return None
    if given:
        return given
    return DEFAULT_REPLAY if importlib.util.find_spec("hakka_play") and importlib.util.find_spec("starlette") else None


def yaml_of(scenarios: Sequence[Scenario]) -> dict[str, str]:
    """Each scenario's own lines of its file: from its line to the next scenario's (or the end)."""
    out: dict[str, str] = {}
    by_file: dict[str, list[Scenario]] = {}
    for s in scenarios:
        by_file.setdefault(s.file, []).append(s)
    for file, items in by_file.items():
        try:
            lines = Path(file).read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        items.sort(key=lambda s: s.line)
        for s, nxt in zip(items, [*items[1:], None], strict=True):
            start = max(s.line - 1, 0)
            end = (nxt.line - 1) if nxt else len(lines)
            out[s.id] = "\n".join(lines[start:end]).rstrip()
    return out


def build(reports: Sequence[Path], out: Path, rulebook: str | None = None, replay: str | None = None,
          corpus_version: str | None = None, scenario_paths: Sequence[Path] | None = None,
          copy_rulebook: bool = False) -> Built:
    started = time.perf_counter()
    data = model.load(list(reports), corpus_version)
    suite = Suite.load(None, scenario_paths)
    book = Path(rulebook or DEFAULT_RULEBOOK)
    if copy_rulebook and ("://" in str(rulebook) or not (book / "en" / "index.html").is_file()):
        raise InputError(f"--copy-rulebook: {rulebook or display_path(book)} is no built rulebook folder (no en/index.html "
                         "there); build it with python -m docs.build_all, or give --rulebook DIR")
    base = "rulebook" if copy_rulebook else pages.relative_rulebook(rulebook or str(DEFAULT_RULEBOOK), out)
    clauses = list(suite.spec.clauses or {})
    named = {c for e in data.engines.values() for r in e.reports for res in r.data["results"]
             for c in [*res["clauses"], *(res.get("rules") or [])]}
    clauses += sorted(named - set(clauses))
    areas = list(dict.fromkeys([a.prefix for a in suite.spec.areas]
                               + [res["area"] for e in data.main for res in e.current.data["results"]]))
    areas = [a for a in areas if any(e.current.area_results(a) for e in data.engines.values())]
    ctx = pages.Context(data, suite.spec, {s.id: s for s in suite.scenarios}, base, replay, areas, clauses,
                        yaml_of(suite.scenarios))
    if out.exists():
        if not (out / "index.html").is_file() and any(out.iterdir()):
            raise InputError(f"--out {display_path(out)}: a folder that is not a site built here; give an empty "
                             "or new folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    count, size = 0, 0
    for lang in LANGUAGES:
        written = pages.all_pages(ctx, Translator(lang))
        size += pages.write(written, out / lang)
        count += len(written)
    shutil.copyfile(STATIC, out / "site.css")
    if copy_rulebook:
        shutil.copytree(book, out / "rulebook", ignore=shutil.ignore_patterns(".buildinfo", ".doctrees", "_sources"))
    redirect = ('<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=en/index.html">'
                '<title>Hakka Cards conformance</title><a href="en/index.html">Hakka Cards conformance</a></html>\n')
    (out / "index.html").write_text(redirect, encoding="utf-8")
    (out / "badges").mkdir()
    for engine in data.engines.values():
        endpoint = badges.badge(*engine.current.counts())
        (out / "badges" / f"{engine.key}.json").write_text(json.dumps(endpoint, indent=2) + "\n", encoding="utf-8")
        (out / "badges" / f"{engine.key}.svg").write_text(badges.svg(endpoint), encoding="utf-8")
    size += sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and f.parent.name in ("badges", out.name))
    return Built(count, size, time.perf_counter() - started, data.notes)


def cmd_site(args: argparse.Namespace, out: TextIO) -> int:
    built = build(args.reports, args.out, args.rulebook, replay_address(args.replay, args.no_replay),
                  args.corpus_version, args.scenarios, args.copy_rulebook)
    for note in built.notes:
        print(f"note: {note}", file=sys.stderr)
    out.write(f"site: {built.pages} pages in {len(LANGUAGES)} languages, {built.bytes / 1e6:.1f} MB, "
              f"in {built.seconds:.1f} s: {display_path(args.out / 'index.html')}\n")
    return 0
