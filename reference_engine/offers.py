"""The events of a choice the rules offer a seat: a claim (CLAIM-1, D21) and the Five Tigers (TIG-1, D24).

Each choice has one shape, three events ("seat may X / seat X / seat declines"):

- :class:`Offered`: ``seat`` may take it, and the hand waits for its answer
  (``0 may claim``);
- :class:`Taken`: ``seat`` takes it by its action, or by the rule with no
  action (``automatic``: D21 automatic, D24 automatic) (``0 claim``,
  ``0 claim (automatic)``);
- :class:`Declined`: ``seat`` answers no, and the hand plays on
  (``0 continue``).

A kind of choice names its words (:attr:`Offered.offer`) or its action
(:attr:`Taken.move`, :attr:`Declined.move`, whose verb is the event's text);
the rest is the base's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import CLAIM, CONTINUE, DECLINE, TIGERS, Action
from .event_base import SeatEvent

__all__ = ["ClaimDeclined", "ClaimMade", "ClaimOffered", "Declined", "Offered", "Taken", "TigersDeclined",
           "TigersOffered", "TigersShown"]

_CLAIM: Final = Action(CLAIM)
_CONTINUE: Final = Action(CONTINUE)
_TIGERS: Final = Action(TIGERS)
_DECLINE: Final = Action(DECLINE)


# ------------------------------------------------------------------ the three shapes


@dataclass(frozen=True, slots=True, repr=False)
class Offered(SeatEvent):
    """``seat`` may take a choice the rules offer it (its text: ``seat may`` and the :attr:`offer`)."""

    @property
    def offer(self) -> str:
        """What ``seat`` may do, in the event's words."""
        raise NotImplementedError

    def __str__(self) -> str:
        return f"{self.seat} may {self.offer}"


@dataclass(frozen=True, slots=True, repr=False)
class Taken(SeatEvent):
    """``seat`` takes the choice: by its action :attr:`move`, or ``automatic``-ally by the rule (no action)."""

    automatic: bool = False

    @property
    def move(self) -> Action:
        """The action that takes it (its verb is the event's text)."""
        raise NotImplementedError

    @property
    def action(self) -> Action | None:
        return None if self.automatic else self.move

    def __str__(self) -> str:
        return f"{self.seat} {self.move.verb} (automatic)" if self.automatic else f"{self.seat} {self.move.verb}"


@dataclass(frozen=True, slots=True, repr=False)
class Declined(SeatEvent):
    """``seat`` declines the choice by its action :attr:`move`, and the hand plays on."""

    @property
    def move(self) -> Action:
        """The action that declines (its verb is the event's text)."""
        raise NotImplementedError

    @property
    def action(self) -> Action:
        return self.move

    def __str__(self) -> str:
        return f"{self.seat} {self.move.verb}"


# ------------------------------------------------------------------ a claim (CLAIM-1, D21)


@dataclass(frozen=True, slots=True, repr=False)
class ClaimOffered(Offered):
    """``seat`` won a round with a claim count of 6 or more and may claim (CLAIM-1, D21 optional)."""

    @property
    def offer(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True, repr=False)
class ClaimMade(Taken):
    """``seat`` claims (CLAIM-1); ``automatic``: by the rule, with no action (D21 automatic)."""

    @property
    def move(self) -> Action:
        return _CLAIM


@dataclass(frozen=True, slots=True, repr=False)
class ClaimDeclined(Declined):
    """``seat`` could claim and plays on (CLAIM-1, D21)."""

    @property
    def move(self) -> Action:
        return _CONTINUE


# ------------------------------------------------------------------ the Five Tigers (TIG-1, D24)


@dataclass(frozen=True, slots=True, repr=False)
class TigersOffered(Offered):
    """``seat`` holds the Five Tigers and may show them (TIG-1, D24 declared)."""

    @property
    def offer(self) -> str:
        return "show the Five Tigers"


@dataclass(frozen=True, slots=True, repr=False)
class TigersShown(Taken):
    """``seat`` shows the Five Tigers and wins (TIG-1); ``automatic``: by the rule (D24 automatic)."""

    @property
    def move(self) -> Action:
        return _TIGERS


@dataclass(frozen=True, slots=True, repr=False)
class TigersDeclined(Declined):
    """``seat`` keeps the Five Tigers hidden and the hand is played (TIG-1, D24 declared)."""

    @property
    def move(self) -> Action:
        return _DECLINE
