"""The penalised inner problem in numba (``docs/BOUND.md`` sections 5, 8 and 10).

For one deal of a position: the maximum over action sequences of ``1[win] - sum z``, or, with a
stop count ``C``, of ``V*(I_tau) - sum over draws before tau of z`` where ``tau`` is the first
resting view whose next draw leaves at most ``C`` unknown cards (section 10: a stopping-time
relaxation; ``V*`` there is the expectimax's, and any sound upper bound on it keeps the bound
valid).

**State.**  A node is the expectimax kernel's packed view (``solver.expectimax``: four words,
canonical, with its status), plus what the deal fixes below it: ``knode``, the shuffles done
since the position, and ``M``, the multiset the last shuffle laid out (the position's unknown
multiset while ``knode`` is 0).  The cards still unknown are the last ``unk_total`` cards of the
order the deal gives ``M`` at ``knode`` (cards leave the unknown part only from the top, or
with a series' Door, which a shuffle follows at once), so ``(words, knode, M)`` is the whole
state: the memo's key, six words, compared in full (no hash-only keys).

**Transitions** are the expectimax kernel's own rule steps (``decision_children``,
``outcomes``, ``canonical``), on the view; nothing of the rules is written here.  What the
deal adds:

* a chance node draws the deal's next card(s): of the node's outcomes (one card, or the
  multiset of a reveal) the one whose unknown counts are the view's minus those cards;
* a shuffle happened in a transition when (a) at ``PLAY`` the Doors in play grew (a series
  brought its Door; the kernel shuffles the deck unless that won) or (b) ``canonical`` raised
  the unknown count (the end-of-turn shuffle of the limbo into the deck; nothing else in
  ``advance`` adds unknown cards).  After one, ``M`` is the view's unknown multiset and the
  new order is the deal's: the engine's ``shuffle_counts(M, seed, first + knode - 1)``
  (``solver.clairvoyant.deal_kernel``'s mirror of it).

**Penalties** at a chance node with view ``I`` and outcomes ``I∘t`` (probabilities ``p_t``):
``z = W(I∘c) - sum_t p_t W(I∘t)``, ``W`` at the canonical resting views.  ``W`` modes:
``W_ZERO``; ``W_EXACT`` (the expectimax value: a full-window search on the given memo
tables; its upper end if a budget stopped it, counted in ``CT_INEXACT``); ``W_NOISY`` (the
exact value plus a fixed hash of the words times ``noise``: a deliberately wrong ``W`` for
tests).

**Cuts** (each exact, argued in ``docs/BOUND.md`` section 8 and tested against the search
without them):

* *hopeless*: a view that cannot win any more (the expectimax's can-still-win test) is worth
  0 when ``W`` is 0 on every view that cannot win (true of ``W_ZERO`` and ``W_EXACT``; not of
  ``W_NOISY``, which never uses the cut);
* *win*: with ``W_ZERO`` every node's value is at most 1 (the stop reward ``V*`` too), so a
  decision whose best child is worth 1 needs no more children.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from engine.rules import NUM_TYPES
from engine.rules import PH_LOST as LOST
from engine.rules import PH_PICK as PICK
from engine.rules import PH_PLAY as PLAY
from engine.rules import PH_REFILL as REFILL
from engine.rules import PH_WON as WON
from solver.clairvoyant.deal_kernel import _shuffle_row
from solver.expectimax.bound import can_still_win
from solver.expectimax.chance import outcomes
from solver.expectimax.fields import W0_TYPES, doors_total, unk_get, unk_total
from solver.expectimax.rules import canonical, decision_children
from solver.expectimax.search import search
from solver.steps import mix64

W_ZERO, W_EXACT, W_NOISY = 0, 1, 2
W_NAMES = {"zero": W_ZERO, "exact": W_EXACT, "noisy": W_NOISY}

# settings slots (int64 array)
BS_LIMIT = 0          # stop after this many nodes expanded (the result is then unfinished)
BS_STOP = 1           # C: stop at views whose next draw leaves <= C unknown (-1: never)
BS_WMODE = 2          # W_ZERO, W_EXACT or W_NOISY
BS_CUTS = 3           # 1: the hopeless and win cuts (0: exhaustive)
BS_SIZE = 4

# counter slots (int64 array)
CT_NODES = 0          # nodes expanded (decisions and chance nodes pushed on the stack)
CT_HITS = 1           # memo hits
CT_CHANCE = 2         # chance nodes expanded
CT_STOPS = 3          # stop views valued by V*
CT_WEVALS = 4         # evaluations of W (searches or lookups)
CT_INEXACT = 5        # V* or W searches that came back as an interval (its top was used)
CT_CUT_HOPELESS = 6
CT_CUT_WIN = 7
CT_STORED = 8         # memo entries stored
CT_FULL = 9           # memo stores dropped (probe window full)
CT_UNFINISHED = 10    # 1 if the node limit stopped the search
CT_DEPTH = 11         # the deepest stack reached
CT_SHUFFLES = 12      # shuffles met (orders laid out)
CT_ERROR = 13         # 1 if the deal's card was not among the chance outcomes (a bug)
CT_SIZE = 16

MAX_DEPTH = 1024      # decisions + chance nodes along one line (a game has a few hundred)
MAX_CHILDREN = 24     # decision_children writes at most 24
ORDER_LEN = 80        # the deck holds at most 76 cards
KEY_WORDS = 6
PROBE = 64
STATUS_CHANCE_FIRST = REFILL


def new_settings(limit: int = 1 << 62, stop: int = -1, wmode: int = W_ZERO,
                 cuts: bool = True) -> np.ndarray:
    s = np.zeros(BS_SIZE, dtype=np.int64)
    s[BS_LIMIT] = limit
    s[BS_STOP] = stop
    s[BS_WMODE] = wmode
    s[BS_CUTS] = 1 if cuts else 0
    return s


def new_memo(bits: int):
    """(keys, vals): an empty memo of 2**bits rows (key words, -1 = empty; float values)."""
    keys = np.full((1 << bits, KEY_WORDS), -1, dtype=np.int64)
    vals = np.zeros(1 << bits, dtype=np.float64)
    return keys, vals


@nb.njit(inline="always", cache=True)
def is_chance(status):
    return status >= STATUS_CHANCE_FIRST and status != PICK and status != WON \
        and status != LOST


@nb.njit(inline="always", cache=True)
def _key_hash(k0, k1, k2, k3, k4, k5):
    h = np.uint64(0x243F6A8885A308D3)
    h = mix64(h ^ np.uint64(k0))
    h = mix64(h ^ np.uint64(k1))
    h = mix64(h ^ np.uint64(k2))
    h = mix64(h ^ np.uint64(k3))
    h = mix64(h ^ np.uint64(k4))
    h = mix64(h ^ np.uint64(k5))
    return h


@nb.njit(cache=True)
def memo_find(keys, k0, k1, k2, k3, k4, k5):
    """The row holding the key, or -1 - (the first empty row of its window), or -1 - n if
    the window is full (n = the table's size)."""
    n = keys.shape[0]
    i = np.int64(_key_hash(k0, k1, k2, k3, k4, k5) & np.uint64(n - 1))
    for _ in range(PROBE):
        if keys[i, 0] == -1:
            return -1 - i
        if keys[i, 0] == k0 and keys[i, 1] == k1 and keys[i, 2] == k2 and keys[i, 3] == k3 \
                and keys[i, 4] == k4 and keys[i, 5] == k5:
            return i
        i = (i + 1) & (n - 1)
    return -1 - n


@nb.njit(inline="always", cache=True)
def _unk_lo(w0):
    return w0


@nb.njit(inline="always", cache=True)
def _unk_hi(w1):
    return w1 & 0xFF


@nb.njit(inline="always", cache=True)
def _stop_here(status, w0, w1, stop):
    """The stop rule (a function of the view): the next draw leaves at most ``stop``
    unknown cards (at a decision: the unknown count is already at most ``stop``)."""
    if stop < 0:
        return False
    u = unk_total(w0, w1)
    if is_chance(status):
        u -= 1
    return u <= stop


@nb.njit(cache=True)
def exact_value(status, w0, w1, w2, w3, ex_keys, ex_vals, ex_cfg, ex_ctr, ctr):
    """V* of a canonical view: 1/0 at the end, else the expectimax search with a full window
    on the given tables; if it came back as an interval (a node limit), its upper end (a
    sound over-estimate) and CT_INEXACT counts it."""
    if status == WON:
        return 1.0
    if status == LOST:
        return 0.0
    lo, hi = search(w0, w1, w2, w3, -1.0, 2.0, ex_keys, ex_vals, ex_cfg, ex_ctr)
    if lo != hi:
        ctr[CT_INEXACT] += 1
    return hi


@nb.njit(cache=True)
def w_value(wmode, noise, status, w0, w1, w2, w3, ex_keys, ex_vals, ex_cfg, ex_ctr, ctr):
    if wmode == W_ZERO:
        return 0.0
    ctr[CT_WEVALS] += 1
    v = exact_value(status, w0, w1, w2, w3, ex_keys, ex_vals, ex_cfg, ex_ctr, ctr)
    if wmode == W_NOISY:
        h = _key_hash(w0, w1, w2, w3, status, 7)
        v += noise * (np.float64(h >> np.uint64(11)) / 9007199254740992.0)
    return v


@nb.njit(cache=True)
def _layout(ords, row, m_lo, m_hi, seed, index):
    """The deal's order of the multiset (m_lo, m_hi) (unknown-count packing) for the
    shuffle ``index``, into ``ords[row]``."""
    counts = np.zeros(NUM_TYPES, np.int64)
    for t in range(NUM_TYPES):
        counts[t] = unk_get(m_lo, m_hi, t)
    return _shuffle_row(counts, seed, index, ords, row)


# The node limit ``settings[BS_LIMIT]`` is read at every node, and the kernel holds no GIL, so
# another thread stops a running search by setting it to 0 (and ``ex_cfg``'s ``SE_LIMIT`` to 0
# to stop an expectimax search of ``W`` or a stop): ``KernelInner.solve`` does so on Ctrl-C.
@nb.njit(cache=True, nogil=True)
def inner(root, order, seed, first, settings, noise, keys, vals, ex_keys, ex_vals, ex_cfg,
          ex_ctr, ctr):
    """The inner maximum from the canonical view ``root`` (status, w0..w3) on the deal whose
    unknown order (top first) is ``order`` and whose later shuffles are the engine's shuffles
    ``first``, ``first + 1``, ... of ``seed``.  Returns the value (meaningless if
    ``ctr[CT_UNFINISHED]`` is set).  Stopping it from another thread: see above."""
    stop = settings[BS_STOP]
    wmode = settings[BS_WMODE]
    cuts = settings[BS_CUTS] != 0 and wmode != W_NOISY

    fw = np.zeros((MAX_DEPTH, 4), np.int64)
    fst = np.zeros(MAX_DEPTH, np.int64)
    fk = np.zeros(MAX_DEPTH, np.int64)       # knode
    fm = np.zeros((MAX_DEPTH, 2), np.int64)  # M (unknown-count packing)
    frow = np.zeros(MAX_DEPTH, np.int64)     # row of ords holding the order of (knode, M)
    fslot = np.zeros(MAX_DEPTH, np.int64)    # memo row to store into (-1: none)
    fch = np.zeros((MAX_DEPTH, MAX_CHILDREN, 4), np.int64)
    fnc = np.zeros(MAX_DEPTH, np.int64)
    fci = np.zeros(MAX_DEPTH, np.int64)
    fbest = np.zeros(MAX_DEPTH, np.float64)
    fz = np.zeros(MAX_DEPTH, np.float64)
    ords = np.zeros((MAX_DEPTH + 1, ORDER_LEN), np.uint8)
    for i in range(order.shape[0]):
        ords[0, i] = order[i]

    # the pending node (to enter): status, words, knode, M, row of its order
    ps = root[0]
    p0 = root[1]
    p1 = root[2]
    p2 = root[3]
    p3 = root[4]
    pk = np.int64(0)
    pm0 = _unk_lo(p0)
    pm1 = _unk_hi(p1)
    prow = np.int64(0)
    d = -1                 # the top frame
    ret = 0.0
    while True:
        # ---- enter the pending node at depth d + 1: a value at once, or a new frame
        got = False
        v = 0.0
        if ps == WON:
            v = 1.0
            got = True
        elif ps == LOST:
            v = 0.0
            got = True
        elif cuts and not can_still_win(p0, p1, p2, p3):
            ctr[CT_CUT_HOPELESS] += 1
            v = 0.0
            got = True
        elif _stop_here(ps, p0, p1, stop):
            ctr[CT_STOPS] += 1
            v = exact_value(ps, p0, p1, p2, p3, ex_keys, ex_vals, ex_cfg, ex_ctr, ctr)
            got = True
        slot = -1
        if not got:
            k4 = pm0
            k5 = pm1 | (pk << 8)
            r = memo_find(keys, p0, p1, p2, p3, k4, k5)
            if r >= 0:
                ctr[CT_HITS] += 1
                v = vals[r]
                got = True
            elif r > -1 - keys.shape[0]:
                slot = -1 - r
        if not got:
            if ctr[CT_NODES] >= settings[BS_LIMIT] or d + 1 >= MAX_DEPTH:
                ctr[CT_UNFINISHED] = 1
                return 0.0
            ctr[CT_NODES] += 1
            d += 1
            if d + 1 > ctr[CT_DEPTH]:
                ctr[CT_DEPTH] = d + 1
            fw[d, 0] = p0
            fw[d, 1] = p1
            fw[d, 2] = p2
            fw[d, 3] = p3
            fst[d] = ps
            fk[d] = pk
            fm[d, 0] = pm0
            fm[d, 1] = pm1
            frow[d] = prow
            fslot[d] = slot
            fci[d] = 0
            fbest[d] = -1e300
            if is_chance(ps):
                ctr[CT_CHANCE] += 1
                fnc[d] = 1
                cw, cp = outcomes(ps, p0, p1, p2, p3)
                m = cp.shape[0]
                total = unk_total(p0, p1)
                nr = total - unk_total(cw[0, 0], cw[0, 1])     # cards this event draws
                pos = unk_total(pm0, pm1) - total              # cards of the order used
                a0 = p0
                a1 = p1
                for j in range(nr):
                    t = np.int64(ords[prow, pos + j])
                    if t < W0_TYPES:
                        a0 -= np.int64(1) << (4 * t)
                    else:
                        a1 -= np.int64(1) << (4 * (t - W0_TYPES))
                pick = -1
                for i in range(m):
                    if cw[i, 0] == a0 and (cw[i, 1] & 0xFF) == (a1 & 0xFF):
                        pick = i
                        break
                if pick < 0:
                    ctr[CT_ERROR] = 1
                    ctr[CT_UNFINISHED] = 1
                    return 0.0
                z = 0.0
                if wmode != W_ZERO:
                    mean = 0.0
                    wc = 0.0
                    for i in range(m):
                        s_, c0, c1, c2, c3 = canonical(cw[i, 0], cw[i, 1], cw[i, 2], cw[i, 3])
                        wi = w_value(wmode, noise, s_, c0, c1, c2, c3, ex_keys, ex_vals,
                                     ex_cfg, ex_ctr, ctr)
                        mean += cp[i] * wi
                        if i == pick:
                            wc = wi
                    z = wc - mean
                fz[d] = z
                fch[d, 0, 0] = cw[pick, 0]
                fch[d, 0, 1] = cw[pick, 1]
                fch[d, 0, 2] = cw[pick, 2]
                fch[d, 0, 3] = cw[pick, 3]
            else:
                fnc[d] = decision_children(ps, p0, p1, p2, p3, False, fch[d])
        else:
            # the value v belongs to a child of frame d (or is the root's)
            if d < 0:
                return v
            ret = v
            # ---- give ret to frame d, and pop every frame that completes
            while True:
                if is_chance(fst[d]):
                    val = ret - fz[d]
                    done = True
                else:
                    if ret > fbest[d]:
                        fbest[d] = ret
                    val = fbest[d]
                    done = fci[d] >= fnc[d]
                    if cuts and wmode == W_ZERO and fbest[d] >= 1.0 and not done:
                        ctr[CT_CUT_WIN] += 1
                        done = True
                if not done:
                    break
                if fslot[d] >= 0:
                    s = fslot[d]
                    # the row may have been taken meanwhile by a deeper store: find again
                    k5 = fm[d, 1] | (fk[d] << 8)
                    r = memo_find(keys, fw[d, 0], fw[d, 1], fw[d, 2], fw[d, 3], fm[d, 0], k5)
                    if r < 0 and r > -1 - keys.shape[0]:
                        s = -1 - r
                        keys[s, 0] = fw[d, 0]
                        keys[s, 1] = fw[d, 1]
                        keys[s, 2] = fw[d, 2]
                        keys[s, 3] = fw[d, 3]
                        keys[s, 4] = fm[d, 0]
                        keys[s, 5] = k5
                        vals[s] = val
                        ctr[CT_STORED] += 1
                    elif r < 0:
                        ctr[CT_FULL] += 1
                else:
                    ctr[CT_FULL] += 1
                d -= 1
                if d < 0:
                    return val
                ret = val
            # frame d has children left (a decision)
        # ---- the next child of frame d becomes the pending node
        i = fci[d]
        fci[d] += 1
        ph = fst[d]
        r0 = fch[d, i, 0]
        r1 = fch[d, i, 1]
        r2 = fch[d, i, 2]
        r3 = fch[d, i, 3]
        shuffled = ph == PLAY and doors_total(r1) > doors_total(fw[d, 1])
        ps, p0, p1, p2, p3 = canonical(r0, r1, r2, r3)
        if unk_total(p0, p1) > unk_total(r0, r1):
            shuffled = True
        pk = fk[d]
        pm0 = fm[d, 0]
        pm1 = fm[d, 1]
        prow = frow[d]
        if shuffled and ps != WON:
            pk += 1
            pm0 = _unk_lo(p0)
            pm1 = _unk_hi(p1)
            prow = d + 1
            ctr[CT_SHUFFLES] += 1
            _layout(ords, prow, pm0, pm1, seed, first + pk - 1)
