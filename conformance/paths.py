"""Where the runner finds ``spec/`` and the scenarios.

The runner reads the normative files of the repository: ``spec/schema/``,
``spec/clauses.yaml``, ``spec/decisions.yaml``, and the scenarios under
``conformance/scenarios/``. By default they are found next to this package (a
checkout or an editable install); ``HAKKA_SPEC_DIR`` or ``--spec DIR`` point
elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent
DEFAULT_SCENARIOS_DIR = PACKAGE_DIR / "scenarios"


def default_spec_dir() -> Path:
    env = os.environ.get("HAKKA_SPEC_DIR")
    if env:
        return Path(env)
    return REPO_DIR / "spec"


def display_path(path: Path) -> str:
    """A path relative to the current directory when it is below it, else absolute."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
