"""Marks for the whole test tree (pyproject.toml registers them), and the full suite's list of slow steps.

``slow``: the tests that took 6 s or more each in a whole run on this project's 2-core machine
(under load, about four times their time on idle cores), and those that took 0.5 s of CPU or more
(children included) in the quick subset; together they are most of the suite's time.
``python -m pytest -m 'not slow and not wheel'`` leaves them out while you work; CI and the
README's test command run everything. Kept here, by node ID, so that one list says what is slow.

Two kinds of test build something before they can start, and carry a marker of their own (and
``slow``, so that the quick subset never builds anything):

* ``rulebook``: every test that asks for the built book (the ``book`` fixtures of tests/rulebook)
  or runs Sphinx itself (``RULEBOOK`` below); the fixture says on the terminal what it builds;
* ``browser``: every test that drives headless Chromium (the ``browser`` fixtures).

The tests of tests/site that ask for its reports or its site (``reports``, ``built``, ``site``: the corpus
run twice, a fuzz campaign and a site in five languages, about 30 s of CPU) are ``slow`` too.

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
    "tests/play/test_browser_reconnect.py",
    "tests/play/test_capacity_benchmark.py",
    "tests/play/test_store_sync.py::test_sync_normal_keeps_every_move_a_seat_was_told_across_a_kill_9",
    "tests/play/test_hidden.py::test_every_view_of_1000_random_bot_games_holds_only_what_its_seat_may_know",
    # Issue 30: every test that took 0.5 s of CPU or more (its children included) in a quick run from
    # a fresh clone, but those of tests/test_readme.py and the corpus's validity, which tell a user who
    # just added a scenario what to do; together they were 160 of the quick subset's 230 s of CPU.
    "tests/builds/test_equal_events.py::test_no_compiled_module_compares_two_events_or_alike_by_identity",
    "tests/conformance/test_contract.py::test_unsupported_for_a_declared_capability_is_an_error_in_protocol_2_and_a_skip_in_1",
    "tests/conformance/test_loader.py::test_a_duplicate_id_blames_the_new_file_outside_the_corpus_and_names_both",
    "tests/conformance/test_merge_hostile.py::test_a_run_and_its_merge_from_the_command_line",
    "tests/conformance/test_merge_hostile.py::test_real_shards_validate_against_the_schema_and_merge_into_the_whole_run",
    "tests/conformance/test_parallel.py::test_a_signal_keeps_every_result_streamed_so_far_and_ends_every_worker",
    "tests/conformance/test_parallel.py::test_a_signal_landing_before_a_fuzz_worker_runs_ends_it_quietly",
    "tests/conformance/test_parallel.py::test_a_signal_landing_before_the_worker_runs_ends_it_quietly",
    "tests/conformance/test_parallel.py::test_a_worker_that_dies_leaves_its_scenarios_as_errors_naming_why",
    "tests/conformance/test_parallel.py::test_no_worker_outlives_a_main_process_killed_outright",
    "tests/conformance/test_parallel.py::test_the_loop_tells_listeners_every_request_answer_step_and_result",
    "tests/conformance/test_protocol3.py::test_a_partly_configurable_engine_is_skipped_for_exactly_the_options_it_cannot_follow",
    "tests/engine/test_events.py::test_every_kind_of_event_a_hand_makes_is_met",
    "tests/engine/test_observation_events.py::test_no_seat_sees_another_seats_hidden_cards_over_random_hands",
    "tests/engine/test_wire.py::test_a_count_at_depth_8_from_a_deal_is_refused_within_seconds",
    "tests/engine/test_wire.py::test_the_request_shapes_accept_exactly_what_the_schemas_accept",
    "tests/fuzz/test_classify.py::test_the_runner_and_the_fuzzer_agree_on_a_broken_answer",
    "tests/fuzz/test_fuzz.py::test_a_crashing_subprocess_is_restarted",
    "tests/fuzz/test_fuzz.py::test_a_wrong_observed_dealer_is_written_as_a_verified_scenario",
    "tests/fuzz/test_fuzz.py::test_an_observation_disagreement_is_written_as_a_scenario_with_an_observe_expectation",
    "tests/fuzz/test_guided.py::test_a_bad_shard_is_a_clear_error",
    "tests/fuzz/test_guided.py::test_an_engine_sending_only_the_required_fields_fuzzes_clean",
    "tests/fuzz/test_guided.py::test_game_mode_finds_a_misreading_visible_across_hands_and_writes_a_game_scenario",
    "tests/fuzz/test_guided.py::test_the_reference_plays_every_guided_hand_in_one_request_and_probes_in_one_more",
    "tests/fuzz/test_interrupt.py::test_a_dead_worker_ends_the_campaign_at_once_with_its_lanes_errored",
    "tests/fuzz/test_interrupt.py::test_an_interrupted_campaign_reports_every_finished_hand",
    "tests/fuzz/test_kinds.py::test_a_count_within_a_game_goes_to_protocol_3_engines_only",
    "tests/fuzz/test_kinds.py::test_a_protocol_1_engine_is_sent_only_what_it_declared_and_still_every_kind",
    "tests/fuzz/test_kinds.py::test_a_side_check_disagreement_is_written_as_a_scenario_of_its_kind",
    "tests/fuzz/test_kinds.py::test_a_side_check_disagreement_no_scenario_can_hold_is_reported_and_its_trace_written",
    "tests/fuzz/test_kinds.py::test_each_kind_finds_a_fault_that_no_other_kind_meets",
    "tests/hostile/test_answer_bounds.py::test_a_padding_engine_costs_the_fuzzer_about_the_timeout_per_hand",
    "tests/hostile/test_fault_injection.py::test_escapes_and_control_characters_never_reach_the_terminal",
    "tests/mutants/test_catalogue.py::test_the_reference_counts_every_count_scenario_within_the_mutant_node_limit",
    # a miswiring plays like the reference: a fuzz campaign tells it apart
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[pattern-sets-as-runs]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[batch-setup-refused-whole]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[missing-deal-illegal]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[count-into-the-next-deal]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[divide-of-every-depth]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[batch-stops-at-a-refused-step]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[dreamer-card-after-a-won-hand]",
    "tests/mutants/test_catalogue.py::test_mutant_differs_from_the_reference[text-split-at-spaces-only]",
    "tests/fuzz/test_fuzz.py::test_a_spelling_with_other_white_space_is_written_double_quoted_and_verified",
    "tests/play/test_cli_and_table.py::test_options_are_validated_against_the_spec",
    "tests/play/test_doors.py::test_a_freed_table_gives_its_memory_back",
    "tests/play/test_server.py::test_every_message_over_real_sockets_fits_what_its_seat_may_know",
    "tests/rl/test_encoding.py::test_incremental_tensors_equal_those_built_from_the_observation",
    "tests/rl/test_replay.py::test_recorded_episodes_replay_to_the_same_scores",
    "tests/rl/test_sampling.py::test_every_consistent_history_is_drawn_about_equally_often",
    "tests/rulebook/test_spec_reader.py::test_a_scenario_the_harness_refuses_stops_the_book",
    "tests/rulebook/test_spec_reader.py::test_an_area_without_a_msgid_stops_the_book",
    "tests/rulebook/test_spec_reader.py::test_the_book_reads_what_the_harness_reads",
    "tests/builds/test_setup.py::test_the_build_falls_back_to_pure_and_says_why",
    "tests/conformance/test_cli.py::test_console_entry_point_bad_yaml_has_no_traceback",
    "tests/conformance/test_merge_hostile.py::test_a_huge_report_of_invented_ids_is_refused_quickly",
    "tests/engine/test_observation_events.py::test_no_seat_sees_another_seats_hidden_cards_over_random_games",
    "tests/engine/test_patterns.py::test_classify_matches_oracle_on_larger_sets",
    "tests/engine/test_wire_events.py::test_every_event_text_fits_the_schema",
    "tests/fuzz/test_classify.py::test_nan_over_the_wire_is_a_protocol_error",
    "tests/fuzz/test_fuzz.py::test_a_crashing_candidate_is_reported_and_fuzzing_goes_on",
    "tests/fuzz/test_fuzz.py::test_reference_against_itself_finds_nothing",
    "tests/fuzz/test_guided.py::test_a_pipelined_subprocess_campaign_reports_what_an_in_process_one_does",
    "tests/fuzz/test_guided.py::test_a_protocol_2_candidate_is_sent_its_seeds_as_decimal_strings",
    "tests/fuzz/test_guided.py::test_fields_no_schema_defines_are_never_compared",
    "tests/fuzz/test_guided.py::test_jobs_two_gives_the_results_of_one_process",
    "tests/fuzz/test_guided.py::test_shards_merged_are_the_whole_campaign",
    "tests/fuzz/test_interrupt.py::test_no_worker_outlives_a_parent_killed_outright",
    "tests/fuzz/test_kinds.py::test_every_kind_prints_its_coverage",
    "tests/hostile/test_fault_injection.py::test_child_holding_the_pipes_is_an_error_at_once_and_is_killed",
    "tests/hostile/test_fault_injection.py::test_hang_in_process_never_piles_up_threads",
    "tests/hostile/test_fault_injection.py::test_hang_subprocess_is_a_timeout_and_killed",
    "tests/hostile/test_fault_injection.py::test_hostile_engine_is_classified_bounded_reported_and_gone",
    "tests/hostile/test_fault_injection.py::test_memory_hog_in_process_is_an_error_and_the_run_goes_on",
    "tests/hostile/test_fault_injection.py::test_memory_hog_subprocess_is_killed_and_the_runner_stays_small",
    "tests/hostile/test_fault_injection.py::test_spin_in_process_is_interrupted_and_the_thread_ends",
    "tests/hostile/test_inputs.py::test_an_alias_bomb_is_refused_at_its_line_in_bounded_time_and_memory",
    "tests/hostile/test_processes.py::test_eleven_engines_that_leave_a_child_on_their_pipes_leak_no_thread_descriptor_or_process",
    "tests/mutants/test_catalogue.py::test_control_is_the_reference_under_defaults",
    "tests/play/test_bots_off_loop.py::test_a_bot_that_never_answers_is_given_up_after_the_bound",
    "tests/play/test_doors.py::test_a_new_socket_costs_one_view_not_one_per_open_socket",
    "tests/play/test_i18n.py::test_every_page_is_served_in_the_language_asked_arabic_right_to_left",
    "tests/play/test_replay.py::test_every_scenario_of_the_corpus_replays_without_a_problem",
    "tests/play/test_online.py::test_the_public_view_of_60_random_games_holds_only_what_anyone_may_know",
    "tests/play/test_online.py::test_a_finished_game_is_kept_and_each_hand_is_a_scenario_that_check_and_run_accept",
    "tests/play/test_online.py::test_every_message_a_spectator_receives_passes_the_seats_leak_probe",
    "tests/play/test_online.py::test_the_clock_hands_a_seat_to_a_bot_and_the_persons_return_hands_it_back",
    "tests/play/test_online.py::test_a_person_who_leaves_is_replaced_by_a_bot_for_good_even_after_a_restart",
    "tests/play/test_network.py",
    "tests/rl/test_openspiel.py::test_a_state_of_a_hand_is_the_state_its_history_leads_to",
    "tests/rl/test_openspiel.py::test_the_python_level_methods_give_what_pyspiels_cpp_methods_give_at_every_state",
    "tests/rl/test_game_episodes.py::test_an_openspiel_game_passes_openspiels_checks",
    "tests/rl/test_game_episodes.py::test_a_game_episode_passes_pettingzoos_own_tests",
    "tests/rl/test_game_episodes.py::test_an_openspiel_game_of_four_hands",
    "tests/rl/test_game_episodes.py::test_the_search_values_a_state_of_a_game_in_the_games_scores",
    "tests/rl/test_rl_steps_floors.py::test_each_peer_line_plays_its_games_and_the_ratios_name_each_peer",
    "tests/rl/test_rl_steps_floors.py::test_the_table_prints_every_line_with_its_ceiling",
    "tests/rl/test_train.py::test_a_short_training_lowers_the_loss_and_its_policy_saves_and_loads",
    "tests/rl/test_train.py::test_the_saved_policy_beats_the_random_bot",
    "tests/rl/test_bots.py::test_a_seed_gives_the_same_moves_whatever_the_time_limit",
    "tests/rl/test_bots.py::test_the_search_bot_plays_in_evaluate_bots_and_at_chance_nodes",
    "tests/rl/test_bots.py::test_without_open_spiel_the_table_works_and_does_not_offer_it",
    "tests/rl/test_bots.py::test_the_choice_depends_on_the_seats_view_only",
    "tests/rl/test_bots.py::test_a_choice_is_legal_and_within_the_time_limit",
    "tests/rl/test_openspiel.py::test_resampling_keeps_the_players_information_state_and_makes_a_real_history",
    "tests/rl/test_layout.py::test_each_writer_writes_each_piece_as_the_reference_does",
    "tests/rl/test_hostile_rl.py::test_tensors_from_four_threads_are_the_single_threaded_ones",
    "tests/rl/test_hostile_rl.py::test_resampling_while_another_seat_is_part_way_through_a_discard",
    "tests/rl/test_fast_encoding.py::test_tensors_equal_the_encoding_when_only_some_seats_look",
    "tests/rl/test_encoding.py::test_the_history_bound_holds_for_long_hands",
    "tests/rulebook/test_catalog_gate.py::test_the_command_fails_on_the_broken_catalog_and_passes_on_french",
    # tests/site: each loads the corpus again and runs part of it (the release's validity stays quick)
    "tests/site/test_site_corpus.py::test_corpus_diff_lists_exactly_the_scenario_added_changed_and_removed",
    "tests/site/test_site_corpus.py::test_every_report_records_the_corpus_version_and_its_content",
    "tests/site/test_site_corpus.py::test_merge_refuses_shards_of_two_corpus_versions",
    # Issue 30, round 3: the quick subset had grown back to 156 s of CPU (146 user + 10 sys) with the
    # merges since; these were its heaviest tests in that run (the results site's link walks alone took
    # 150 s of wall time), each well past 0.5 s of CPU.
    "tests/site/test_site_links.py",
    "tests/site/test_site_pages.py::test_a_report_of_another_corpus_version_is_shown_apart_as_such",
    "tests/rl/test_train.py::test_a_short_training_lowers_the_loss_and_its_policy_saves_and_loads",
    "tests/rl/test_hostile_rl.py::test_tensors_from_four_threads_are_the_single_threaded_ones",
    "tests/conformance/test_parallel.py::test_a_parallel_run_streams_each_result_and_matches_one_process",
    "tests/conformance/test_merge_hostile.py::test_one_shard_alone_is_not_the_whole_run",
    "tests/conformance/test_contract.py::test_seeds_are_strings_for_protocol_2_and_integers_for_protocol_1",
    "tests/conformance/test_smoke.py::test_each_broken_adapter_gets_its_problem_and_advice",
    "tests/play/test_durable.py::test_kill_9_mid_hand_then_the_same_links_reconnect_to_the_same_hand",
    "tests/play/test_durable.py::test_a_move_racing_a_kill_is_kept_or_refused_never_half_applied",
    "tests/play/test_doors.py::test_a_replay_is_built_once_off_the_event_loop",
    "tests/hostile/test_answer_bounds.py::test_the_size_bound_is_configurable_and_every_reference_answer_fits_the_default",
    "tests/fuzz/test_events.py::test_the_fuzzer_finds_a_misreport_and_writes_an_events_scenario",
    "tests/test_doctests.py::test_module_doctests[conformance.suite]",
    "tests/test_doctests.py::test_module_doctests[conformance.listeners]",
    "tests/rulebook/test_catalog_gate.py::test_the_wrong_terms_check_fails_on_the_old_string",
    "tests/rulebook/test_catalog_gate.py::test_the_gate_command_reads_the_tables_catalogs_too",
    "tests/rulebook/test_languages.py::test_an_option_named_after_its_decision_reads_as_code_with_its_translated_name",
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
        site = item.nodeid.startswith("tests/site/") and bool({"reports", "built", "site"} & set(names))
        if builds or site or "browser" in names or item.nodeid.startswith(SLOW):
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
