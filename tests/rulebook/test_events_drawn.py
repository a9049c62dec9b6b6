"""The rulebook draws a step's expected events (docs/_ext/hakka_render.py), in order, in every language."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import hakka_gettext  # noqa: E402
from hakka_render import Seats, steps_html  # noqa: E402

LABELS = {"en": "what it causes, in order:", "de": "was daraus folgt, der Reihe nach:",
          "fr": "ce qui en découle, dans l’ordre :", "hi": "इससे क्या होता है, क्रम से:", "ar": "ما ينتج عنه، بالترتيب:"}


@pytest.mark.parametrize("lang", list(LABELS))
def test_a_steps_events_are_drawn_in_order_under_a_translated_label(lang: str) -> None:
    hakka_gettext.activate(ROOT / "docs" / "locale", lang)
    try:
        html = steps_html([{"seat": 3, "do": "discard Zok5",
                            "expect": {"events": ["3 discard Zok5", "1 wins 1 trick", "1 may claim"]}}], Seats(0))
    finally:
        hakka_gettext.activate(ROOT / "docs" / "locale", None)
    assert LABELS[lang] in html
    drawn = [html.index(f'<code class="hk-event">{e}</code>') for e in ("3 discard Zok5", "1 wins 1 trick", "1 may claim")]
    assert drawn == sorted(drawn), "in the order the action caused them"
