"""The conformance suite as a program sees it: load, select, run.

One entry point for every user of the suite: the ``hakka-conformance``
command, the pytest plugin, the fuzzer's verifier and the mutation report all
load scenarios and reach engines through it, and so would an engine
project's own script:

>>> from conformance.suite import Suite
>>> suite = Suite.load()
>>> chosen = suite.select(clauses=("PAT-6",), kinds=("pattern",))
>>> results = suite.run("reference", chosen)
>>> sorted({str(r.status) for r in results})
['pass']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .adapters import EngineSpec, parse_engine_spec
from .engine import Engine
from .errors import InputError
from .listeners import Listener, Listeners
from .loader import Filters, Scenario, load_scenarios, select
from .parallel import run_parallel
from .paths import DEFAULT_SCENARIOS_DIR, default_spec_dir, display_path
from .results import Result
from .runner import ScenarioRunner
from .schemas import Schemas, load_schemas
from .specdata import SpecData, load_spec_data


def load_checked_schemas(spec_dir: Path) -> Schemas:
    """The schemas of ``spec_dir/schema``; a broken one is bad input (exit 2), not a traceback."""
    try:
        return load_schemas(spec_dir.resolve() / "schema")
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - jsonschema/referencing errors of a broken --spec
        first = str(exc).splitlines()[0][:300] if str(exc) else ""
        raise InputError(f"{display_path(spec_dir / 'schema')}: broken JSON Schema: {type(exc).__name__}: {first}") from None


@dataclass
class Suite:
    """The spec's schemas and data, and the scenarios loaded and checked against them."""

    spec_dir: Path
    schemas: Schemas
    spec: SpecData
    scenarios: list[Scenario]

    @classmethod
    def load(cls, spec_dir: Path | None = None, scenario_paths: Sequence[Path] | None = None) -> Suite:
        """Load ``spec/`` and the scenarios (the packaged corpus by default, none for ``[]``); raise :class:`InputError`."""
        spec_dir = (spec_dir or default_spec_dir()).resolve()
        if not spec_dir.is_dir():
            raise InputError(f"{spec_dir}: spec directory not found (use --spec DIR)")
        schemas = load_checked_schemas(spec_dir)
        spec = load_spec_data(spec_dir)
        paths = [DEFAULT_SCENARIOS_DIR] if scenario_paths is None else list(scenario_paths)
        scenarios = load_scenarios(paths, schemas, spec) if paths else []
        return cls(spec_dir, schemas, spec, scenarios)

    def select(self, filters: Filters | None = None, **fields: tuple[str, ...]) -> list[Scenario]:
        """The scenarios a filter selects (``ids``, ``clauses``, ``areas``, ``tags``, ``files``, ``kinds``)."""
        return select(self.scenarios, filters or Filters(**fields))

    def engine(self, text: str | EngineSpec, timeout: float | None = 10.0) -> Engine:
        """An engine from its spec (``reference``, ``cmd:…``, ``python:M:F``, or parsed), started lazily."""
        return Engine(parse_engine_spec(text) if isinstance(text, str) else text, self.schemas, timeout=timeout)

    def runner(self, engine: Engine, expected_failures: Mapping[str, str] | None = None,
               diagnosis: Engine | None = None, listeners: Iterable[Listener] = ()) -> ScenarioRunner:
        return ScenarioRunner(engine, self.spec, expected_failures, diagnosis, listeners)

    def run(self, engine: Engine | EngineSpec | str, scenarios: Iterable[Scenario] | None = None,
            expected_failures: Mapping[str, str] | None = None,
            on_result: Callable[[Result], None] | None = None, timeout: float | None = 10.0, *,
            listeners: Iterable[Listener] = (), jobs: int = 1, fail_fast: bool = False,
            diagnosis: Engine | None = None) -> list[Result]:
        """Run ``scenarios`` (all by default) on ``engine``: the one loop that runs scenarios.

        ``listeners`` hear every event of the run (:mod:`conformance.listeners`);
        ``fail_fast`` stops after the first result that fails the run. With
        ``jobs`` > 1 the scenarios run in that many worker processes, each with
        its own engine from the same spec and each running this same loop on its
        part, and every result streams back as it ends
        (:mod:`conformance.parallel`); the results are in the order of
        ``scenarios``. An engine given as text or spec is closed afterwards. An
        interruption (``KeyboardInterrupt``) propagates once the engines are
        closed; the listeners have heard every result finished before it.
        """
        chosen = list(self.scenarios if scenarios is None else scenarios)
        events = Listeners(listeners)
        if on_result is not None:
            events.listeners.append(_OnResult(on_result))
        if jobs > 1 and len(chosen) > 1:
            spec = engine.spec if isinstance(engine, Engine) else (
                parse_engine_spec(engine) if isinstance(engine, str) else engine)
            expected = dict(expected_failures or {})

            def run_part(part: list[Scenario], stream: Listener) -> object:  # in a worker: its own engine
                return self.run(spec, part, expected, timeout=timeout, listeners=[stream])

            return run_parallel(run_part, chosen, jobs, events, fail_fast)
        owned = not isinstance(engine, Engine)
        target = engine if isinstance(engine, Engine) else self.engine(engine, timeout)
        owned_diagnosis = diagnosis is None
        diagnosis = diagnosis or self.engine("reference", timeout)  # started only if a count fails
        try:
            runner = self.runner(target, expected_failures, diagnosis, [events])
            results = []
            for scenario in chosen:
                result = runner.run(scenario)
                results.append(result)
                if fail_fast and result.bad:
                    break
            return results
        finally:
            if owned_diagnosis:
                diagnosis.close()
            if owned:
                target.close()


class _OnResult(Listener):
    def __init__(self, callback: Callable[[Result], None]) -> None:
        self.callback = callback

    def scenario_finished(self, result: Result) -> None:
        self.callback(result)
