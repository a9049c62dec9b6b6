"""The docstring examples of hakka_rl run (tests/test_doctests.py walks the engine and the harness only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("numpy")

MODULES = ["hakka_rl", "hakka_rl.actions", "hakka_rl.encoding"]


@pytest.mark.parametrize("name", [*MODULES, "hakka_rl.pettingzoo_env"])
def test_module_doctests(name: str) -> None:
    if name == "hakka_rl.pettingzoo_env":
        pytest.importorskip("pettingzoo")
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
