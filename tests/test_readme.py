"""The README's Python example and quick start stay true."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

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
