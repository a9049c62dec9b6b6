"""The package installs anywhere: a wheel carries spec/ and the corpus.

An engine project adds this suite to its own CI with ``pip install``; no
checkout of this repository is at hand there. The slow test builds the wheel,
installs it into a fresh virtual environment and runs the commands from a
folder that is not the checkout, against the reference in-process and through
the subprocess adapter. It runs in CI by default; ``-m "not wheel"`` leaves it
out of a quick local run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from setuptools import find_packages

REPO = Path(__file__).resolve().parent.parent


def test_every_python_package_is_listed_for_the_wheel() -> None:
    # pyproject lists its packages (conformance._spec is mapped onto spec/), so a
    # new subpackage must be added there or the wheel would silently lack it.
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    on_disk = set(find_packages(str(REPO), include=["reference_engine*", "conformance*"]))
    assert on_disk <= set(config["packages"]), f"add {sorted(on_disk - set(config['packages']))} to pyproject.toml"
    assert config["package-dir"] == {"conformance._spec": "spec", "hakka_play._rulebook_locale": "docs/locale"}


def test_installed_packages_never_import_tests_nor_edit_sys_path() -> None:
    # What the wheel installs must work without a checkout: no `import tests...`,
    # no reaching for the repository root through sys.path.
    offenders = []
    for package in ("reference_engine", "conformance"):
        for path in sorted((REPO / package).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if re.match(r"\s*(from|import)\s+tests\b", code) or "sys.path" in code or "import_module(\"tests" in code:
                    offenders.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.wheel
def test_wheel_installs_into_a_fresh_venv_and_runs_from_another_folder(tmp_path: Path) -> None:
    # The pure build (HAKKA_PURE, setup.py): this test is about what the wheel carries; .ci/run's
    # wheel step builds and checks the compiled one, and tests/builds tests both.
    env = {k: v for k, v in os.environ.items() if k not in ("HAKKA_SPEC_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
    env["HAKKA_PURE"] = "1"
    # Built from a copy of what the wheel is made of: setuptools leaves build/ and
    # *.egg-info behind, and a stale build/lib in the checkout would leak into the wheel.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "setup.py"):
        shutil.copy2(REPO / name, source / name)
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapped = sorted(config["package-dir"].values())  # spec/, docs/locale/: data packages of folders elsewhere
    for name in (*mapped, *sorted({package.split(".")[0] for package in config["packages"]})):  # every package listed
        shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(source), "-w", str(dist)], tmp_path, env)
    (wheel,) = dist.glob("hakka_cards-*.whl")

    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    bin_dir = target / ("Scripts" if os.name == "nt" else "bin")
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], tmp_path, env)

    elsewhere = tmp_path / "an-engine-project"
    elsewhere.mkdir()
    cli = str(bin_dir / "hakka-conformance")
    listed = _run([cli, "list"], elsewhere, env)
    count = int(listed.strip().splitlines()[-1].split()[0])
    assert count > 100, listed[-500:]
    assert "scenario(s) in" in _run([cli, "check"], elsewhere, env)
    for engine in ("reference", "reference-subprocess"):
        out = _run([cli, "run", "--quiet", "--engine", engine], elsewhere, env)
        assert f"{count} passed, 0 failed" in out, out[-2000:]
    # The scenarios, schemas and rules came from the installed package, not this checkout.
    location = _run([str(bin_dir / "python"), "-c",
                     "from conformance.paths import default_spec_dir, DEFAULT_SCENARIOS_DIR as s; "
                     "print(default_spec_dir()); print(s)"], elsewhere, env)
    for line in location.split():
        assert Path(line).is_relative_to(target), location

    # The table is translated from the wheel alone: its own catalogs and the rulebook's, which translate
    # the clause statements a refusal shows (issue 28 §4). Babel reads them: the [play] extra's reader.
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "Babel>=2.12"], tmp_path, env)
    shown = _run([str(bin_dir / "python"), "-c", ARABIC_TABLE], elsewhere, env)
    direction, catalog_path, refused, statement_lang, statement_text, locale_dir = shown.splitlines()
    assert direction == "rtl", shown
    assert Path(catalog_path).is_relative_to(target) and Path(locale_dir).is_relative_to(target), shown
    assert _arabic(refused) and refused != "a message must be a JSON object", shown
    assert statement_lang == "ar" and _arabic(statement_text), shown


ARABIC_TABLE = """
from hakka_play.i18n import LANGUAGES, Msg, RULEBOOK_LOCALE, po_path, statement
from conformance.rulebook import Rulebook
print(LANGUAGES["ar"].dir)
print(po_path("ar"))
print(Msg("a message must be a JSON object").render("ar"))
shown = statement(Rulebook.load().clauses, "PLAY-1", "ar")
print(shown["lang"])
print(shown["text"])
print(RULEBOOK_LOCALE)
"""


def _arabic(text: str) -> bool:
    """Mostly Arabic letters (U+0600-U+06FF) among its letters."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum("\u0600" <= c <= "\u06ff" for c in letters) > len(letters) / 2
