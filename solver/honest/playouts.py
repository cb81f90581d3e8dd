"""Playouts and rollouts of the honest kernel: whole games on the information state.

:func:`playout` plays a state of :mod:`solver.honest.state` to the end with a base policy of
:mod:`solver.honest.greedy`, drawing the unknown cards from a stream; :func:`playout_batch`
plays whole games from the setup; ``decide1``/``decide2`` are the rollout decisions of
:mod:`solver.honest.rollout`, ``estimate_all`` the per-action playouts of
:mod:`solver.honest.estimate`, :func:`policy_games` whole games of the level-1 rollout policy.

Speed: :func:`playout` allocates nothing and is compiled without numba's reference counting
(``_nrt=False``), so the helpers inlined into its loop pay no atomic count updates on the
state array; docs/HONEST.md ("Throughput") measures each such change.  None of them changes a
decision: tests/solver/honest/test_honest_kernel.py compares the kernel with a fingerprint
recorded before.
"""
from __future__ import annotations

import numpy as np
from numba import njit

# absolute, not relative (see solver.honest.state)
from solver.honest.greedy import BASES, _base_at, base_action, greedy
from solver.honest.screening import row_of, screen_top, screens, select
from solver.honest.state import (A_DRAW, MAX_LEGAL, NS, P_LOST, P_SETUP, P_WON, PH, _drawn,
                                 advance, advance_inline, apply_action, apply_action_inline,
                                 apply_chance, draw_unknown, drawn_inline, is_chance, legal,
                                 legal_list, mix64, new_game, word)
from solver.honest.value import NFV, VSCALE, value_at


# ----------------------------------------------------------------------------- playouts
MAX_DECISIONS = 2000   # a guard: a solo game has far fewer decisions
CUT = -2               # playout_h: stopped at its horizon


@njit(cache=True, inline="always")
def to_decision(S, key, ctr):
    """Advance ``S`` through the automatic steps and the unknown cards' draws (draw ``ctr``
    on of stream ``key``) to the next decision or the end of the game.  Returns (1 won,
    0 lost, -1 a decision waits; the next draw's counter).  The whole-game loops of the
    kernel (``strong.seq_games``, ``ismcts.ismcts_games``, ``learned_games.weights_games``)
    step through it, one call per decision; :func:`playout` keeps its own loop, which also
    traces the draws.  (The counter goes on as an ``int64``: a caller's first ``ctr = 0``
    would otherwise compile :func:`_to_decision` a second time, for the literal 0.)"""
    return _to_decision(S, key, np.int64(ctr))


@njit(cache=True, _nrt=False)
def _to_decision(S, key, ctr):
    """:func:`to_decision`, compiled once: the solo turn inlined here."""
    while True:
        advance_inline(S, 1)
        ph = S[PH]
        if ph == P_WON:
            return 1, ctr
        if ph == P_LOST:
            return 0, ctr
        if ph < P_SETUP:
            return -1, ctr
        t = draw_unknown(S, key, ctr)
        ctr += 1
        drawn_inline(S, t, 1)


@njit(cache=True, _nrt=False)
def _play(S, key, trace, base, horizon):
    """The playout loop of :func:`playout` and :func:`playout_h` (``horizon`` 0: to the end),
    compiled once: the solo turn is inlined here (a call per step would cost up to a quarter
    of a playout's time), and nowhere else in the kernel."""
    ctr = 0
    steps = 0
    nt = trace.shape[0]
    while True:
        advance_inline(S, 1)
        ph = S[PH]
        if ph == P_WON:
            return 1
        if ph == P_LOST:
            return 0
        if ph >= P_SETUP:
            t = draw_unknown(S, key, ctr)
            ctr += 1
            drawn_inline(S, t, 1)
            if nt > 0 and trace[0] + 1 < nt:
                trace[0] += 1
                trace[trace[0]] = A_DRAW + t
            continue
        if horizon > 0 and ctr >= horizon:
            return CUT
        a = base_action(S, base)
        if nt > 0 and trace[0] + 1 < nt:
            trace[0] += 1
            trace[trace[0]] = a
        apply_action_inline(S, a, 1)
        steps += 1
        if steps > MAX_DECISIONS:
            return -1


@njit(cache=True, _nrt=False)
def playout(S, key, trace, base):
    """Play ``S`` to the end with the base policy's decisions (``base``: a number of
    ``solver.honest.greedy.BASES``) and draws from stream ``key``.  The one playout loop of
    the kernel: the rollouts here and the sequential rollout of :mod:`solver.honest.strong`
    all play through it.

    Returns 1 (won), 0 (lost) or -1 (the guard hit: never in a legal game).  If ``trace`` is
    not empty, trace[0] = how many steps follow in trace[1:]: decisions as engine action
    integers, draws as DRAW + type (as far as the trace reaches)."""
    return _play(S, key, trace, base, np.int64(0))     # not a literal: one _play for both


@njit(cache=True, _nrt=False)
def playout_h(S, key, trace, base, horizon):
    """:func:`playout` with a horizon: at the first decision after ``horizon`` draws (0:
    never) it stops and returns ``CUT``, ``S`` left at that decision, for the value function
    (:func:`solver.honest.value.value_at`) to estimate the rest."""
    return _play(S, key, trace, base, horizon)


@njit(cache=True)
def _playout_batch(n, key0, S, out, base):
    """``n`` greedy games from the setup; game g uses stream word(key0, g).
    out = (games, wins, decisions-free count of failures)."""
    wins = 0
    bad = 0
    notrace = np.empty(0, dtype=np.int64)
    for g in range(n):
        new_game(S)
        r = playout(S, word(key0, g), notrace, base)
        if r < 0:
            bad += 1
        else:
            wins += r
    out[0] = n
    out[1] = wins
    out[2] = bad


def playout_batch(n: int, key: int = 0, base: str = "greedy") -> dict:
    """Play ``n`` whole base-policy games from the setup in the kernel: games, wins,
    failures."""
    S = np.zeros(NS, dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    _playout_batch(np.int64(n), np.uint64(key), S, out, np.int64(BASES[base]))
    return {"games": int(out[0]), "wins": int(out[1]), "failed": int(out[2])}


# ----------------------------------------------------------------------------- rollouts
# One-step rollout policy improvement over the greedy base policy, and a level-2 version whose
# playouts are played by the level-1 policy.  Playout j of every candidate action uses the
# chance stream word(key, j): common random numbers across the actions.  The screening round
# and the choice are solver.honest.screening's, shared with the two-player rollout.
SALT_DECISION = np.uint64(0x5851F42D4C957F2D)


@njit(cache=True, inline="always")
def _copy(dst, src):
    for i in range(NS):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _after(S0, a):
    """A new array: ``S0`` after action ``a`` (the decision is applied once; each playout of
    the action starts from a copy of it)."""
    S1 = np.empty(NS, dtype=np.int64)
    _copy(S1, S0)
    apply_action(S1, a)
    return S1


@njit(cache=True)
def _eval1(S0, a, j0, j1, key, S, row, base):
    """row[j] = 1 if the base policy ``base`` wins after action ``a`` from ``S0`` with stream
    word(key, j), for j in [j0, j1).  The per-action accumulation of every rollout."""
    notrace = np.empty(0, dtype=np.int64)
    S1 = _after(S0, a)
    for j in range(j0, j1):
        _copy(S, S1)
        row[j] = 1 if playout(S, word(key, j), notrace, base) > 0 else 0


@njit(cache=True)
def _eval1h(S0, a, j0, j1, key, S, row, base, horizon):
    """:func:`_eval1` with playouts cut at ``horizon`` draws (:func:`playout_h`; 0: never):
    row[j] = VSCALE if won, 0 if lost, the value function's estimate (0 .. VSCALE) if cut.
    With ``horizon`` 0 the rows are :func:`_eval1`'s times VSCALE."""
    notrace = np.empty(0, dtype=np.int64)
    f = np.empty(NFV, dtype=np.float64)        # the value function's scratch space
    S1 = _after(S0, a)
    for j in range(j0, j1):
        _copy(S, S1)
        r = playout_h(S, word(key, j), notrace, base, horizon)
        row[j] = VSCALE if r > 0 else (value_at(S, f) if r == CUT else 0)


@njit(cache=True)
def decide1(S0, n, z, key, screen, keep, base):
    """The level-1 rollout action at decision state ``S0`` (see solver.honest.rollout)."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    bi = row_of(acts, nact, _base_at(S0, base), 0)
    res = np.zeros((nact, n), dtype=np.int8)
    S = np.empty(NS, dtype=np.int64)
    cand = np.empty(nact + 1, dtype=np.int64)
    if screens(n, screen, keep, nact):
        for i in range(nact):
            _eval1(S0, acts[i], 0, screen, key, S, res[i], base)
        m = screen_top(res, nact, bi, screen, keep, cand)
        for q in range(m):
            _eval1(S0, acts[cand[q]], screen, n, key, S, res[cand[q]], base)
    else:
        m = nact
        for i in range(nact):
            cand[i] = i
            _eval1(S0, acts[i], 0, n, key, S, res[i], base)
    return acts[select(res, cand, m, bi, n, z)]


@njit(cache=True)
def playout_l1(S, key, n1, z1, screen1, keep1, base):
    """Play ``S`` to the end with the level-1 rollout policy; draws from stream ``key``, the
    decision i's own stream is word(key ^ SALT_DECISION, i).  Returns 1 (won) or 0."""
    ctr = 0
    steps = 0
    dkey = mix64(key ^ SALT_DECISION)
    while True:
        advance(S)
        ph = S[PH]
        if ph == P_WON:
            return 1
        if ph == P_LOST:
            return 0
        if ph >= P_SETUP:
            t = draw_unknown(S, key, ctr)
            ctr += 1
            _drawn(S, t)
            continue
        a = decide1(S, n1, z1, word(dkey, steps), screen1, keep1, base)
        apply_action(S, a)
        steps += 1
        if steps > MAX_DECISIONS:
            return 0


@njit(cache=True)
def _eval2(S0, a, j0, j1, key, S, row, n1, z1, screen1, keep1, base):
    S1 = _after(S0, a)
    for j in range(j0, j1):
        _copy(S, S1)
        row[j] = playout_l1(S, word(key, j), n1, z1, screen1, keep1, base)


@njit(cache=True)
def decide2(S0, n, z, key, screen, keep, n1, z1, screen1, keep1, base):
    """The level-2 rollout action: as decide1, with level-1 rollout playouts."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    bi = row_of(acts, nact, decide1(S0, n1, z1, mix64(key ^ SALT_DECISION), screen1, keep1,
                                    base), 0)
    res = np.zeros((nact, n), dtype=np.int8)
    S = np.empty(NS, dtype=np.int64)
    cand = np.empty(nact + 1, dtype=np.int64)
    if screens(n, screen, keep, nact):
        for i in range(nact):
            _eval2(S0, acts[i], 0, screen, key, S, res[i], n1, z1, screen1, keep1, base)
        m = screen_top(res, nact, bi, screen, keep, cand)
        for q in range(m):
            _eval2(S0, acts[cand[q]], screen, n, key, S, res[cand[q]], n1, z1, screen1, keep1,
                   base)
    else:
        m = nact
        for i in range(nact):
            cand[i] = i
            _eval2(S0, acts[i], 0, n, key, S, res[i], n1, z1, screen1, keep1, base)
    return acts[select(res, cand, m, bi, n, z)]


@njit(cache=True)
def estimate_all(S0, n, key, acts, res, base):
    """res[i, j] = playout j of base policy ``base`` after action acts[i] (wins 1 / losses
    0); returns the number of legal actions (written to ``acts``).  Playout j of every action
    uses the stream word(key, j)."""
    nact = legal(S0, acts)
    S = np.empty(NS, dtype=np.int64)
    for i in range(nact):
        _eval1(S0, acts[i], 0, n, key, S, res[i], base)
    return nact


@njit(cache=True)
def _policy_games(n_games, key0, n1, z1, screen1, keep1, out, base):
    """Whole games from the setup played by the level-1 rollout policy (n1 = 0: greedy),
    game g with stream word(key0, g).  out[g] = 1 if won."""
    S = np.empty(NS, dtype=np.int64)
    notrace = np.empty(0, dtype=np.int64)
    for g in range(n_games):
        new_game(S)
        if n1 == 0:
            out[g] = 1 if playout(S, word(key0, g), notrace, base) > 0 else 0
        else:
            out[g] = playout_l1(S, word(key0, g), n1, z1, screen1, keep1, base)


def policy_games(n_games: int, key: int = 0, n: int = 0, z: float = 1.0, screen: int = 16,
                 keep: int = 6, base: str = "greedy") -> np.ndarray:
    """Win (1) / loss (0) of ``n_games`` chance-mode games from the setup played inside the
    kernel by the level-1 rollout policy with ``n`` playouts per action (0: greedy)."""
    out = np.zeros(n_games, dtype=np.int64)
    _policy_games(np.int64(n_games), np.uint64(key), np.int64(n), np.float64(z),
                  np.int64(screen), np.int64(keep), out, np.int64(BASES[base]))
    return out


def compile_all() -> None:
    """Compile (or load from the cache) the kernel's entry points."""
    playout_batch(2, 1)
    playout_batch(2, 1, "greedy-plus")
    S = np.zeros(NS, dtype=np.int64)
    new_game(S)
    advance(S)
    apply_chance(S, 0)
    legal_list(S)
    greedy(S)
    is_chance(S)
