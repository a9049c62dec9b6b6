"""The README's Python example and quick start stay true."""

from __future__ import annotations

import doctest
import json
import re
import shutil
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.loader import BODY_KINDS, Scenario, load_scenarios
from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
from conformance.schemas import load_schemas
from conformance.specdata import load_spec_data

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_quick_start_is_exactly_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## Quick start.*?```sh\n(.*?)```", text, re.S)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2
    assert "hakka-conformance run" in commands[0]
    assert "pytest" in commands[1]


# ---------------------------------------------------------------------------------------------
# The README's numbers, checked against the corpus, the spec and the code (issue 21, section 4).

def _text() -> str:
    """The README with every run of whitespace one space, so that a phrase may wrap anywhere."""
    return " ".join(README.read_text(encoding="utf-8").split())


@lru_cache(maxsize=1)
def _corpus() -> tuple[Scenario, ...]:
    spec_dir = default_spec_dir()
    return tuple(load_scenarios([DEFAULT_SCENARIOS_DIR], load_schemas(spec_dir / "schema"), load_spec_data(spec_dir)))


def _folder(scenario: Scenario) -> str:
    return Path(scenario.file).resolve().relative_to(DEFAULT_SCENARIOS_DIR.resolve()).parts[0]


def test_readme_counts_the_corpus_by_kind() -> None:
    text, scenarios = _text(), _corpus()
    worked = [s for s in scenarios if not s.generated]
    kinds = Counter(s.kind for s in worked)
    listed = ", ".join(f"{kinds[k]} {k}" for k in BODY_KINDS[:-1]) + f" and {kinds[BODY_KINDS[-1]]} {BODY_KINDS[-1]}"
    expected = [f"**{len(scenarios)} scenarios**", f"**{len(worked)}** of them", f"{listed} scenarios",
                f"holds {len(scenarios) - len(worked)} regression vectors"]
    ended = [s for s in worked if s.kind == "trajectory" and "end" in (s.body.get("final", {}).get("result") or {})]
    games = [s for s in worked if s.kind == "game" and s.body.get("final", {}).get("phase") == "game-over"]
    expected.append(f"{len(ended)} hands played to their end and {len(games)} complete 4-hand games")
    missing = [phrase for phrase in expected if phrase not in text]
    assert not missing, "README.md should say: " + "; ".join(missing)


def test_readme_names_every_folder_of_the_corpus_with_its_count() -> None:
    text, scenarios = _text(), _corpus()
    folders = Counter(_folder(s) for s in scenarios)
    missing = [f"`{name}/` ({n}" for name, n in sorted(folders.items()) if f"`{name}/` ({n}" not in text]
    assert not missing, "README.md's folder list should hold: " + ", ".join(missing)
    paragraph = text[text.index("By folder:"):text.index("`hakka-conformance list` prints them all")]
    cited = set(re.findall(r"`([a-z-]+)/` \(", paragraph))
    assert cited <= set(folders), f"README.md cites folders that do not exist: {sorted(cited - set(folders))}"


def test_readme_counts_the_mutants() -> None:
    from tests.mutants.catalogue import MUTANTS
    assert f"a catalogue of {len(MUTANTS)} *mutant engines*" in _text()


def test_readme_lists_every_capability() -> None:
    from reference_engine.wire import CAPABILITIES
    common = json.loads((default_spec_dir() / "schema" / "protocol" / "common.schema.json").read_text())
    in_spec = common["$defs"]["capability"]["anyOf"][0]["enum"]
    match = re.search(r"Capabilities \((.*?)\) say which requests", _text())
    assert match is not None
    listed = re.findall(r"`([a-z-]+)`", match.group(1))
    assert listed == list(in_spec), f"README.md lists {listed}; spec/schema/protocol says {in_spec}"
    assert set(listed) == set(CAPABILITIES), f"the reference engine declares {CAPABILITIES}"


def test_readme_sample_failure_is_what_the_runner_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """The 'Read a report' block, line numbers included, is the runner's output for the mutant it names."""
    raw = README.read_text(encoding="utf-8")
    block = re.search(r"```text\n(FAIL dec-d12-must-beat-round .*?)```", raw, re.S)
    assert block is not None
    code = main(["run", "--engine", "python:tests.mutants.catalogue:must_beat_may_discard",
                 "--id", "dec-d12-must-beat-round"])
    out = capsys.readouterr().out
    assert code == 1, out
    printed = out[out.index("FAIL dec-d12-must-beat-round ("):].splitlines()
    wanted = block.group(1).rstrip("\n").splitlines()
    assert printed[:len(wanted)] == wanted, "\n".join(printed[:len(wanted)])


def test_readme_closing_line_of_the_node_example_is_true(capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    example = README.parent / "docs" / "examples" / "node-engine" / "engine.js"
    main(["run", "-q", "--engine", f"cmd:node {example}"])
    closing = capsys.readouterr().out.strip().splitlines()[-1]
    # "552 scenario(s) in 0.43 s: 203 passed, 0 failed, 349 skipped (a capability, …)": the counts, as printed
    counts = closing.split(": ", 1)[1].split(" (")[0]
    assert f"(`{counts}`)" in _text(), f"README.md should quote the closing line's counts (`{counts}`): {closing}"


def test_readme_says_how_long_the_tests_take_and_offers_a_quick_subset() -> None:
    text = _text()
    assert re.search(r"takes? about \d+ minutes on two idle cores", text), "say how long the whole suite takes"
    quick = re.search(r"python -m pytest -m '(not slow and not wheel)'", text)
    assert quick is not None, "offer a quick subset"
    config = (README.parent / "pyproject.toml").read_text(encoding="utf-8")
    for marker in ("slow", "wheel"):
        assert re.search(rf'^\s*"{marker}: ', config, re.M), f"the marker {marker!r} is registered in pyproject.toml"
