"""Scenario results: frozen records, one per scenario."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import EngineInfo


class Status(StrEnum):
    """What became of a scenario: the only statuses a result can have.

    A :class:`StrEnum`, so a status compares equal to its text (``Status.PASS == "pass"``)
    and is written as it in reports, but ``Status("FAILED")`` raises: no code (and no
    report read back by ``merge``) can make a status up.
    """

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    TIMEOUT = "timeout"
    SKIP = "skip"
    XFAIL = "xfail"
    XPASS = "xpass"

    @property
    def bad(self) -> bool:
        """Whether this status makes the run fail (exit status 1)."""
        return self in BAD_STATUSES


PASS, FAIL, ERROR, TIMEOUT, SKIP, XFAIL, XPASS = Status
STATUSES: tuple[Status, ...] = tuple(Status)
BAD_STATUSES = frozenset({FAIL, ERROR, TIMEOUT, XPASS})
"""Statuses that make the run fail (exit status 1)."""


@dataclass(frozen=True)
class Result:
    """The outcome of one scenario.

    For a failure: ``at`` says where (``setup``, ``steps[3]``, ``prefix[0]``,
    ``final``, ``count``, ``pattern``, ``hello``) and ``at_line`` its line in the
    scenario file; ``step`` is the index in ``steps`` when it was a step;
    ``action`` the action sent (``seat 1 do 'play Sup3'``); ``key`` the
    expectation that did not hold; ``diff`` readable expected-vs-actual lines.
    ``stderr`` is what the engine wrote to its stderr meanwhile.
    """

    id: str
    status: Status
    reason: str = ""
    file: str = ""
    line: int = 0
    kind: str = ""
    area: str = ""
    clauses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    step: int | None = None
    at: str = ""
    at_line: int | None = None
    action: str | None = None
    key: str | None = None
    diff: tuple[str, ...] = ()
    stderr: str = ""
    duration: float = 0.0
    rules: tuple[str, ...] = ()  # a failure's clauses, those behind the failing key first (spec/expectations.yaml)
    expected_failure: str | None = None  # the reason given in the expected-failures file
    original_status: Status | None = None    # for xfail/xpass: the status before the list applied
    transcript: tuple[tuple[dict[str, Any], dict[str, Any] | None], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):  # text from a caller or a report: only a known status
            try:
                object.__setattr__(self, "status", Status(self.status))
            except ValueError:
                raise ValueError(f"scenario {self.id!r}: {self.status!r} is not a status "
                                 f"({', '.join(STATUSES)})") from None
        if self.original_status is not None and not isinstance(self.original_status, Status):
            object.__setattr__(self, "original_status", Status(self.original_status))

    @property
    def bad(self) -> bool:
        return self.status in BAD_STATUSES

    @property
    def where(self) -> str:
        line = self.at_line or self.line
        return f"{self.at} (line {line})" if self.at else f"line {line}"

    def with_(self, **changes: Any) -> Result:
        return replace(self, **changes)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = str(self.status)
        if self.original_status is not None:
            data["original_status"] = str(self.original_status)
        data["clauses"] = list(self.clauses)
        data["tags"] = list(self.tags)
        data["diff"] = list(self.diff)
        data["rules"] = list(self.rules)
        data["duration"] = round(self.duration, 6)
        data.pop("transcript", None)
        if self.bad or self.status == XFAIL:
            data["transcript"] = [{"request": q, "response": a} for q, a in self.transcript[-20:]]
        return data


@dataclass(frozen=True)
class RunRecord:
    """A run as reporters see it once it has ended (completely or not)."""

    results: Sequence[Result]
    engine_label: str
    info: EngineInfo | None
    duration: float
    selected: int
    """Scenarios this run (this shard) was to run."""
    interrupted: str | None = None
    """The signal that stopped the run (``SIGINT``), or None."""
    shard: tuple[int, int] | None = None
    corpus: dict[str, Any] | None = field(default=None)

    @property
    def complete(self) -> bool:
        return self.interrupted is None and len(self.results) == self.selected
