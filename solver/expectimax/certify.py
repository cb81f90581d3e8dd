"""An engine replay that certifies the lower half of an expectimax value.

``Expectimax.value`` claims that the best strategy wins with probability v.  The claim has
two halves: some strategy wins with probability v (value >= v), and none wins more (value
<= v).  ``certify`` checks the first half with the rules of ``engine/`` instead of the
kernel's.  It plays one strategy through the engine's own game tree:

* at a decision it takes the first legal action (``State.legal_actions``, in the engine's
  order) whose resulting position the kernel values as much as the position itself;
* at a chance node it follows every outcome of ``State.chance_outcomes_exact``;
* at the end of the game a win counts 1 and a loss 0 (``State.won``).

The value of that strategy is summed in exact fractions, with the engine's probabilities,
and it must equal the kernel's value of the root (to 1e-12).  The kernel only *chooses* the
moves; whatever it chooses, the sum is the true win probability of a real strategy under
the engine's rules, so it is a lower bound on the value that does not depend on the kernel
being right.  If the kernel overvalued some position on the strategy's path, the sum would
come out below its claim and the check fails.  (It cannot catch a kernel that *under*values
an action: the upper half still rests on the kernel and, for small decks, on the brute
force of the tests.)

A decision the kernel values at exactly 0 adds 0 without being played out: any strategy
wins there with probability >= 0, so the sum stays a lower bound.

The engine's prophecy fixes the order of the kept cards at once (docs/NOTATION.md section 5),
where the kernel defers it (docs/EXPECTIMAX.md section 2a).  The replay takes the engine's
actions: it tries first the order read off the kernel's own line (``_deferred_order``), so
section
2a's argument (some committed order reaches the deferred value) is checked at every
prophecy, and falls back on the other orders if that one falls short.

Positions are remembered by a key that drops what the rules never look at again (the
discard pile, the row before its last card and the length of its series, the order of the
hand, the Doors and the limbo, the history, and the order in which a prophecy's cards were
revealed): docs/EXPECTIMAX.md section 2 lists the same facts.  ``full_key=True`` keys on
the engine's whole position instead (``State.__eq__``); the tests check that both give the
same fraction on small positions.
"""
from __future__ import annotations

import sys
import time
from fractions import Fraction

import numba as nb
import numpy as np

from engine.game import State, series_length
from engine.rules import NUM_TYPES, PH_SETUP, PHASE_NUMBER, PROPHECY_SIZE
from solver.expectimax import kernel
from solver.errors import CertificateTooLarge
from solver.expectimax.encode import encode, forget_seed
from solver.expectimax.kernel import (LOST, PICK, REFILL, WON, canonical, free_get, plen,
                                      search, slot_get, unk_total)
from solver.expectimax.rules import children_of
from solver import steps

TOL = 1e-12


__all__ = ["certify", "CertificateTooLarge"]

# a byte per engine phase for the short keys: the phase numbers of engine.rules
_PHASE_BYTE = dict(PHASE_NUMBER, setup=PH_SETUP)


def _short_key(s: State) -> bytes:
    """The position without what the rules never look at again, packed in a few dozen
    bytes (a replay can keep millions of them)."""
    row = s.rows[0]
    hand = sorted(s.hands[0])
    doors = sorted(s.doors[0])
    limbo = sorted(s.limbo)
    deck = s.deck
    if s.phase in ("foresee", "prophecy"):
        # the prophecy's cards, revealed one by one: the player will put them back in any
        # order, so the order they were revealed in is forgotten (ruling: prophecy)
        k = min(PROPHECY_SIZE, s.deck_size())
        deck = sorted(deck[:k]) + deck[k:]
    return bytes([len(hand), *hand, row[-1] if row else 255, series_length(row),
                  len(doors), *doors, len(deck), *deck, *s.unknown, len(limbo), *limbo,
                  _PHASE_BYTE[s.phase], 255 if s.drawn is None else s.drawn, s.left])


@nb.njit(cache=True)
def _top_counts(w2, w3, m):
    """Counts per card type of the top m known cards."""
    cnt = np.zeros(NUM_TYPES, np.int64)
    n = plen(w2)
    for j in range(n - m, n):
        cnt[slot_get(w2, w3, j)] += 1
    return cnt


@nb.njit(cache=True)
def _worth(w0, w1, w2, w3, keys, vals, cfg, ctr):
    """The exact value of a position (search settles it at once when it costs no search
    or the memo holds it, as after the solve)."""
    return search(w0, w1, w2, w3, 0.0, 1.0, keys, vals, cfg, ctr)[0]


@nb.njit(cache=True)
def _record(order, k, prev, now):
    """Append to order[k:] the cards in prev (counts per type) but not in now, in type
    order (a batch whose order does not matter); returns the new k."""
    for t in range(NUM_TYPES):
        for _r in range(prev[t] - now[t]):
            order[k] = t
            k += 1
    return k


@nb.njit(cache=True)
def _pick_child(ch, nc, v, keys, vals, cfg, ctr):
    for i in range(nc):
        if abs(_worth(ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3], keys, vals, cfg, ctr)
               - v) <= TOL:
            return i
    return -1


@nb.njit(cache=True)
def _deferred_order(w0, w1, w2, w3, keys, vals, cfg, ctr):
    """The committed prophecy that plays like the kernel's deferred one (docs/EXPECTIMAX.md
    section 2a).  From a prophecy, follow the kernel's optimal line (at each decision the
    first child worth the position's value) until no free card is left: no chance event
    happens on the way, so the line is one sequence.  The free cards leave the deck in
    batches (a pick, or an automatic step that takes cards whose order does not matter:
    all of one type, all into the hand, a reveal or redraw of all of them, a shuffle);
    written top first, batch after batch, they are the order to commit.  Returns (ok,
    discarded type, kept types top first)."""
    order = np.full(5, -1, np.int64)
    st, w0, w1, w2, w3 = canonical(w0, w1, w2, w3)
    if st != kernel.PROPHECY:
        return False, -1, order[:0]
    m = steps.prophecy_count(plen(w2) + unk_total(w0, w1))
    before = _top_counts(w2, w3, m)
    ch = np.empty((24, 4), np.int64)
    nc = children_of(st, w0, w1, w2, w3, False, ch)
    i = _pick_child(ch, nc, _worth(w0, w1, w2, w3, keys, vals, cfg, ctr), keys, vals, cfg,
                    ctr)
    if i < 0:
        return False, -1, order[:0]
    c0, c1, c2, c3 = ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3]
    prev = _top_counts(c2, c3, free_get(c3))
    gone = -1
    for t in range(NUM_TYPES):
        if before[t] > prev[t]:
            gone = t
    k = 0
    for _ in range(1000):
        st, c0, c1, c2, c3 = canonical(c0, c1, c2, c3)
        f = free_get(c3) if st != WON and st != LOST else 0
        now = _top_counts(c2, c3, f)
        k = _record(order, k, prev, now)
        prev = now
        if f == 0 or (st >= REFILL and st != PICK):
            break
        nc = children_of(st, c0, c1, c2, c3, False, ch)
        i = _pick_child(ch, nc, _worth(c0, c1, c2, c3, keys, vals, cfg, ctr), keys, vals,
                        cfg, ctr)
        if i < 0:
            break
        c0, c1, c2, c3 = ch[i, 0], ch[i, 1], ch[i, 2], ch[i, 3]
        now = _top_counts(c2, c3, free_get(c3))
        k = _record(order, k, prev, now)
        prev = now
    k = _record(order, k, prev, np.zeros(NUM_TYPES, np.int64))   # left over: any order
    return True, gone, order[:k]


class _Replay:
    def __init__(self, solver, full_key: bool, max_positions: int | None, progress):
        self.encode = encode
        self.solver = solver
        self.key = (lambda s: s) if full_key else _short_key
        self.max_positions = max_positions
        self.progress = progress
        self.memo: dict = {}
        self.decisions = 0
        self.chance = 0
        self.queries = 0
        self.prophecies = 0
        self.orders_tried = 0
        self.max_gap = 0.0       # largest |kernel value - certified value| at a decision
        self.unmatched = 0       # decisions where no action reached the kernel's value
        self.order_misses = 0    # prophecies where _deferred_order gave no engine action
        self.order_fallbacks = 0  # ... or one the kernel values below the prophecy
        self.zero_cuts = 0       # decisions the kernel values at 0, not played out

    def kernel_value(self, s: State) -> float:
        """The kernel's exact value of an engine position (won / lost read from the
        engine)."""
        if s.is_terminal():
            return 1.0 if s.won() else 0.0
        self.queries += 1
        w = self.encode(s)
        lo, hi = kernel.solve_words(np.int64(w[0]), np.int64(w[1]), np.int64(w[2]),
                               np.int64(w[3]), 0.0, 1.0, self.solver.keys, self.solver.vals,
                               self.solver.counters, self.solver.settings)
        if hi - lo > TOL:     # only a node limit could do this; none is set
            raise RuntimeError("kernel value not exact")
        return lo

    def committed_order(self, s: State) -> int | None:
        """The engine's prophecy action that discards what the kernel's best deferred
        prophecy discards and puts the kept cards back in the order its line draws them
        (``_deferred_order``), or None."""
        w = self.encode(s)
        ok, gone, order = _deferred_order(np.int64(w[0]), np.int64(w[1]), np.int64(w[2]),
                                          np.int64(w[3]), self.solver.keys,
                                          self.solver.vals, self.solver.settings,
                                          self.solver.counters)
        if not ok:
            return None
        return s._prophecy_actions().get((int(gone), tuple(int(t) for t in order)))

    def value(self, s: State) -> Fraction:
        k = self.key(s)
        v = self.memo.get(k)
        if v is not None:
            return v
        if s.is_terminal():
            v = Fraction(1) if s.won() else Fraction(0)
        elif s.is_chance_node():
            self.chance += 1
            v = Fraction(0)
            for a, p in s.chance_outcomes_exact():
                c = s.clone()
                c.apply_action(a)
                v += p * self.value(c)
        else:
            self.decisions += 1
            acts = s.legal_actions()
            if s.phase == "prophecy":
                self.prophecies += 1
            if len(acts) == 1:
                c = s.clone()
                c.apply_action(acts[0])
                return self._store(k, self.value(c))
            # the first action (engine order) whose position the kernel values as much as
            # this one; if none does, the best of them (the check below then fails)
            target = self.kernel_value(s)
            if target == 0.0:
                # nothing to certify: any strategy wins with probability >= 0, so adding 0
                # keeps the sum a lower bound (and playing a lost position out would
                # enumerate its whole tree)
                self.zero_cuts += 1
                return self._store(k, Fraction(0))
            a0 = None
            if s.phase == "prophecy":
                # try first the committed order that plays like the kernel's deferred one
                a0 = self.committed_order(s)
                if a0 is None:
                    self.order_misses += 1
                else:
                    acts = [a0] + [a for a in acts if a != a0]
            best = -1.0
            child = None
            for n, a in enumerate(acts):
                c = s.clone()
                c.apply_action(a)
                kv = self.kernel_value(c)
                if s.phase == "prophecy":
                    self.orders_tried += 1
                    if n == 0 and a0 is not None and kv < target - TOL:
                        self.order_fallbacks += 1
                if kv > best:
                    best, child = kv, c
                if kv >= target - TOL:
                    break
            if best < target - TOL:
                self.unmatched += 1
            v = self.value(child)
            self.max_gap = max(self.max_gap, abs(target - float(v)))
        return self._store(k, v)

    def _store(self, k, v: Fraction) -> Fraction:
        self.memo[k] = v
        if self.max_positions is not None and len(self.memo) > self.max_positions:
            raise CertificateTooLarge(f"more than {self.max_positions} positions")
        if self.progress is not None and len(self.memo) % 10_000 == 0:
            self.progress(len(self.memo))
        return v


def certify(solver, state: State, full_key: bool = False, max_positions: int | None = None,
            progress=None) -> dict:
    """Solve ``state`` exactly with ``solver`` (an ``Expectimax``), then replay the strategy
    its values choose through the engine (module docstring).  Returns a dict:

    * ``claimed``: the kernel's exact value; ``certified``: the strategy's win probability
      as a Fraction, summed over the engine's tree; ``agrees``: the two are equal to 1e-12;
      ``ok``: they agree and at every decision of the strategy some action reached the
      kernel's value (``unmatched`` counts the decisions where none did);
    * ``max_gap``: the largest |kernel value - certified value| over the strategy's
      decisions (0 up to rounding when the kernel is right);
    * ``positions`` (distinct, as the replay's key sees them), ``decisions``, ``chance``
      nodes, kernel ``queries``, ``zero_cuts`` (decisions worth 0, not played out);
    * ``prophecies``, ``orders_tried``, ``order_misses`` (no engine action matched the
      kernel's line), ``order_fallbacks`` (it matched but fell short);
    * ``solve_s``, ``replay_s``: seconds."""
    if state.is_terminal():
        raise ValueError("certify: the position is already decided")
    t0 = time.perf_counter()
    iv = solver.value(state)
    if not iv.exact:
        raise ValueError("certify: the search did not settle the value exactly")
    t1 = time.perf_counter()
    s = forget_seed(state)
    r = _Replay(solver, full_key, max_positions, progress)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        v = r.value(s)
    finally:
        sys.setrecursionlimit(old)
    t2 = time.perf_counter()
    agrees = abs(float(v) - iv.lo) <= TOL
    return {"claimed": iv.lo, "certified": v, "agrees": agrees,
            "ok": agrees and r.unmatched == 0,
            "positions": len(r.memo), "decisions": r.decisions, "chance": r.chance,
            "queries": r.queries, "prophecies": r.prophecies,
            "orders_tried": r.orders_tried, "max_gap": r.max_gap,
            "unmatched": r.unmatched, "order_misses": r.order_misses,
            "order_fallbacks": r.order_fallbacks, "zero_cuts": r.zero_cuts,
            "solve_s": t1 - t0, "replay_s": t2 - t1}
