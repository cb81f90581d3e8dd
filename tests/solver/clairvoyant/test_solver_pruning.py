"""Every pruning rule against the unpruned search, on positions near the end of a deal.

tests/fixtures/solver_near_end.tsv holds positions (notation, with seed and shuffles) taken
from winning lines of real deals near their end, some after 1-3 random deviations, with the
result of the plain DFS (no bounds, no transposition table) that generated them.  Each rule is
checked alone and all together, in the DFS and in the exhaustive (uncut) beam.
"""
import os
from collections import Counter

import pytest

from engine import parse_position
from solver import rules_core as core
from solver.clairvoyant import search as S
from solver.clairvoyant.beam import BEAM_EMPTY, BEAM_WIN, Beam
from solver.clairvoyant.solve import ClairvoyantSolver
from solver.clairvoyant import deal_kernel as deal
from paths import FIXTURES



def load():
    out = []
    with open(os.path.join(FIXTURES, "solver_near_end.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            pos, res, nodes = line.rstrip("\n").split("\t")
            out.append((pos, res, int(nodes)))
    return out


POSITIONS = load()
STATS: Counter = Counter()     # positions checked per rule set (flags_F) and by the beam


@pytest.fixture(scope="module")
def solver():
    return ClairvoyantSolver(tt_mb=8, beam_widths=())


def test_fixture_has_wins_and_losses():
    res = [r for _, r, _ in POSITIONS]
    assert res.count("WIN") >= 20 and res.count("LOSS") >= 20


@pytest.mark.parametrize("flags", [0, core.B_DOORS, core.B_PLAYS, core.B_SUPPLY, S.F_TT,
                                   core.ALL_BOUNDS, core.ALL_BOUNDS | S.F_TT])
def test_each_rule_keeps_the_result(solver, flags):
    for pos, expected, nodes in POSITIONS:
        s = parse_position(pos)
        r = solver.solve_state(s, budget_nodes=max(10 * nodes, 10_000), flags=flags)
        assert r.result == expected, (pos, flags)
        if flags == 0:
            assert r.nodes == nodes     # the unpruned DFS is deterministic
        else:
            assert r.nodes <= max(nodes, 1)  # pruning never costs nodes here
        STATS[f"flags_{flags}"] += 1


def test_exhaustive_beam_agrees():
    """A beam wide enough never to cut enumerates everything: its verdict must match."""
    b = Beam(4096)
    proved = 0
    for pos, expected, _ in POSITIONS:
        s = parse_position(pos)
        st, perms, sr, seed = deal.encode(s)
        status, nodes, line = b.run(st, perms, sr, seed, 4096, 5_000_000)
        if status == BEAM_WIN:
            assert expected == "WIN"
        elif status == BEAM_EMPTY and not b.truncated:
            assert expected == "LOSS", pos
            proved += 1
        STATS["beam_positions"] += 1
    assert proved >= 10
