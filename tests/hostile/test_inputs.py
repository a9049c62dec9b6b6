"""Hostile scenario files and report paths: refused with file, line and rule; bounded (issue 13, items 1, 3, 8, 10)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conformance import loader
from conformance.cli import main
from conformance.errors import InputError
from conformance.listeners import Listeners
from conformance.loader import load_scenarios
from conformance.report import terminal_safe
from conformance.reporters import JsonReporter, JUnitReporter
from conformance.results import Result, RunRecord, Status
from conformance.safety import check_output_paths
from conformance.schemas import load_schemas
from conformance.specdata import load_spec_data

from .hostile_helpers import HERE, REPO
from .test_exit_codes import BOMB

SPEC = REPO / "spec"


@pytest.fixture(scope="module")
def schemas():
    return load_schemas(SPEC / "schema")


@pytest.fixture(scope="module")
def spec():
    return load_spec_data(SPEC)


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems(paths, schemas, spec) -> list[str]:
    with pytest.raises(InputError) as info:
        load_scenarios(paths, schemas, spec)
    return [str(p) for p in info.value.problems]


def scenario(body: str, sid: str = "hostile-one") -> str:
    return f"""\
scenarios:
  - id: {sid}
    title: an attack
    clauses: [PLAY-4]
{textwrap.indent(textwrap.dedent(body), "    ")}"""


TRAJ = """\
trajectory:
  setup: {dealer: 0, seed: 1}
  steps:
    - {seat: 0, do: call}
"""


# ---------------------------------------------------------------- item 1: alias bombs


def test_an_alias_bomb_is_refused_at_its_line_in_bounded_time_and_memory(tmp_path):
    # Before: this 254-byte file took 8.6 s and 920 MB in `check`.
    path = write(tmp_path, BOMB, "bomb.yaml")
    figures = tmp_path / "figures.json"
    started = time.monotonic()
    done = subprocess.run([sys.executable, str(HERE / "measured_cli.py"), str(figures), "check", "--scenarios",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 10
    assert done.returncode == 2
    assert f"{path}:5: YAML aliases expand to more than" in done.stderr
    assert json.loads(figures.read_text())["maxrss_kb"] < 200 * 1024


def test_aliases_within_the_budget_still_work(tmp_path, schemas, spec):
    path = write(tmp_path, scenario("""\
        trajectory:
          setup: &s {dealer: 0, seed: 1}
          steps:
            - {seat: 0, do: call}
        """))
    assert [s.id for s in load_scenarios([path], schemas, spec)] == ["hostile-one"]


def test_a_self_referencing_alias_is_refused(tmp_path, schemas, spec):
    path = write(tmp_path, "a: &a [*a, *a]\n")
    assert any("nested too deeply" in p or "aliases expand" in p for p in problems([path], schemas, spec))


# ---------------------------------------------------------------- item 8: what check let through


def test_integers_written_as_floats_are_refused_at_check(tmp_path, schemas, spec):
    path = write(tmp_path, scenario(TRAJ.replace("dealer: 0", "dealer: 0.0")))
    [p] = problems([path], schemas, spec)
    assert f"{path}:6:" in p and "0.0 is written as a decimal number" in p and "write 0" in p
    assert "/trajectory/setup/dealer" in p


def test_count_prefix_actions_are_checked_against_the_action_grammar(tmp_path, schemas, spec):
    path = write(tmp_path, scenario("""\
        count:
          setup: {dealer: 0, seed: 1}
          prefix:
            - {seat: 0, do: call}
            - {seat: 1, do: "fly Sup3"}
          counts: [1]
        """))
    [p] = problems([path], schemas, spec)
    assert f"{path}:9:" in p and "'fly' is not a verb" in p and "/count/prefix/1/do" in p


def test_an_id_with_a_trailing_newline_is_refused_and_cannot_dodge_the_duplicate_check(tmp_path, schemas, spec):
    text = scenario(TRAJ, sid="dup-id") + "  - id: |\n      dup-id\n    title: again\n    clauses: [PLAY-4]\n" + \
        textwrap.indent(TRAJ, "    ")
    path = write(tmp_path, text)
    found = problems([path], schemas, spec)
    assert any(":9:" in p and "control character" in p and "/scenarios/1/id" in p for p in found), found


# ---------------------------------------------------------------- item 10: messages


def test_a_misspelled_key_in_a_step_is_reported_at_its_own_line_and_pointer(tmp_path, schemas, spec):
    path = write(tmp_path, scenario("""\
        trajectory:
          setup: {dealer: 0, seed: 1}
          steps:
            - seat: 0
              doo: call
        """))
    found = problems([path], schemas, spec)
    assert any(p.startswith(f"{path}:9:") and "unknown key 'doo'" in p and "(at /scenarios/0/trajectory/steps/0/doo)"
               in p for p in found), found


def test_a_misspelled_key_in_expect_is_reported_at_its_own_line_and_pointer(tmp_path, schemas, spec):
    path = write(tmp_path, scenario("""\
        trajectory:
          setup: {dealer: 0, seed: 1}
          steps:
            - seat: 0
              do: call
              expect:
                phase: playing
                to_actt: 0
        """))
    [p] = problems([path], schemas, spec)
    assert p.startswith(f"{path}:12:") and "unknown key 'to_actt' (did you mean 'to_act'?)" in p
    assert p.endswith("(at /scenarios/0/trajectory/steps/0/expect/to_actt)")


def test_a_bad_key_in_requires_is_named(tmp_path, schemas, spec):
    path = write(tmp_path, scenario("requires: {D07x: any-suit}\n" + TRAJ))
    [p] = problems([path], schemas, spec)
    assert "D07x" in p and "'defaults' was expected" not in p and "/requires/D07x" in p


def test_a_bad_byte_is_reported_with_its_line(tmp_path, schemas, spec):
    path = tmp_path / "bytes.yaml"
    path.write_bytes(scenario(TRAJ).encode() + b"    notes: caf\xe9\n")
    [p] = problems([path], schemas, spec)
    assert p.startswith(f"{path}:9:") and "not UTF-8" in p


def test_a_forbidden_character_is_reported_with_its_line(tmp_path, schemas, spec):
    path = write(tmp_path, scenario(TRAJ) + "    notes: \"a\x07b\"\n")
    [p] = problems([path], schemas, spec)
    assert p.startswith(f"{path}:9:") and "U+0007" in p


def test_control_characters_and_ansi_never_reach_the_terminal(tmp_path, capsys):
    path = write(tmp_path, scenario(TRAJ, sid='"evil\\e[2J\\rid"'))
    assert main(["check", "--scenarios", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\r" not in err and "\\x1b[2J" in err
    assert terminal_safe("a\x1b[31mb\u202ec") == "a\\x1b[31mb\\u202ec"


def test_check_honours_the_filters(capsys):
    assert main(["check", "--id", "nothing-at-all"]) == 2
    assert "no scenario matches the selection" in capsys.readouterr().err
    assert main(["check", "--id", "example-pattern-*"]) == 0
    out = capsys.readouterr().out
    assert "ok: 6 selected scenario(s)" in out


def test_discovery_is_bounded(tmp_path, monkeypatch, capsys):
    for i in range(30):
        (tmp_path / f"d{i}").mkdir()
    monkeypatch.setattr(loader, "MAX_SCAN_ENTRIES", 20)
    started = time.monotonic()
    assert main(["check", "--scenarios", str(tmp_path)]) == 2
    assert time.monotonic() - started < 5
    assert "more than 20 files and folders" in capsys.readouterr().err


# ---------------------------------------------------------------- item 3: report paths


def test_report_paths_are_checked_before_anything_runs(tmp_path):
    with pytest.raises(InputError, match="same file"):
        check_output_paths({"--json": tmp_path / "r", "--junit": tmp_path / "r"})
    with pytest.raises(InputError, match="cannot be written"):
        check_output_paths({"--json": Path("/proc/no/such/r.json"), "--junit": None})
    with pytest.raises(InputError, match="is a directory"):
        check_output_paths({"--json": tmp_path, "--junit": None})
    check_output_paths({"--json": tmp_path / "new" / "r.json", "--junit": tmp_path / "r.xml"})
    assert not (tmp_path / "r.xml").exists()  # the probe leaves nothing behind


def test_a_failed_json_write_never_drops_the_junit_report(tmp_path):
    results = [Result(id="x", status=Status.PASS, area="PLAY", file="f.yaml", line=1)]
    reporters = [JsonReporter(Path("/proc/no/such/r.json")), JUnitReporter(tmp_path / "r.xml")]
    Listeners(reporters).run_finished(RunRecord(results, "reference", None, 0.1, 1))
    failed = [r.problem for r in reporters if r.problem]
    assert len(failed) == 1 and "--json" in failed[0]
    assert "testsuite" in (tmp_path / "r.xml").read_text()


def test_white_space_in_card_text_is_taken_double_quoted_and_refused_from_a_block(tmp_path, schemas, spec):
    """A control character in card or action text is meant when written as an escape in a double-quoted string
    (the white-space scenarios, spec/PROTOCOL.md "Action text"); a `|` block's trailing newline never is."""
    quoted = write(tmp_path, scenario('''\
        trajectory:
          setup: {dealer: 0, seed: 1}
          steps:
            - {seat: 0, do: "\\tcall"}
            - {seat: 0, reject: "play\\x1fSup1", error: malformed}
        '''), "quoted.yaml")
    [loaded] = load_scenarios([quoted], schemas, spec)
    assert loaded.body["steps"][0]["do"] == "\tcall" and loaded.body["steps"][1]["reject"] == "play\x1fSup1"
    block = write(tmp_path, scenario('''\
        trajectory:
          setup: {dealer: 0, seed: 1}
          steps:
            - seat: 0
              do: |
                call
        '''), "block.yaml")
    [p] = problems([block], schemas, spec)
    assert "control character" in p and "/trajectory/steps/0/do" in p and "double-quoted" in p
