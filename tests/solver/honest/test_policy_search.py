"""The leader of ``onirim best`` is the decision of a policy's own search: the search that
returns per-action estimates (``SeqRollout.search``, ``EndgameSwitch.decide``) chooses what
the policy's ``act`` chooses (the kernels ``decide_seq`` and ``decide_seq_among`` called
directly), and ``solver.advice`` names the default policy's decision when nothing is proven."""
from __future__ import annotations

import numpy as np
import pytest

from honest_kit import decisions
from solver.api import make_default_policy, make_policy
from solver.honest import kernel as honest_kernel
from solver.honest import strong
from solver.policies.seq import key_of_stream


def _kernel_choice(p, view, stream, allowed=None):
    state = honest_kernel.encode(view)
    args = (np.int64(p.n_at(view)), np.int64(p.batch), np.float64(p.z), np.float64(p.zdrop),
            np.uint64(key_of_stream(stream)), np.int64(strong.BASES[p.base]),
            np.float64(p.stop), np.float64(p.zstop), np.int64(p.screen), np.int64(p.keep),
            np.int64(p.horizon))
    if allowed is None:
        return int(strong.decide_seq(state, *args))
    al = np.array(sorted(allowed), dtype=np.int64)
    return int(strong.decide_seq_among(state, al, np.int64(len(al)), *args))


@pytest.mark.slow       # about 5 s on a quiet machine (76 s at load 20)
def test_seq_search_chooses_the_kernels_action_and_estimates_what_it_played():
    """At every decision of 3 games, for a plain and a horizon configuration: the search's
    action is decide_seq's (every action) and decide_seq_among's (a subset); every searched
    action has an estimate in [0, 1] inside its interval, the chosen one among them, and
    the playout counts add up to the search's total."""
    configs = [make_policy("seq-rollout", n=64, batch=16),
               make_policy("seq-rollout", n=128, batch=32, stop=0.01, base="learned-base",
                           horizon=32)]
    checked = 0
    for _, view, stream in decisions(3, 40):
        acts = view.legal_actions()
        for p in configs:
            found = p.search(view, stream)
            assert found.action == _kernel_choice(p, view, stream)
            assert found.action in found.rows
            assert sum(r[3] for r in found.rows.values()) == found.playouts
            for mean, lo, hi, n in found.rows.values():
                assert 0.0 <= lo <= mean <= hi <= 1.0 and 1 <= n <= p.n_at(view)
            sub = acts[::2] if len(acts) > 2 else acts[:1]
            among = p.search(view, stream, sub)
            assert among.action == _kernel_choice(p, view, stream, sub) or len(sub) == 1
            assert among.action in sub and set(among.rows) <= set(sub)
        checked += 1
    assert checked >= 30


@pytest.mark.slow
def test_the_default_policy_decides_as_it_acts():
    """``decide`` is ``act`` with its reasons: the same action at every decision of 2 games,
    a search with estimates wherever the base was asked."""
    p = make_default_policy()
    for _, view, stream in decisions(2, 7, share=0.9):
        d = p.decide(view, stream)
        assert d.action == p.act(view, stream)
        if d.how in ("base", "base-open", "pruned"):
            assert d.found is not None and d.found.action == d.action


def test_duo_krollout_search_chooses_the_kernels_action():
    """The two-player default's search (what ``onirim best`` shows on a player's view) makes
    the compiled ``decide``'s choice at every decision of 2 two-player games, with and
    without the screen; the shares won are in their intervals."""
    import random

    from engine.game import Game
    from engine.view import player_view
    from solver.duo import info_playouts
    from solver.duo.info_state import encode
    from solver.duo.rollout import key_of_stream as duo_key
    configs = [make_policy("duo-krollout", n=32, screen=8, keep=2),
               make_policy("duo-krollout", n=16, screen=0)]
    rnd = random.Random(5)
    checked = 0
    for seed in (3, 4):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            view = player_view(s)
            acts = s.legal_actions()
            if len(acts) > 1:
                stream = rnd.getrandbits(64)
                for p in configs:
                    found = p.search(view, stream)
                    stats = np.zeros(2, dtype=np.int64)
                    kernel_choice = info_playouts.decide(
                        encode(view), np.int64(p.n), np.float64(p.z),
                        np.uint64(duo_key(stream)), np.int64(p.screen), np.int64(p.keep),
                        np.int64(info_playouts.BASES[p.base]),
                        np.int64(info_playouts.REWARDS[p.reward]),
                        np.int64(info_playouts.SWAPS[p.swaps]), stats,
                        np.int64(p.horizon))
                    assert found.action == int(kernel_choice)
                    for mean, lo, hi, n in found.rows.values():
                        assert 0.0 <= lo <= mean <= hi <= 1.0 and n >= 1
                checked += 1
            s.apply_action(acts[rnd.randrange(len(acts))] if rnd.random() < 0.3
                           else configs[1].act(view, 0))
    assert checked >= 20
