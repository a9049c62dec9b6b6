"""Where the runner finds ``spec/`` and the scenarios.

The runner reads the normative files of the repository: ``spec/schema/``,
``spec/clauses.yaml``, ``spec/decisions.yaml``, and the scenarios under
``conformance/scenarios/``. Both travel inside the package: an installed wheel
carries ``spec/`` as the data package ``conformance._spec`` (pyproject maps it
onto the top-level folder) and the scenarios as data of ``conformance``, and
``importlib.resources`` finds them there. In a checkout or an editable install
the wheel's ``_spec`` does not exist and ``spec/`` beside the package is read.
``HAKKA_SPEC_DIR`` or ``--spec DIR`` point elsewhere.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

PACKAGE_DIR = Path(str(resources.files("conformance")))
DEFAULT_SCENARIOS_DIR = PACKAGE_DIR / "scenarios"


def packaged_spec_dir() -> Path:
    """The spec/ folder that ships with this package: the wheel's data, else the checkout's."""
    shipped = PACKAGE_DIR / "_spec"
    if (shipped / "clauses.yaml").is_file():
        return shipped
    return PACKAGE_DIR.parent / "spec"


def default_spec_dir() -> Path:
    env = os.environ.get("HAKKA_SPEC_DIR")
    if env:
        return Path(env)
    return packaged_spec_dir()


def display_path(path: Path) -> str:
    """A path relative to the current directory when it is below it, else absolute."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
