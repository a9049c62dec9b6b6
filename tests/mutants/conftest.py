"""The ``mutation`` marker, and the repository root on ``sys.path`` so that
``tests.mutants.catalogue`` (the module the runner loads the mutant engines
from) imports under a bare ``pytest`` too."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "mutation: runs the whole scenario corpus against every mutant (about 15 s); deselect with -m 'not mutation'",
    )
