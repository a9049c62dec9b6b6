"""``.. hakka-transcript:: SCENARIO-ID``: one complete hand, request by request, from the reference.

When the book is built, the scenario's setup and actions are sent to the
reference engine through the conformance adapter (the path every engine is
run by), and each request is shown beside the answer the reference gave, so
the page can never drift from the protocol. ``state`` is asked after the
start, after each round and at the end; ``observe`` once for the seat to act
after the first lead. tests/rulebook/test_transcript.py checks every message
against its JSON Schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def transcript(root: Path, scenario_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(request, answer) pairs of a whole trajectory scenario played on the reference engine."""
    from conformance.adapters import parse_engine_spec
    from conformance.loader import load_scenarios
    from conformance.schemas import load_schemas
    from conformance.specdata import load_spec_data

    scenarios = load_scenarios([root / "conformance" / "scenarios"], load_schemas(root / "spec" / "schema"),
                               load_spec_data(root / "spec"))
    scenario = next((s for s in scenarios if s.id == scenario_id), None)
    if scenario is None or scenario.kind != "trajectory":
        raise ValueError(f"{scenario_id!r} is not a trajectory scenario of the corpus")
    adapter = parse_engine_spec("reference").make_adapter(10.0)
    adapter.start()
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def send(request: dict[str, Any]) -> dict[str, Any]:
        answer = adapter.request(request)
        pairs.append((request, answer))
        return answer

    try:
        send({"cmd": "hello", "protocol": 2})
        send({"cmd": "start", "setup": dict(scenario.body["setup"])})
        send({"cmd": "state"})
        observed = False
        for step in scenario.body.get("steps", ()):
            if "do" not in step:
                continue
            send({"cmd": "act", "seat": step["seat"], "action": step["do"]})
            state = adapter.request({"cmd": "state"})
            if not observed and state["phase"] == "playing" and state["round"]["plays"]:
                send({"cmd": "observe", "seat": state["to_act"]})
                observed = True
            if state["phase"] != "playing" or not state["round"]["plays"]:
                send({"cmd": "state"})  # after Calling, after each round, at the end
        send({"cmd": "stop"})
    finally:
        adapter.close()
    return pairs


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
