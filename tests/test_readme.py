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
from conformance.loader import Scenario
from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
from tools import readme_numbers

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
    return readme_numbers.load_corpus()


def _stale(new: str) -> str:
    return (f"README.md's numbers are not the corpus's: run `{readme_numbers.COMMAND}` to rewrite them\n"
            + readme_numbers.diff(README.read_text(encoding="utf-8"), new))


def test_readme_numbers_are_those_of_the_corpus() -> None:
    """The total, the kinds, the hands and games, the vectors and the folder list (tools/readme_numbers.py)."""
    text = README.read_text(encoding="utf-8")
    new = readme_numbers.render(text, _corpus())
    assert new == text, _stale(new)


def test_a_scenario_added_in_a_new_folder_changes_the_numbers(tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios"
    shutil.copytree(DEFAULT_SCENARIOS_DIR, scenarios)
    (scenarios / "mine").mkdir()
    (scenarios / "mine" / "single.yaml").write_text(ADDED, encoding="utf-8")
    corpus = readme_numbers.load_corpus(scenarios)
    text = README.read_text(encoding="utf-8")
    new = readme_numbers.render(text, corpus, scenarios_dir=scenarios)
    old_total = len(_corpus())
    assert f"**{old_total + 1} scenarios**" in new and f"**{old_total} scenarios**" in text
    kinds = Counter(s.kind for s in _corpus() if not s.generated)
    assert f"{kinds['pattern'] + 1} pattern, {kinds['trajectory']} trajectory" in " ".join(new.split())
    assert "\n- `mine/` (1)\n" in new
    # The folders' descriptions stay as the README writes them.
    assert "- `patterns/` (" in new and "): classification and comparison of Runs, Sets and Singles\n" in new
    assert readme_numbers.COMMAND in _stale(new)


def test_the_script_names_a_sentence_that_is_gone() -> None:
    text = README.read_text(encoding="utf-8").replace("regression vectors recorded", "vectors recorded")
    with pytest.raises(readme_numbers.ReadmeError, match="regression vectors"):
        readme_numbers.render(text, _corpus())


ADDED = """scenarios:
  - id: zz-readme-added-single
    title: A Gon Single is not beaten by a higher Sup Single
    clauses: [PAT-6]
    requires: {D7: same-suit}
    notes: Singles compare within the suit of the card winning the round (D7).
    pattern:
      current: "Gon5"
      challenger: "Sup8"
      expect: does-not-beat
"""


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


def test_readme_closing_line_of_the_node_example_is_true() -> None:
    counts = readme_numbers.node_counts()
    if counts is None:
        pytest.skip("node is not installed")
    text = README.read_text(encoding="utf-8")
    assert f"(`{counts}`)" in _text(), _stale(readme_numbers.render(text, _corpus(), counts))


def test_readme_says_how_long_the_tests_take_and_offers_a_quick_subset() -> None:
    text = _text()
    assert re.search(r"takes? about \d+ minutes on two idle cores", text), "say how long the whole suite takes"
    quick = re.search(r"python -m pytest -m '(not slow and not wheel)'", text)
    assert quick is not None, "offer a quick subset"
    config = (README.parent / "pyproject.toml").read_text(encoding="utf-8")
    for marker in ("slow", "wheel"):
        assert re.search(rf'^\s*"{marker}: ', config, re.M), f"the marker {marker!r} is registered in pyproject.toml"
