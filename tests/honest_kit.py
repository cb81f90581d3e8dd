"""Test helpers for the honest kernel (solver.honest): a traced playout, the
engine-versus-kernel differential run, a sampler of real positions and the reshuffle of
what the player does not know (the hidden-order tests).  Used by
tests/solver/honest/ and tests/fixtures/make_honest_kernel_fingerprint.py; not part of the
package."""
from __future__ import annotations

import random

import numpy as np

from engine import game as game_rules
from engine.policy import greedy_action
from rulekit import permute_unseen  # noqa: F401  (the honest tests import it from here)
from solver.honest.greedy import BASES, base_at, greedy
from solver.honest.playouts import playout
from solver.honest.state import (MAX_LEGAL, NS, advance, apply_action, apply_chance, diff,
                                 legal, new_game)


def positions(n_games, seed0=0, share=0.8, policy=greedy_action):
    """(deal, decision index, state) at every decision of ``n_games`` solo games from deal
    ``seed0``: each move is ``policy``'s with probability ``share``, else a uniformly random
    legal move (``random.Random(seed0)``).  The state is the live game: copy it to keep it."""
    rnd = random.Random(seed0)
    for seed in range(seed0, seed0 + n_games):
        s = game_rules.Game(1).new_initial_state(seed=seed)
        i = 0
        while not s.is_terminal():
            yield seed, i, s
            s.apply_action(policy(s) if rnd.random() < share
                           else rnd.choice(s.legal_actions()))
            i += 1


def decisions(n_games, seed0, share=0.7, policy=None):
    """(state, view, decision stream) at every decision with two or more legal actions of
    :func:`positions`' games (``policy`` default greedy-keep-doors): the loop of the hidden-order
    tests of a policy's arguments."""
    from engine.policy import keep_doors_action
    from engine.view import player_view
    from solver.honest.play import decision_stream
    for seed, i, s in positions(n_games, seed0, share, policy or keep_doors_action):
        v = player_view(s)
        if len(v.legal_actions()) >= 2:
            yield s, v, decision_stream(seed, i)


def traced_playout(S, key: int, max_steps: int = 4096, base: str = "greedy"):
    """Play a copy of ``S`` to the end (greedy, stream ``key``): (result, steps) where the
    steps are engine action integers (draws as DRAW + type)."""
    S = np.array(S, dtype=np.int64)
    trace = np.zeros(max_steps + 1, dtype=np.int64)
    r = playout(S, np.uint64(key), trace, np.int64(BASES[base]))
    return int(r), [int(x) for x in trace[1:1 + trace[0]]], S


def differential_run(steps: int, seed: int = 0, greedy_share: float = 0.5) -> dict:
    """Play chance-mode games in the engine and the kernel side by side, with the same chance
    outcomes and the same decisions, and compare them after every step.

    Chance outcomes follow the engine's probabilities (``random.Random(seed)``).  Each game
    draws its own share of greedy decisions (0, ``greedy_share`` or 1); the others are uniform
    random legal actions.  At every decision the kernel's legal list and greedy action must
    equal the engine's.  Returns the counts; raises AssertionError at the first difference.
    """
    import random

    from engine.policy import greedy_plus_action

    rnd = random.Random(seed)
    S = np.zeros(NS, dtype=np.int64)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    game = game_rules.Game(1)
    n = {"steps": 0, "decisions": 0, "chance": 0, "games": 0, "wins": 0}
    phases: dict = {}
    while n["steps"] < steps:
        share = rnd.choice((0.0, greedy_share, 1.0))
        st = game.new_initial_state()
        new_game(S)
        advance(S)
        n["games"] += 1
        while True:
            d = diff(S, st)
            assert not d, f"step {n['steps']}: kernel and engine differ: {d} at {st}"
            if st.is_terminal():
                n["wins"] += st.won()
                break
            if st.is_chance_node():
                acts, probs = zip(*st.chance_outcomes())
                a = rnd.choices(acts, weights=probs)[0]
                st.apply_action(a)
                apply_chance(S, a - game_rules.DRAW)
                advance(S)
                n["chance"] += 1
            else:
                legal_e = st.legal_actions()
                k = legal(S, out)
                legal_k = [int(x) for x in out[:k]]
                assert legal_k == legal_e, f"legal actions differ at {st}: {legal_k} {legal_e}"
                g = int(greedy(S))
                ge = greedy_action(st)
                assert g == ge, f"greedy differs at {st}: kernel {g}, engine {ge}"
                gp = base_at(S, "greedy-plus")
                gpe = greedy_plus_action(st)
                assert gp == gpe, f"greedy-plus differs at {st}: kernel {gp}, reference {gpe}"
                if rnd.random() < share:
                    a = g if rnd.random() < 0.5 else gp
                else:
                    a = rnd.choice(legal_e)
                phases[st.phase] = phases.get(st.phase, 0) + 1
                st.apply_action(a)
                apply_action(S, a)
                advance(S)
                n["decisions"] += 1
            n["steps"] += 1
    n["decisions_by_phase"] = phases
    return n
