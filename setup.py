"""Two builds of one source: the reference engine compiled with mypyc, or pure Python.

pyproject.toml holds every piece of metadata; this file only decides whether
``reference_engine``'s modules are also compiled to C extensions (issue 17):

- compiled when mypyc (shipped with mypy, a build requirement) imports and a C
  compiler builds a probe extension against this Python's headers;
- pure otherwise, and always when ``HAKKA_PURE=1`` is set: a machine without a
  compiler (``CC`` pointing nowhere, no ``cc`` on ``PATH``) still installs a
  working engine, it only runs at pure-Python speed;
- pure for editable installs (``pip install -e .``): setuptools would put the
  extensions beside the sources, where Python imports them before the ``.py``
  files, so the code a developer edits would silently not be the code that
  runs. A developer measures the compiled build with ``benchmarks/builds.py``
  (a build in a temporary folder) or a wheel.

``reference_engine.COMPILED`` says which build is loaded. Which modules are
compiled, and why the others stay interpreted, is :data:`INTERPRETED` below.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import cast

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "reference_engine"

INTERPRETED = {
    "__init__.py": "only re-exports; the package stays importable as a folder of sources",
    "__main__.py": "`python -m reference_engine` runs it as a script, which a compiled module cannot be",
    "_mypyc.py": "its no-op `mypyc_attr` is the `else` of a TYPE_CHECKING test, which mypyc drops as unreachable",
}
"""Engine modules left interpreted, and why."""


WIRE_INTERPRETED = {
    "__init__.py": "only re-exports (and the doctests of the protocol's first steps)",
}
"""Modules of the ``wire/`` package (the protocol's side of the engine) left interpreted, and why."""


def engine_modules() -> list[str]:
    """The engine's modules to compile (paths relative to this folder).

    A glob, not a list: a new module of ``reference_engine/`` (or of its ``wire/``
    package) is compiled without an edit here; leaving one out takes a reason above.
    """
    top = [f"reference_engine/{p.name}" for p in sorted(ENGINE.glob("*.py")) if p.name not in INTERPRETED]
    wire = [f"reference_engine/wire/{p.name}" for p in sorted((ENGINE / "wire").glob("*.py"))
            if p.name not in WIRE_INTERPRETED]
    return top + wire


def _say(message: str) -> None:
    print(f"hakka-cards build: {message}", file=sys.stderr)


def _editable() -> bool:
    """Is this an editable install (PEP 660's ``editable_wheel``, or the legacy ``develop``)?"""
    return any(arg in ("editable_wheel", "develop") for arg in sys.argv[1:])


def compiler_problem() -> str | None:
    """Why no C extension can be built here, or ``None``: builds a one-function extension in a temp dir."""
    try:
        from setuptools import Distribution
        from setuptools.command.build_ext import build_ext as probe_ext
        from setuptools.extension import Extension
    except ImportError as exc:  # pragma: no cover - setuptools is the build backend
        return f"setuptools cannot build extensions ({exc})"
    with tempfile.TemporaryDirectory(prefix="hakka-cc-probe-") as tmp:
        source = Path(tmp) / "hakka_probe.c"
        source.write_text(
            "#include <Python.h>\n"
            "static struct PyModuleDef m = {PyModuleDef_HEAD_INIT, \"hakka_probe\", NULL, -1, NULL};\n"
            "PyMODINIT_FUNC PyInit_hakka_probe(void) { return PyModule_Create(&m); }\n"
        )
        dist = Distribution({"name": "hakka-probe", "ext_modules": [Extension("hakka_probe", [str(source)])]})
        command = probe_ext(dist)
        command.build_temp = str(Path(tmp) / "tmp")
        command.build_lib = str(Path(tmp) / "lib")
        command.finalize_options()
        try:
            command.run()
        except BaseException as exc:  # noqa: BLE001 - any failure (missing cc, headers, linker) means "pure"
            return f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else exc!r}"
    return None


def ext_modules() -> list[Extension]:
    """The mypyc extensions to build, or ``[]`` for the pure build (saying why on stderr)."""
    if os.environ.get("HAKKA_PURE", "") not in ("", "0"):
        _say("pure build (HAKKA_PURE is set)")
        return []
    if _editable():
        _say("pure build (editable install: the sources you edit are the code that runs)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        _say(f"pure build (mypyc is not importable: {exc})")
        return []
    problem = compiler_problem()
    if problem is not None:
        _say(f"pure build (no working C compiler: {problem})")
        return []
    _say(f"compiling {len(engine_modules())} engine modules with mypyc")
    # The configuration of pyproject.toml's [tool.mypy] applies (strict); opt level 3 is mypyc's default.
    # target_dir relative to this folder (the cwd of every build): setuptools refuses absolute source paths
    extensions = mypycify(engine_modules(), opt_level="3", target_dir="build/mypyc")
    return cast(list[Extension], extensions)  # setuptools' Extension: setuptools is imported above


def _builds_extensions() -> bool:
    """Does this run of setup.py build code (a wheel, an install, build_ext)? Metadata runs need no probe."""
    return any(arg in ("bdist_wheel", "build", "build_ext", "install", "editable_wheel", "develop")
               for arg in sys.argv[1:])


def _fresh_build_base() -> str:
    """A build folder of this run only: setuptools' build/ keeps files of earlier builds (a .so of a module
    no longer compiled, a module since moved), and a wheel packs everything in it."""
    base = tempfile.mkdtemp(prefix="hakka-cards-build-")
    atexit.register(shutil.rmtree, base, True)
    return base


if __name__ == "__main__":  # setuptools runs this file as __main__; tests/builds imports it
    setup(ext_modules=ext_modules() if _builds_extensions() else [],
          options={"build": {"build_base": _fresh_build_base()}})
