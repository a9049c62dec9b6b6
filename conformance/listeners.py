"""What a run does, told to whoever listens: progress, transcripts, capture, reporters.

The scenario runner (:mod:`conformance.runner`) and the one run loop
(:meth:`conformance.suite.Suite.run`) emit events; each consumer is a
:class:`Listener` that overrides the events it cares about:

- ``engine_started(info)``: the engine answered ``hello`` (again after a restart);
- ``scenario_started(scenario)``: the loop is about to run a scenario;
- ``step_begun(scenario, at, line)``: the runner moves to ``setup``, ``steps[3]``,
  ``final``, ``count``… (``line`` in the scenario file);
- ``request_sent(scenario, message)`` / ``answer_received(scenario, message, answer)``:
  one exchange with the engine (no answer arrives when the engine failed);
- ``scenario_finished(result)``: its :class:`~conformance.results.Result`;
- ``run_finished(record)``: the whole run, as reporters write it
  (:class:`conformance.results.RunRecord`).

In a parallel run (``--jobs N``) the workers' scenarios are announced and
their results streamed to the main process as each one ends; requests and
answers stay inside the worker (a transcript travels with each failed result).

>>> class Counter(Listener):
...     sent = 0
...     def request_sent(self, scenario, message):
...         self.sent += 1
>>> from conformance.suite import Suite
>>> suite = Suite.load()
>>> counter = Counter()
>>> chosen = suite.select(ids=("dec-d7-any-suit-higher-other-suit-beats",))
>>> [str(r.status) for r in suite.run("reference", chosen, listeners=[counter])]
['pass']
>>> counter.sent
1
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .results import Result, RunRecord

if TYPE_CHECKING:
    from .engine import EngineInfo
    from .loader import Scenario

Exchange = tuple[dict[str, Any], "dict[str, Any] | None"]


class Listener:
    """Receives the events of a run; every method does nothing unless overridden."""

    def engine_started(self, info: EngineInfo) -> None:
        """The engine (re)started and answered ``hello`` with ``info``."""

    def scenario_started(self, scenario: Scenario) -> None:
        """The loop is about to run ``scenario``."""

    def step_begun(self, scenario: Scenario, at: str, line: int | None) -> None:
        """The runner moved to part ``at`` of ``scenario`` (``setup``, ``steps[2]``, ``final``…)."""

    def request_sent(self, scenario: Scenario, message: dict[str, Any]) -> None:
        """``message`` goes to the engine."""

    def answer_received(self, scenario: Scenario, message: dict[str, Any], answer: dict[str, Any]) -> None:
        """The engine answered ``message`` with ``answer`` (valid against its schema)."""

    def scenario_finished(self, result: Result) -> None:
        """A scenario ended with ``result``."""

    def run_finished(self, record: RunRecord) -> None:
        """The run ended (completely or not): ``record`` is what a report holds."""


class Listeners(Listener):
    """Several listeners as one: each event goes to each, in order."""

    def __init__(self, listeners: Iterable[Listener] = ()) -> None:
        self.listeners = list(listeners)

    def engine_started(self, info: EngineInfo) -> None:
        for listener in self.listeners:
            listener.engine_started(info)

    def scenario_started(self, scenario: Scenario) -> None:
        for listener in self.listeners:
            listener.scenario_started(scenario)

    def step_begun(self, scenario: Scenario, at: str, line: int | None) -> None:
        for listener in self.listeners:
            listener.step_begun(scenario, at, line)

    def request_sent(self, scenario: Scenario, message: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener.request_sent(scenario, message)

    def answer_received(self, scenario: Scenario, message: dict[str, Any], answer: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener.answer_received(scenario, message, answer)

    def scenario_finished(self, result: Result) -> None:
        for listener in self.listeners:
            listener.scenario_finished(result)

    def run_finished(self, record: RunRecord) -> None:
        for listener in self.listeners:
            listener.run_finished(record)


class Transcript(Listener):
    """The last exchanges of the scenario in progress, as a failed result keeps them.

    ``stored`` shapes an answer for keeping (a large one is clipped).
    """

    def __init__(self, kept: int, stored: Any = None) -> None:
        self.exchanges: deque[Exchange] = deque(maxlen=kept)
        self._stored = stored or (lambda answer: answer)

    def scenario_started(self, scenario: Scenario) -> None:
        self.exchanges.clear()

    def request_sent(self, scenario: Scenario, message: dict[str, Any]) -> None:
        self.exchanges.append((message, None))

    def answer_received(self, scenario: Scenario, message: dict[str, Any], answer: dict[str, Any]) -> None:
        if self.exchanges and self.exchanges[-1][0] is message:
            self.exchanges[-1] = (message, self._stored(answer))

    def take(self) -> tuple[Exchange, ...]:
        kept = tuple(self.exchanges)
        self.exchanges.clear()
        return kept


class Capture(Listener):
    """Every exchange of every scenario, in order, to replay or inspect a run afterwards.

    ``by_step(id)`` groups a scenario's exchanges under the part of it each was made in
    (``setup``, ``steps[3]``, ``prefix[0]``, ``final``…), as the runner told them.
    """

    def __init__(self) -> None:
        self.exchanges: dict[str, list[Exchange]] = {}
        self.steps: dict[str, list[tuple[str, int | None]]] = {}
        self._step_of: dict[str, list[int]] = {}

    def scenario_started(self, scenario: Scenario) -> None:
        self.exchanges[scenario.id] = []
        self.steps[scenario.id] = []
        self._step_of[scenario.id] = []

    def step_begun(self, scenario: Scenario, at: str, line: int | None) -> None:
        self.steps.setdefault(scenario.id, []).append((at, line))

    def request_sent(self, scenario: Scenario, message: dict[str, Any]) -> None:
        self.exchanges.setdefault(scenario.id, []).append((message, None))
        self._step_of.setdefault(scenario.id, []).append(len(self.steps.get(scenario.id, ())) - 1)

    def answer_received(self, scenario: Scenario, message: dict[str, Any], answer: dict[str, Any]) -> None:
        log = self.exchanges.setdefault(scenario.id, [])
        if log and log[-1][0] is message:
            log[-1] = (message, answer)

    def by_step(self, scenario_id: str) -> dict[str, list[Exchange]]:
        """The exchanges of each part of the scenario the runner reached, by its name (``steps[3]``)."""
        out: dict[str, list[Exchange]] = {at: [] for at, _ in self.steps.get(scenario_id, ())}
        steps = self.steps.get(scenario_id, [])
        for exchange, index in zip(self.exchanges.get(scenario_id, ()), self._step_of.get(scenario_id, ()), strict=True):
            if index >= 0:
                out[steps[index][0]].append(exchange)
        return out


class Collector(Listener):
    """The results as they arrive (in a parallel run, not in the selection's order), and the engine's ``hello``."""

    def __init__(self) -> None:
        self.results: list[Result] = []
        self.info: EngineInfo | None = None

    def engine_started(self, info: EngineInfo) -> None:
        self.info = info

    def scenario_finished(self, result: Result) -> None:
        self.results.append(result)

    def ordered(self, selection: Sequence[Scenario]) -> list[Result]:
        """The results in the order of ``selection`` (those not run are absent)."""
        position = {s.id: i for i, s in enumerate(selection)}
        return sorted(self.results, key=lambda r: position.get(r.id, len(position)))
