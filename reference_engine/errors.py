"""Errors, split by cause.

Every error names the rule (clause ``AREA-N``) or decision (``Dn``) it
enforces, and where it can, the seat and the action. Their ``kind`` is the
string used on the wire (spec/PROTOCOL.md).
"""

from __future__ import annotations

from typing import ClassVar


class HakkaError(Exception):
    """Base of every error the reference engine raises."""

    kind: ClassVar[str] = "internal"
    """The error's kind on the wire (a class attribute: compiled by mypyc, a plain ``kind = ...`` would
    become an instance field that exceptions never set)."""

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        seat: int | None = None,
        action: str | None = None,
        position: str | None = None,
    ) -> None:
        self.message = message
        self.rule = rule
        self.seat = seat
        self.action = action
        self.position = position
        """The hand's notation when the error arose (:meth:`Hand.notation`), if known."""
        super().__init__(self._render())
        if position is not None:  # shown in tracebacks, not in the message
            self.add_note(f"position: {position}")

    def _render(self) -> str:
        parts = []
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        if self.action is not None:
            parts.append(repr(self.action))
        where = f"{' '.join(parts)}: " if parts else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{where}{self.message}{rule}"


class MalformedError(HakkaError):
    """Text that cannot be parsed as a card, a card list or an action."""

    kind = "malformed"


class IllegalActionError(HakkaError):
    """A well-formed action that the rules do not allow now."""

    kind = "illegal"


class SetupError(HakkaError):
    """An inconsistent deal, deck, profile or game setup."""

    kind = "bad-setup"
