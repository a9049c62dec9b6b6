"""Hostile input, round 4 (issue 27 §4): merged fuzz reports, scenario files, messages and paths.

Every refusal is bad input: exit 2, one ``error:`` line per problem naming the file (and the field
or the line), never a traceback, never a hang, and bounded work.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main as cli_main
from conformance.fuzz import FuzzConfig, fuzz

from .hostile_helpers import cli_env

Report = dict[str, Any]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Report]:
    """The two shards of a 16-hand campaign of 8 lanes (2 hands a lane)."""
    folder = tmp_path_factory.mktemp("shards")
    out = []
    for i in range(2):
        path = folder / f"s{i}.json"
        fuzz(FuzzConfig.of(engine="reference", hands=16, seed=7, out=None, observe="last", shard=(i, 2),
                           report=path))
        out.append(json.loads(path.read_text(encoding="utf-8")))
    return out


def _write(tmp_path: Path, reports: list[Any], raw: dict[int, str] | None = None) -> list[str]:
    paths = []
    for i, report in enumerate(reports):
        path = tmp_path / f"r{i}.json"
        path.write_text((raw or {}).get(i) or json.dumps(report), encoding="utf-8")
        paths.append(str(path))
    return paths


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = cli_main(["merge", *argv])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("error: ") and "Traceback" not in err
    return err


# ------------------------------------------------------------ §4.1 merge of fuzz reports


def test_the_two_shards_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    assert cli_main(["merge", *_write(tmp_path, shards)]) == 0, capsys.readouterr().err
    assert "hands: 16 " in capsys.readouterr().out


def test_a_complete_shard_missing_a_lane_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    shards: list[Report]) -> None:
    reports = copy.deepcopy(shards)
    lost = reports[1]["lane_results"].pop(2)
    err = _refused(capsys, *_write(tmp_path, reports))
    assert "r1.json: /lane_results" in err and f"lane {lost['lane']} " in err and "no result" in err


@pytest.mark.parametrize("keep", [0, 1])
def test_a_complete_shard_missing_hands_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   shards: list[Report], keep: int) -> None:
    reports = copy.deepcopy(shards)
    lane = reports[0]["lane_results"][1]
    lacking = lane["hands"][keep][0]
    del lane["hands"][keep]  # 15 of the campaign's 16 hands
    err = _refused(capsys, *_write(tmp_path, reports))
    assert "r0.json: /lane_results" in err and f"lacks hand {lacking} " in err


def test_an_incomplete_shard_missing_hands_merges_only_as_incomplete(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shards: list[Report]) -> None:
    reports = copy.deepcopy(shards)
    reports[0]["complete"] = False
    reports[0]["interrupted"] = "SIGINT"
    del reports[0]["lane_results"][1]["hands"][1]
    out = tmp_path / "m.json"
    assert cli_main(["merge", *_write(tmp_path, reports), "--allow-incomplete", "--out", str(out)]) == 1
    assert json.loads(out.read_text(encoding="utf-8"))["complete"] is False
    assert "INCOMPLETE" in capsys.readouterr().out


def test_a_key_given_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      shards: list[Report]) -> None:
    text = json.dumps(shards[1])
    assert text.startswith('{"format"')
    raw = '{"complete": false, ' + text[1:]  # and "complete": true further on: the last would win
    err = _refused(capsys, *_write(tmp_path, shards, raw={1: raw}))
    assert "r1.json" in err and "'complete' is given twice" in err


def test_a_key_given_twice_in_a_run_report_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.json"
    path.write_text('{"format": "hakka-conformance-report", "format": "hakka-fuzz-report"}', encoding="utf-8")
    assert "'format' is given twice" in _refused(capsys, str(path))


def _merge_in_a_process(*paths: str) -> subprocess.CompletedProcess[str]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "merge", *paths], capture_output=True,
                          text=True, timeout=30, env=cli_env(), cwd=ROOT)
    assert time.monotonic() - started < 30
    return done


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path, shards: list[Report]) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    paths = _write(tmp_path, shards[:1])
    for bad, words in ((fifo, "a FIFO (named pipe)"), (Path("/dev/zero"), "a character device")):
        done = _merge_in_a_process(paths[0], str(bad))
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert f"{bad}: not a report file: it is {words}" in done.stderr


def test_a_report_beyond_the_bound_is_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.merge import MAX_REPORT_BYTES

    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(MAX_REPORT_BYTES + 1)  # sparse: nothing is written, and nothing may be read
    started = time.monotonic()
    assert "larger than a report merge reads (64 MiB)" in _refused(capsys, str(big))
    assert time.monotonic() - started < 2
    assert MAX_REPORT_BYTES == 64 * 1024 * 1024


# ------------------------------------------------------------ §4.2 hostile scenario files


def _check(capsys: pytest.CaptureFixture[str], *paths: Path) -> list[str]:
    argv = ["check"]
    for path in paths:
        argv += ["--scenarios", str(path)]
    status = cli_main(argv)
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err, err
    lines = err.splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), err
    return lines


def test_an_integer_of_5000_digits_is_a_problem_at_its_line(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.yaml"
    path.write_text("scenarios:\n  - id: long-number\n    dealer: " + "9" * 5000 + "\n", encoding="utf-8")
    (line,) = _check(capsys, path)
    assert f"{path}:3: a number of 5,000 characters: longer than the 4,300 digits" in line
    assert "/scenarios/0/dealer" in line


def test_a_looping_a_dangling_symlink_a_fifo_and_a_device_are_named(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    loop, dangling, fifo = tmp_path / "loop.yaml", tmp_path / "dangling.yaml", tmp_path / "fifo.yaml"
    loop.symlink_to("loop.yaml")
    dangling.symlink_to("nowhere.yaml")
    os.mkfifo(fifo)
    lines = _check(capsys, loop, dangling, fifo, Path("/dev/null"))
    assert lines == [
        f"error: {loop}: a symbolic link that loops (to loop.yaml, which leads back to itself)",
        f"error: {dangling}: a dangling symbolic link (to nowhere.yaml, which does not exist)",
        f"error: {fifo}: a FIFO (named pipe), not a file",
        "error: /dev/null: a character device, not a file",
    ]


def test_a_fifo_given_to_the_yaml_reader_is_refused_unread(tmp_path: Path) -> None:
    from conformance.yamlsource import load_yaml

    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    doc, problems = load_yaml(fifo)  # would block for ever on a plain open()
    assert doc is None and [p.message for p in problems] == ["not a scenario file: it is a FIFO (named pipe), not a file"]


def test_problems_are_bounded_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.loader import MAX_PROBLEMS_PER_FILE, MAX_SCENARIOS_PER_FILE

    many = tmp_path / "many.yaml"
    many.write_text("scenarios:\n" + "- {x: 1}\n" * 1999, encoding="utf-8")  # 18 KB: each entry 5 problems
    started = time.monotonic()
    lines = _check(capsys, many)
    assert time.monotonic() - started < 20
    assert len(lines) == MAX_PROBLEMS_PER_FILE + 1 == 11
    assert lines[-1] == (f"error: {many}: and 9,985 more problem(s) in this file (the first 10 are shown: fix them "
                         "and check again)")
    assert MAX_SCENARIOS_PER_FILE == 2000


def test_a_file_of_20000_entries_is_refused_before_they_are_checked(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.yaml"
    huge.write_text("scenarios:\n" + "- {x: 1}\n" * 20000, encoding="utf-8")  # 180 KB
    started = time.monotonic()
    assert _check(capsys, huge) == [f"error: {huge}:2: 20,000 scenarios in one file: a file holds at most 2,000 "
                                    "(split it into several files) (at /scenarios)"]
    assert time.monotonic() - started < 10


def test_a_file_beyond_one_mib_is_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("scenarios:\n" + "#" * (1024 * 1024) + "\n", encoding="utf-8")
    assert _check(capsys, big) == [f"error: {big}: file larger than 1 MiB: not read"]


# ------------------------------------------------------------ §4.4 messages and paths


@pytest.mark.parametrize(("mode", "words"), [("crash-on-batch", "`batch`: engine exited with status 3"),
                                              ("hang-on-batch", "`batch`: ")])
def test_smoke_tries_batch_when_the_engine_declares_it(capsys: pytest.CaptureFixture[str], mode: str,
                                                       words: str) -> None:
    engine = f"cmd:{sys.executable} {Path(__file__).with_name('batch_engine.py')} {mode}"
    status = cli_main(["smoke", "--engine", engine, "--timeout", "2"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert any(line.startswith("  PROBLEM") and words in line for line in out.splitlines()), out
    assert "ready for" not in out


def test_smoke_of_the_reference_tries_every_capability(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["smoke", "--engine", "reference", "--timeout", "3"]) == 0
    out = capsys.readouterr().out
    for words in ("count with divide", "act answers its events", "batch: start and 1 step(s)",
                  "batch with playout: a hand played to its end"):
        assert f"  ok      {words}" in out, out


def test_a_report_under_a_missing_folder_creates_no_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "nonexistent" / "dir" / "r.json"
    status = cli_main(["fuzz", "--engine", "reference", "--hands", "2", "--report", str(deep)])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert f"--report {deep}: cannot be written (no folder {deep.parent.parent}" in err
    assert not (tmp_path / "nonexistent").exists()
    own = tmp_path / "own" / "r.json"  # the report's own folder, under one that exists, is made
    assert cli_main(["fuzz", "--engine", "reference", "--hands", "2", "--report", str(own)]) == 0
    assert json.loads(own.read_text(encoding="utf-8"))["hands"] == 2
