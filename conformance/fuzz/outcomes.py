"""The rule outcomes a hand reached, read from the reference's answers: the map the guided search steers by.

The reference answers every accepted ``act`` (and each step of a ``batch``) with the events the move
caused (capability ``events``, spec/PROTOCOL.md "Events"); their text forms are parsed with
:func:`reference_engine.events.parse_event` and classified by
:func:`reference_engine.outcomes.event_outcomes`, plus one class per rule a refused probe named. Nothing
here looks inside an engine: a reference that does not declare ``events`` reaches no outcome classes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from reference_engine.events import HandDealt, parse_event
from reference_engine.outcomes import OutcomeClass, event_outcomes, outcome_classes
from reference_engine.profile import Profile

Message = dict[str, Any]


class Outcomes:
    """The outcome classes under one set of decision options, and those a hand's events reached."""

    def __init__(self, options: Mapping[str, str], events: bool = True) -> None:
        self.profile = Profile.from_options(dict(options))
        self.events = events
        """Whether the reference reports its moves' events (else no hand reaches any class)."""

    def classes(self) -> tuple[OutcomeClass, ...]:
        """Every outcome class a hand can reach under the options."""
        return outcome_classes(self.profile)

    def reached(self, acts: Iterable[Message | None], refused_rules: Iterable[str | None]) -> frozenset[str]:
        """The classes a hand reached: from the events of the reference's ``act`` answers, and the rules
        of its refusals. Of a game, the classes of its last hand (with the refusals of the whole game), as
        the fuzzer has always counted a game."""
        if not self.events:
            return frozenset()
        events = [parse_event(text) for act in acts if act for text in act.get("events", ())]
        dealt = [i for i, event in enumerate(events) if isinstance(event, HandDealt)]
        return event_outcomes(events[dealt[-1] + 1:] if dealt else events, self.profile, refused_rules)
