"""The repository root on ``sys.path``, so that ``tests.fuzz.fakes`` and
``tests.mutants.catalogue`` import under a bare ``pytest`` too."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
