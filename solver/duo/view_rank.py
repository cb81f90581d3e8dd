"""``onirim best`` on a two-player *player's view*: mode ``duo-view``.

``onirim play --players 2`` prints the player's position with the partner's cards as ``?``
(``hand1=?,?,?``) and the deck as ``*``; :func:`engine.notation.parse_view` reads it into the
duo view of :mod:`engine.view` (what that player may know, the strict reading of
``docs/DUO.md``).  This mode answers from that information only:

* **Per-action estimates** (every legal action gets one within the budget): after the action,
  both seats play ``duo-greedy-plus`` (:mod:`solver.duo.info_greedy`) on their own cards, the
  partner's hand dealt from the unknown cards and the deck drawn from them
  (:mod:`solver.duo.info_playouts`), common random numbers across the actions.  The estimate
  is the share of those playouts won, with its Wilson 95% interval: the winning chance of
  "this action, then duo-greedy-plus", a policy's value, not a bound.  Rounds with doubling
  playouts run until the budget (time, or ``budget_nodes`` playouts) is spent; the first round
  always runs, so a tiny budget still gives every action an estimate.
* **Sound bounds where the open-hands search proves something.**  For each possible partner
  hand ``k`` (probability ``P(k)``: the partner's cards are dealt uniformly from the unknown
  Locations), an honest player's winning chance after action ``a`` is at most the team's with
  open hands, ``OH_k(a)``; so ``hi(a) = sum_k P(k) * hi_k(a)`` is a sound upper bound, where
  ``hi_k`` is the open-hands search's upper bound (:mod:`solver.duo.open_hands`).  It is tried
  only when there are few possible hands (``MAX_WORLDS``) and the deck is short
  (``MAX_DECK``), on part of the budget; elsewhere every action keeps ``[0, 1]``.  An action
  with ``hi = 0`` is proven lost (exact 0).  ``lo`` stays 0 (no honest strategy is certified).

The JSON adds ``information`` (the strict reading), ``estimate_policy``, ``playouts`` (per
action), ``worlds`` and ``open_hands`` (what the exact part did).
"""
from __future__ import annotations

import itertools
import time
from math import comb

import numpy as np

from engine import cards
from engine.game import State
from engine.view import is_duo_view, player_view

from solver.budgets import check_nodes, check_seconds
from solver.duo import info_playouts as IP
from solver.duo.info_state import MAX_LEGAL, encode, legal
from solver.duo.rollout import KNOWLEDGE, key_of_stream
from solver.errors import UnsupportedPosition
from solver.registry import _SOLVERS, SolverBase, register_solver
from solver.results import ActionValue, Ranking, bounds, finish
from solver.stats import wilson

MODE = "duo-view"
FIRST_N = 32              # playouts per action in the first round (always run)
MAX_N = 1 << 16           # playouts per action, at most
DEFAULT_N = 4096          # with no budget at all
MAX_WORLDS = 6            # partner hands for the open-hands bound, at most
MAX_DECK = 10             # deck size for the open-hands bound, at most
OPEN_SHARE = 0.4          # of the time budget for the open-hands bound
ESTIMATE_POLICY = ("after the action, both seats play duo-greedy-plus on their own cards "
                   "(the partner's hand dealt from the unknown cards, the deck drawn from "
                   "them); estimate = share of playouts won, Wilson 95%")
_DECISION = ("play", "prophecy", "door", "nightmare", "draft")


class NotDuoView(UnsupportedPosition):
    """A position this mode does not rank (not two-player, or not a decision)."""


def partner_hands(view):
    """Every possible partner hand (a sorted tuple of Location types) with its probability:
    ``view.hidden`` cards dealt uniformly from the unknown Locations (multivariate
    hypergeometric), as :func:`engine.view.sample_position` deals them."""
    u = [view.unknown[t] for t in range(cards.NUM_LOCATION_TYPES)]
    h = view.hidden
    total = comb(sum(u), h)
    out = []
    for combo in itertools.combinations_with_replacement(range(cards.NUM_LOCATION_TYPES), h):
        w = 1
        for t in set(combo):
            w *= comb(u[t], combo.count(t))
        if w:
            out.append((combo, w / total))
    return out


def _count_hands(view, cap):
    """How many partner hands are possible, counting up to ``cap`` + 1 (the enumeration is
    cut there: early positions have thousands)."""
    u = [view.unknown[t] for t in range(cards.NUM_LOCATION_TYPES)]
    n = 0
    for combo in itertools.combinations_with_replacement(range(cards.NUM_LOCATION_TYPES),
                                                         view.hidden):
        if all(combo.count(t) <= u[t] for t in set(combo)):
            n += 1
            if n > cap:
                break
    return n


def world(view, hand) -> State:
    """The chance-mode position of ``view`` with the partner holding ``hand``."""
    s = view.clone()
    unknown = list(view.unknown)
    for c in hand:
        unknown[c] -= 1
    s.__class__ = type(view).__mro__[2]          # the engine's State
    s.unknown = unknown
    s.hands[1 - view.viewer] = sorted(hand)
    del s.viewer, s.hidden
    return s


@register_solver(MODE, players=(2,), options=(),
                 doc="two-player player's view: per-action playout estimates, open-hands "
                     "upper bounds where few partner hands are possible")
class DuoViewRank(SolverBase):
    viewer = "player"

    def position(self, state, hide: bool = False):
        if state.players != 2:
            raise NotDuoView("duo-view: two-player positions only")
        if is_duo_view(state):
            view = state
        else:
            view = player_view(state)
        if view.phase not in _DECISION:
            raise NotDuoView(f"phase: the position must be a decision (play, prophecy, door, "
                             f"nightmare or draft), not {view.phase}")
        note = f"player {view.viewer}'s (the partner's cards and the deck order unknown)"
        return view, note

    def prepare(self, state=None, say=None) -> None:
        IP.compile_all()

    def rank(self, view, budget_nodes: int | None = None, budget_s: float | None = None,
             *, on_progress=None, reserve_s: float = 0.0, stream: int = 0) -> Ranking:
        from engine.notation import format_position
        from engine.view import observation_text
        budget_nodes = check_nodes(budget_nodes, "budget_nodes")
        budget_s = check_seconds(budget_s, "budget_s")
        t0 = time.perf_counter()
        deadline = None if budget_s is None else t0 + max(0.0, budget_s - reserve_s)
        acts = view.legal_actions()
        names = [view.action_to_string(a) for a in acts]
        extra = {"players": 2, "information": KNOWLEDGE, "estimate_policy": ESTIMATE_POLICY}
        interrupted = False
        # the exact part: open-hands upper bounds over the possible partner hands
        hi = {a: 1.0 for a in acts}
        nodes = 0
        try:
            nodes = self._open_hands(view, acts, hi, deadline, budget_s, extra)
        except KeyboardInterrupt:
            interrupted = True
        # the estimates
        est, n_done = {}, 0
        if not interrupted:
            try:
                n_done = self._estimates(view, acts, est, deadline, budget_nodes, stream,
                                         on_progress)
            except KeyboardInterrupt:
                interrupted = True
        out = []
        for a, name in zip(acts, names):
            h = hi[a]
            av = ActionValue(action=name, action_id=a, lo=0.0, hi=bounds(0.0, h).hi)
            if a in est:
                k, n = est[a]
                av.estimate = k / n
                av.ci95 = wilson(k, n)
            out.append(av)
        try:
            pos = observation_text(view)
        except Exception:  # noqa: BLE001 - a view always prints; the full text otherwise
            pos = format_position(view)
        ranking = Ranking(pos, MODE, out, nodes + n_done * len(acts), 0.0)
        finish(ranking)
        extra["playouts"] = n_done
        extra["estimates"] = {"policy": "duo-greedy-plus (both seats, each on its own cards)",
                              "playouts_per_action": n_done,
                              "method": "the partner's hand dealt from the unknown cards, "
                                        "common random numbers",
                              "interval": "Wilson 95%"}
        extra["information"] = f"{KNOWLEDGE}; bounds: {extra.get('open_hands')}"
        ranking.extra.update(extra)
        if interrupted:
            ranking.extra["interrupted"] = True
        ranking.seconds = time.perf_counter() - t0
        return ranking

    # ------------------------------------------------------------------ parts
    def _open_hands(self, view, acts, hi, deadline, budget_s, extra) -> int:
        nw = _count_hands(view, MAX_WORLDS)
        extra["worlds"] = nw if nw <= MAX_WORLDS else f"more than {MAX_WORLDS}"
        if nw > MAX_WORLDS or view.deck_size() > MAX_DECK or len(view.deck) > 0:
            extra["open_hands"] = (f"not tried ({extra['worlds']} possible partner hands, "
                                   f"deck {view.deck_size()}; tried with at most "
                                   f"{MAX_WORLDS} hands, a deck of at most {MAX_DECK} and "
                                   "no known top cards)")
            return 0
        # the open-hands solver through the registry (solver.duo.open_hands registers it
        # and imports this module: no import back)
        solver = _SOLVERS["open-hands"].factory()
        share = None if budget_s is None else OPEN_SHARE * budget_s
        t_end = None if share is None else time.perf_counter() + share
        if deadline is not None and t_end is not None:
            t_end = min(t_end, deadline)
        worlds = partner_hands(view)
        acc = {a: 0.0 for a in acts}
        nodes = 0
        done = 0
        for i, (hand, p) in enumerate(worlds):
            left = None if t_end is None else (t_end - time.perf_counter()) / (len(worlds) - i)
            if left is not None and left <= 0:
                break
            r = solver.rank(world(view, hand), budget_s=left,
                            budget_nodes=None if left is not None else 2_000_000)
            nodes += r.nodes
            by_id = {x.action_id: x for x in r.actions}
            for a in acts:
                acc[a] += p * by_id[a].hi
            done += 1
        if done == len(worlds):
            for a in acts:
                hi[a] = min(1.0, acc[a])
            extra["open_hands"] = (f"upper bounds over all {len(worlds)} possible partner "
                                   "hands (each hand's open-hands bound, weighted by its "
                                   "probability)")
        else:
            extra["open_hands"] = (f"stopped by the budget after {done} of {len(worlds)} "
                                   "partner hands: no bound")
        return nodes

    def _estimates(self, view, acts, est, deadline, budget_nodes, stream, on_progress) -> int:
        S = encode(view)
        ids = np.zeros(MAX_LEGAL, dtype=np.int64)
        nact = legal(S, ids)
        assert [int(x) for x in ids[:nact]] == acts
        key = np.uint64(key_of_stream(stream))
        n = FIRST_N
        done = 0
        rnd = 0
        while True:
            t = time.perf_counter()
            res = np.zeros((nact, n), dtype=np.int8)
            IP.estimate(S, np.int64(n), key, ids, np.int64(nact),
                        np.int64(IP.BASES["greedy-plus"]), np.int64(IP.WIN), res)
            for i in range(nact):
                est[acts[i]] = (int(res[i].sum()), n)
            done = n
            rnd += 1
            if on_progress is not None:
                on_progress(0, nact, done * nact, rnd)
            took = time.perf_counter() - t
            nxt = 2 * n
            if nxt > MAX_N:
                break
            if budget_nodes is not None and nxt * nact > budget_nodes:
                break
            if deadline is not None and time.perf_counter() + 2.2 * took > deadline:
                break
            if deadline is None and budget_nodes is None and nxt > DEFAULT_N:
                break
            n = nxt
        return done


def warm_up() -> None:
    """Compile (or load) what the mode needs, on a throwaway deal's opening view."""
    from engine.game import Game
    IP.compile_all()
    view = player_view(Game(2).new_initial_state(seed=0))
    DuoViewRank().rank(view, budget_nodes=FIRST_N * 64)
