"""The Hakka Cards conformance runner.

Runs the scenarios of ``conformance/scenarios/`` against any engine that speaks
the adapter protocol of ``spec/PROTOCOL.md``, in-process (``python:MODULE:FACTORY``)
or as a subprocess (``cmd:COMMAND``). It knows the protocol, the scenario format
and the card notation, and nothing of the game's rules: every expectation comes
from a scenario file.

Entry points: the ``hakka-conformance`` command (:mod:`conformance.cli`), the
pytest plugin (:mod:`conformance.pytest_plugin`) and, for programs,
:class:`conformance.suite.Suite`.
"""

from reference_engine.wire.commands import PROTOCOL_VERSION, PROTOCOL_VERSIONS

ASKING_ORDER = tuple(reversed(PROTOCOL_VERSIONS))
"""The versions of the protocol (:data:`PROTOCOL_VERSIONS`, defined once, in :mod:`reference_engine.wire.commands`,
oldest first) in the order the runner asks for them, newest first, until the engine takes one;
the first is :data:`PROTOCOL_VERSION`."""

__all__ = ["ASKING_ORDER", "PROTOCOL_VERSION", "PROTOCOL_VERSIONS"]
