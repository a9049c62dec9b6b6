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
"""

from .driver import CandidateFailure, Disagreement, HandOutcome, Lockstep, Step, Trace
from .run import DEFAULT_OUT, FuzzConfig, FuzzConfigError, FuzzReport, fuzz

__all__ = [
    "CandidateFailure", "DEFAULT_OUT", "Disagreement", "FuzzConfig", "FuzzConfigError", "FuzzReport",
    "HandOutcome", "Lockstep", "Step", "Trace", "fuzz",
]
