"""``hakka-conformance merge`` against hostile run reports (issue 20, item 1).

Each case was accepted by merge, or raised a traceback, before reports said
what they are. Now every input is validated against
spec/schema/report/run.schema.json and against the others, each refusal
names the file and the field and exits 2, and every count is recomputed.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance import PROTOCOL_VERSION
from conformance.cli import main
from conformance.corpus import corpus_identity
from conformance.listeners import Collector
from conformance.loader import Filters
from conformance.reporters import run_json
from conformance.results import RunRecord
from conformance.suite import Suite

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "spec" / "schema" / "report" / "run.schema.json").read_text())
Report = dict[str, Any]


@pytest.fixture(scope="module")
def shards() -> list[Report]:
    """The three shards of a real run of the CARDS area, as `run --shard I/3 --json` writes them."""
    suite = Suite.load()
    filters = Filters(areas=("CARDS",))
    selected = suite.select(filters)
    corpus = corpus_identity(selected, filters)
    out = []
    for i in range(3):
        collected = Collector()
        results = suite.run("reference", selected[i::3], listeners=[collected])
        record = RunRecord(results, "reference", collected.info, 0.5, len(results), None, (i, 3), corpus)
        out.append(json.loads(json.dumps(run_json(record))))  # as read from its own file
    return out


def _merge(tmp_path: Path, capsys: pytest.CaptureFixture[str], reports: list[Any], *flags: str,
           raw: dict[int, str] | None = None) -> tuple[int, str, str]:
    paths = []
    for i, report in enumerate(reports):
        path = tmp_path / f"shard{i}.json"
        path.write_text((raw or {}).get(i) or json.dumps(report), encoding="utf-8")
        paths.append(str(path))
    code = main(["merge", *paths, "--out", str(tmp_path / "merged.json"), *flags])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], reports: list[Any], *words: str,
             raw: dict[int, str] | None = None, flags: tuple[str, ...] = ()) -> str:
    code, out, err = _merge(tmp_path, capsys, reports, *flags, raw=raw)
    assert code == 2, (out, err)
    assert "Traceback" not in err and err.startswith("error: ")
    assert ("shard" in err and ".json" in err) or "merge them only" in err  # names a file (or the missing shards)
    for word in words:
        assert word in err, err
    assert not (tmp_path / "merged.json").exists()
    return err


def test_real_shards_validate_against_the_schema_and_merge_into_the_whole_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    for report in shards:
        jsonschema.validate(report, SCHEMA)
    code, out, _ = _merge(tmp_path, capsys, shards)
    assert code == 0
    merged = json.loads((tmp_path / "merged.json").read_text())
    jsonschema.validate(merged, SCHEMA)
    assert merged["complete"] is True and merged["shard"] is None
    assert [r["id"] for r in merged["results"]] == merged["corpus"]["ids"]
    total = merged["corpus"]["count"]
    assert merged["summary"]["pass"] == total == sum(len(r["results"]) for r in shards) > 3
    assert f"{total} scenario(s) from 3 report(s): {total} pass" in out


def test_one_shard_alone_is_not_the_whole_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    # Before: "52 scenario(s) … 52 pass", exit 0.
    _refused(tmp_path, capsys, [shards[0]], "1/3, 2/3 missing", "--allow-incomplete")


def test_an_interrupted_shard_merges_only_when_asked_and_the_result_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    partial = copy.deepcopy(shards[1])
    partial["results"] = partial["results"][:1]
    partial["complete"] = partial["run"]["complete"] = False
    partial["run"]["interrupted"] = "SIGINT"
    _refused(tmp_path, capsys, [shards[0], partial, shards[2]], "shard1.json is incomplete", "SIGINT")
    code, out, _ = _merge(tmp_path, capsys, [shards[0], partial, shards[2]], "--allow-incomplete")
    assert code == 1  # not every scenario has a result
    assert "INCOMPLETE (merged with --allow-incomplete): shard(s) 1 incomplete" in out
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert merged["complete"] is False and merged["run"]["complete"] is False
    assert merged["merged"]["incomplete_shards"] == [1] and merged["merged"]["allow_incomplete"] is True
    jsonschema.validate(merged, SCHEMA)


def test_a_missing_shard_with_allow_incomplete_is_named_in_the_result(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    code, out, _ = _merge(tmp_path, capsys, [shards[0], shards[2]], "--allow-incomplete")
    assert code == 1 and "shard(s) 1 missing" in out
    assert json.loads((tmp_path / "merged.json").read_text())["merged"]["missing_shards"] == [1]


def _mutated(shards: list[Report], index: int, change: Callable[[Report], None]) -> list[Report]:
    out = copy.deepcopy(shards)
    change(out[index])
    return out


def _set(path: str, value: Any) -> Callable[[Report], None]:
    def change(report: Report) -> None:
        *parents, last = path.strip("/").split("/")
        target: Any = report
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return change


# Each: a change to shard 1 of 3 and the words the refusal must hold (the file is shard1.json).
MIXTURES = {
    "unknown status": (_set("results/0/status", "FAILED"), ["/results/0/status", "'FAILED'"]),
    "report version 99": (_set("version", 99), ["/version", "99"]),
    "another engine": (_set("engine/spec", "cmd:./other"), ["/engine", "cmd:./other"]),
    "another engine version": (_set("engine/version", "9.9"), ["/engine", "9.9"]),
    "other options": (_set("engine/options/D12", "may-discard"), ["/engine", "may-discard"]),
    "another engine protocol": (_set("engine/protocol", 1), ["/engine"]),
    "another runner protocol": (_set("protocol", 1), ["/protocol"]),
    "another corpus": (_set("corpus/filters/areas", ["PLAY"]), ["/corpus", "PLAY"]),
    "an ID outside the corpus": (_set("results/0/id", "invented-scenario"), ["/results/0/id", "not in the corpus"]),
    "an ID of another shard": (lambda r: r["results"][0].update(id=r["corpus"]["ids"][0]),
                               ["/results/0/id", "shard of the corpus"]),
    "a shard index past the count": (_set("shard/index", 5), ["/shard", "index 5"]),
    "another shard count": (_set("shard/count", 4), ["/shard/count"]),
    "a forged digest": (_set("corpus/digest", "sha256:" + "0" * 64), ["/corpus", "digest"]),
    "complete but missing results": (lambda r: r["results"].pop(), ["/complete", "no result"]),
    "a wrong selected count": (_set("run/selected", 99), ["/run/selected"]),
}


@pytest.mark.parametrize("case", sorted(MIXTURES))
def test_a_mixture_or_a_lie_is_refused_naming_the_file_and_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report], case: str) -> None:
    # Before: every one of these merged (exit 0 or 1), or raised a traceback.
    change, words = MIXTURES[case]
    _refused(tmp_path, capsys, _mutated(shards, 1, change), "shard1.json", *words)


def test_the_same_shard_twice_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    _refused(tmp_path, capsys, [shards[0], shards[1], shards[1], shards[2]], "shard2.json", "shard 1/3 is also",
             "shard1.json")


def test_the_same_scenario_twice_in_one_report_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    twice = _mutated(shards, 1, lambda r: r["results"].append(copy.deepcopy(r["results"][0])))
    for r in twice:
        r["complete"] = r["run"]["complete"] = True
    _refused(tmp_path, capsys, twice, "shard1.json", "earlier in this report")


def test_two_whole_runs_are_not_shards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    whole = copy.deepcopy(shards[0])
    whole["shard"] = None
    _refused(tmp_path, capsys, [whole, whole], "shard1.json", "/shard", "two whole runs")


def test_every_count_is_recomputed_from_the_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    lying = copy.deepcopy(shards)
    lying[1]["results"][0]["status"] = "fail"
    lying[1]["summary"] = {"pass": 99}
    lying[1]["areas"] = {"CARDS": {"pass": 99}}
    code, out, _ = _merge(tmp_path, capsys, lying)
    total = lying[0]["corpus"]["count"]
    assert code == 1 and f"{total - 1} pass, 1 fail" in out
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert merged["summary"]["pass"] == total - 1 and merged["summary"]["fail"] == 1
    assert sum(area["fail"] for area in merged["areas"].values()) == 1


def test_a_huge_report_of_invented_ids_is_refused_quickly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    # Before: an 87 MB report of 3,000 invented IDs merged in 6 s.
    big = copy.deepcopy(shards[1])
    template = big["results"][0]
    big["results"] = [{**template, "id": f"invented-{i}", "stderr": "x" * 2000} for i in range(3000)]
    started = time.monotonic()
    _refused(tmp_path, capsys, [shards[0], big, shards[2]], "shard1.json", "/results/0/id", "not in the corpus")
    assert time.monotonic() - started < 20


def _deep(depth: int) -> str:
    return '{"format": "hakka-conformance-report", "version": 2, "results": ' + "[" * depth + "]" * depth + "}"


# Each: the text of shard 1 (JSON, but not a run report) and the words the refusal must hold.
MALFORMED = {
    "100,000-deep nesting": (_deep(100_000), ["nested too deeply"]),
    "a top-level array": ("[1, 2]", ["not a report"]),
    "not JSON": ("{", ["cannot read a JSON report"]),
    "results not a list": (None, ["/results"]),
    "a result not an object": (None, ["/results/0"]),
    "a result without an ID": (None, ["/results/0", "'id'"]),
    "an ID that is a number": (None, ["/results/0/id"]),
    "a result without a status": (None, ["/results/0", "'status'"]),
    "a result without an area": (None, ["/results/0", "'area'"]),
    "engine not an object": (None, ["/engine"]),
    "shard a string": (None, ["/shard"]),
    "no corpus": (None, ["'corpus'"]),
    "duration a string": (None, ["/duration"]),
    "duration NaN": (None, ["NaN"]),
    "summary a list": (None, ["/summary"]),
    "no version": (None, ["/version", "None"]),
}
BREAK: dict[str, Callable[[Report], None]] = {
    "results not a list": _set("results", {"a": 1}),
    "a result not an object": _set("results/0", "pass"),
    "a result without an ID": lambda r: r["results"][0].pop("id"),
    "an ID that is a number": _set("results/0/id", 7),
    "a result without a status": lambda r: r["results"][0].pop("status"),
    "a result without an area": lambda r: r["results"][0].pop("area"),
    "engine not an object": _set("engine", "reference"),
    "shard a string": _set("shard", "1/3"),
    "no corpus": lambda r: r.pop("corpus"),
    "duration a string": _set("duration", "fast"),
    "summary a list": _set("summary", []),
    "no version": lambda r: r.pop("version"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_report_is_refused_cleanly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report], case: str) -> None:
    # Before: KeyError, TypeError, ValueError or RecursionError tracebacks.
    text, words = MALFORMED[case]
    broken = _mutated(shards, 1, BREAK.get(case, lambda r: None))
    raw = {1: text} if text is not None else {}
    if case == "duration NaN":
        raw = {1: json.dumps(shards[1]).replace('"duration": 0.5', '"duration": NaN')}
    _refused(tmp_path, capsys, broken, "shard1.json", *words, raw=raw)


def test_a_run_and_its_merge_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [tmp_path / f"s{i}.json" for i in range(2)]
    for i, path in enumerate(paths):
        assert main(["run", "--area", "CARDS", "--shard", f"{i}/2", "-q", "--json", str(path)]) == 0
    capsys.readouterr()
    report = json.loads(paths[0].read_text())
    jsonschema.validate(report, SCHEMA)
    assert report["shard"] == {"index": 0, "count": 2} and report["kind"] == "run" and report["complete"]
    total = report["corpus"]["count"]
    assert report["corpus"]["filters"]["areas"] == ["CARDS"] and total == len(report["corpus"]["ids"]) > 1
    assert report["engine"]["name"] == "hakka-reference" and report["engine"]["protocol"] == PROTOCOL_VERSION
    assert main(["merge", *map(str, paths)]) == 0
    assert f"{total} scenario(s) from 2 report(s): {total} pass" in capsys.readouterr().out
