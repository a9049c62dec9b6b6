"""The fuzzer's records: the choices a hand is made of, its steps, and how it ended.

A hand is a function of its choices (a :class:`Chooser`); a :class:`Trace` is
enough to replay it; a hand ends clean, in a :class:`Disagreement`, or in a
:class:`CandidateFailure`, gathered in a :class:`HandOutcome`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from .endpoints import Message

OBSERVE_MODES = ("every", "last", "none")
"""When observations are compared: after every step, at the end of each hand only, or never."""


def observe_mode(observe: bool | str) -> str:
    """``every``, ``last`` or ``none`` from a mode or a boolean (True: every step)."""
    if observe is True:
        return "every"
    if observe is False:
        return "none"
    return observe


class FuzzerError(Exception):
    """The reference engine itself misbehaved, or the fuzzer has a bug: not the candidate's fault."""


class Chooser(Protocol):
    """The source of every random choice of a hand."""

    def below(self, n: int) -> int:
        """A choice in ``range(n)``; 0 is the simplest."""

    def seed(self) -> int:
        """A 64-bit integer."""

    def handoff(self) -> tuple[list[int], int | None]:
        """For a playout: the choices still to replay, and the seed of the random ones after them
        (``None``: every later choice is 0). The reference's random player makes them."""

    def extend(self, choices: list[int]) -> None:
        """Record the choices the reference's random player made (as if drawn here)."""


class RandomChooser:
    """Choices from :class:`random.Random` (no shrinking; for benchmarks and replay)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def seed(self) -> int:
        return self.rng.getrandbits(64)

    def handoff(self) -> tuple[list[int], int | None]:
        return [], self.rng.getrandbits(64)

    def extend(self, choices: list[int]) -> None:
        pass


class ListChooser:
    """Replays a recorded list of choices; past its end every choice is 0."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = list(choices)
        self.i = 0

    def _next(self) -> int:
        value = self.choices[self.i] if self.i < len(self.choices) else 0
        self.i += 1
        return value

    def below(self, n: int) -> int:
        return self._next() % n

    def seed(self) -> int:
        return self._next()

    def handoff(self) -> tuple[list[int], int | None]:
        return self.choices[self.i:], None

    def extend(self, choices: list[int]) -> None:
        self.i += len(choices)


@dataclass(frozen=True)
class Step:
    """One action sent to both engines: ``do`` (legal) or ``reject`` (a probe the reference refused)."""

    seat: int
    action: str
    kind: str = "do"  # "do" | "reject"
    error: str | None = None  # the reference's error kind, for a reject
    rule: str | None = None  # the rule the reference named, for a reject

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, self.kind: self.action}
        if self.kind == "reject":
            data["error"] = self.error
            if self.rule:
                data["rule"] = self.rule
        return data


@dataclass
class Trace:
    """Everything needed to replay a hand: the options, the setup, the steps."""

    options: dict[str, str]
    setup: dict[str, Any]
    setup_kind: str
    hands: list[str] | None = None  # the reference's hands at the start (explicit form of the setup)
    steps: list[Step] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"options": self.options, "setup": self.setup, "hands": self.hands,
                "steps": [s.as_json() for s in self.steps]}


@dataclass
class Disagreement:
    """The first point where the candidate's answer differs from the reference's.

    ``where``: ``start`` (the setup), ``state`` (a field of ``state`` after the
    last step), ``act`` (the candidate refused a legal action), ``reject`` (it
    accepted, or refused with another kind, a probe the reference refused),
    ``observe``, ``events`` (the events of an accepted ``act``, capability
    ``events``), or a side check (conformance.fuzz.checks, ``check``): ``setup`` (a setup
    to be refused, or one at a bound, and the state after it), ``count`` or ``pattern``.
    ``fields`` names what differs; ``reference`` and ``candidate``
    hold the two answers (the whole ``state``, or the two act answers, or the
    two observations of ``seat``). ``before`` is the reference's ``state``
    before the last step.
    """

    trace: Trace
    where: str
    fields: list[str]
    reference: Message
    candidate: Message
    before: Message | None = None
    seat: int | None = None
    detail: list[str] = field(default_factory=list)
    request: Message | None = None
    """A side check's request the answers are to (a ``start``, ``state``, ``observe`` or ``count``)."""
    rates: Any = None
    """The rates of the extra kinds the hand was drawn at (checks.Rates; None: the full ones): a shrink replays
    the hand at them."""
    check: Any = None
    """A side check's disagreement: the check (checks.Check, which imports this module), every request of it and
    the reference's answers (a scenario written of the disagreement replays the check)."""

    @property
    def actions(self) -> int:
        return len(self.trace.steps)

    def summary(self) -> str:
        at = f"after {self.actions} action(s)" if self.trace.steps else "at the start"
        what = {
            "start": "refused the setup",
            "state": "disagrees on " + ", ".join(self.fields),
            "act": f"refused the legal action {self.trace.steps[-1].action!r}" if self.trace.steps else "refused an action",
            "reject": (f"accepted or misjudged the illegal action {self.trace.steps[-1].action!r}"
                       if self.trace.steps else "misjudged an illegal action"),
            "observe": f"disagrees on seat {self.seat}'s observation ({', '.join(self.detail) or 'observation'})",
            "setup": (f"answers {_answer_text(self.candidate)} where {self._wanted()} to `{', '.join(self.detail)}`"
                      if self.fields in (["error"], ["accepted"]) else
                      f"disagrees on {', '.join(self.fields)} in `{', '.join(self.detail)}`")
                     + f" (setup check: {self.trace.setup_kind})",
            "count": f"disagrees on {', '.join(self.fields)} of `count` at a state from play",
            "pattern": (f"classifies {(self.request or {}).get('classify')!r} as {self.candidate.get('pattern')!r} "
                        f"where the reference answers {self.reference.get('pattern')!r}"
                        if self.fields == ["pattern"] else
                        f"answers {_answer_text(self.candidate)} where the reference answers "
                        f"{_answer_text(self.reference)} to `pattern`"),
            "events": (f"tells the events of {self.trace.steps[-1].action!r} otherwise ({'; '.join(self.detail)})"
                       if self.trace.steps else "tells an action's events otherwise"),
        }[self.where]
        return f"the candidate {what} {at}"


    def _wanted(self) -> str:
        """What a side check's request wanted: the reference's answer, or the error kind the protocol itself
        requires there (an option the candidate does not follow: ``unsupported``)."""
        exchange = next((e for e in self.check.exchanges if e.request is self.request), None) if self.check else None
        if exchange is not None and exchange.expect_kind is not None:
            return f"the protocol wants {exchange.expect_kind} (the reference, which follows it, answers " \
                   f"{_answer_text(self.reference)})"
        return f"the reference answers {_answer_text(self.reference)}"


def _answer_text(answer: Message) -> str:
    start = answer.get("start")
    if answer.get("ok") and isinstance(start, dict):  # a batch: its start's answer is the setup's
        return "ok" if start.get("ok") else f"{_answer_text(start)} in the batch's start"
    if answer.get("ok"):
        return "ok"
    error = answer.get("error")
    return str(error.get("kind")) if isinstance(error, dict) else repr(answer)[:80]


@dataclass
class CandidateFailure:
    """The candidate crashed, hung or broke the protocol during a hand."""

    trace: Trace
    request: Message
    status: str  # "error" | "timeout"
    message: str
    stderr: str = ""
    reference_state: Message | None = None
    invalid: bool = False
    """The candidate's answer broke its schema (a protocol error; never written as a scenario of the rules)."""

    def summary(self) -> str:
        what = "hung" if self.status == "timeout" else "failed"
        return (f"the candidate {what} on {self.request.get('cmd')!r} after {len(self.trace.steps)} action(s): "
                f"{self.message}")


@dataclass
class HandOutcome:
    trace: Trace
    actions: int
    disagreement: Disagreement | None = None
    failure: CandidateFailure | None = None
    result: Message | None = None
    outcomes: frozenset[str] = frozenset()
    """The rule outcomes the hand reached on the reference (reference_engine.outcomes)."""

    @property
    def clean(self) -> bool:
        return self.disagreement is None and self.failure is None
