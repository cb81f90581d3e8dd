"""The expectimax kernel, one import for all of it: re-exports the kernel modules.

The kernel is split along its seams (docs/EXPECTIMAX.md section 2):

``control``   the settings and counters arrays of a search (their slots, defaults)
``fields``    field access on the four packed words (the layout is in its docstring)
``rules``     rule steps: the known prefix, shuffles, refills, ``advance``, a play and a
              series that completes, the drawn Door's and the Nightmare's options, the
              children of a decision, the canonical form
``bound``     the can-still-win bound
``table``     the memo table with its atomics and prefetch, ``rehash``, ``new_tables``
``chance``    chance outcomes
``search``    the search (``search``, ``expand``, the probe heuristic) and its entry
              points

Each module imports only the ones above it.  Code that needs one part imports that module;
this one keeps ``from solver.expectimax import kernel`` working everywhere.
"""
from __future__ import annotations

from solver import board
from . import bound as exk_bound, chance as exk_chance, control as exk_control, fields as exk_fields, rules as exk_rules, search as exk_search, table as exk_table
from .control import (CLOCK_EVERY, CT_FULL, CT_HITS, CT_NODES, CT_PHASE, CT_SIZE, CT_STORED,
                          CT_TIMEOUT, NO_LIMIT, SE_BOUND, SE_CLOCK_MASK, SE_DEADLINE, SE_LIMIT,
                          SE_PEEK, SE_PROBE, SE_PRUNE, SE_REVERSE, SE_SIZE, new_counters,
                          new_settings)
from .fields import (DOORS_AT, HAND_AT, MAX_PREFIX, ROW_AT, W0_TYPES, doors_add, doors_get, doors_total, drawn_get,
                         drawn_set, free_get, free_set, hand_add, hand_get, hand_size, left_get,
                         left_set, limbo_door_get, limbo_n_get, phase_get, phase_set, plen,
                         plen_set, row_last, row_series, slot_get, slot_set, unk_add,
                         unk_get, unk_total)
from .rules import (DOOR, DOORS_TO_WIN, FIRST_DOOR, FORESEE, HAND_SIZE, LOST, NIGHTMARE,
                        NM_CARD, NO_CARD, NUM_LOCATION_TYPES, PICK, PLAY, PROPHECY, PROPHECY_SIZE,
                        REDRAW, REFILL, REVEAL, WON, advance, advance_words, canonical,
                        decision_children, discarded, door_option, nightmare_option, play_to_row,
                        playable, pop_top, push_bottom, redrawn, refill_with, remove_slot,
                        revealed, series_door, shuffle_all, sort_top, to_limbo)
from .bound import (_can_still_win, can_still_win, doors_outside_prefix, doors_reachable,
                        min_junk, slack, sms_range, unk_doors)
from .table import (PROBE, _hash, _item_ptr, _slot, _table_memory, compare_swap,
                        fence_acquire, load_acquire, memo_get, memo_store, new_tables,
                        prefetch_key, prefetch_row, rehash, store_release)
from .chance import (NUM_TYPES, _choose, outcomes, reveal_outcomes, single_outcomes)
from .search import (child_score, expand, mean_static, now_us, outcome_static, quick, search,
                         settle, solve, solve_words, static_eval)

# the kernel's modules, in import order (the board layer first) (the memo file's fingerprint hashes every one)
PARTS = (board, exk_control, exk_fields, exk_rules, exk_bound, exk_table, exk_chance, exk_search)

# the name the single stats array gave the per-phase node counts (now in the counters array)
ST_PHASE = CT_PHASE

__all__ = ['CLOCK_EVERY', 'CT_FULL', 'CT_HITS', 'CT_NODES', 'CT_PHASE', 'CT_SIZE', 'CT_STORED',
           'CT_TIMEOUT', 'DOOR', 'DOORS_TO_WIN', 'FIRST_DOOR', 'FORESEE', 'HAND_SIZE', 'LOST',
           'MAX_PREFIX', 'NIGHTMARE', 'NM_CARD', 'NO_CARD', 'NO_LIMIT', 'NUM_LOCATION_TYPES',
           'NUM_TYPES', 'PICK', 'PLAY', 'PROBE', 'PROPHECY', 'PROPHECY_SIZE', 'REDRAW', 'REFILL',
           'REVEAL', 'SE_BOUND', 'SE_CLOCK_MASK', 'SE_DEADLINE', 'SE_LIMIT', 'SE_PEEK', 'SE_PROBE',
           'SE_PRUNE', 'SE_REVERSE', 'SE_SIZE', 'W0_TYPES', 'WON', '_can_still_win', '_choose',
           '_hash', '_item_ptr', '_slot', '_table_memory', 'advance', 'advance_words',
           'can_still_win', 'canonical', 'child_score', 'compare_swap', 'decision_children',
           'discarded', 'door_option', 'doors_add', 'doors_get', 'doors_outside_prefix',
           'doors_reachable', 'doors_total', 'drawn_get', 'drawn_set', 'expand', 'fence_acquire',
           'free_get', 'free_set', 'hand_add', 'hand_get', 'hand_size', 'left_get', 'left_set',
           'limbo_door_get', 'limbo_n_get', 'load_acquire', 'mean_static', 'memo_get',
           'memo_store', 'min_junk', 'new_counters', 'new_settings', 'new_tables',
           'nightmare_option', 'now_us', 'outcome_static', 'outcomes', 'phase_get', 'phase_set',
           'play_to_row', 'playable', 'plen', 'plen_set', 'pop_top', 'prefetch_key',
           'prefetch_row', 'push_bottom', 'quick', 'redrawn', 'refill_with', 'rehash',
           'remove_slot', 'reveal_outcomes', 'revealed', 'row_last', 'row_series', 'search',
           'series_door', 'settle', 'shuffle_all', 'single_outcomes', 'slack',
           'slot_get', 'slot_set', 'sms_range', 'solve', 'solve_words', 'sort_top', 'static_eval',
           'store_release', 'to_limbo', 'unk_add', 'unk_doors', 'unk_get', 'unk_total', 'PARTS',
           'ST_PHASE', 'HAND_AT', 'ROW_AT', 'DOORS_AT']
