"""Corpus releases: the version and digest in step with the scenarios, `corpus diff`, `bump`, and reports."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance import corpus
from conformance.cli import main
from conformance.errors import InputError
from conformance.merge import merge_run_reports
from conformance.paths import DEFAULT_SCENARIOS_DIR


def test_the_declared_release_and_the_changelog_are_in_step_with_the_scenarios():
    declared = corpus.Corpus.load()
    why = corpus.problem(declared, corpus.current_manifest(), corpus.CHANGELOG_FILE.read_text(encoding="utf-8"))
    assert why is None, why


def test_a_scenario_added_without_a_release_names_the_bump_and_the_command():
    declared = corpus.Corpus.load()
    now = dict(declared.manifest(), **{"play-a-new-one": "0123456789abcdef"})
    why = corpus.problem(declared, now, None)
    assert why is not None and "added: play-a-new-one" in why and "minor release" in why
    assert corpus.BUMP_COMMAND in why and "CHANGELOG.md" in why
    changed = dict(declared.manifest())
    first = sorted(changed)[0]
    changed[first] = "f" * 16
    why = corpus.problem(declared, changed, None)
    assert why is not None and f"changed: {first}" in why and "major release" in why


def copy_corpus(tmp: Path) -> Path:
    target = tmp / "scenarios"
    shutil.copytree(DEFAULT_SCENARIOS_DIR, target, ignore=shutil.ignore_patterns("CHANGELOG.md"))
    return target


def edit_corpus(folder: Path) -> tuple[str, str, str]:
    """One scenario added (a copy under a new ID), one changed (an expectation), one removed: their IDs."""
    path = folder / "patterns" / "elders-singles.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = doc["scenarios"]
    added = dict(items[0], id=items[0]["id"] + "-again")
    changed, removed = items[1]["id"], items[2]["id"]
    assert items[1]["pattern"]["expect"] == "does-not-beat"
    items[1]["pattern"]["expect"] = "beats"
    del items[2]
    items.append(added)
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return added["id"], changed, removed


def test_corpus_diff_lists_exactly_the_scenario_added_changed_and_removed(tmp_path, capsys):
    folder = copy_corpus(tmp_path)
    added, changed, removed = edit_corpus(folder)
    assert main(["corpus", "diff", str(DEFAULT_SCENARIOS_DIR), str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:] == ["added (1):", f"  {added}", "changed (1):", f"  {changed}",
                                    "removed (1):", f"  {removed}"], out
    assert main(["corpus", "diff", corpus.Corpus.load().version, str(folder)]) == 0  # a version, the same three
    assert capsys.readouterr().out.splitlines()[1:] == out.splitlines()[1:]


def test_bump_releases_a_minor_for_a_new_scenario_and_a_major_for_a_changed_one(tmp_path):
    data, log = tmp_path / "corpus.yaml", tmp_path / "CHANGELOG.md"
    shutil.copyfile(corpus.CORPUS_FILE, data)
    base = corpus.Corpus.load(data)
    major, minor, _ = corpus.version_key(base.version)
    now = dict(base.manifest(), **{"play-a-new-one": "0123456789abcdef"})
    released, change = corpus.bump("one more", data, log, now, today="2026-12-31")
    assert released.version == f"{major}.{minor + 1}.0" and change.added == ("play-a-new-one",)
    assert corpus.Corpus.load(data) == released and released.digest == corpus.content_digest(now)
    text = log.read_text(encoding="utf-8")
    assert text == corpus.changelog(released)
    assert f"## {major}.{minor + 1}.0 (2026-12-31)" in text and "- `play-a-new-one`" in text and "one more" in text
    assert corpus.problem(released, now, text) is None
    now["play-a-new-one"] = "fedcba9876543210"
    released, change = corpus.bump("", data, log, now, today="2027-01-01")
    assert released.version == f"{major + 1}.0.0" and change.changed == ("play-a-new-one",)
    assert released.manifest(f"{major}.{minor + 1}.0")["play-a-new-one"] == "0123456789abcdef"
    assert corpus.diff(released.manifest(base.version), released.manifest()).added == ("play-a-new-one",)


def report_of(tmp_path: Path, name: str, *args: str) -> dict[str, Any]:
    path = tmp_path / f"{name}.json"
    main(["run", "-q", "--json", str(path), *args])
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_report_records_the_corpus_version_and_its_content(tmp_path):
    junit = tmp_path / "r.xml"
    report = report_of(tmp_path, "r", "--area", "TIG", "--junit", str(junit))
    declared = corpus.Corpus.load()
    assert report["corpus"]["version"] == declared.version
    properties = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert properties == {"corpus.version": declared.version, "corpus.content": report["corpus"]["content"]}
    assert report["corpus"]["manifest"] == {i: declared.manifest()[i] for i in report["corpus"]["ids"]}
    assert report["corpus"]["content"] == corpus.content_digest(report["corpus"]["manifest"])
    folder = copy_corpus(tmp_path)
    _, changed, _ = edit_corpus(folder)
    edited = report_of(tmp_path, "e", "--scenarios", str(folder), "--id", changed)
    assert edited["corpus"]["version"] == f"{declared.version}+modified"


def test_merge_refuses_shards_of_two_corpus_versions(tmp_path):
    shards = [report_of(tmp_path, f"s{i}", "--area", "TIG", "--shard", f"{i}/2") for i in range(2)]
    shards[1]["corpus"]["version"] = "0.9.0"
    with pytest.raises(InputError, match=r"s1: /corpus/version: corpus 0.9.0 here, .* cannot be merged"):
        merge_run_reports(shards, ["s0", "s1"])
