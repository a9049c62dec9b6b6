"""Marks for the whole test tree (pyproject.toml registers them), and the full suite's list of slow steps.

``slow``: the tests that took 6 s or more each in a whole run on this project's 2-core machine
(under load, about four times their time on idle cores); together they are most of the suite's
time. ``python -m pytest -m 'not slow and not wheel'`` leaves them out while you work; CI and the
README's test command run everything. Kept here, by node ID, so that one list says what is slow.

Two kinds of test build something before they can start, and carry a marker of their own (and
``slow``, so that the quick subset never builds anything):

* ``rulebook``: every test that asks for the built book (the ``book`` fixtures of tests/rulebook)
  or runs Sphinx itself (``RULEBOOK`` below); the fixture says on the terminal what it builds;
* ``browser``: every test that drives headless Chromium (the ``browser`` fixtures).

At the end of a run that ran slow tests, the terminal summary lists the slow steps and their times.
"""

from __future__ import annotations

import pytest

SLOW = (
    "tests/conformance/test_contract.py::test_capabilities_alone_decide_what_is_sent_and_what_is_skipped",
    "tests/conformance/test_corpus_coverage.py::test_option_is_told_apart_from_the_default",
    "tests/conformance/test_corpus_coverage.py::test_the_whole_corpus_passes_on_the_reference_engine",
    "tests/conformance/test_counts_independent.py::test_counts_equal_the_oracle_perft",
    "tests/conformance/test_decision_sensitivity.py",
    "tests/conformance/test_pytest_plugin.py",
    "tests/rulebook/test_docs_build.py",
    "tests/rulebook/test_transcript.py",
    "tests/engine/test_invariants.py",
    "tests/engine/test_oracle.py",
    "tests/engine/test_patterns.py::test_beats_matches_oracle",
    "tests/engine/test_typing.py",
    "tests/fuzz/test_benchmark_script.py",
    "tests/fuzz/test_fuzz.py::test_finds_the_mutant_and_writes_a_scenario_that_catches_it",
    "tests/fuzz/test_fuzz.py::test_shrinking_makes_the_hand_no_longer",
    "tests/fuzz/test_fuzz.py::test_accepting_an_illegal_action_is_a_reject_scenario",
    "tests/fuzz/test_fuzz.py::test_cli_exit_status_and_output",
    "tests/fuzz/test_fuzz.py::test_options_are_the_scenarios_requirements",
    "tests/fuzz/test_guided.py::test_run_jobs_and_merged_shards_give_the_results_of_one_process",
    "tests/fuzz/test_kinds.py::test_the_default_campaign_of_1000_hands_with_seed_0_reaches_every_class_and_says_so",
    "tests/hostile/test_exit_codes.py::test_every_cell_of_the_exit_status_table_is_true",
    "tests/hostile/test_fault_injection.py::test_reasons_name_the_fault",
    "tests/hostile/test_inputs.py::test_check_honours_the_filters",
    "tests/hostile/test_processes.py::test_a_signal",
    "tests/mutants/test_report.py",
    "tests/play/test_browser.py",
    "tests/play/test_hidden.py::test_every_view_of_1000_random_bot_games_holds_only_what_its_seat_may_know",
)


# Tests that run Sphinx without the ``book`` fixture (a tiny book of their own, or the book's own run).
RULEBOOK = (
    "tests/rulebook/test_i18n.py::test_a_changed_clause_comes_back_fuzzy",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = getattr(item, "fixturenames", ())
        builds = "book" in names or item.nodeid.startswith(RULEBOOK)
        if builds:
            item.add_marker(pytest.mark.rulebook)
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if builds or "browser" in names or item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


_slow_times: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "slow" in report.keywords:
        _slow_times[report.nodeid] = _slow_times.get(report.nodeid, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The slow steps of this run (setup, call and teardown of each ``slow`` test), longest first."""
    if not _slow_times:
        return
    total = sum(_slow_times.values())
    terminalreporter.write_sep("=", f"slow steps: {len(_slow_times)} tests marked slow took {total:.0f} s")
    for nodeid, seconds in sorted(_slow_times.items(), key=lambda kv: -kv[1])[:15]:
        terminalreporter.write_line(f"{seconds:8.1f} s  {nodeid}")
    terminalreporter.write_line("(tests/conftest.py lists them; -m 'not slow and not wheel' leaves them out)")
