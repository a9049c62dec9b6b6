"""setup.py: which engine modules compile, and the fallback to the pure build (issue 17).

The wheels themselves are built and checked by ``.ci/run`` (both builds, and
``CC=/nonexistent``); these are the decisions, quickly.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not (ROOT / "setup.py").is_file(), reason="not a checkout (.ci/run tests wheels from a copy)")


def _setup_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hakka_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not as __main__: setup() does not run
    return module


def test_every_engine_module_is_compiled_or_says_why_not() -> None:
    setup = _setup_module()
    compiled = {Path(p).name for p in setup.engine_modules() if p.count("/") == 1}
    every = {p.name for p in (ROOT / "reference_engine").glob("*.py")}
    assert compiled | set(setup.INTERPRETED) == every
    assert not compiled & set(setup.INTERPRETED)
    assert all(len(reason) > 20 for reason in setup.INTERPRETED.values())
    assert {"cards.py", "rules.py", "patterns.py", "hand.py", "actions.py", "game.py", "events.py", "event_base.py",
            "play_events.py", "offers.py"} <= compiled


def test_the_wire_package_is_compiled_by_the_same_glob() -> None:
    setup = _setup_module()
    compiled = {p for p in setup.engine_modules() if p.startswith("reference_engine/wire/")}
    every = {f"reference_engine/wire/{p.name}" for p in (ROOT / "reference_engine" / "wire").glob("*.py")}
    assert compiled | {f"reference_engine/wire/{n}" for n in setup.WIRE_INTERPRETED} == every
    assert "reference_engine/wire/session.py" in compiled


def _ext_modules(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    code = ("import importlib.util, sys; sys.argv = ['setup.py', *sys.argv[1:]]; "
            "spec = importlib.util.spec_from_file_location('s', 'setup.py'); m = importlib.util.module_from_spec(spec); "
            "spec.loader.exec_module(m); print(len(m.ext_modules()))")
    return subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize(("env", "why"), [
    ({"HAKKA_PURE": "1"}, "HAKKA_PURE is set"),
    ({"CC": "/nonexistent/cc"}, "no working C compiler"),
])
def test_the_build_falls_back_to_pure_and_says_why(env: dict[str, str], why: str) -> None:
    proc = _ext_modules({**os.environ, **env}, "bdist_wheel")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0"
    assert f"pure build ({why}" in proc.stderr


def test_a_path_without_a_c_compiler_gives_the_pure_build(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "LDSHARED", "HAKKA_PURE")}
    proc = _ext_modules({**env, "PATH": str(bin_dir)}, "bdist_wheel")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0" and "no working C compiler" in proc.stderr


def test_an_editable_install_is_pure() -> None:
    proc = _ext_modules({**os.environ, "HAKKA_PURE": ""}, "editable_wheel")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0" and "editable install" in proc.stderr


def test_the_checkout_holds_no_compiled_engine() -> None:
    """A compiled module beside the sources would be imported instead of the .py a developer edits."""
    stale = sorted(p.name for p in (ROOT / "reference_engine").iterdir() if p.suffix in (".so", ".pyd"))
    assert not stale, f"remove {stale} from reference_engine/: Python imports them before the .py files"
