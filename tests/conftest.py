"""Test tiers.  The tests measured as slow are marked ``slow`` here, in one place, so that no
test file needs editing: ``make test-fast`` (``pytest -m "not slow"``) skips them, ``make
test`` runs everything.

A test is named by its file's name and its function's name (every parametrization of it) or
its full name with one parametrization (``test_x[param]``), so the list survives moving test
files into sub-folders.  The list comes from one measured run of
the whole suite (``pytest --durations=60`` at commit 7911553 on the shared 2-core development
machine, warm numba caches): a test is slow when that run of it took about 5 s or more.  Tests
that share a slow module fixture are marked through the fixture (``SLOW_FIXTURES``).  A test
file may also mark a test itself with ``@pytest.mark.slow``.  With cold numba caches (after an
edit of a kernel file) the first test that calls a kernel pays its compilation, so the fast
tier then takes minutes longer.
"""
from __future__ import annotations

import signal

import pytest

# A run started in the background by a non-interactive shell (``make test &``, a CI script
# under ``nohup``) inherits SIGINT ignored, and so does every command the tests start: the
# Ctrl-C tests then fail (the signal never arrives).  Python's own handler is put back, so
# the tests and their subprocesses see Ctrl-C as a terminal would deliver it.  (Seen in a
# fresh clone run as ``bash run.sh &``: the six Ctrl-C tests failed, the SIGTERM ones passed.)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

SLOW = {
    "test_certify.py": ("test_certified_fraction_is_the_brute_force_value",),
    "test_cli.py": ("test_demo_solver_job",),
    "test_expectimax_agreement.py": ("test_kernel_agrees_with_brute_force",
                                     "test_budgeted_values_are_sound_bounds",
                                     "test_windows_give_sound_bounds"),
    "test_expectimax_bench.py": ("test_an_interrupted_run_resumes_and_loses_nothing",),
    "test_naive_memo.py": ("test_the_memo_gives_the_plain_walks_values_and_caps",),   # 4.5 s
    "test_expectimax_memo_file.py": (
        "test_ctrl_c_stops_the_search_cleanly_and_leaves_sound_entries",
        "test_a_growing_table_makes_room_and_a_small_fixed_one_stays_exact"),
    "test_expectimax_positions.py": ("test_can_still_win_is_sound",
                                     "test_a_ranking_of_sure_wins_is_exact_at_once",
                                     "test_cli_line_starts_with_best_under_a_budget"),
    "test_expectimax_probe.py": ("test_probe_bounds_hold_the_brute_force_value",
                                 "test_budgeted_ranking_gains_lower_bounds_from_probes"),
    "test_expectimax_speedups.py": ("test_free_cards_are_exercised_and_agree",
                                    "test_bound_is_sound_on_every_searched_position",
                                    "test_pick_order_matters",
                                    "test_two_threads_agree_with_brute_force",
                                    "test_two_moon_sun_moon_series_need_a_card_between",
                                    "test_threads_with_budgets_stay_sound"),
    "test_fuzz_positions.py": ("test_mutated_positions_are_refused_or_playable",),
    "test_invariants.py": ("test_solo_chance_playouts", "test_duo_chance_playouts",
                           "test_solo_deal_playouts", "test_duo_deal_playouts",
                           "test_endgame_playouts", "test_deal_games_match_reference_model",
                           "test_chance_mode_agrees_with_deal_mode"),
    "test_kernel_diff.py": ("test_diff_100k_steps",),
    "test_strategy_graph.py": ("test_strategy_value_is_the_brute_force_value",
                               "test_census_counts_the_door_that_is_better_let_go",
                               "test_strategy_graph_of_a_larger_position"),
    "test_view.py": ("test_no_policy_decision_depends_on_the_hidden_order[rollout]",
                     # 28 s at load 5: 256 level-2 playouts per action at late positions
                     "test_no_policy_decision_depends_on_the_hidden_order[late-l2]",
                     # 6.9 s at load 2: n=4096 playouts and 400,000-node searches
                     "test_no_policy_decision_depends_on_the_hidden_order[strongest]"),
    "test_winrate_cli.py": ("test_json_output_resume_and_jobs", "test_kill_9_then_resume"),
}

# Measured again on 2026-12-03 (`pytest -n 2 -m "not slow" --durations=0` just before 342b506,
# warm caches, load 3 to 5): the fast tier took 2 min 9 s of wall time; these tests of 2.8 s
# or more join the slow tier, so that the fast one stays under its 2 minutes.  The paper's
# mutation tests copy the whole paper tree (fixture ``paper``, 2.2 to 3.1 s each): the check
# itself on the committed paper stays in the fast tier.
_SECOND_RUN = {
    "test_expectimax_speedups.py": ("test_deferred_order_equals_best_committed_order",),
    "test_best_cli.py": ("test_text_output_fits_80_columns", "test_every_phase_gets_a_deadline"),
    "test_expectimax_probe.py": ("test_probes_under_node_budgets_stay_sound",),
    "test_policy.py": ("test_greedy_win_rate_is_in_its_band",),
    "test_winrate_honest.py": ("test_kill_9_then_resume",),
    "test_bench.py": ("test_cache_callbacks_reports_both_processes",),
    "test_expectimax_growth.py": ("test_growing_tables_agree_with_the_brute_force",
                                  "test_small_queries_do_not_grow_the_table"),
}
# A third pass, 2026-12-03 after 7a2a864 (`pytest -n 2 -m "not slow" --durations=40` in a
# fresh clone, warm caches, load about 1): `make test-fast` took 135 s of wall time (12 s of
# it the precompile step's cache loads); the fast tests of 2.7 s or more join the slow tier
# (the check of the committed paper, 4.9 s, stays: it is the paper's only fast test).
_THIRD_RUN = {
    "test_expectimax_agreement.py": ("test_replacement_keeps_results_exact",),
    "test_duo_expectimax.py": ("test_each_reduction_alone_gives_the_unreduced_values",),
    "test_winrate_cli.py": ("test_a_foreign_sqlite_file_is_refused",
                            "test_ctrl_c_with_two_jobs_clairvoyant"),
    "test_precompile.py": ("test_one_family_compiles_and_reports_json",),
    "test_honest_kernel.py": ("test_differential_20000_steps",),
    "test_certify.py": ("test_full_engine_key_gives_the_same_fraction",
                        "test_listed_decks_past_eight_cards_certify"),
    "test_duo_kernel.py": ("test_duo_diff_10k_uniform_steps",),
}
# A fourth pass, 2026-12-04 after d5e5c89 (`pytest -n 2 --maxschedchunk 1 -m "not slow"
# --durations=50` in a warm clone, nice -n 19 at load 5 to 8: 543 s of wall, about four times
# the 120-125 s that `make test-fast` took at low load): the fast tests of 11 s or more there
# (about 2.5 s at low load) join the slow tier, so that the fast one gets back under its 2 minutes.
# Each leaves a sibling in the fast tier (the same kernel against the engine on other
# positions, deals or parameters); the committed paper's check and the kernel conformance
# runs stay fast.
_FOURTH_RUN = {
    "test_kernel_playouts.py": ("test_greedy_matches_engine_at_every_decision_of_random_games",),
    "test_expectimax_positions.py": (
        "test_setup_phase_matches_brute_force[Os,Gs,As,Gm-unknown2]",),
    "test_cli.py": ("test_subprocess_play_and_bad_flag",),
    "test_expectimax_growth.py": ("test_default_solver_grows_and_the_cap_follows_memory",),
    "test_play.py": ("test_heuristic_hint_is_named_and_blind_to_the_hidden_deck",),
    "test_view.py": ("test_no_policy_decision_depends_on_the_hidden_order[seq-rollout]",),
    "test_winrate_honest.py": ("test_without_a_policy_solo_plays_the_default_and_says_so",),
    "test_bound_penalties.py": ("test_greedy_pays_nothing_on_average_on_sampled_deals",),
    "test_bound_kernel.py": ("test_w_zero_is_the_reference_deal_by_deal_with_and_without_cuts",),
    "test_certify.py": ("test_a_larger_position",),
}
# A fifth pass, 2026-12-06 after 94abca4 (`pytest -n 2 --maxschedchunk 1 -m "not slow"
# --durations=40`, warm caches, load about 1): 108 s of pytest, about 120 s with the
# precompile step's cache loads, at the edge of the 2 minutes; the fast tests of 5 s or more
# join the slow tier.  The fault matrix keeps winrate honest and clairvoyant and verify in the
# fast tier; the pruned loop's other test (settled) and the two-player store's other tests stay.
_FIFTH_RUN = {
    "test_faults.py": ("test_best_memo_one_stop_then_resume",),   # and bound's (FAST there)
    "test_silent_switch.py": ("test_the_pruned_loop_decides_as_the_unpruned_loop",),
    "test_winrate_duo.py": (
        "test_the_open_and_silent_games_are_stored_apart_and_silent_is_the_old_key",),
}
# A sixth pass, 2026-12-07 after 8a4b2f5 (the same command, warm caches, the host slower than
# at the fifth: tests unchanged since took 1.5 times as long): 145 s of pytest; the fast tests
# of 2.5 s or more there join the slow tier, but for one fault case (winrate clairvoyant), the
# committed paper's check and the kernel conformance runs.
_SIXTH_RUN = {
    "test_faults.py": ("test_verify_one_stop_then_again",),   # and honest-default's (FAST)
    "test_winrate_duo.py": (
        "test_the_open_game_s_default_is_the_open_switch_and_the_silent_one_duo_kcut_switch",
        "test_a_version_3_file_gains_cpu_seconds_and_its_old_games_are_counted_apart"),
    "test_open_switch.py": ("test_plays_the_search_s_proven_best_on_fixture_positions",),
    "test_open_phases_bench.py": ("test_the_split_adds_up_to_the_game_winrate_plays",),
    "test_learned2.py": ("test_learned2_kernel_equals_its_engine_reference_at_every_decision",),
    # and tests of 1.5 to 2.3 s with a sibling that stays fast (the other signal, the other
    # bad flag, the same bench on the other family, ...)
    "test_best_cli.py": ("test_interrupt_prints_the_ranking_so_far_and_saves_the_memo[SIGTERM]",
                         "test_interrupt_text_output_says_interrupted"),
    "test_winrate_cli.py": ("test_bad_flags[args3-does not exist]",),
    "test_cluster.py": ("test_unreachable_scheduler",),
    "test_silent_switch.py": ("test_winrate_plays_it_by_name",),
    "test_expectimax_bench.py": ("test_solve_timed_reports_exact_small",),
    "test_trees_bench.py": (
        "test_expectimax_work_gives_the_same_digest_for_the_same_positions_only",),
    "test_duo_regret.py": ("test_select_on_two_deals_is_the_fixtures_rule",),
    "test_duo_kseq.py": ("test_drop_and_stop_save_playouts_and_keep_most_decisions",),
    "test_certify.py": ("test_cli_certify", "test_cli_certify_exit_status_when_it_disagrees"),
}
for _f, _names in (list(_SECOND_RUN.items()) + list(_THIRD_RUN.items())
                   + list(_FOURTH_RUN.items()) + list(_FIFTH_RUN.items())
                   + list(_SIXTH_RUN.items())):
    SLOW[_f] = tuple(SLOW.get(_f, ())) + _names

# module fixtures that take long to build: every test using one is slow
SLOW_FIXTURES = ("quick_result",      # test_bench.py: one quick benchmark run
                 "paper")             # test_paper.py: a copy of the paper tree per test


def is_slow(file_name: str, test_name: str, fixtures=()) -> bool:
    """``test_name``: the test's full name, with its parametrization if it has one."""
    listed = SLOW.get(file_name, ())
    return (test_name in listed or test_name.split("[")[0] in listed
            or any(f in SLOW_FIXTURES for f in fixtures))


# The order tests start in, longest first, so that with two processes no long test starts
# last and leaves one process working alone (``make test`` hands tests out one at a time,
# ``--maxschedchunk 1``, to whichever process is free).  Measured on 2026-12-03 in a fresh
# clone at a6f06b0 (``pytest -n 2 --durations=120``, cold numba cache for the first, load 6):
# the cold-cache test took 1,103 s of the run, then these files, in this order, the most.
FIRST = ("test_best_cli.py::test_readme_example_on_a_cold_cache",
         "test_bench.py::test_onirim_bench_quick_writes_valid_json_with_every_key")
HEAVY_FILES = ("test_invariants.py", "test_winrate_honest.py", "test_strong.py",
               "test_expectimax_agreement.py", "test_expectimax_speedups.py",
               "test_certify.py", "test_paper.py", "test_view.py", "test_info_greedy.py",
               "test_winrate_cli.py", "test_winrate_duo.py", "test_cluster.py",
               "test_expectimax_probe.py", "test_strategy_graph.py", "test_fuzz_positions.py",
               "test_board.py", "test_duo_expectimax.py", "test_kernel_diff.py",
               "test_best_cli.py", "test_estimate.py",
               "test_web_browser.py")   # a whole game in Chromium: about a minute


def start_order(file_name: str, test_name: str) -> tuple[int, int]:
    """Sort key: the tests of FIRST, then the files of HEAVY_FILES in order, then the rest
    (a stable sort keeps each file's own order)."""
    full = f"{file_name}::{test_name}"
    if full in FIRST:
        return 0, FIRST.index(full)
    if file_name in HEAVY_FILES:
        return 1, HEAVY_FILES.index(file_name)
    return 2, 0


def pytest_collection_modifyitems(config, items):
    for item in items:
        if is_slow(item.path.name, item.name, getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: start_order(item.path.name, item.name))
