"""The corpus's releases: its version, its content digest, what each release added, changed and removed.

The scenarios of ``conformance/scenarios/`` are released as a whole under a
semantic version, declared once in ``conformance/corpus.yaml``:

- a release that only **adds** scenarios bumps the **minor** version (an engine
  that passed every scenario of 1.2.0 passes every scenario of 1.2.0 within 1.3.0);
- a release that **changes** what a scenario tests (its setup, steps,
  expectations, clauses, requirements) or **removes** one bumps the **major**;
- edits of free text only (``title``, ``notes``, ``description``, ``source``)
  change no digest and need no release (the patch number stays for them).

Each scenario's digest is the sha256 of its canonical JSON without those
free-text keys; the corpus digest is the sha256 of the sorted ``id digest``
lines. ``corpus.yaml`` lists every release with the digests of the scenarios it
added or changed and the IDs it removed, so the set of any version is known
exactly. ``scenarios/CHANGELOG.md`` is generated from the same list
(tests/conformance/test_corpus_release.py checks that both are in step with the
scenarios, and says which command to run when they are not)::

    python -m conformance.corpus bump          # after adding or changing scenarios
    hakka-conformance corpus diff 1.0.0 REPORT.json

Run reports record ``corpus.version`` and ``corpus.content`` (and the digest of
every scenario run, ``corpus.manifest``): ``merge`` refuses to join reports of
different versions, and the results site shows a report of another version as such.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import yaml

from .errors import InputError
from .loader import FREE_TEXT_KEYS, Filters, Scenario, ids_digest
from .paths import DEFAULT_SCENARIOS_DIR, display_path
from .suite import Suite

CORPUS_FILE = Path(__file__).resolve().parent / "corpus.yaml"
CHANGELOG_FILE = DEFAULT_SCENARIOS_DIR / "CHANGELOG.md"
BUMP_COMMAND = "python -m conformance.corpus bump"
_VERSION = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")

Manifest = dict[str, str]
"""Scenario ID → its digest (16 hex digits of the sha256 of its content)."""


def _content(value: Any) -> Any:
    """``value`` without the free-text keys, at every level: what an engine is tested on."""
    if isinstance(value, Mapping):
        return {k: _content(v) for k, v in value.items() if k not in FREE_TEXT_KEYS}
    if isinstance(value, list | tuple):
        return [_content(v) for v in value]
    return value


def scenario_digest(data: Mapping[str, Any]) -> str:
    text = json.dumps(_content(data), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def manifest_of(scenarios: Iterable[Scenario]) -> Manifest:
    return {s.id: scenario_digest(s.data) for s in scenarios}


def content_digest(manifest: Mapping[str, str]) -> str:
    """``sha256:`` of the sorted ``id digest`` lines: one value for a set of scenarios as they are."""
    lines = "".join(f"{sid} {manifest[sid]}\n" for sid in sorted(manifest))
    return "sha256:" + hashlib.sha256(lines.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Release:
    version: str
    date: str
    added: Mapping[str, str]
    changed: Mapping[str, str]
    removed: tuple[str, ...]
    note: str = ""

    def as_yaml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "date": self.date}
        if self.note:
            out["note"] = self.note
        out.update({"added": dict(sorted(self.added.items())), "changed": dict(sorted(self.changed.items())),
                    "removed": sorted(self.removed)})
        return out


@dataclass(frozen=True)
class Diff:
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    @property
    def level(self) -> str:
        """The part of the version this difference bumps."""
        return "major" if self.changed or self.removed else "minor" if self.added else "none"

    def text(self) -> str:
        lines = []
        for name, ids in (("added", self.added), ("changed", self.changed), ("removed", self.removed)):
            lines.append(f"{name} ({len(ids)}):")
            lines.extend(f"  {sid}" for sid in ids)
        return "\n".join(lines)


def diff(old: Mapping[str, str], new: Mapping[str, str]) -> Diff:
    return Diff(tuple(sorted(set(new) - set(old))),
                tuple(sorted(s for s in set(old) & set(new) if old[s] != new[s])),
                tuple(sorted(set(old) - set(new))))


def version_key(version: str) -> tuple[int, int, int]:
    """``(major, minor, patch)`` of ``1.2.0`` (or of ``1.2.0+modified``: build metadata has no precedence)."""
    m = _VERSION.match(version.split("+", 1)[0])
    if not m:
        raise InputError(f"{version!r} is not a corpus version (MAJOR.MINOR.PATCH)")
    return int(m[1]), int(m[2]), int(m[3])


def bumped(version: str, level: str) -> str:
    major, minor, _ = version_key(version)
    return f"{major + 1}.0.0" if level == "major" else f"{major}.{minor + 1}.0"


@dataclass(frozen=True)
class Corpus:
    """What ``corpus.yaml`` declares: the current version and digest, and every release."""

    version: str
    digest: str
    releases: tuple[Release, ...]

    @classmethod
    def load(cls, path: Path = CORPUS_FILE) -> Corpus:
        where = display_path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            releases = tuple(Release(str(r["version"]), str(r["date"]), dict(r.get("added") or {}),
                                     dict(r.get("changed") or {}), tuple(r.get("removed") or ()),
                                     str(r.get("note", ""))) for r in data["releases"])
            corpus = cls(str(data["version"]), str(data["digest"]), releases)
        except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
            raise InputError(f"{where}: not a corpus release file: {type(exc).__name__}: {exc}") from None
        if not releases or releases[-1].version != corpus.version:
            raise InputError(f"{where}: version {corpus.version} is not its last release")
        return corpus

    def manifest(self, version: str | None = None) -> Manifest:
        """The scenarios of ``version`` (default: the current one) with their digests."""
        wanted = version or self.version
        if wanted not in {r.version for r in self.releases}:
            known = ", ".join(r.version for r in self.releases)
            raise InputError(f"corpus version {wanted!r} was never released (releases: {known})")
        out: Manifest = {}
        for release in self.releases:
            out.update(release.added)
            out.update(release.changed)
            for sid in release.removed:
                out.pop(sid, None)
            if release.version == wanted:
                break
        return out

    def identify(self, manifest: Mapping[str, str]) -> str:
        """The version of a set of scenarios: a release's when each is as released, ``V+modified`` otherwise."""
        released = self.manifest()
        if all(released.get(sid) == dg for sid, dg in manifest.items()):
            return self.version
        for release in reversed(self.releases[:-1]):
            old = self.manifest(release.version)
            if all(old.get(sid) == dg for sid, dg in manifest.items()):
                return release.version
        return f"{self.version}+modified"

    def dump(self) -> str:
        head = ("# The corpus's releases (conformance/corpus.py says what bumps what). Written by\n"
                f"# `{BUMP_COMMAND}`; edit only the notes by hand.\n")
        body = {"version": self.version, "digest": self.digest, "releases": [r.as_yaml() for r in self.releases]}
        return head + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120)


def report_fields(selection: Sequence[Scenario], corpus: Corpus | None = None) -> dict[str, Any]:
    """What a run report says of its corpus release: the version, the content digest, each scenario's digest."""
    manifest = manifest_of(selection)
    try:
        version = (corpus or Corpus.load()).identify(manifest)
    except InputError:
        version = "0.0.0+unreleased"
    return {"version": version, "content": content_digest(manifest), "manifest": manifest}


def corpus_identity(selection: Sequence[Scenario], filters: Filters | None = None,
                    paths: Sequence[Path] | None = None) -> dict[str, Any]:
    """What a report says of the scenarios it ran: the IDs selected (before any shard), their digest, and the filters,
    and the corpus release they are of (``version``, ``content``, ``manifest``: :func:`report_fields`).

    Shards of one run share it; ``merge`` refuses reports whose identities differ.
    """
    ids = [s.id for s in selection]
    given = filters or Filters()
    return {
        "digest": ids_digest(ids),
        "count": len(ids),
        "ids": ids,
        "filters": {name: list(getattr(given, name)) for name in FILTER_NAMES},
        "scenarios": None if paths is None else [display_path(p) for p in paths],
        **report_fields(selection),
    }


FILTER_NAMES = ("ids", "clauses", "areas", "tags", "files", "kinds")



def changelog(corpus: Corpus) -> str:
    """``scenarios/CHANGELOG.md``: each release, newest first, from ``corpus.yaml``."""
    out = ["# Changelog of the conformance corpus", "",
           f"Generated from `conformance/corpus.yaml` by `{BUMP_COMMAND}`; do not edit by hand.",
           "New scenarios bump the minor version, changed or removed ones the major (conformance/README.md).", ""]
    for release in reversed(corpus.releases):
        count = len(corpus.manifest(release.version))
        out += [f"## {release.version} ({release.date})", "", f"{count} scenarios."]
        if release.note:
            out += ["", release.note]
        first = release is corpus.releases[0]
        for name, ids in (("Added", sorted(release.added)), ("Changed", sorted(release.changed)),
                          ("Removed", sorted(release.removed))):
            if not ids:
                continue
            if first and name == "Added":
                out += ["", f"The first release: {len(ids)} scenarios."]
                continue
            out += ["", f"{name} ({len(ids)}):", ""] + [f"- `{sid}`" for sid in ids]
        out.append("")
    return "\n".join(out)


def current_manifest(paths: Sequence[Path] | None = None) -> Manifest:
    return manifest_of(Suite.load(None, paths).scenarios)


def problem(corpus: Corpus, manifest: Mapping[str, str], changelog_text: str | None) -> str | None:
    """Why ``corpus.yaml`` or the CHANGELOG is not in step with the scenarios, with the command that fixes it."""
    change = diff(corpus.manifest(), manifest)
    if change:
        shown = "; ".join(f"{name}: {', '.join(ids[:5])}{' …' if len(ids) > 5 else ''}"
                          for name, ids in (("added", change.added), ("changed", change.changed),
                                            ("removed", change.removed)) if ids)
        return (f"the scenarios differ from corpus release {corpus.version} ({shown}): that is a {change.level} "
                f"release ({bumped(corpus.version, change.level)}); run `{BUMP_COMMAND}` to record it, "
                "which updates conformance/corpus.yaml and conformance/scenarios/CHANGELOG.md")
    if corpus.digest != content_digest(manifest):
        return f"conformance/corpus.yaml: digest {corpus.digest} is not that of its scenarios; run `{BUMP_COMMAND}`"
    if changelog_text is not None and changelog_text != changelog(corpus):
        return f"conformance/scenarios/CHANGELOG.md is not generated from conformance/corpus.yaml; run `{BUMP_COMMAND}`"
    return None


def bump(note: str = "", corpus_file: Path = CORPUS_FILE, changelog_file: Path = CHANGELOG_FILE,
         manifest: Mapping[str, str] | None = None, today: str | None = None) -> tuple[Corpus, Diff]:
    """Record the scenarios as they are as a new release (when they differ), and write the CHANGELOG."""
    corpus = Corpus.load(corpus_file)
    now = dict(manifest if manifest is not None else current_manifest())
    change = diff(corpus.manifest(), now)
    if change:
        release = Release(bumped(corpus.version, change.level), today or time.strftime("%Y-%m-%d", time.gmtime()),
                          {s: now[s] for s in change.added}, {s: now[s] for s in change.changed}, change.removed, note)
        corpus = Corpus(release.version, content_digest(now), corpus.releases + (release,))
        corpus_file.write_text(corpus.dump(), encoding="utf-8")
    changelog_file.write_text(changelog(corpus), encoding="utf-8")
    return corpus, change


# ------------------------------------------------------------------ corpus diff OLD NEW


def resolve(ref: str, corpus: Corpus | None = None) -> tuple[str, Manifest]:
    """A version, a run report (``.json``) or a scenario folder (or file) → a name and its manifest."""
    path = Path(ref)
    if _VERSION.match(ref) and not path.exists():
        return f"corpus {ref}", (corpus or Corpus.load()).manifest(ref)
    if path.is_dir() or ref.endswith((".yaml", ".yml")):
        return display_path(path), current_manifest([path])
    if ref.endswith(".json"):
        from .merge import load_report

        data = load_report(path)
        given = data.get("corpus") or {}
        if isinstance(given.get("manifest"), dict):
            return f"{ref} (corpus {given.get('version')})", {str(k): str(v) for k, v in given["manifest"].items()}
        version = given.get("version")
        if isinstance(version, str) and _VERSION.match(version):
            return f"{ref} (corpus {version})", (corpus or Corpus.load()).manifest(version)
        raise InputError(f"{ref}: /corpus: the report records no corpus version nor scenario digests "
                         "(written before corpus releases): re-run it with this hakka-conformance")
    raise InputError(f"{ref}: neither a corpus version (1.2.0), a run report (.json) nor a scenario folder")


def add_corpus_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "corpus", help="the corpus's version and releases: show, diff, bump",
        description="The corpus's version and releases (conformance/corpus.yaml). "
                    "New scenarios bump the minor version, changed or removed ones the major.")
    actions = p.add_subparsers(dest="corpus_command", required=True)
    actions.add_parser("show", help="the current version, digest and scenario count")
    d = actions.add_parser("diff", help="scenario IDs added, changed and removed between OLD and NEW",
                           description="OLD and NEW are each a corpus version (1.0.0), a run report (.json) "
                                       "or a folder of scenario files.")
    d.add_argument("old", metavar="OLD")
    d.add_argument("new", metavar="NEW")
    b = actions.add_parser("bump", help="record the scenarios as they are as a new release, and the CHANGELOG")
    b.add_argument("--note", default="", help="a sentence for the CHANGELOG")
    actions.add_parser("check", help="exit 1 unless corpus.yaml and the CHANGELOG are in step with the scenarios")
    return p


def cmd_corpus(args: argparse.Namespace, out: TextIO) -> int:
    corpus = Corpus.load()
    if args.corpus_command == "diff":
        (old_name, old), (new_name, new) = resolve(args.old, corpus), resolve(args.new, corpus)
        out.write(f"from {old_name} to {new_name}\n{diff(old, new).text()}\n")
        return 0
    if args.corpus_command == "bump":
        corpus, change = bump(args.note)
        out.write(f"corpus {corpus.version}: {change.level} release\n{change.text()}\n" if change
                  else f"corpus {corpus.version}: no scenario changed; CHANGELOG written\n")
        return 0
    manifest = current_manifest()
    if args.corpus_command == "check":
        why = problem(corpus, manifest, CHANGELOG_FILE.read_text(encoding="utf-8") if CHANGELOG_FILE.exists() else "")
        out.write(f"error: {why}\n" if why else f"ok: corpus {corpus.version} is in step with its scenarios\n")
        return 1 if why else 0
    state = corpus.version if not diff(corpus.manifest(), manifest) else f"{corpus.version}+modified"
    out.write(f"corpus {state}\ndigest {content_digest(manifest)}\n{len(manifest)} scenarios\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.corpus")
    sub = parser.add_subparsers(dest="command", required=True)
    add_corpus_parser(sub)
    args = parser.parse_args(["corpus", *(sys.argv[1:] if argv is None else argv)])
    try:
        return cmd_corpus(args, sys.stdout)
    except InputError as exc:
        for p in exc.problems:
            print(f"error: {p}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
