"""The reference engine fixed to one decision profile, as an engine that is not configurable.

``python:fixed_profile:FACTORIES.<name>`` (this directory on sys.path) names a
factory registered with :func:`register`: its sessions declare
``configurable: false`` and the given options in ``hello``, and play every
``start``, ``pattern`` (and so ``count``) under that profile. Options a
request carries are answered as protocol 3 asks of a non-configurable engine
(spec/PROTOCOL.md, "Options an engine does not follow"): an unknown decision
or option is ``bad-setup``, a known option other than the one followed is
``unsupported``, and the options it follows are taken. tests/conformance/test_decision_sensitivity.py runs
the corpus through it.

A ``count`` visits at most :data:`COUNT_NODE_LIMIT` positions: a count scenario
run under an option it silently depends on can make the tree explode, and must
then fail at once rather than time out (an abandoned in-process count would go
on running). The reference needs under a quarter of it for any count scenario
(tests/mutants/test_catalogue.py checks that bound).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from reference_engine.errors import HakkaError
from reference_engine.profile import Profile
from reference_engine.wire import Session

COUNT_NODE_LIMIT = 250_000

FACTORIES = SimpleNamespace()
"""Registered factories, by name (an attribute path the in-process adapter can resolve)."""


class FixedProfileSession(Session):
    """A reference session that follows ``options`` and nothing else."""

    def __init__(self, options: Mapping[str, str]) -> None:
        super().__init__()
        self.fixed = Profile.from_options(options)
        self.count_node_limit = COUNT_NODE_LIMIT

    def _hello(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = super()._hello(message)
        answer["configurable"] = False
        answer["options"] = self.fixed.options()
        return answer

    def _profile(self, message: dict[str, Any]) -> Profile:
        asked = message.get("options") or {}
        Profile.from_options(asked)  # an unknown decision or option: bad-setup, as for every engine
        follows = self.fixed.options()
        other = {d: o for d, o in asked.items() if follows.get(d) != o}
        if other:
            raise NotFollowed(f"this engine follows only {', '.join(f'{d}={follows.get(d)}' for d in other)}",
                              rule=next(iter(other)))
        return self.fixed


class NotFollowed(HakkaError):
    """A known option the engine does not follow (protocol 3: ``unsupported``)."""

    kind = "unsupported"


def register(options: Mapping[str, str]) -> str:
    """Register a factory for ``options`` and return the engine spec text that names it."""
    name = "__".join(f"{d}_{o}" for d, o in sorted(options.items(), key=lambda kv: int(kv[0][1:])))
    name = re.sub(r"\W", "_", name) or "defaults"
    fixed = dict(options)
    setattr(FACTORIES, name, lambda: FixedProfileSession(fixed))
    return f"python:fixed_profile:FACTORIES.{name}"
