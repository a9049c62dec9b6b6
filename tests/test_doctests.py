"""Every docstring example of the installed packages runs (issue 10: the module doctests were never run)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import conformance
import reference_engine

MODULES = sorted(
    info.name
    for package in (reference_engine, conformance)
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:  # hakka_play.server and .cli need the `play` extra
        if name.startswith("hakka_play.") and exc.name in ("starlette", "uvicorn"):
            pytest.skip(f"{name} needs the `play` extra ({exc.name}): pip install -e '.[play]'")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
