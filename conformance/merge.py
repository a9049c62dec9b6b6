"""``hakka-conformance merge``: one report from the reports of a run's shards (or a fuzz campaign's).

A run report is trusted for nothing it can be checked on. Each input is read
with bounds (size, nesting), validated against ``spec/schema/report/run.schema.json``
(so an unknown status such as ``"FAILED"``, a missing field or a wrong type is
refused, naming the file and the field), and then checked against the others:
one engine (spec, name, version, protocol, options), one report version, one
runner protocol, one corpus (the digest of the selected IDs and the filters),
shards ``I/N`` each present once, every result ID in its shard of the corpus
and no ID twice, and a ``complete`` report holding its whole shard. Every count
is recomputed from the results. A partial run (a shard missing or interrupted)
merges only with ``--allow-incomplete``, and the merged report then says so
(``complete: false`` and ``merged``). Refusals are bad input: exit 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import jsonschema

from .errors import InputError
from .loader import area_sort_key, ids_digest
from .paths import FileTooLarge, NotAFile, default_spec_dir, make_own_folder, read_regular_file
from .results import BAD_STATUSES, STATUSES
from .yamlsource import pointer_of

MAX_REPORT_BYTES = 64 * 1024 * 1024
"""Largest report file merge reads: 64 MiB. A run of the whole corpus, every scenario failing with its
transcript, writes about 2 MB; a fuzz report about 160 bytes a hand, so a shard of 400,000 hands fits."""
RUN_FORMAT, FUZZ_FORMAT = "hakka-conformance-report", "hakka-fuzz-report"
READ_VERSIONS = (2,)
"""Run report versions merge reads; version 1 reports do not say which shard or corpus they are."""
ENGINE_FIELDS = ("spec", "name", "version", "protocol", "options", "configurable")


def add_merge_parser(sub: Any) -> argparse.ArgumentParser:
    merge: argparse.ArgumentParser = sub.add_parser(
        "merge", help="merge the JSON reports of shards (run --json, or fuzz --report) into one",
        description="Merge the JSON reports written by the shards of one run (`run --shard I/N --json F`) "
                    "or of one fuzz campaign (`fuzz --shard I/N --report F`) into one report. Every input is "
                    "validated (spec/schema/report/); reports of different engines, options, protocols or "
                    "corpora, missing or repeated shards are refused (exit 2).")
    merge.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    merge.add_argument("--out", "-o", type=Path, default=None, metavar="FILE", help="write the merged report here")
    merge.add_argument("--allow-incomplete", action="store_true",
                       help="merge even if a shard is missing or was interrupted; the merged report says so "
                            "(complete: false) and the exit status is 1")
    return merge


def load_report(path: Path) -> dict[str, Any]:
    """The JSON object of a report file; bad input (unreadable, not a regular file, too large or deep, a key
    twice, not a report) is refused. At most :data:`MAX_REPORT_BYTES` are read, and a FIFO or a device
    is refused without being read (it could block or never end)."""
    try:
        raw = read_regular_file(path, MAX_REPORT_BYTES)
    except NotAFile as exc:
        raise InputError(f"{path}: not a report file: it is {exc.strerror}") from None
    except FileTooLarge:
        raise InputError(f"{path}: larger than a report merge reads ({MAX_REPORT_BYTES // (1024 * 1024)} MiB): "
                         "not read") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read a JSON report: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_not_a_number, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise InputError(f"{path}: not a report: JSON nested too deeply") from None
    except ValueError as exc:
        raise InputError(f"{path}: cannot read a JSON report: {exc}") from None
    if not isinstance(data, dict) or data.get("format") not in (RUN_FORMAT, FUZZ_FORMAT):
        raise InputError(f"{path}: not a report of hakka-conformance run --json or fuzz --report "
                         "(/format is neither hakka-conformance-report nor hakka-fuzz-report)")
    return data


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: a key twice (``"complete": false, … "complete": true``)
    would let the last one win unseen."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise ValueError(f"the key {key!r} is given twice in one object")
            seen.add(key)
    return data


def _not_a_number(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number (a report holds finite numbers only)")


def run_validator(spec_dir: Path | None = None) -> jsonschema.protocols.Validator:
    path = (spec_dir or default_spec_dir()) / "schema" / "report" / "run.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def check_run_report(data: dict[str, Any], name: str, validator: jsonschema.protocols.Validator) -> None:
    """Refuse a run report of an unknown version or that breaks the schema, naming the field."""
    if data.get("version") not in READ_VERSIONS:
        raise InputError(f"{name}: /version: report version {data.get('version')!r} is not one merge reads "
                         f"({', '.join(map(str, READ_VERSIONS))}); re-run with this hakka-conformance")
    try:
        errors = sorted(validator.iter_errors(data), key=jsonschema.exceptions.relevance)
    except RecursionError:
        raise InputError(f"{name}: not a run report: JSON nested too deeply") from None
    if errors:
        error = jsonschema.exceptions.best_match(errors) or errors[0]
        where = pointer_of(list(error.absolute_path)) or "/"
        message = str(error.message)
        message = message if len(message) <= 200 else message[:200] + "…"
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        raise InputError(f"{name}: {where}: {message}{more} (spec/schema/report/run.schema.json)")
    corpus = data["corpus"]
    if ids_digest(corpus["ids"]) != corpus["digest"] or corpus["count"] != len(corpus["ids"]):
        raise InputError(f"{name}: /corpus: the digest or count does not match the IDs listed")


def _same(reports: Sequence[tuple[str, dict[str, Any]]], field: str, get: Any) -> None:
    first_name, first = reports[0]
    for name, report in reports[1:]:
        if get(report) != get(first):
            raise InputError(f"{name}: {field}: {json.dumps(get(report))} here, {json.dumps(get(first))} in "
                             f"{first_name}: reports of different runs cannot be merged")


def _same_corpus_version(reports: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """One corpus release (conformance/corpus.py): shards of two versions are never mixed."""
    first_name, first = reports[0]
    for name, report in reports[1:]:
        if report["corpus"].get("version") != first["corpus"].get("version"):
            raise InputError(f"{name}: /corpus/version: corpus {report['corpus'].get('version') or '(none recorded)'} "
                             f"here, {first['corpus'].get('version') or '(none recorded)'} in {first_name}: "
                             "reports of different corpus versions cannot be merged; re-run on one corpus")


def _shard_ids(report: dict[str, Any]) -> list[str]:
    ids: list[str] = report["corpus"]["ids"]
    shard = report["shard"]
    return ids if shard is None else ids[shard["index"]::shard["count"]]


def _check_results(name: str, report: dict[str, Any], seen: dict[str, str]) -> None:
    """Every result of the report's shard of the corpus, each once; all of them when it says complete."""
    allowed = set(_shard_ids(report))
    for i, result in enumerate(report["results"]):
        sid = result["id"]
        if sid not in allowed:
            where = "the corpus" if sid not in report["corpus"]["ids"] else "this report's shard of the corpus"
            raise InputError(f"{name}: /results/{i}/id: {sid!r} is not in {where}")
        if sid in seen:
            also = "earlier in this report" if seen[sid] == name else f"also in {seen[sid]}"
            raise InputError(f"{name}: /results/{i}/id: scenario {sid!r} is {also} (overlapping shards?)")
        seen[sid] = name
    if report["run"]["selected"] != len(allowed):
        raise InputError(f"{name}: /run/selected: {report['run']['selected']}, but its shard of the corpus "
                         f"has {len(allowed)} scenario(s)")
    if report["complete"] != report["run"]["complete"]:
        raise InputError(f"{name}: /complete and /run/complete disagree")
    missing = len(allowed) - len(report["results"])
    if report["complete"] and missing:
        raise InputError(f"{name}: /complete: true, but {missing} scenario(s) of its shard have no result")


def _shards(reports: Sequence[tuple[str, dict[str, Any]]]) -> tuple[int | None, list[int]]:
    """The shard count and the missing indices; refuses mixtures and repeats."""
    shards = [(name, r["shard"]) for name, r in reports]
    if all(s is None for _, s in shards):
        if len(shards) > 1:
            raise InputError(f"{shards[1][0]}: /shard: null here and in {shards[0][0]}: two whole runs, "
                             "not shards of one")
        return None, []
    for name, shard in shards:
        if shard is None:
            raise InputError(f"{name}: /shard: null (a whole run) among shards")
        if shard["index"] >= shard["count"]:
            raise InputError(f"{name}: /shard: index {shard['index']} is not below count {shard['count']}")
    _same(reports, "/shard/count", lambda r: r["shard"]["count"])
    count = shards[0][1]["count"]
    owner: dict[int, str] = {}
    for name, shard in shards:
        if shard["index"] in owner:
            raise InputError(f"{name}: /shard: shard {shard['index']}/{count} is also {owner[shard['index']]}")
        owner[shard["index"]] = name
    return count, [i for i in range(count) if i not in owner]


def tally(items: Sequence[dict[str, Any]]) -> dict[str, int]:
    return {str(s): sum(1 for r in items if r["status"] == s) for s in STATUSES}


def merge_run_reports(reports: Sequence[dict[str, Any]], names: Sequence[str],
                      allow_incomplete: bool = False) -> dict[str, Any]:
    """One run report from the validated reports of its shards: results joined, every count recomputed."""
    pairs = list(zip(names, reports, strict=True))
    _same(pairs, "/engine", lambda r: {k: r["engine"].get(k) for k in ENGINE_FIELDS})
    _same(pairs, "/protocol", lambda r: r["protocol"])
    _same_corpus_version(pairs)
    _same(pairs, "/corpus", lambda r: {k: r["corpus"][k] for k in ("digest", "filters")})
    count, missing = _shards(pairs)
    seen: dict[str, str] = {}
    for name, report in pairs:
        _check_results(name, report, seen)
    incomplete = [(r["shard"] or {"index": 0})["index"] for r in reports if not r["complete"]]
    if (missing or incomplete) and not allow_incomplete:
        parts = [f"shard(s) {', '.join(f'{i}/{count}' for i in missing)} missing"] if missing else []
        parts += [f"{name} is incomplete (/complete: false, interrupted by "
                  f"{report['run']['interrupted'] or 'a stop'})" for name, report in pairs if not report["complete"]]
        raise InputError("; ".join(parts) + ": merge them only with --allow-incomplete")
    order = {sid: i for i, sid in enumerate(reports[0]["corpus"]["ids"])}
    results = sorted((r for report in reports for r in report["results"]), key=lambda r: order[r["id"]])
    complete = not missing and not incomplete
    merged = dict(reports[0])
    merged.update({
        "shard": None,
        "complete": complete,
        "duration": round(max(float(r["duration"]) for r in reports), 3),
        "summary": tally(results),
        "areas": {a: tally([r for r in results if r["area"] == a])
                  for a in sorted({r["area"] for r in results}, key=area_sort_key)},
        "results": results,
        "run": {"complete": complete, "selected": len(order),
                "interrupted": next((r["run"]["interrupted"] for r in reports if r["run"]["interrupted"]), None)},
        "merged": {"from": list(names), "shards": count, "missing_shards": missing,
                   "incomplete_shards": sorted(incomplete), "allow_incomplete": allow_incomplete},
    })
    return merged


def cmd_merge(args: argparse.Namespace, out: TextIO) -> int:
    names = [str(p) for p in args.reports]
    reports = [load_report(p) for p in args.reports]
    kinds = {r["format"] for r in reports}
    if len(kinds) > 1:
        raise InputError("cannot merge run reports with fuzz reports")
    if kinds == {FUZZ_FORMAT}:
        return _merge_fuzz(args, reports, out)
    validator = run_validator()
    for report, name in zip(reports, names, strict=True):
        check_run_report(report, name, validator)
    merged = merge_run_reports(reports, names, getattr(args, "allow_incomplete", False))
    summary = merged["summary"]
    line = (f"{len(merged['results'])} scenario(s) from {len(reports)} report(s): "
            + ", ".join(f"{n} {s}" for s, n in summary.items() if n))
    if not merged["complete"]:
        info = merged["merged"]
        gaps = [f"shard(s) {', '.join(map(str, info['missing_shards']))} missing"] if info["missing_shards"] else []
        gaps += [f"shard(s) {', '.join(map(str, info['incomplete_shards']))} incomplete"] \
            if info["incomplete_shards"] else []
        line += f"\nINCOMPLETE (merged with --allow-incomplete): {'; '.join(gaps)}; " \
                f"{len(merged['results'])} of {merged['run']['selected']} scenario(s) have a result"
    out.write(line + "\n")
    _write(args.out, merged)
    bad = any(summary.get(str(s)) for s in BAD_STATUSES)
    return 1 if bad or not merged["complete"] else 0


def _merge_fuzz(args: argparse.Namespace, reports: list[dict[str, Any]], out: TextIO) -> int:
    """Fuzz shards: validated and joined by conformance/fuzz/merge.py (spec/schema/report/fuzz.schema.json)."""
    from .fuzz.merge import merge_command

    merged, text, status = merge_command(reports, [str(p) for p in args.reports],
                                         getattr(args, "allow_incomplete", False))
    out.write(text + "\n")
    _write(args.out, merged)
    return status


def _write(path: Path | None, merged: dict[str, Any]) -> None:
    if path is None:
        return
    try:
        make_own_folder(path)
        path.write_text(json.dumps(merged, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--out {path}: cannot write the merged report: {exc.strerror or exc}") from None
