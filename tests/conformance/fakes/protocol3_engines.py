"""Engines for protocol 3's word on options (spec/PROTOCOL.md, "Options an engine does not follow").

Factories for ``python:protocol3_engines:NAME`` (this directory is on sys.path
in the conformance tests). Each is the reference with its handshake and its
reading of ``options`` changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fixed_profile import FixedProfileSession, NotFollowed

from reference_engine.profile import DEFAULT_PROFILE, Profile
from reference_engine.wire import Session

FOLLOWS = {"D7": ["same-suit", "any-suit"]}
"""What the partly configurable engine can follow besides its defaults."""


class PartlyConfigurable(Session):
    """Follows either option of D7 when asked, and every other decision at its default only."""

    def __init__(self, speaks: int = 3, declared: Any = None) -> None:
        super().__init__()
        self.speaks = speaks
        self.declared = FOLLOWS if declared is None else declared

    def _hello(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["protocol"] > self.speaks:
            return {"ok": False, "error": {"kind": "unsupported", "message": f"I speak {self.speaks}"}}
        answer = super()._hello(message)
        answer["configurable"] = self.declared
        return answer

    def _profile(self, message: dict[str, Any]) -> Profile:
        asked: Mapping[str, str] = message.get("options") or {}
        profile = Profile.from_options(asked)  # unknown: bad-setup
        defaults = DEFAULT_PROFILE.options()
        other = [d for d, o in asked.items() if o != defaults.get(d) and o not in FOLLOWS.get(d, ())]
        if other:
            raise NotFollowed(f"this engine follows {other[0]} at {defaults.get(other[0])} only", rule=other[0])
        return profile


class IgnoresOptions(FixedProfileSession):
    """Not configurable, and plays every start at its defaults whatever options it is sent."""

    def _profile(self, message: dict[str, Any]) -> Profile:
        return self.fixed


class SpeaksTwo(FixedProfileSession):
    """Not configurable, protocol 2 at most."""

    def _hello(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["protocol"] > 2:
            return {"ok": False, "error": {"kind": "unsupported", "message": "I speak 2"}}
        return super()._hello(message)


def partly_configurable() -> PartlyConfigurable:
    return PartlyConfigurable()


def map_under_protocol_2() -> PartlyConfigurable:
    return PartlyConfigurable(speaks=2)


def fixed_defaults() -> FixedProfileSession:
    return FixedProfileSession({})


def ignores_options() -> IgnoresOptions:
    return IgnoresOptions({})


def fixed_defaults_protocol_2() -> SpeaksTwo:
    return SpeaksTwo({})


def protocol_1_declaring_batch() -> Any:
    """A protocol-1 engine whose hello names protocol 2's batch and divide (issue 20.3: the fuzzer sent it batch)."""
    from contract_engines import Recording

    return Recording(("pattern", "count", "observe", "batch", "divide", "x-own"), protocol=1)
