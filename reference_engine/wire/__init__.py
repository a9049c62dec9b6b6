"""The reference engine's side of the conformance protocol (spec/PROTOCOL.md).

Pure: a :class:`Session` turns one request dict into one response dict, with
no I/O. ``python -m reference_engine`` wraps it in the line-delimited JSON
loop; the conformance runner's in-process adapter calls it directly.

- :mod:`.commands`: the one table of commands (schemas, shape, handler,
  capability, versions), from which dispatch, request checks and the
  handshake's capabilities derive;
- :mod:`.shapes`: the request shapes of ``spec/schema/protocol/`` as
  standard-library checks (a test keeps them in step with the schemas);
- :mod:`.session`: the handlers; :mod:`.playout`: the random player of
  ``batch``; :mod:`.shaping`: the wire form of the engine's values.

>>> s = Session()
>>> s.handle({"cmd": "hello", "protocol": 2})["engine"]["name"]
'hakka-reference'
>>> s.handle({"cmd": "pattern", "classify": "Sup3 Sup4 Sup5"})
{'ok': True, 'pattern': 'run'}
>>> s.handle({"cmd": "observe", "seat": True})["error"]["kind"]
'malformed'
"""

from __future__ import annotations

from typing import Final

from .commands import CAPABILITY_ORDER, COMMANDS, PROTOCOL_VERSION, PROTOCOL_VERSIONS, Command, Feature, capabilities
from .session import BATCH_ANSWER_LIMIT, COUNT_NODE_LIMIT, MAX_DEPTH, Session, request_problem
from .shapes import MAX_SEED
from .shaping import events_json, legal_json, observation_json, result_json

CAPABILITIES: Final = capabilities(PROTOCOL_VERSION)
"""What the reference offers under the newest protocol (the vocabulary is in hello.response.schema.json)."""

__all__ = [
    "BATCH_ANSWER_LIMIT", "CAPABILITIES", "CAPABILITY_ORDER", "COMMANDS", "COUNT_NODE_LIMIT", "MAX_DEPTH", "MAX_SEED",
    "PROTOCOL_VERSION", "PROTOCOL_VERSIONS", "Command", "Feature", "Session", "capabilities", "events_json", "legal_json",
    "observation_json", "request_problem", "result_json",
]
