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

from reference_engine.wire.commands import PROTOCOL_VERSIONS as _EVERY_VERSION

PROTOCOL_VERSIONS = tuple(reversed(_EVERY_VERSION))
"""Every version of the protocol (defined once, in :mod:`reference_engine.wire.commands`), newest first: the
runner asks for each in turn until the engine takes one."""
PROTOCOL_VERSION = PROTOCOL_VERSIONS[0]
"""The version the runner asks for first."""

__all__ = ["PROTOCOL_VERSION", "PROTOCOL_VERSIONS"]
