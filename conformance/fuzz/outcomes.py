"""The rule outcomes a hand reached, read from the reference's answers: the map the guided search steers by.

The reference answers every accepted ``act`` (and each step of a ``batch``) with the events the move
caused (capability ``events``, spec/PROTOCOL.md "Events"); their text forms are parsed with
:func:`reference_engine.events.parse_event` and classified by
:func:`reference_engine.outcomes.event_outcomes`, plus one class per rule a refused probe named. Nothing
here looks inside an engine: a reference that does not declare ``events`` reaches no outcome classes.

A game counts every one of its hands (each deal starts afresh in the event log), and adds the *game*
outcome classes (:data:`GAME_CLASSES`): how each of its hands ended, a 12-trick claim within it, and
the game's end, read from the same events.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from reference_engine.events import Event, GameEnded, HandEnded, parse_event
from reference_engine.outcomes import END_KINDS, OutcomeClass, event_outcomes, outcome_classes
from reference_engine.profile import Profile

Message = dict[str, Any]

_parsed = functools.lru_cache(maxsize=1 << 16)(parse_event)
"""``parse_event``, its answers kept: an event is immutable, and a hand's plays and calls repeat across hands
(most of a campaign's event texts)."""

GAME_CLASSES: tuple[OutcomeClass, ...] = (
    OutcomeClass("game:over", "GAME-1", "a game is played to its end (the 4th counting hand)"),
    *(OutcomeClass(f"game:end:{end}", rule, f"a hand within a game ends: {end}") for end, rule in zip(
        END_KINDS, ("CLAIM-2", "TIG-1", "PLAY-8", "CALL-6"), strict=True)),
    OutcomeClass("game:score:12", "SCORE-1", "a 12-trick claim within a game (the highest score)"),
)
"""What a whole game can reach beyond its hands' classes: each end kind of a hand within it (a void hand
and the Five Tigers in a game, which the issue found no game of the fuzzer reached), the highest score,
and the game's end. ``game:score:N`` is recorded for every claim, so that the search steers from 11 to 12."""


class Outcomes:
    """The outcome classes under one set of decision options, and those a hand's events reached."""

    def __init__(self, options: Mapping[str, str], events: bool = True) -> None:
        self.profile = Profile.from_options(dict(options))
        self.events = events
        """Whether the reference reports its moves' events (else no hand reaches any class)."""

    def classes(self) -> tuple[OutcomeClass, ...]:
        """Every outcome class a hand can reach under the options."""
        return outcome_classes(self.profile)

    def reached(self, acts: Iterable[Message | None], refused_rules: Iterable[str | None],
                game: bool = False) -> frozenset[str]:
        """The classes a hand reached: from the events of the reference's ``act`` answers, and the rules
        of its refusals. Of a game (``game``), the classes of every one of its hands, and its game classes."""
        if not self.events:
            return frozenset()
        events = [_parsed(text) for act in acts if act for text in act.get("events", ())]
        reached = event_outcomes(events, self.profile, refused_rules)
        return reached | game_outcomes(events) if game else reached


def game_outcomes(events: Iterable[Event]) -> frozenset[str]:
    """The game classes of a game's event log (:data:`GAME_CLASSES`, and ``game:score:N`` for each claim)."""
    out: set[str] = set()
    for event in events:
        if isinstance(event, HandEnded):
            out.add(f"game:end:{event.result.end}")
            if event.result.end == "claim" and event.result.tricks is not None:
                out.add(f"game:score:{event.result.tricks}")
        elif isinstance(event, GameEnded):
            out.add("game:over")
    return frozenset(out)
