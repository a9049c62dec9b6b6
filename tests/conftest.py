"""Marks for the whole test tree (pyproject.toml registers them).

``slow``: the tests that took 6 s or more each in a whole run on this project's 2-core machine
(under load, about four times their time on idle cores); together they are most of the suite's
time. ``python -m pytest -m 'not slow and not wheel'`` leaves them out while you work; CI and the
README's test command run everything. Kept here, by node ID, so that one list says what is slow.
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
