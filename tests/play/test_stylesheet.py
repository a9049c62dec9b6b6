"""One card stylesheet: the table's static/cards.css, which the rulebook copies in (docs/conf.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "hakka_play" / "static" / "cards.css"


def test_the_rulebook_uses_the_tables_card_stylesheet_and_keeps_no_copy() -> None:
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    assert '"hakka_play" / "static" / "cards.css"' in conf and 'html_css_files = ["cards.css"]' in conf
    cards = CARDS.read_text(encoding="utf-8")
    rulebook = (ROOT / "docs" / "_static" / "hakka.css").read_text(encoding="utf-8")
    for selector in (".hk-card", ".hk-sup", ".hk-wan", ".hk-star", "--hk-sup:"):
        assert selector in cards
        assert not re.search(re.escape(selector) + r"[\s{,.:]", rulebook), f"{selector} is styled in hakka.css too"
    for page in ("table.html", "replay.html", "lobby.html"):
        assert '/static/cards.css' in (CARDS.parent / page).read_text(encoding="utf-8")
