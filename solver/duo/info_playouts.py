"""Two-player playouts and the one-step rollout decision from one player's view, in numba.

A playout starts from the array of a player's view (:mod:`solver.duo.info_state`, the
partner's hand inside the unknown multiset).  It first deals the partner's hand from the
unknown Locations (:func:`solver.duo.info_state.deal_partner`, stream ``deal_key``; with the
partner filter on, :func:`solver.duo.partner_filter.deal_filtered`), then
plays both seats to the end with a base policy of :mod:`solver.duo.info_greedy`, drawing every
card from the unknown part (stream ``key``).  Each seat's base policy reads only that seat's
own cards, the shared cards, its row, its Doors and the deck size (and its own prophecy's
cards): the partner is simulated on the partner's own (sampled) information, and the viewer's
later decisions in the playout never look at the sampled partner hand.  A playout never reads
the real partner hand or deck order: the view has neither.

The reward of a playout is the number of Doors in play at its end (8 = won): two-player greedy
wins few games, so a win/loss reward over a few playouts rarely separates two actions.
``reward = WIN`` scores 1/0.  With a ``horizon`` (:func:`playout_h`, :func:`_eval`) a playout
stops at its first decision after that many draws and the value function of
:mod:`solver.duo.value` scores the rest (Doors reward only, on its scale ``DSCALE``).

:func:`decide` is the one-step rollout of :mod:`solver.duo.rollout`: candidate actions (every
play, plain discard, the exchanges of the base action's discard or all of them, one greedy
order per prophecy discard, every Door, Nightmare and draft action), each followed by ``n``
playouts; playout ``j`` deals the same partner hand and draws the same cards after every
candidate (common random numbers).  The base action is kept unless a rival's paired mean
difference exceeds ``z`` standard errors (the margin of :mod:`solver.honest.rollout`); the
screening round and the choice are :mod:`solver.honest.screening`'s, shared with the solo
rollouts.  What stays here is the two-player playout: the partner's hand dealt before it
(:func:`_eval`), the Doors reward and the candidate list with the hand exchanges.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from solver.duo.info_greedy import (BASES, OPEN_ONLY, base_action, base_action_call,
                                    prophecy_with_victim)
from solver.duo.info_state import (A_DISCARD, A_DRAW, A_PLAY, A_SWAP, MAX_LEGAL, NDOORS, NS,
                                   P_LOST, P_PLAY, P_PROPHECY, P_SETUP, P_WON, PH, SWAP_STRIDE,
                                   TOP, advance_inline, apply_action, apply_action_inline,
                                   deck_size, draw_unknown, drawn_inline, legal,
                                   new_game, word)
from solver.duo.partner_filter import SIZE as FILTER_SIZE, deal_filtered
from solver.duo.value import DSCALE, NFV, value_at
from solver.honest.screening import row_of, screen_top, screens, select
from solver import steps as turn_steps

MAX_DECISIONS = 4000          # a guard: a two-player game has far fewer decisions
DOORS, WIN = 0, 1
REWARDS = {"doors": DOORS, "win": WIN}
SWAPS_NONE, SWAPS_BASE, SWAPS_ALL = 0, 1, 2
SWAPS = {"none": SWAPS_NONE, "base": SWAPS_BASE, "all": SWAPS_ALL}
SALT_DEAL = np.uint64(0xD1B54A32D192ED03)
CUT = -2                      # playout_h: stopped at its horizon


@njit(cache=True, _nrt=False)
def _play(S, key, base, horizon):
    """The playout loop of :func:`playout` and :func:`playout_h` (``horizon`` 0: to the end),
    compiled once.  The two-player turn is inlined here (``npl`` = 2), and nowhere else in the
    kernel (see solver.honest.state, the turn's entry points)."""
    ctr = 0
    steps = 0
    while True:
        advance_inline(S, 2)
        ph = S[PH]
        if ph == P_WON:
            return S[NDOORS]
        if ph == P_LOST:
            return S[NDOORS]
        if ph >= P_SETUP and ph < P_WON:
            t = draw_unknown(S, key, ctr)
            ctr += 1
            drawn_inline(S, t, 2)
            continue
        if horizon > 0 and ctr >= horizon:
            return CUT
        apply_action_inline(S, base_action(S, base), 2)
        steps += 1
        if steps > MAX_DECISIONS:
            return -1


@njit(cache=True, _nrt=False)
def playout(S, key, base):
    """Play the dealt position ``S`` (``HID`` = 0) to the end, both seats by the base policy,
    draws from stream ``key``.  Returns the Doors in play at the end (8 = won), or -1 if the
    guard hit (never in a legal game)."""
    return _play(S, key, base, np.int64(0))     # not a literal: one _play for both


@njit(cache=True, _nrt=False)
def playout_h(S, key, base, horizon):
    """:func:`playout` with a horizon: at the first decision after ``horizon`` draws (0:
    never) it stops and returns ``CUT``, ``S`` left at that decision, for the value function
    (:func:`solver.duo.value.value_at`) to estimate the rest."""
    return _play(S, key, base, horizon)


@njit(cache=True)
def to_decision(S, key, ctr):
    """Advance the dealt position ``S`` through the automatic steps and the draws (draw
    ``ctr`` on of stream ``key``) to the next decision or the end.  Returns (the Doors in
    play at the end, or -1 if a decision waits; the next draw's counter): the whole-game loop
    of ``benchmarks/learn_duo_value.py`` steps through it, one call per decision."""
    return _to_decision(S, key, np.int64(ctr))


@njit(cache=True, _nrt=False)
def _to_decision(S, key, ctr):
    """:func:`to_decision`, compiled once: the two-player turn inlined here."""
    while True:
        advance_inline(S, 2)
        ph = S[PH]
        if ph == P_WON or ph == P_LOST:
            return S[NDOORS], ctr
        if ph < P_SETUP or ph >= P_WON:           # a decision (the draft's too)
            return np.int64(-1), ctr
        t = draw_unknown(S, key, ctr)
        ctr += 1
        drawn_inline(S, t, 2)


@njit(cache=True)
def _game_batch(n, key0, S, base, out):
    """``n`` whole games from the setup, both seats by the base policy; game g uses stream
    word(key0, g).  out = (games, wins, Doors summed, guard hits)."""
    wins = 0
    doors = 0
    bad = 0
    for g in range(n):
        new_game(S)
        r = playout(S, word(key0, g), base)
        if r < 0:
            bad += 1
        else:
            doors += r
            if turn_steps.doors_win(r):
                wins += 1
    out[0] = n
    out[1] = wins
    out[2] = doors
    out[3] = bad


def game_batch(n: int, key: int = 0, base: str = "greedy") -> dict:
    """Play ``n`` whole two-player games from the setup inside the kernel."""
    S = np.zeros(NS, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    _game_batch(np.int64(n), np.uint64(key), S, np.int64(BASES[base]), out)
    return {"games": int(out[0]), "wins": int(out[1]), "doors": int(out[2]),
            "failed": int(out[3])}


# the copy, the playout and _eval are this kernel's: its state size, its Doors reward and the
# partner's hand dealt before each playout (the solo ones: solver.honest.playouts)
@njit(cache=True, inline="always")
def _copy(dst, src):
    for i in range(NS):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _score(r, reward):
    if reward == WIN:
        return 1 if turn_steps.doors_win(r) else 0
    return r if r > 0 else 0


@njit(cache=True)
def _eval(S0, a, j0, j1, key, S, row, base, reward, horizon, f, F):
    """row[j] = the score of playout j after action ``a`` from the view ``S0``, j in
    [j0, j1): the partner dealt from word(key ^ SALT_DEAL, j), draws from word(key, j).
    ``horizon`` 0: played to the end, the score of ``reward``; ``horizon`` > 0 (``reward``
    doors only): cut at the first decision after ``horizon`` draws (:func:`playout_h`) and
    scored by the value function (0 .. ``VMAX``), a finished playout ``DSCALE`` times its
    Doors.  ``f`` (``NFV`` floats) is the value function's scratch space; ``F`` the partner
    filter's spec (:mod:`solver.duo.partner_filter`; its plain spec: the plain deal)."""
    dkey = key ^ SALT_DEAL
    for j in range(j0, j1):
        _copy(S, S0)
        deal_filtered(S, S0, word(dkey, j), F, j)
        apply_action(S, a)
        if horizon == 0:
            row[j] = _score(playout(S, word(key, j), base), reward)
        else:
            r = playout_h(S, word(key, j), base, horizon)
            row[j] = value_at(S, base, f) if r == CUT else DSCALE * (r if r > 0 else 0)


@njit(cache=True)
def candidates(S0, acts, nact, b, swaps, out):
    """The actions the rollout tries at ``S0`` (legal actions ``acts[:nact]``, base action
    ``b``) into ``out``; returns how many.  Phase play: every play and plain discard, and the
    exchanges of the base action's discard (``SWAPS_BASE``), all (``SWAPS_ALL``) or none;
    phase prophecy: for each distinct revealed card, discarding it with greedy's order of the
    rest; otherwise every legal action.  The base action is always one of them."""
    ph = S0[PH]
    m = 0
    if ph == P_PLAY:
        keep = -1
        if A_DISCARD <= b < A_SWAP:
            keep = b - A_DISCARD
        for i in range(nact):
            a = acts[i]
            if a < A_SWAP or swaps == SWAPS_ALL or (swaps == SWAPS_BASE
                                                     and (a - A_SWAP) // SWAP_STRIDE == keep):
                out[m] = a
                m += 1
    elif ph == P_PROPHECY:
        k = turn_steps.prophecy_count(deck_size(S0))
        for i in range(k):
            c = S0[TOP + i]
            dup = False
            for j in range(i):
                if S0[TOP + j] == c:
                    dup = True
            if dup:
                continue
            out[m] = prophecy_with_victim(S0, c)
            m += 1
    else:
        for i in range(nact):
            out[m] = acts[i]
            m += 1
    if row_of(out, m, b, -1) < 0:
        out[m] = b
        m += 1
    return m


@njit(cache=True)
def decide(S0, n, z, key, screen, keep, base, reward, swaps, stats, horizon):
    """The rollout action at the view ``S0`` (see the module doc; ``horizon`` as in
    :func:`_eval`).  stats[0] += playouts run, stats[1] += candidates tried."""
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    nact = legal(S0, acts)
    if nact == 1:
        return acts[0]
    b = base_action_call(S0, base)
    cands = np.empty(MAX_LEGAL, dtype=np.int64)
    m = candidates(S0, acts, nact, b, swaps, cands)
    if m == 1:
        return b
    bi = row_of(cands, m, b, 0)
    res = np.zeros((m, n), dtype=np.int8)
    S = np.empty(NS, dtype=np.int64)
    sel = np.empty(m + 1, dtype=np.int64)
    f = np.empty(NFV, dtype=np.float64)
    F = np.zeros(FILTER_SIZE, dtype=np.int64)          # the plain deal
    if screens(n, screen, keep, m):
        for i in range(m):
            _eval(S0, cands[i], 0, screen, key, S, res[i], base, reward, horizon, f, F)
        q = screen_top(res, m, bi, screen, keep, sel)
        for t in range(q):
            _eval(S0, cands[sel[t]], screen, n, key, S, res[sel[t]], base, reward, horizon,
                  f, F)
        stats[0] += m * screen + q * (n - screen)
    else:
        q = m
        for i in range(m):
            sel[i] = i
            _eval(S0, cands[i], 0, n, key, S, res[i], base, reward, horizon, f, F)
        stats[0] += m * n
    stats[1] += m
    return cands[select(res, sel, q, bi, n, z)]


@njit(cache=True)
def estimate(S0, n, key, acts, nact, base, reward, res):
    """res[i, j] = the score of playout j after action acts[i], for every i < nact (common
    random numbers across the actions): the per-action estimates of ``onirim best``."""
    S = np.empty(NS, dtype=np.int64)
    f = np.empty(NFV, dtype=np.float64)
    F = np.zeros(FILTER_SIZE, dtype=np.int64)          # the plain deal
    for i in range(nact):
        _eval(S0, acts[i], 0, n, key, S, res[i], base, reward, np.int64(0), f, F)


def compile_all() -> None:
    """Compile (or load from the cache) the entry points the policy and best call."""
    from engine.game import Game
    from engine.view import player_view
    from solver.duo.info_state import encode
    game_batch(2, 1, "greedy")
    game_batch(2, 1, "greedy-plus")
    view = player_view(Game(2).new_initial_state(seed=0))
    S = encode(view)
    stats = np.zeros(2, dtype=np.int64)
    decide(S, np.int64(2), np.float64(1.0), np.uint64(1), np.int64(1), np.int64(2),
           np.int64(1), np.int64(0), np.int64(1), stats, np.int64(0))
    acts = np.zeros(MAX_LEGAL, dtype=np.int64)
    nact = legal(S, acts)
    res = np.zeros((nact, 2), dtype=np.int8)
    estimate(S, np.int64(2), np.uint64(1), acts, np.int64(nact), np.int64(1), np.int64(0),
             res)


__all__ = ["playout", "playout_h", "to_decision", "CUT", "game_batch", "decide", "estimate",
           "candidates", "compile_all", "REWARDS", "SWAPS", "BASES", "OPEN_ONLY", "A_DRAW",
           "A_PLAY"]
