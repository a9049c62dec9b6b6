"""The rulebook built in each of its languages, once per session, for the tests of tests/rulebook.

``book(lang)`` is the HTML folder of that language, built with ``-W`` into a temporary
folder the first time a test asks for it (about a minute per language). Where the CI has
just built every language (``python -m docs.build_all -W``, the gate step of .ci/run), it
sets ``HAKKA_DOCS_HTML=docs/_build/html`` and the tests read those builds instead of
building the book a second time. A build says so on the terminal when it starts (a build prints
nothing else for a minute or more); these tests are marked ``rulebook`` and ``slow``
(tests/conftest.py), so the quick subset never builds the book.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.specdata import book_languages

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LANGUAGES = tuple(lang.code for lang in book_languages())  # spec/languages.yaml, the one table

Book = Callable[[str], Path]


def build_book(lang: str, out: Path) -> Path:
    doctrees = out.parent / "_doctrees" / lang
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-D", f"language={lang}",
         # Every language may be asked for, so the switcher offers all (as `python -m docs.build_all`'s does).
         "-D", f"hakka_languages={','.join(LANGUAGES)}",
         "-d", str(doctrees), str(DOCS), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
    )
    assert proc.returncode == 0, f"sphinx-build -W ({lang}) failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}"
    return out


def announce(config: pytest.Config, line: str) -> None:
    """A line on pytest's terminal now, past the output capture (a build is long and silent)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None:
        return
    if capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            reporter.write_line(line)
    else:
        reporter.write_line(line)


@pytest.fixture(scope="session")
def book(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Book:
    pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install -e '.[dev]')")
    pytest.importorskip("yaml", reason="PyYAML is not installed")
    prebuilt = os.environ.get("HAKKA_DOCS_HTML")
    # Side by side, as docs/_build/html/<lang>/, so that the language switcher's links resolve.
    root = tmp_path_factory.mktemp("html")
    built: dict[str, Path] = {}

    def get(lang: str) -> Path:
        if lang not in built:
            ready = Path(prebuilt, lang).resolve() if prebuilt else None  # a file: URI needs an absolute path
            if ready is not None and (ready / "index.html").exists():
                built[lang] = ready
            else:
                announce(pytestconfig, f"building the rulebook in {lang!r} with Sphinx for tests/rulebook "
                                       "(about a minute on idle cores; HAKKA_DOCS_HTML=docs/_build/html reuses "
                                       "the builds of `python -m docs.build_all`)")
                built[lang] = build_book(lang, root / lang)
        return built[lang]

    return get
