"""The replay viewer names every step and phase in the page's language (issue 30 §5), read from its source.

conformance/replay.py labels the steps in English; hakka_play/static/replay.js builds each label again
from the step's kind, seat and action through the table's catalog, and names each phase of the
protocol's vocabulary (spec/schema/protocol/common.schema.json). A kind or phase the viewer does not
know would show in English: these checks fail first.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JS = (REPO / "hakka_play" / "static" / "replay.js").read_text(encoding="utf-8")
pytest.importorskip("babel")
from hakka_play.i18n import catalog  # noqa: E402


def _object(name: str) -> str:
    match = re.search(rf"const {name} = \{{(.*?)\}}(?:\[s\.kind\])?;", JS, re.S)
    assert match is not None, f"replay.js has no {name}"
    return match.group(1)


def test_every_phase_of_the_protocol_has_a_name() -> None:
    common = json.loads((REPO / "spec" / "schema" / "protocol" / "common.schema.json").read_text(encoding="utf-8"))
    phases = common["$defs"]["phase"]["enum"]
    named = re.findall(r'"?([a-z-]+)"?: _\("', _object("PHASES"))
    assert named == phases, f"replay.js names {named}; the protocol's phases are {phases}"


def test_every_kind_of_step_the_model_writes_has_a_label() -> None:
    model = (REPO / "conformance" / "replay.py").read_text(encoding="utf-8")
    kinds = set(re.findall(r'"kind": "([a-z]+)", "label"', model)) | set(re.findall(r'r\.step\("([a-z]+)"', model))
    labelled = set(re.findall(r"\b([a-z]+): (?:\[_|around\(_)", _object("parts")))
    assert kinds and kinds <= labelled, f"steps without a label of their own: {sorted(kinds - labelled)}"


@pytest.mark.parametrize("lang", ["de", "fr", "hi", "ar"])
def test_the_labels_are_translated(lang: str) -> None:
    words = catalog(lang)
    for msgid in re.findall(r'_\("([^"]+)"', _object("PHASES") + _object("parts")):
        assert words.get(msgid) and words[msgid] != msgid, f"{lang}: {msgid!r} is not translated"
