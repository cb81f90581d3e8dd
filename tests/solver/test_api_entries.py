"""The registered entry points that ``onirim play``'s hint and ``winrate --mode clairvoyant``
use (``solver.api``): ``make_solver`` + ``rank(solver=...)`` and ``deal_solver_entry`` +
``solve_deal``.  Each is checked against the solver called directly."""
from __future__ import annotations

import json

import pytest

from engine.game import Game
from solver import api
from solver.clairvoyant import loss_recipe
from solver.clairvoyant.solve import ClairvoyantSolver, SolveResult
from solver.duo.search import DuoSolver


def test_deal_solver_entry_is_the_registered_family():
    solo, duo = api.deal_solver_entry(1), api.deal_solver_entry(2)
    assert solo.factory is ClairvoyantSolver and duo.factory is DuoSolver
    from solver.clairvoyant import solve as solo_mod
    from solver.duo import search as duo_mod
    assert (solo.version, solo.budget_nodes, solo.tt_mb) == (
        solo_mod.SOLVER_VERSION, solo_mod.DEFAULT_NODE_BUDGET, solo_mod.DEFAULT_TT_MB)
    assert (duo.version, duo.budget_nodes, duo.tt_mb) == (
        duo_mod.SOLVER_VERSION, duo_mod.DEFAULT_NODE_BUDGET, duo_mod.DEFAULT_TT_MB)
    with pytest.raises(api.OptionError):
        api.deal_solver_entry(3)


@pytest.mark.parametrize("players", [1, 2])
def test_solve_deal_rows_are_the_solvers_results(players):
    """A WIN row carries the solver's own line (which replays to a win in the engine); an
    UNKNOWN row has no certificate; nodes and result are the solver's."""
    entry = api.deal_solver_entry(players)
    solver = entry.factory(tt_mb=1)
    for seed, budget in ((0, 200_000), (1, 50)):
        row = api.solve_deal(solver, seed, players, budget, None, 1)
        again = entry.factory(tt_mb=1).solve_deal(seed, budget_nodes=budget)
        assert (row["seed"], row["result"], row["nodes"]) == (seed, again.result, again.nodes)
        if row["result"] == "WIN":
            assert row["certificate"] == list(again.line)
            s = Game(players).new_initial_state(seed)
            for text in row["certificate"]:
                s.apply_action(s.string_to_action(text))
            assert s.won()
        else:
            assert row["result"] == "UNKNOWN" and row["certificate"] == []
    assert {api.solve_deal(solver, 1, players, 50, None, 1)["result"],
            api.solve_deal(solver, 0, players, 200_000, None, 1)["result"]} == {"UNKNOWN",
                                                                                "WIN"}


class _Losing:
    def solve_deal(self, seed, budget_nodes=None, budget_s=None):
        return SolveResult("LOSS", nodes=42, seconds=0.01)


def test_solve_deal_loss_certificates():
    """A LOSS row's recipe: solo, exactly ``loss_recipe`` (what ``onirim verify`` re-solves,
    same JSON text); two-player, the same with ``players`` 2 and the two-player version."""
    row = api.solve_deal(_Losing(), 5, 1, 3000, None, 16)
    assert row["result"] == "LOSS"
    assert json.dumps(row["certificate"]) == json.dumps(loss_recipe(3000, None, 16, 42))
    duo = api.solve_deal(_Losing(), 5, 2, 3000, 1.5, 16)["certificate"]
    assert json.dumps(duo) == json.dumps(
        {"proof": "re-solve", "solver": api.deal_solver_entry(2).version, "players": 2,
         "budget_nodes": 3000, "budget_s": 1.5, "tt_mb": 16, "nodes": 42})


# deal 1 after 42 decisions of learned-base (a win for every action; ~150,000 nodes)
POSITION = ("mode=solo phase=play hand=Os,Ok,Am,Lm,Lk row=Om,Os,Om,Gs,Gk,Gm,Os,Ok,Os,Lm,Ls,Lm,"
            "Gs,Gm,Gs,Lm,Lk,Ls,Om,As,Am doors=DO,DO,DA,DG,DG,DL,DL deck=N,* discard=Os,Os,Os,"
            "Os,Om,Ok,As,As,As,As,As,Am,Am,Ak,Ak,Gs,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lk,N,N,N,N,"
            "N,N,N,N limbo=-")


def test_rank_with_a_kept_solver_is_rank_with_a_new_one():
    """``rank(solver=...)`` ranks with the solver given (its memo kept between queries: the
    second query expands fewer nodes) and gives the same ranking as a fresh solver."""
    from engine.notation import parse_position
    view = parse_position(POSITION)
    kept = api.make_solver("expectimax", table_bits=16)
    assert kept.table_bits == 16
    first = api.rank(view, "expectimax", solver=kept)
    nodes_after_first = kept.nodes
    second = api.rank(view, "expectimax", solver=kept)
    fresh = api.rank(view, "expectimax", table_bits=16)
    rows = [[(a.action, a.lo, a.hi) for a in r.actions] for r in (first, second, fresh)]
    assert rows[0] == rows[1] == rows[2]
    assert first.nodes > 0 and second.nodes < first.nodes
    assert kept.nodes == nodes_after_first + second.nodes
    assert parse_position(first.position).deck_size() == view.deck_size()
    with pytest.raises(api.OptionError):
        api.make_solver("clairvoyant", table_bits=16)
    with pytest.raises(api.OptionError):
        api.make_solver("no-such-mode")
