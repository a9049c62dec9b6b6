"""``.. hakka-transcript:: SCENARIO-ID``: one complete hand, request by request, from the reference.

When the book is built, the scenario's setup and actions are sent to the
reference engine through the conformance adapter (the path every engine is
run by), and each request is shown beside the answer the reference gave, so
the page can never drift from the protocol. ``state`` is asked after the
start, after each action of Calling, after each round and at the end;
``observe`` once for the seat to act after the first lead. What an action did
(a round won, the hand ended) is read from the events the reference's ``act``
answers carry (capability ``events``), never from a ``state`` asked on the
side. tests/rulebook/test_transcript.py checks every message against its JSON
Schema.
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
        hello = send({"cmd": "hello", "protocol": 2})
        if "events" not in hello.get("capabilities", ()):
            raise ValueError("the reference engine does not declare the 'events' capability the transcript reads")
        send({"cmd": "start", "setup": dict(scenario.body["setup"])})
        send({"cmd": "state"})
        acts = [step for step in scenario.body.get("steps", ()) if "do" in step]
        observed = False
        for number, step in enumerate(acts):
            answer = send({"cmd": "act", "seat": step["seat"], "action": step["do"]})
            if not _mid_round(answer.get("events", ())):
                send({"cmd": "state"})  # after each action of Calling, after each round, at the end
            elif not observed and number + 1 < len(acts):
                send({"cmd": "observe", "seat": acts[number + 1]["seat"]})  # the seat to act after the first lead
                observed = True
        send({"cmd": "stop"})
    finally:
        adapter.close()
    return pairs


def _mid_round(texts: list[str]) -> bool:
    """Whether an act's events leave a round in play: a play or discard that neither won the round nor ended the hand."""
    from reference_engine.events import Discarded, HandEnded, Played, RoundWon, parse_event

    events = [parse_event(text) for text in texts]
    return bool(events) and isinstance(events[0], (Played, Discarded)) and not any(
        isinstance(event, (RoundWon, HandEnded)) for event in events)


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
