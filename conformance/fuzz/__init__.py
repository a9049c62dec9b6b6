"""Differential fuzzing of an engine against the reference engine (issues 6, 11 and 21).

The reference engine plays random hands and whole games (``--game``: games
only) and the candidate answers the same requests, in one ``batch`` request if it
declares the capability, else one by one (:mod:`~conformance.fuzz.driver`);
hands carry side checks (:mod:`~conformance.fuzz.checks`): setups to be
refused (:mod:`~conformance.fuzz.faults`), counts at states from play, and
their actions respelled, each only where the candidate's handshake allows;
their answers are compared on the fields the protocol schemas define
(:mod:`~conformance.fuzz.fields`). The search (:mod:`~conformance.fuzz.guided`)
splits a campaign into independent lanes, each steering toward the rule
outcomes it has not met (``reference_engine.outcomes``); lanes spread over
``--jobs`` processes or ``--shard`` machines with the same results, and every
campaign prints its outcome coverage. The first disagreement is shrunk to the
fewest actions and written as a YAML scenario whose expectations are the
reference's answers, then run through the conformance runner to confirm that
it passes on the reference and fails on the candidate
(:mod:`~conformance.fuzz.scenario`). ``--search hypothesis`` lets Hypothesis
draw and shrink every choice instead.

>>> from conformance.fuzz import FuzzConfig, fuzz
>>> report = fuzz(FuzzConfig.of(engine="reference", hands=3, out=None))
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
    if name in ("DEFAULT_OUT", "FuzzConfig", "FuzzConfigError"):
        from . import config

        return getattr(config, name)
    if name in __all__:
        from . import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
