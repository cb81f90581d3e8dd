"""The numba open-hands search's own reductions (docs/DUO_EXPECTIMAX.md section 3), each
against the search without it: ``F_FREE``, the deferred prophecy order (a prophecy's kept
cards are a free multiset, each drawn card picked by the team when it is drawn), and
``F_LAST``, the last-turn bound DB4 (a turn that cannot end gains too few Doors).

* the value of a prophecy with ``F_FREE`` is the best value of its committed orders (each
  engine action searched without the rule), on positions where the order matters;
* with and without each rule, the same exact values on fixture positions, and fewer nodes;
* ``F_LAST`` fires only where the search without it proves the value 0;
* slow tier: the recorded exact per-action values of the open-game regret positions.
"""
from __future__ import annotations

import json
import os
import random

import pytest

from engine.notation import format_position, parse_position
from solver.duo import open_hands as DX
from solver.duo import open_kernel as OK
from solver.duo import open_search as OS

from open_hands_kit import open_positions

NO_FREE = OK.DEFAULT_FLAGS & ~OK.F_FREE
NO_LAST = OK.DEFAULT_FLAGS & ~OK.F_LAST

# prophecy positions met on random walks from fixture positions of <= 9 unknown cards (the
# first is fixture position 9), each with committed orders of at least two values, the best
# strictly between 0 and 1: values 0.9111, 1/4, 1/2, 2/9, 1/3
PROPHECIES = [
    "mode=duo phase=prophecy turn=1 hand0=As,As,Ls hand1=Os,Om shared=Os,Ok row0=Lm,Gs,Gm,Gs,Lm,Ls,Lk,Os,Om row1=Lm,Gs,Ok,Os,Gk,Gs,Gm,As,Ak,As doors0=DA,DG,DL doors1=DA,DG,DL deck=Os,Am,Ak,Am,N,* discard=Os,Os,Os,Os,Om,Om,Ok,As,As,As,As,Am,Am,Ak,Gs,Gs,Gs,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lm,Lk,Lk,N,N,N,N,N,N limbo=-",
    "mode=duo phase=prophecy turn=0 hand0=Os,Lm hand1=Os,Gs,Gs shared=Gm,Gk row0=Gs,Gk,Gs,Om,Os,Om,As,Am,Ak,Lm,Ls row1=As,Am,Ls,Lk,Ls,Am,As,Am,Os,Om doors0=DO,DA,DG doors1=DA,DL deck=DL,N,DO,Gs,As,* discard=Os,Os,Os,Os,Os,Om,Ok,Ok,Ok,As,As,As,Ak,Ak,Gs,Gs,Gm,Gm,Gm,Gk,Ls,Ls,Ls,Lm,Lm,Lk,Lk,N,N,N,N,N,N,N,N limbo=-",
    "mode=duo phase=prophecy turn=0 hand0=Gm,Lm hand1=Os,Gs,Gs shared=Os,As row0=Gs,Gk,Gs,Om,Os,Om,As,Am,Ak,Lm,Ls row1=As,Am,Ls,Lk,Ls,Am,As,Am,Os,Om doors0=DO,DA,DG doors1=DA,DG,DL deck=DO,As,DL,N,Gs,* discard=Os,Os,Os,Os,Os,Om,Ok,Ok,Ok,As,As,As,Ak,Ak,Gs,Gs,Gm,Gm,Gm,Gk,Gk,Ls,Ls,Ls,Lm,Lm,Lk,Lk,N,N,N,N,N,N,N,N limbo=-",
    "mode=duo phase=prophecy turn=1 hand0=Gs,Gm,Gm hand1=Gs,Lm shared=Ak,Lm row0=Am,Ak,Am,Os,Om,Ok,Ls,Lm,Ls row1=As,Ak,As,Gm,Gs,Om,Os,Ok,Lm,Lk doors0=DO,DG,DL doors1=DO,DA,DG deck=Os,DL,N,DA,N,* discard=Os,Os,Os,Os,Os,Os,Om,Om,Ok,As,As,As,As,As,As,Am,Gs,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lk,Lk,N,N,N,N,N,N,N limbo=-",
    "mode=duo phase=prophecy turn=1 hand0=Gs,Gm,Gm hand1=Gs,Lm shared=Ak,Lm row0=Am,Ak,Am,Os,Om,Ok,Ls,Lm,Ls row1=As,Ak,As,Gm,Gs,Om,Os,Ok,Lm,Lk doors0=DO,DG,DL doors1=DO,DA,DG deck=DA,Am,DL,Os,N,* discard=Os,Os,Os,Os,Os,Os,Om,Om,Ok,As,As,As,As,As,As,Am,Gs,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lk,Lk,N,N,N,N,N,N,N limbo=-",
]


def _exact(flags, s, nodes):
    d = OS.OpenSearch(flags=flags, table_bits=18)
    iv = d.value(s, budget_nodes=nodes)
    assert iv.exact, (flags, format_position(s), iv)
    return iv.lo, d


def test_deferred_prophecy_is_the_best_committed_order():
    picks = 0
    for text in PROPHECIES:
        s = DX.open_hands(parse_position(text))
        assert s.phase == "prophecy"
        kids = []
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            kids.append(_exact(NO_FREE, c, 200_000)[0])
        assert len(set(kids)) >= 2 and 0 < max(kids) < 1, kids
        v, d = _exact(OK.DEFAULT_FLAGS, s, 1_000_000)
        assert abs(v - max(kids)) <= 1e-12, (text, v, max(kids))
        picks += int(d.ctr[OK.C_PH_NODES + OK.PH_PICK])
    assert picks > 0          # the searches did pick free cards


def test_free_cards_keep_the_values_and_cut_nodes():
    with_rule = without = 0
    for s in open_positions(idx=(6, 9, 13, 21)) + [parse_position(t) for t in PROPHECIES[1:]]:
        a, da = _exact(OK.DEFAULT_FLAGS, s, 2_000_000)
        b, db = _exact(NO_FREE, s, 2_000_000)
        assert abs(a - b) <= 1e-12, format_position(s)
        with_rule += da.nodes
        without += db.nodes
    assert with_rule < without, (with_rule, without)


def test_last_turn_bound_keeps_the_values_and_cuts_nodes():
    with_rule = without = 0
    for s in open_positions(idx=(6, 9, 10, 13, 21, 26)):
        a, da = _exact(OK.DEFAULT_FLAGS, s, 2_000_000)
        b, db = _exact(NO_LAST, s, 2_000_000)
        assert abs(a - b) <= 1e-12, format_position(s)
        with_rule += da.nodes
        without += db.nodes
    assert 2 * with_rule < without, (with_rule, without)


def test_last_turn_bound_fires_only_where_the_value_is_zero():
    """Positions met on random walks from the fixture positions of <= 9 unknown cards where
    the bound fires: the search without it proves each lost; some of them the dead bound of
    F_DEAD (DB1-DB3) does not see."""
    rnd = random.Random(3)
    fired = beyond_db = 0
    phases = set()
    for s in open_positions(max_unknown=9):
        s = DX.open_hands(s)
        for _ in range(12):
            c = s.clone()
            for _ in range(rnd.randrange(0, 16)):
                if c.is_terminal():
                    break
                if c.is_chance_node():
                    c.apply_action(rnd.choice(c.chance_outcomes_exact())[0])
                else:
                    c.apply_action(rnd.choice(c.legal_actions()))
            if c.is_terminal() or not OK.last_turn_dead(OS.encode_open(c)):
                continue
            d = OS.OpenSearch(flags=NO_LAST, table_bits=16)
            iv = d.value(c, budget_nodes=100_000)
            if not iv.exact:
                continue
            assert iv.hi == 0.0, format_position(c)
            fired += 1
            phases.add(c.phase)
            beyond_db += not DX.is_dead(c)
    assert fired >= 100 and beyond_db >= 10, (fired, beyond_db)
    assert len(phases) >= 3, phases


@pytest.mark.slow
def test_recorded_regret_values_are_unchanged():
    """The exact per-action values of benchmarks/results/duo-regret-exact.jsonl (open-game
    positions of 5 to 7 unknown cards, ranked by the search before F_FREE and F_LAST): the
    default search gives every one again (the first 80 exact positions)."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    with open(os.path.join(root, "benchmarks", "results", "duo-regret-exact.jsonl")) as fh:
        rows = [r for r in map(json.loads, fh) if r["exact"]][:80]
    acts = 0
    for r in rows:
        ranking = OS.OpenSearch(leader=False).rank(parse_position(r["position"]),
                                                   budget_nodes=4_000_000)
        got = {a.action: (a.lo, a.hi) for a in ranking.actions}
        for a in r["actions"]:
            lo, hi = got[a["action"]]
            assert abs(lo - a["lo"]) <= 1e-12 and abs(hi - a["lo"]) <= 1e-12, (r["seed"], a)
            acts += 1
    assert len(rows) == 80 and acts > 1000
