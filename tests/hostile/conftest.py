"""Fixtures of the fault-injection suite; its helpers are in hostile_helpers.py."""

from __future__ import annotations

import pytest

from .hostile_helpers import new_marker


@pytest.fixture
def marker() -> str:
    """A unique word put on the command line of every engine process a test starts, to find survivors."""
    return new_marker()
