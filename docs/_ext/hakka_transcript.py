"""``.. hakka-transcript:: SCENARIO-ID``: one complete hand, request by request, from the reference.

When the book is built, the scenario is run on the reference engine by the
conformance runner (``Suite.run``, the road every engine is run by), and each
request the runner sent for the scenario (after the engine's ``hello``) is
shown beside the answer the reference gave, as a
:class:`~conformance.listeners.Capture` recorded them: the page can never drift
from the protocol, nor from what the runner asks. The runner asks ``state``
after the start and after every step, to check it against the scenario's
expectations (and, after a refused action, that nothing changed).
tests/rulebook/test_transcript.py checks every message against its JSON Schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def transcript(root: Path, scenario_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(request, answer) pairs of a whole trajectory scenario as the runner plays it on the reference engine."""
    from conformance.listeners import Capture
    from conformance.results import PASS
    from conformance.suite import Suite

    suite = Suite.load(root / "spec", [root / "conformance" / "scenarios"])
    chosen = suite.select(ids=(scenario_id,))
    if not chosen or chosen[0].kind != "trajectory":
        raise ValueError(f"{scenario_id!r} is not a trajectory scenario of the corpus")
    capture = Capture()
    (result,) = suite.run("reference", chosen, listeners=[capture])
    if result.status != PASS:
        raise ValueError(f"{scenario_id!r} does not pass on the reference engine ({result.status}, at {result.at}): {result.reason}")
    return [(request, answer) for request, answer in capture.exchanges[scenario_id] if answer is not None]


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(", ", ": "))


class TranscriptDirective(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        root = Path(self.env.app.config.hakka_root)
        try:
            pairs = transcript(root, self.arguments[0])
        except (ValueError, OSError) as exc:
            raise self.error(f"hakka-transcript: {exc}") from exc
        text = "\n\n".join(f"→ {_line(q)}\n← {_line(a)}" for q, a in pairs)
        return [nodes.literal_block(text, text, language="text", classes=["hk-session"])]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("hakka-transcript", TranscriptDirective)
    return {"version": "1", "parallel_read_safe": True}
