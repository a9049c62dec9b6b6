"""Both builds of the engine from this checkout, side by side, for the benchmarks (issue 17).

The pure build is the checkout itself; the compiled build is ``setup.py``'s
mypyc build put in a folder under ``build/hakka-builds/`` (named by a hash of
the engine's sources, so an edit rebuilds it and an unchanged tree reuses it),
never beside the sources. Each benchmark runs each build in its own
subprocess, with ``PYTHONPATH`` pointing at that build:

    python benchmarks/builds.py                 # build (or reuse) the compiled tree, print its folder
    python benchmarks/builds.py --check         # and say which build each PYTHONPATH loads
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUILDS = ROOT / "build" / "hakka-builds"


def _sources_hash(root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for path in sorted([*(root / "reference_engine").rglob("*.py"), root / "setup.py", root / "pyproject.toml"]):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_tree(quiet: bool = True, root: Path = ROOT) -> Path:
    """The folder of the compiled build of the engine of ``root`` (this checkout; built on first use)."""
    target = BUILDS / f"compiled-{_sources_hash(root)}"
    if (target / "reference_engine").is_dir():
        _engine_only(target)
        return target
    temp = BUILDS / "temp"
    command = [sys.executable, str(root / "setup.py"), "-q", "build_py", "--build-lib", str(target),
               "build_ext", "--build-lib", str(target), "--build-temp", str(temp)]
    env = {**os.environ, "HAKKA_PURE": ""}
    proc = subprocess.run(command, cwd=root, env=env, capture_output=quiet, text=True)
    if proc.returncode != 0 or not list((target / "reference_engine").glob("*.so")):
        raise SystemExit(f"the compiled build failed (exit {proc.returncode}):\n{proc.stdout or ''}{proc.stderr or ''}")
    _engine_only(target)
    return target


def _engine_only(target: Path) -> None:
    """Leave only the engine in a build folder: build_py copies every package (the harness, the table, the
    learning environments), and the folder is named by the engine's sources alone, so a copy of the harness
    there would stay as it was when built and be measured instead of the checkout's."""
    for path in target.iterdir():
        if path.is_dir() and path.name != "reference_engine":
            shutil.rmtree(path)


def pure_tree() -> Path:
    """The folder of the pure build: the checkout."""
    return ROOT


def main_pure_tree(ref: str = "main") -> Path | None:
    """The pure engine of ``ref`` (git), unpacked under ``build/hakka-builds/``: today's pure build, to pair
    this checkout's pure build with (the pure build must not get slower). ``None`` outside a git checkout."""
    try:
        sha = subprocess.run(["git", "rev-parse", ref], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    target = BUILDS / f"{ref}-pure-{sha[:12]}"
    if not (target / "reference_engine").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "reference_engine"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def main_trees(ref: str = "main") -> tuple[Path, Path] | None:
    """Both builds of ``ref`` (git) whole, the harness with its engine, under ``build/hakka-builds/``: the pure
    tree (``git archive``) and a copy of it whose engine is its compiled build; to measure a change of the harness
    and the engine together, before and after. ``None`` outside a git checkout."""
    try:
        sha = subprocess.run(["git", "rev-parse", ref], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    pure, compiled = BUILDS / f"{ref}-tree-{sha[:12]}", BUILDS / f"{ref}-compiled-tree-{sha[:12]}"
    if not (pure / "reference_engine").is_dir():
        pure.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(pure)], input=archive.stdout, check=True)
    if not list(compiled.glob("*__mypyc*")):
        engine = compiled_tree(root=pure)
        shutil.rmtree(compiled, ignore_errors=True)
        shutil.copytree(pure, compiled, ignore=shutil.ignore_patterns("reference_engine"))
        for path in engine.iterdir():  # the engine and mypyc's shared library beside it
            (shutil.copytree if path.is_dir() else shutil.copy2)(path, compiled / path.name)
    return pure, compiled


def build_env(tree: Path) -> dict[str, str]:
    """The environment that makes a subprocess import the engine of ``tree``."""
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}


def run_in(tree: Path, argv: list[str], timeout: float | None = None) -> str:
    """Run ``python argv...`` with ``tree``'s engine; its stdout (a failure raises SystemExit with stderr)."""
    proc = subprocess.run([sys.executable, *argv], cwd=tree, env=build_env(tree), capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed in {tree}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def measure_json(tree: Path, argv: list[str]) -> dict[str, Any]:
    """Run a benchmark script in ``tree``'s build; the JSON object its last stdout line prints."""
    return dict(json.loads(run_in(tree, argv).strip().splitlines()[-1]))


def paired(argvs: dict[str, tuple[Path, list[str]]], rounds: int, key: str) -> dict[str, list[dict[str, Any]]]:
    """Run each named (tree, argv) once per round, in turn, so that a change of load hits every one alike.

    Returns every run's JSON by name; ``key`` names the figure a progress line shows.
    """
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in argvs}
    for number in range(1, rounds + 1):
        for name, (tree, argv) in argvs.items():
            results[name].append(measure_json(tree, argv))
        shown = "  ".join(f"{name} {runs[-1][key]:,.0f}" for name, runs in results.items())
        print(f"   round {number}/{rounds}: {shown}", file=sys.stderr, flush=True)
    return results


def best(runs: list[dict[str, Any]], key: str) -> float:
    """The best figure of the runs (the least disturbed by other work on the machine)."""
    return max(float(run[key]) for run in runs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="import each build and print reference_engine.COMPILED")
    args = parser.parse_args(argv)
    compiled = compiled_tree(quiet=False)
    print(compiled)
    if args.check:
        for name, tree in (("pure", pure_tree()), ("compiled", compiled)):
            out = run_in(tree, ["-c", "import reference_engine as r; print(r.COMPILED, r.__file__)"])
            print(f"{name:9} COMPILED={out.strip()}")


if __name__ == "__main__":
    main()
