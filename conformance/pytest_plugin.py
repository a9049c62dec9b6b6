"""pytest plugin: run the conformance scenarios as pytest items.

Loaded in every pytest run of an environment where the project is installed
(entry point ``pytest11: hakka``), so **without** ``--hakka-engine`` it only
declares its options: it collects nothing and changes nothing.

With it::

    pytest --hakka-engine=reference conformance/scenarios
    pytest --hakka-engine="cmd:./my-engine" --hakka-scenarios=DIR DIR -k PLAY-4

one item per scenario, node ID ``<file>::<scenario id>``; clause IDs, areas and
tags are keywords (``-k``). A scenario the runner skips is a pytest skip; one
listed in ``--hakka-expected-failures`` is marked ``xfail(strict=True)``, so a
listed scenario that passes fails the run (XPASS strict), like the CLI's xpass.
When no scenario file is among the collected paths, the scenarios of
``--hakka-scenarios`` (default ``conformance/scenarios``) are added to the
session.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .adapters import ENGINE_SPEC_HELP, parse_engine_spec
from .engine import Engine
from .errors import InputError
from .expected import load_expected_failures
from .loader import Scenario
from .paths import DEFAULT_SCENARIOS_DIR
from .report import failure_details
from .results import PASS, SKIP, Result
from .suite import Suite


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hakka", "Hakka Cards conformance scenarios")
    group.addoption("--hakka-engine", metavar="ENGINE", default=None,
                    help="run the conformance scenarios against ENGINE (reference, reference-subprocess, "
                         "python:MODULE:FACTORY or cmd:COMMAND); without it this plugin does nothing")
    group.addoption("--hakka-scenarios", metavar="DIR", default=None,
                    help=f"scenario directory or file (default: {DEFAULT_SCENARIOS_DIR})")
    group.addoption("--hakka-expected-failures", metavar="PATH", default=None,
                    help="expected-failures list (YAML or text) for the engine")
    group.addoption("--hakka-timeout", metavar="SECONDS", type=float, default=10.0,
                    help="per-request timeout (default 10; 0 = none)")
    group.addoption("--hakka-spec", metavar="DIR", default=None, help="the spec/ directory")


def pytest_configure(config: pytest.Config) -> None:
    engine = config.getoption("hakka_engine", default=None)
    if not engine:
        return
    config.pluginmanager.register(HakkaSession(config, engine), "hakka-conformance-session")


class ScenarioFailed(Exception):
    def __init__(self, result: Result) -> None:
        super().__init__(result.reason)
        self.result = result


class HakkaSession:
    """The active part of the plugin, registered only with ``--hakka-engine``."""

    def __init__(self, config: pytest.Config, engine_text: str) -> None:
        try:
            spec_engine = parse_engine_spec(engine_text)
            scenarios_opt = config.getoption("hakka_scenarios")
            self.root = Path(scenarios_opt) if scenarios_opt else DEFAULT_SCENARIOS_DIR
            spec_dir = config.getoption("hakka_spec")
            suite = Suite.load(Path(spec_dir) if spec_dir else None, [self.root])
            xf = config.getoption("hakka_expected_failures")
            self.expected = load_expected_failures(Path(xf)) if xf else {}
        except InputError as exc:
            raise pytest.UsageError("hakka conformance: " + "\n".join(str(p) for p in exc.problems)) from None
        self.spec, self.scenarios = suite.spec, suite.scenarios
        timeout = config.getoption("hakka_timeout")
        self.engine = Engine(spec_engine, suite.schemas, timeout=timeout or None)
        self.diagnosis = suite.engine("reference", timeout or None)
        # Expected failures are left to pytest's xfail(strict=True), so the runner sees none.
        self.runner = suite.runner(self.engine, {}, self.diagnosis)
        self.engine_text = engine_text
        self.by_file: dict[Path, list[Scenario]] = {}
        for s in self.scenarios:
            self.by_file.setdefault(Path(s.document.path).resolve(), []).append(s)
        self.collected_files: set[Path] = set()

    def _owns(self, file_path: Path) -> bool:
        return file_path.resolve() in self.by_file

    def pytest_collect_file(self, file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
        if file_path.suffix == ".yaml" and self._owns(file_path):
            self.collected_files.add(file_path.resolve())
            return ScenarioFile.from_parent(parent, path=file_path, hakka=self)
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        if self.collected_files:
            return
        for path in sorted(self.by_file):
            node = ScenarioFile.from_parent(session, path=path, hakka=self)
            items.extend(node.collect())

    def pytest_report_header(self, config: pytest.Config) -> str:
        return f"hakka conformance: engine {self.engine_text}, {len(self.scenarios)} scenario(s) from {self.root}"

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.engine.close()
        self.diagnosis.close()


class ScenarioFile(pytest.File):
    def __init__(self, *, hakka: HakkaSession, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hakka = hakka

    def collect(self) -> Iterator[pytest.Item]:
        for scenario in self.hakka.by_file.get(self.path.resolve(), []):
            item = ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario, hakka=self.hakka)
            yield item


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, hakka: HakkaSession, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.hakka = hakka
        self.extra_keyword_matches.update(scenario.clauses)
        self.extra_keyword_matches.update(scenario.areas)
        self.extra_keyword_matches.update(scenario.tags)
        self.extra_keyword_matches.add(scenario.kind)
        if scenario.id in hakka.expected:
            reason = hakka.expected[scenario.id] or "listed in the expected-failures file"
            self.add_marker(pytest.mark.xfail(reason=reason, strict=True, raises=ScenarioFailed))

    def runtest(self) -> None:
        result = self.hakka.runner.run(self.scenario)
        if result.stderr:
            self.add_report_section("call", "engine stderr", result.stderr)
        if result.status == PASS:
            return
        if result.status == SKIP:
            try:  # report the skip at the scenario's line, not at this one
                raise pytest.skip.Exception(result.reason, _use_item_location=True)
            except TypeError:  # pragma: no cover - older pytest
                pytest.skip(result.reason)
        raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return failure_details([excinfo.value.result], show_stderr=False)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.scenario.line - 1, f"scenario {self.scenario.id}"


__all__ = ["pytest_addoption", "pytest_configure", "ENGINE_SPEC_HELP"]
