"""The exit-status table of conformance/README.md, one case per cell (issue 13, item 9).

Every case runs the real command in a subprocess: the status must be the
table's and stderr must never hold a traceback.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import pytest

from .hostile_helpers import EXAMPLES, REPO, cli_env, engine_spec, processes_with

README = REPO / "conformance" / "README.md"
COMMANDS = ("run", "list", "check", "smoke", "fuzz")
PAT = str(EXAMPLES / "patterns.yaml")
BOMB = """\
a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
"""


def table() -> dict[int, dict[str, str]]:
    """status -> command -> cell text, from the README's table."""
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| [^|]+ \|(.*)\|$", text, re.M)
    assert rows, "no exit-status table in conformance/README.md"
    return {int(status): dict(zip(COMMANDS, (c.strip() for c in cells.split("|")), strict=True)) for status, cells in rows}


def cases(tmp):
    """(command, expected status) -> list of argument lists that must give it."""
    bomb = tmp / "bomb.yaml"
    bomb.write_text(BOMB)
    hang = engine_spec("cmd", "hang", "exit-codes-table")
    return {
        ("run", 0): [["run", "--scenarios", PAT, "--id", "example-pattern-run-of-three"]],
        ("run", 1): [["run", "--engine", engine_spec("cmd", "crash", "exit-codes-table"),
                      "--scenarios", str(EXAMPLES / "calling.yaml")]],
        ("run", 2): [["run", "--timeout", value] for value in ("nan", "inf", "-inf", "1e300", "0", "-1", "soon")]
        + [["run", "--engine", "cmd:/no/such/engine"], ["run", "--engine", "cmd:no-such-engine-xyz"],
           ["run", "--engine", "nonsense"], ["run", "--json", "/proc/x/r.json"],
           ["run", "--json", str(tmp / "same"), "--junit", str(tmp / "same")], ["run", "--json", str(tmp)],
           ["run", "--scenarios", str(bomb)], ["run", "--id", "nothing-matches"]],
        ("run", 130): [("signal", signal.SIGINT, hang)],
        ("run", 143): [("signal", signal.SIGTERM, hang)],
        ("list", 0): [["list", "--id", "example-*"]],
        ("list", 2): [["list", "--scenarios", "/no/such/folder"], ["list", "--scenarios", str(bomb)],
                      ["list", "--kind", "nonsense"]],
        ("check", 0): [["check"], ["check", "--id", "example-*"]],
        ("check", 2): [["check", "--scenarios", str(bomb)], ["check", "--id", "nothing"],
                       ["check", "--spec", str(tmp / "broken-spec")]],
        ("smoke", 0): [["smoke"]],
        ("smoke", 1): [["smoke", "--engine", engine_spec("cmd", "crash", "exit-codes-table")]],
        ("smoke", 2): [["smoke", "--timeout", "nan"], ["smoke", "--engine", "cmd:/no/such/engine"],
                       ["smoke", "--engine", "nonsense"]],
        ("fuzz", 0): [["fuzz", "--engine", "reference", "--hands", "3", "--no-write"]],
        ("fuzz", 1): [["fuzz", "--engine", "python:tests.mutants.catalogue:clockwise", "--hands", "40",
                       "--no-write", "--no-shrink"]],
        ("fuzz", 2): [["fuzz", "--engine", "reference", "--hands", n] for n in ("-5", "0")]
        + [["fuzz", "--engine", "reference", "--hands", "1", "--out", "/proc/x"],
           ["fuzz", "--engine", "cmd:/no/such/engine", "--hands", "1"],
           ["fuzz", "--engine", "reference", "--timeout", "nan"]],
    }


def _broken_spec(tmp):
    import shutil
    spec = tmp / "broken-spec"
    shutil.copytree(REPO / "spec", spec)
    (spec / "schema" / "scenario.schema.json").write_text('{"$id": "x", "type": 12, "properties": {"a": {"$ref": "#/nowhere"}}}')


def run_case(case, tmp, monkeypatch) -> tuple[int, str]:
    if isinstance(case, tuple):
        _, sig, engine = case
        proc = subprocess.Popen([sys.executable, "-m", "conformance.cli", "run", "--engine", engine,
                                 "--scenarios", str(EXAMPLES / "calling.yaml"), "--timeout", "60",
                                 "--json", str(tmp / f"sig{sig}.json")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env(), cwd=REPO)
        deadline = time.monotonic() + 20
        while not processes_with("exit-codes-table") and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        return proc.returncode, err
    # In this process (fast): an exception escaping main() is the traceback the policy forbids.
    from conformance import cli

    try:
        return cli.main(case), ""
    except SystemExit as exc:
        return int(exc.code or 0), ""
    except BaseException as exc:  # noqa: BLE001
        return -1, f"Traceback: {type(exc).__name__}: {exc}"


def test_every_cell_of_the_exit_status_table_is_true(tmp_path, monkeypatch, capsys):
    _broken_spec(tmp_path)
    monkeypatch.chdir(tmp_path)  # fuzz writes nothing here (--no-write), but never into the tree
    monkeypatch.syspath_prepend(str(REPO))  # python:tests.mutants.catalogue:…
    documented = table()
    assert set(documented) == {0, 1, 2, 130, 143}
    all_cases = cases(tmp_path)
    wrong = []
    for status, cells in documented.items():
        for command, cell in cells.items():
            if cell in ("never", "stopped"):
                continue
            assert (command, status) in all_cases, f"no case for {command} exit {status}"
    for (command, status), arg_lists in all_cases.items():
        assert documented[status][command] not in ("never", ""), (command, status)
        for case in arg_lists:
            got, err = run_case(case, tmp_path, monkeypatch)
            if got != status or "Traceback" in err:
                wrong.append(f"{case}: exit {got}, expected {status}: {err.strip()[-300:]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("command", ["list", "check"])
def test_interrupting_list_or_check_is_130(command, monkeypatch, capsys):
    from conformance import cli, suite

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(suite, "load_scenarios", interrupted)  # the CLI loads through the Suite
    assert cli.main([command]) == 130
