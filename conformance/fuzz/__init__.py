"""Differential fuzzing of an engine against the reference engine (issue 6).

The reference engine and a candidate play the same random hands in lockstep
(:mod:`~conformance.fuzz.driver`); at every step their ``state`` and
``observe`` answers are compared. Hypothesis draws every random choice and,
on the first disagreement, shrinks the hand to the fewest actions
(:mod:`~conformance.fuzz.search`); the shrunk hand is written as a YAML
scenario whose expectations are the reference's answers, then run through the
conformance runner to confirm that it passes on the reference and fails on
the candidate (:mod:`~conformance.fuzz.scenario`).

>>> from conformance.fuzz import FuzzConfig, fuzz
>>> report = fuzz(FuzzConfig(engine="reference", hands=3, out=None))
>>> report.ok, report.search.hands
(True, 3)

Command line: ``python -m conformance.fuzz --engine ENGINE --hands N --seed S``.


Hypothesis (the ``dev`` extra) is needed to fuzz; importing
:mod:`conformance.fuzz.cli` (to add the ``fuzz`` subcommand) does not need it.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CandidateFailure", "DEFAULT_OUT", "Disagreement", "FuzzConfig", "FuzzConfigError", "FuzzReport",
    "HandOutcome", "Lockstep", "Step", "Trace", "fuzz",
]

_FROM_DRIVER = {"CandidateFailure", "Disagreement", "HandOutcome", "Lockstep", "Step", "Trace"}


def __getattr__(name: str) -> Any:
    # Imported on first use, so that ``conformance.fuzz.cli`` loads without Hypothesis.
    if name in _FROM_DRIVER:
        from . import driver

        return getattr(driver, name)
    if name in __all__:
        from . import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
