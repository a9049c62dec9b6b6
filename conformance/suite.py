"""The conformance suite as a program sees it: load, select, run.

One entry point for every user of the suite: the ``hakka-conformance``
command, the pytest plugin, the fuzzer's verifier and the mutation report all
load scenarios and reach engines through it, and so would an engine
project's own script:

>>> from conformance.suite import Suite
>>> suite = Suite.load()
>>> chosen = suite.select(clauses=("PAT-6",), kinds=("pattern",))
>>> results = suite.run("reference", chosen)
>>> {r.status for r in results}
{'pass'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .adapters import parse_engine_spec
from .engine import Engine
from .errors import InputError
from .loader import Filters, Scenario, load_scenarios, select
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

    def engine(self, text: str, timeout: float | None = 10.0) -> Engine:
        """An engine from its spec text (``reference``, ``cmd:…``, ``python:M:F``), started lazily."""
        return Engine(parse_engine_spec(text), self.schemas, timeout=timeout)

    def runner(self, engine: Engine, expected_failures: Mapping[str, str] | None = None,
               diagnosis: Engine | None = None) -> ScenarioRunner:
        return ScenarioRunner(engine, self.spec, expected_failures, diagnosis)

    def run(self, engine: Engine | str, scenarios: Iterable[Scenario] | None = None,
            expected_failures: Mapping[str, str] | None = None,
            on_result: Callable[[Result], None] | None = None, timeout: float | None = 10.0) -> list[Result]:
        """Run ``scenarios`` (all by default) on ``engine``; an engine given as text is closed afterwards."""
        owned = isinstance(engine, str)
        target = self.engine(engine, timeout) if isinstance(engine, str) else engine
        diagnosis = self.engine("reference", timeout)
        try:
            runner = self.runner(target, expected_failures, diagnosis)
            results = []
            for scenario in self.scenarios if scenarios is None else scenarios:
                result = runner.run(scenario)
                results.append(result)
                if on_result is not None:
                    on_result(result)
            return results
        finally:
            diagnosis.close()
            if owned:
                target.close()
