"""What a fuzz campaign is asked to do, split by concern.

:class:`FuzzConfig` holds one part per concern, each a frozen record:

- :class:`EngineConfig`: the candidate and how it is reached (spec, timeout, validation, batch);
- :class:`CampaignConfig`: what is played, the campaign's identity (hands, seed, lanes, options, setups);
- :class:`CompareConfig`: what is compared, and when (observations, states);
- :class:`StrategyConfig`: how hands are searched (guided or Hypothesis, playout, shrinking);
- :class:`SplitConfig`: where it runs (processes, the shard of a CI matrix);
- :class:`OutputConfig`: what is written (scenarios, their verification, the JSON report).

:meth:`FuzzConfig.of` builds one from the fields' names, whatever part each belongs to:

>>> config = FuzzConfig.of(engine="reference", hands=3, out=None)
>>> config.campaign.hands, config.output.out, config.strategy.search
(3, None, 'guided')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConformanceError
from .moves import SETUP_KINDS

CHECK_KINDS = ("setup", "count", "variant", "pattern", "deals")
"""The side checks a hand may carry: a setup to be refused, a count at one of its states, its actions
respelled (conformance.fuzz.checks)."""

DEFAULT_OUT = Path("fuzz-findings")
"""Relative to the working directory: the fuzzer never writes into the installed package."""
DEFAULT_LANES = 8


class FuzzConfigError(ConformanceError):
    """Options that the candidate or the reference cannot play under."""


@dataclass(frozen=True)
class EngineConfig:
    """The engine under test and how it is reached."""

    engine: Any  # engine spec text, EngineSpec, Engine, Adapter or a factory callable
    label: str | None = None
    timeout: float | None = 10.0
    validate: bool = False  # validate every answer against its schema (else only an answer about to disagree)
    direct: bool = True  # an in-process candidate's answers taken as they are (no JSON copies)
    batch: bool | None = None  # a whole hand per request; None: if the candidate declares it
    reference_factory: Callable[[], Any] | None = None  # a variant of the reference to compare against


@dataclass(frozen=True)
class CampaignConfig:
    """What is played: with the strategy, the campaign's identity (two runs of it play the same hands)."""

    hands: int = 200
    seed: int = 0
    lanes: int = DEFAULT_LANES
    options: Mapping[str, str] | None = None  # None: the candidate's declared options
    setup_kinds: tuple[str, ...] = SETUP_KINDS
    game: bool = False  # whole four-hand games instead of single hands
    probe_percent: int = 15
    checks: tuple[str, ...] = CHECK_KINDS  # side checks of the hands (conformance.fuzz.checks)


@dataclass(frozen=True)
class CompareConfig:
    """What is compared: observations (None: every step if the candidate can), states every step or last."""

    observe: bool | str | None = None
    states: str = "every"


@dataclass(frozen=True)
class StrategyConfig:
    """How hands are searched (:data:`conformance.fuzz.strategy.STRATEGIES`)."""

    search: str = "guided"
    playout: bool = True  # guided: the reference plays 3 hands in 4 in one `batch` with `playout`
    shrink: bool = True
    shrink_seconds: float | None = 60.0


@dataclass(frozen=True)
class SplitConfig:
    """Where the campaign runs: processes, and the shard (I, N) of a CI matrix."""

    jobs: int = 1
    shard: tuple[int, int] | None = None


@dataclass(frozen=True)
class OutputConfig:
    """What is written: the scenario of a finding (``out`` None: nothing), its verification, the report."""

    out: Path | None = DEFAULT_OUT
    verify: bool = True
    report: Path | None = None
    max_failure_scenarios: int = 3
    spec_dir: Path | None = None  # default: the repository's spec/


_PARTS: dict[str, type[Any]] = {
    "engine": EngineConfig, "campaign": CampaignConfig, "compare": CompareConfig,
    "strategy": StrategyConfig, "split": SplitConfig, "output": OutputConfig,
}


@dataclass(frozen=True)
class FuzzConfig:
    engine: EngineConfig
    campaign: CampaignConfig = field(default_factory=CampaignConfig)
    compare: CompareConfig = field(default_factory=CompareConfig)
    strategy: StrategyConfig = field(default_factory=StrategyConfig)
    split: SplitConfig = field(default_factory=SplitConfig)
    output: OutputConfig = field(default_factory=OutputConfig)

    @classmethod
    def of(cls, **fields: Any) -> FuzzConfig:
        """A config from field names of any part (``hands=``, ``out=``, ``search=``…); a name no part has
        is a TypeError, as for any constructor."""
        given: dict[str, dict[str, Any]] = {part: {} for part in _PARTS}
        owner = {f.name: part for part, kind in _PARTS.items() for f in dataclasses.fields(kind)}
        for name, value in fields.items():
            if name not in owner:
                raise TypeError(f"FuzzConfig has no field {name!r}")
            given[owner[name]][name] = value
        if "engine" not in given["engine"]:
            raise TypeError("FuzzConfig.of() needs engine=")
        return cls(**{part: _PARTS[part](**values) for part, values in given.items()})

    def replace(self, **fields: Any) -> FuzzConfig:
        """This config with some fields (of any part) changed."""
        owner = {f.name: part for part, kind in _PARTS.items() for f in dataclasses.fields(kind)}
        parts: dict[str, Any] = {}
        for name, value in fields.items():
            if name not in owner:
                raise TypeError(f"FuzzConfig has no field {name!r}")
            part = owner[name]
            parts[part] = dataclasses.replace(parts.get(part, getattr(self, part)), **{name: value})
        return dataclasses.replace(self, **parts)
