"""A policy whose games are stored never acts on a search a signal cut short: Ctrl-C during
the end-game switch's exact search is raised out of the policy's decision (before, the
expectimax returned the bounds found so far and the switch played on them, so an interrupted
``winrate`` could go on and store a different game)."""
from __future__ import annotations

import os
import signal
import threading

import pytest

from engine.notation import parse_position

# 14 unknown cards, about 2.7 M expectimax nodes (2 s with one thread) to solve exactly
MEDIUM = ("mode=solo phase=play hand=Os,Os,As,Am,Lm row=As,Am,Os,Lk,Ls,Am,As,Gk,Gs,Ok,Om,Os,"
          "Om,Os,Om,Os,Gm,Gs,Lm,Gs,Gm,Gs doors=DO,DO,DA,DG,DG,DL deck=* discard=Os,Os,Os,Ok,"
          "As,As,As,As,As,Ak,Ak,Gs,Gs,Gs,Gm,Gk,Gk,Ls,Ls,Ls,Ls,Lm,Lk,Lk,N,N,N,N,N limbo=-")


def _sigint_in(seconds):
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_ctrl_c_in_the_endgame_search_leaves_the_decision():
    from solver.api import make_policy
    pol = make_policy("endgame", base="greedy", unknown="20", budget_nodes=str(10 ** 9))
    view = parse_position(MEDIUM)
    assert len(view.legal_actions()) > 1
    t = _sigint_in(0.4)
    try:
        with pytest.raises(KeyboardInterrupt):
            pol.act(view, 1)
    finally:
        t.cancel()


def test_a_ranking_keeps_its_partial_answer_for_best():
    """``best`` (which stores nothing) still gets the bounds found so far."""
    from solver.expectimax.solver import Expectimax
    t = _sigint_in(0.4)
    try:
        r = Expectimax().rank(parse_position(MEDIUM), probes=False, estimate=False)
    finally:
        t.cancel()
    assert r.extra.get("interrupted") is True
