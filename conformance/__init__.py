"""The Hakka Cards conformance runner.

Runs the scenarios of ``conformance/scenarios/`` against any engine that speaks
the adapter protocol of ``spec/PROTOCOL.md``, in-process (``python:MODULE:FACTORY``)
or as a subprocess (``cmd:COMMAND``). It knows the protocol, the scenario format
and the card notation, and nothing of the game's rules: every expectation comes
from a scenario file.

Entry points: the ``hakka-conformance`` command (:mod:`conformance.cli`), the
pytest plugin (:mod:`conformance.pytest_plugin`) and, for programs,
:func:`conformance.runner.run_scenarios`.
"""

PROTOCOL_VERSION = 2
"""The version the runner asks for first."""
PROTOCOL_VERSIONS = (2, 1)
"""Every version the runner speaks, newest first: an engine that refuses 2 is asked for 1."""

__all__ = ["PROTOCOL_VERSION", "PROTOCOL_VERSIONS"]
