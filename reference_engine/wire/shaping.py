"""JSON shaping: the wire form of the engine's typed values (spec/PROTOCOL.md)."""

from __future__ import annotations

from typing import Any

from ..actions import LegalActions
from ..cards import NAMES, mask_text
from ..events import Event
from ..observation import Observation, Seen
from ..scoring import HandResult


def legal_json(legal: LegalActions) -> dict[str, Any]:
    """The wire form of legal actions."""
    return {
        "actions": [str(a) for a in legal.sorted()],
        "discard": None
        if legal.discard is None
        else {"count": legal.discard.count, "from": mask_text(legal.discard.allowed)},
    }


def result_json(result: HandResult) -> dict[str, Any]:
    """The wire form of a hand's result."""
    return {
        "end": result.end,
        "winner": result.winner,
        "tricks": result.tricks,
        "dreamer_count": result.dreamer_count,
        "deltas": list(result.deltas),
        "next_dealer": result.next_dealer,
        "counts": result.counts,
    }


def events_json(events: tuple[Event, ...]) -> list[str]:
    """The wire form of a move's events: their text (spec/PROTOCOL.md, "Events")."""
    return [str(e) for e in events]


def _seen_json(seen: Seen) -> dict[str, Any]:
    seat, action, count = seen
    if action is None:
        return {"seat": seat, "action": "discard", "count": count}
    return {"seat": seat, "action": str(action)}


def observation_json(observation: Observation) -> dict[str, Any]:
    """The wire form of an observation (``observe``)."""
    o = observation
    return {
        "seat": o.seat,
        "phase": o.phase.value,
        "to_act": o.to_act,
        "dealer": o.dealer,
        "dreamer": o.dreamer,
        "privileged": o.privileged,
        "hand": mask_text(o.hand.mask),
        "hand_sizes": list(o.hand_sizes),
        "dreamer_card": None if o.dreamer_card is None else NAMES[o.dreamer_card],
        "history": [_seen_json(s) for s in o.history],
        "tricks": list(o.tricks),
        "elders": mask_text(o.elders.mask),
        "legal": None if o.legal is None else legal_json(o.legal),
        "result": None if o.result is None else result_json(o.result),
    }
