"""``hakka-conformance merge`` of fuzz reports merges nothing on trust (issue 20, item 1).

Each hostile input is refused with exit 2 and one ``error:`` line naming the file and the field, never a
traceback and never a wrong merged report; a campaign missing a shard (or holding an interrupted one) is
refused unless ``--allow-incomplete``, and the merged report then says it is incomplete.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main as cli_main
from conformance.fuzz import FuzzConfig, fuzz

Report = dict[str, Any]


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Report]:
    """The two shards of a 16-hand campaign, and (third) the whole campaign."""
    folder = tmp_path_factory.mktemp("shards")
    out = []
    for name, shard in (("s0", (0, 2)), ("s1", (1, 2)), ("whole", None)):
        path = folder / f"{name}.json"
        fuzz(FuzzConfig.of(engine="reference", hands=16, seed=7, out=None, observe="last", shard=shard,
                           report=path))
        out.append(json.loads(path.read_text(encoding="utf-8")))
    return out


def merge(tmp_path: Path, reports: list[Any], *extra: str, raw: dict[int, str] | None = None) -> list[str]:
    paths = []
    for i, report in enumerate(reports):
        path = tmp_path / f"r{i}.json"
        path.write_text((raw or {}).get(i) or json.dumps(report), encoding="utf-8")
        paths.append(str(path))
    return ["merge", *paths, *extra]


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], reports: list[Any], *extra: str,
            raw: dict[int, str] | None = None) -> str:
    status = cli_main(merge(tmp_path, reports, *extra, raw=raw))
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("error: ") and "Traceback" not in err
    return err


def test_the_shards_merge_into_the_whole_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  shards: list[Report]) -> None:
    out = tmp_path / "m.json"
    assert cli_main([*merge(tmp_path, shards[:2]), "--out", str(out)]) == 0
    merged, whole = json.loads(out.read_text(encoding="utf-8")), dict(shards[2])
    for data in (merged, whole):
        data.pop("duration")
    assert merged == whole and merged["complete"] is True and merged["shard"] is None
    assert "INCOMPLETE" not in capsys.readouterr().out


def _edit(change: Callable[[Report], None]) -> Callable[[list[Report]], list[Report]]:
    def apply(shards: list[Report]) -> list[Report]:
        reports = copy.deepcopy(shards[:2])
        change(reports[1])
        return reports
    return apply


def _lane_99(r: Report) -> None:
    r["lane_results"][0]["lane"] = 99


def _repeat_hands(r: Report) -> None:
    lane = r["lane_results"][0]
    lane["hands"] = lane["hands"] * 50  # the hand count inflated 50 times


def _foreign_hand(r: Report) -> None:
    r["lane_results"][0]["hands"][0][0] = 2  # hand 2 is lane 2's, not lane 1's


HOSTILE: dict[str, tuple[Callable[[list[Report]], list[Any]], str]] = {
    "lane 99 of 8": (_edit(_lane_99), "r1.json: /lane_results/0/lane: lane 99 of a campaign of 8 lanes"),
    "the same hands repeated": (_edit(_repeat_hands), "r1.json: /lane_results/0/hands/2: hand 1 repeated"),
    "a hand of another lane": (_edit(_foreign_hand), "r1.json: /lane_results/0/hands/0: hand 2 is not a hand of lane 1"),
    "another engine": (_edit(lambda r: r["engine"].update(spec="cmd:other")), "r1.json: /engine: not a shard of"),
    "another engine version": (_edit(lambda r: r["engine"].update(version="9.9")), "r1.json: /engine"),
    "another seed": (_edit(lambda r: r.update(seed=8)), "r1.json: /seed: not a shard of the campaign of"),
    "other options": (_edit(lambda r: r.update(options={"D7": "any-suit"})), "r1.json: /options"),
    "other side checks": (_edit(lambda r: r.update(checks=["count"])), "r1.json: /checks: not a shard of"),
    "another strategy": (_edit(lambda r: r.update(strategy="hypothesis")), "r1.json: /strategy"),
    "version 99": (_edit(lambda r: r.update(version=99)), "r1.json: /version: 2 was expected"),
    "a report of version 1": (_edit(lambda r: r.update(version=1)), "r1.json: /version"),
    "no lanes field": (_edit(lambda r: r.pop("lanes")), "r1.json: /: 'lanes' is a required property"),
    "lanes as text": (_edit(lambda r: r.update(lanes="8")), "r1.json: /lanes: '8' is not of type 'integer'"),
    "hands as a dict": (_edit(lambda r: r["lane_results"][0].update(hands={})), "r1.json: /lane_results/0/hands"),
    "a short hand entry": (_edit(lambda r: r["lane_results"][0]["hands"].__setitem__(0, [1])),
                           "r1.json: /lane_results/0/hands/0"),
    "a lane without fields": (_edit(lambda r: r["lane_results"].__setitem__(0, {"lane": 1})),
                              "r1.json: /lane_results/0"),
    "a found hand not played": (_edit(lambda r: r["lane_results"][0].update(found={
        "index": 3, "summary": "x", "where": "state", "fields": [], "trace": {"setup": {}, "steps": []},
        "choices": []})), "r1.json: /lane_results/0/found/index"),
    "a shard out of range": (_edit(lambda r: r.update(shard={"index": 5, "count": 2})), "r1.json: /shard: shard 5/2"),
    "shard lanes that are not the shard's": (_edit(lambda r: r.update(shard_lanes=[1, 3, 5])), "r1.json: /shard_lanes"),
    "the same shard twice": (lambda s: [s[0], copy.deepcopy(s[0])], "r1.json: /shard: shard 0/2 is also"),
    "a shard and the whole": (lambda s: [s[0], s[2]], "r1.json: /shard_lanes: lane 0 is also in"),
    "not an object": (lambda s: [s[0], [1, 2]], "r1.json: not a report"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_report_is_refused_naming_the_file_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               shards: list[Report], case: str) -> None:
    make, wanted = HOSTILE[case]
    err = refused(tmp_path, capsys, make(shards))
    assert wanted in err, err


def test_deep_nesting_is_refused_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     shards: list[Report]) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    err = refused(tmp_path, capsys, [shards[0], None], raw={1: deep})
    assert "r1.json" in err


def test_a_missing_shard_is_refused_unless_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   shards: list[Report]) -> None:
    err = refused(tmp_path, capsys, shards[:1])
    assert "missing lanes 1, 3, 5, 7 of 8" in err and "--allow-incomplete" in err
    out = tmp_path / "m.json"
    assert cli_main([*merge(tmp_path, shards[:1]), "--allow-incomplete", "--out", str(out)]) == 1  # said, not hidden
    assert "INCOMPLETE" in capsys.readouterr().out
    merged = json.loads(out.read_text(encoding="utf-8"))
    assert merged["complete"] is False and merged["allowed_incomplete"] is True
    assert sum(len(lane["hands"]) for lane in merged["lane_results"]) == 8  # the shard's hands, none invented


def test_an_interrupted_shard_is_refused_unless_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        shards: list[Report]) -> None:
    reports = copy.deepcopy(shards[:2])
    reports[1].update(complete=False, interrupted="SIGINT")
    reports[1]["lane_results"][0]["hands"].pop()
    reports[1]["lane_results"][0]["done"] = False
    err = refused(tmp_path, capsys, reports)
    assert "r1.json: /complete: the report is incomplete" in err
    out = tmp_path / "m.json"
    assert cli_main([*merge(tmp_path, reports), "--allow-incomplete", "--out", str(out)]) == 1
    assert json.loads(out.read_text(encoding="utf-8"))["complete"] is False
