"""An engine's badge: a plain SVG (``hakka conformance | 557/557``) and the shields.io endpoint JSON.

The JSON follows ``spec/schema/badge/shields-endpoint.schema.json`` (shields.io's
endpoint format), so an engine's README can show ``https://img.shields.io/endpoint?url=…``
of the published file, or the SVG itself.
"""

from __future__ import annotations

import html
from typing import Any

LABEL = "hakka conformance"
COLORS = {"brightgreen": "#4c1", "yellowgreen": "#a4a61d", "red": "#e05d44"}


def badge(passed: int, failed: int, skipped: int) -> dict[str, Any]:
    """The endpoint JSON: ``passed/total``, skips said, green only when every scenario passed."""
    total = passed + failed + skipped
    message = f"{passed}/{total}" + (f", {skipped} skipped" if skipped else "")
    color = "red" if failed else "yellowgreen" if skipped else "brightgreen"
    return {"schemaVersion": 1, "label": LABEL, "message": message, "color": color}


def _width(text: str) -> int:
    """The text's width at 11 px Verdana, near enough (shields.io measures the same font)."""
    narrow = sum(1 for c in text if c in "il1.,:;|!' /")
    return round(7 * (len(text) - narrow) + 3.5 * narrow) + 10


def svg(data: dict[str, Any]) -> str:
    """A flat badge as shields.io draws it: grey label, coloured message, ``textLength`` fixing each width."""
    label, message = str(data["label"]), str(data["message"])
    lw, mw = _width(label), _width(message)
    color = COLORS.get(str(data.get("color")), "#9f9f9f")
    e = html.escape
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{lw + mw}" height="20" role="img" '
            f'aria-label="{e(label)}: {e(message)}"><title>{e(label)}: {e(message)}</title>'
            f'<rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{color}"/>'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="{lw / 2}" y="14" textLength="{lw - 10}">{e(label)}</text>'
            f'<text x="{lw + mw / 2}" y="14" textLength="{mw - 10}">{e(message)}</text></g></svg>\n')
