"""Errors of the runner: one base class, one subclass per cause.

Engine misbehaviour is never an exception that escapes the runner: it becomes
a scenario result (``error`` / ``timeout``). These exceptions are for bad
*input* (files, command line) and for signalling inside the runner.
"""

from __future__ import annotations

from dataclasses import dataclass


class ConformanceError(Exception):
    """Base of every error raised by the conformance package."""


@dataclass(frozen=True)
class Problem:
    """One problem in an input file, located as precisely as possible."""

    file: str
    line: int | None
    message: str
    pointer: str = ""
    scenario: str | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        parts = [f"{where}:"]
        if self.scenario:
            parts.append(f"scenario {self.scenario}:")
        parts.append(self.message)
        if self.pointer:
            parts.append(f"(at {self.pointer})")
        return " ".join(parts)


class InputError(ConformanceError):
    """Bad input: a missing file, bad YAML, an invalid scenario, a bad engine spec.

    Carries one or more :class:`Problem` (or plain one-line messages); the CLI
    prints one line per problem and exits with status 2.
    """

    def __init__(self, problems: list[Problem | str] | Problem | str) -> None:
        if not isinstance(problems, list):
            problems = [problems]
        self.problems: list[Problem | str] = problems
        super().__init__("\n".join(str(p) for p in problems))


class EngineSpecError(InputError):
    """An engine spec that names no engine the runner can start."""


class AdapterError(ConformanceError):
    """The engine process or object failed: the base of transport failures.

    ``status`` is the scenario status it leads to (``error`` or ``timeout``).
    """

    status = "error"


class EngineCrashed(AdapterError):
    """The engine exited, closed its output, or (in-process) raised."""


class EngineTimeout(AdapterError):
    """The engine did not answer a request in time."""

    status = "timeout"


class ProtocolViolation(AdapterError):
    """The engine answered something that is not a valid protocol message."""


class EngineUnavailable(AdapterError):
    """The engine failed to start too many times in a row; not retried."""
