"""Expected-failures files: the scenarios an engine is known to fail, with reasons.

Either YAML —

.. code-block:: yaml

    play-follow-must-beat-001: D12 may-discard is hard-wired
    score-dreamer-003: "see issue #12"

(or a list of ``{id, reason}`` / plain IDs) — or plain text, one ID per line
followed by an optional reason; lines starting with ``#`` are comments::

    play-follow-must-beat-001   D12 may-discard is hard-wired

A listed scenario that fails (fail / error / timeout) is ``xfail``; a listed
scenario that passes is ``xpass``, which fails the run: remove it from the list.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import InputError, Problem
from .paths import display_path
from .results import ERROR, FAIL, PASS, TIMEOUT, XFAIL, XPASS, Result
from .yamlsource import load_yaml

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def load_expected_failures(path: Path) -> dict[str, str]:
    shown = display_path(path)
    if not path.is_file():
        raise InputError(Problem(shown, None, "expected-failures file not found"))
    if path.suffix in (".yaml", ".yml"):
        return _load_yaml(path, shown)
    return _load_text(path, shown)


def _load_yaml(path: Path, shown: str) -> dict[str, str]:
    doc, problems = load_yaml(path, shown)
    if doc is None or problems:
        raise InputError(list(problems))
    out: dict[str, str] = {}
    bad: list[Problem | str] = []
    data = doc.data
    if data is None:
        return out
    if isinstance(data, dict):
        items = [(k, v, f"/{k}") for k, v in data.items()]
    elif isinstance(data, list):
        items = []
        for i, entry in enumerate(data):
            if isinstance(entry, str):
                items.append((entry, "", f"/{i}"))
            elif isinstance(entry, dict) and isinstance(entry.get("id"), str):
                items.append((entry["id"], entry.get("reason", ""), f"/{i}"))
            else:
                bad.append(Problem(shown, doc.line_of(f"/{i}"), "expected a scenario ID or {id, reason}"))
    else:
        raise InputError(Problem(shown, 1, "expected a mapping of scenario ID to reason, or a list"))
    for sid, reason, pointer in items:
        if not isinstance(sid, str) or not _ID.match(sid):
            bad.append(Problem(shown, doc.key_line(pointer), f"not a scenario ID: {sid!r}"))
            continue
        out[sid] = "" if reason is None else str(reason)
    if bad:
        raise InputError(bad)
    return out


def _load_text(path: Path, shown: str) -> dict[str, str]:
    out: dict[str, str] = {}
    bad: list[Problem | str] = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(Problem(shown, None, f"cannot read: {exc}")) from None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        sid, _, reason = line.replace("\t", " ").partition(" ")
        sid = sid.rstrip(":")
        if not _ID.match(sid):
            bad.append(Problem(shown, n, f"not a scenario ID: {sid!r}"))
            continue
        out[sid] = reason.strip()
    if bad:
        raise InputError(bad)
    return out


def apply_expected(result: Result, expected: dict[str, str]) -> Result:
    """Turn a listed scenario's result into xfail / xpass."""
    if result.id not in expected:
        return result
    why = expected[result.id]
    if result.status in (FAIL, ERROR, TIMEOUT):
        return result.with_(status=XFAIL, expected_failure=why, original_status=result.status)
    if result.status == PASS:
        note = f" ({why})" if why else ""
        return result.with_(status=XPASS, expected_failure=why, original_status=PASS,
                            reason=f"listed as an expected failure{note} but passed: remove it from the list")
    return result
