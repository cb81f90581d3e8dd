"""``onirim best`` on a two-player *player's view*: mode ``duo-view``.

``onirim play --players 2`` prints the player's position with the partner's cards as ``?``
(``hand1=?,?,?``) and the deck as ``*``; :func:`engine.notation.parse_view` reads it into the
duo view of :mod:`engine.view` (what that player may know, the strict reading of
``docs/DUO.md``).  This mode answers from that information only:

* **The leader and its estimates**: the decision of the view's default policy (the silent
  game's ``duo-kcut-switch``): outside its end game that of the rollout policy it plays there
  (:func:`leader_policy`, the one place that chooses it: ``duo-kcut``,
  :mod:`solver.duo.rollout`: after each candidate action both seats play its base, ``plus2``,
  on their own cards (each playout cut at 24 draws and scored by the value function), the
  partner's hand dealt from the unknown cards, common random numbers, the z-margin rule on
  the Doors reward), by its own search (``DuoKRollout.search``, what its ``act`` runs; the
  estimates from uncut playouts); then, while the budget affords it, the same search with 4
  times the playouts (anytime: the first search always runs; under a node budget no search whose
  playouts, known before it runs, pass the budget).  Each candidate's
  estimate is the share of its playouts won, with its Wilson 95% interval: the winning chance
  of "this action, then the base", a policy's value, not a bound; the actions the
  policy does not try (other orders of a prophecy's cards) have none.  Late in a deal, where
  the default's end-game rule decides, the leader is the rule's decision (:func:`rule_leader`).
* **Sound bounds where the open-hands search proves something.**  For each possible partner
  hand ``k`` (probability ``P(k)``: the partner's cards are dealt uniformly from the unknown
  Locations), an honest player's winning chance after action ``a`` is at most the team's with
  open hands, ``OH_k(a)``; so ``hi(a) = sum_k P(k) * hi_k(a)`` is a sound upper bound, where
  ``hi_k`` is the open-hands search's upper bound (:mod:`solver.duo.open_hands`).  It is tried
  only when there are few possible hands (``MAX_WORLDS``) and the deck is short
  (``MAX_DECK``), on part of the budget; elsewhere every action keeps ``[0, 1]``.  An action
  with ``hi = 0`` is proven lost (exact 0).  ``lo`` stays 0 (no honest strategy is certified).

The JSON adds ``information`` (the strict reading), ``estimates`` (the policy, its search, its
steps), ``playouts`` (in all), ``worlds`` and ``open_hands`` (what the exact part did).
"""
from __future__ import annotations

import itertools
import time
from math import comb

import numpy as np

from engine import cards
from engine.view import dealt_position, is_duo_view, player_view

from solver.budgets import check_nodes, check_seconds
from solver.duo import info_playouts as IP
from solver.duo.info_state import MAX_LEGAL, encode, legal
from solver.duo.rollout import DEFAULT_DUO_POLICY, DEFAULT_OPEN_POLICY, KNOWLEDGE
from solver.errors import UnsupportedPosition
from solver.registry import SolverBase, builtin_policy, register_solver, solver_entry
from solver.results import EXACT_TOL, ActionValue, Ranking, bounds, finish

MODE = "duo-view"
GROWTH = 4.0              # a search 4 times larger runs if the time left is this many times
                          # the last one's
_DUO_POLICY: dict = {}       # the leader's policy, by name (leader_policy)
FIRST_N = 32              # warm_up's budget: FIRST_N * 64 playouts
MAX_N = 1 << 16           # playouts per action, at most
MAX_WORLDS = 6            # partner hands for the open-hands bound, at most
MAX_DECK = 10             # deck size for the open-hands bound, at most
OPEN_SHARE = 0.4          # of the time budget for the open-hands bound
OPEN_NODES = 2_000_000    # per partner hand for that bound when no budget is given


def estimate_policy(policy) -> str:
    """What an estimate is, for the leader ``policy`` (a ``duo-krollout``, ``duo-krollout2`` or
    ``duo-kcut`` instance: its base plays both seats in the playouts, to the end)."""
    return (f"after the action, both seats play duo-{policy.base} on their own cards (the "
            "partner's hand dealt from the unknown cards, the deck drawn from them); "
            f"estimate = share of the leader's policy's ({policy.name}'s) playouts won, "
            "Wilson 95%")


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


def search_hands(view, worlds, solver, *, per_hand=None, budget_nodes=None, t_end=None,
                 first_round=None):
    """The open-hands search of ``view`` dealt each partner hand of ``worlds`` (the list of
    :func:`partner_hands`, taken in its order): yields ``(hand, p, ranking)`` one hand at a
    time, ``ranking`` what ``solver.rank`` returns for ``dealt_position(view, hand)`` (a caller
    may stop early; the hands not reached are not searched).  Budgets: ``budget_nodes`` is
    shared by the hands, each hand getting an even share of the nodes the hands before it
    left unspent (so a hand that finishes early leaves its nodes to the next); without it,
    ``per_hand`` nodes a hand (None: no node budget); ``t_end`` (``time.perf_counter()``) is
    shared the same way: each hand gets an even share of the time left, and none is searched
    once it has passed.  ``first_round``: the search's first allowance (None: its own)."""
    nodes = 0
    k = len(worlds)
    for i, (hand, p) in enumerate(worlds):
        left = None if t_end is None else (t_end - time.perf_counter()) / (k - i)
        if left is not None and left <= 0:
            return
        nb = per_hand
        if budget_nodes is not None:        # the nodes not yet spent, shared by the hands left
            nb = max(1, (budget_nodes - nodes) // (k - i))
        kw = {} if first_round is None else {"first_round": first_round}
        r = solver.rank(dealt_position(view, hand), budget_s=left, budget_nodes=nb, **kw)
        nodes += r.nodes
        yield hand, p, r


def add_weighted(acc: dict, p: float, ranking, value) -> None:
    """``acc[a] += p * value(row)`` for every action id ``a`` of ``acc``, ``row`` the
    ``ranking``'s row of ``a`` (one partner hand's term of an average over the hands)."""
    by_id = {x.action_id: x for x in ranking.actions}
    for a in acc:
        acc[a] += p * value(by_id[a])


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
        note = (f"player {view.viewer}'s (the deck order unknown, and "
                + (f"{view.hidden} partner card(s))" if view.hidden else
                   "no partner card)"))
        return view, note

    def prepare(self, state=None, say=None) -> None:
        IP.compile_all()

    def rank(self, view, budget_nodes: int | None = None, budget_s: float | None = None,
             *, on_progress=None, reserve_s: float = 0.0,
             stream: int | None = None) -> Ranking:
        from engine.notation import format_position
        from engine.view import observation_text
        budget_nodes = check_nodes(budget_nodes, "budget_nodes")
        budget_s = check_seconds(budget_s, "budget_s")
        t0 = time.perf_counter()
        deadline = None if budget_s is None else t0 + max(0.0, budget_s - reserve_s)
        acts = view.legal_actions()
        names = [view.action_to_string(a) for a in acts]
        extra = {"players": 2, "information": KNOWLEDGE,
                 "estimate_policy": estimate_policy(leader_policy(view, view_talk(view)))}
        interrupted = False
        # the exact part: open-hands upper bounds over the possible partner hands
        hi = {a: 1.0 for a in acts}
        lo = {a: 0.0 for a in acts}
        nodes = 0
        try:
            nodes = self._open_hands(view, acts, hi, lo, deadline, budget_s, budget_nodes,
                                         extra)
        except KeyboardInterrupt:
            interrupted = True
        # the leader and the estimates: the mode's default policy's search
        found, steps = None, []
        if not interrupted:
            try:
                found, steps = self._leader(view, hi, lo, deadline, budget_nodes, stream,
                                            on_progress)
            except KeyboardInterrupt:
                interrupted = True
        out = []
        for a, name in zip(acts, names):
            iv = bounds(lo[a], hi[a])
            out.append(ActionValue(action=name, action_id=a, lo=iv.lo, hi=iv.hi))
        if found is not None:
            show_estimates(out, found)
        try:
            pos = observation_text(view)
        except Exception:  # noqa: BLE001 - a view always prints; the full text otherwise
            pos = format_position(view)
        played = 0 if found is None else found.playouts
        nodes += sum(step.get("nodes", 0) for step in steps)      # the end-game rule's
        ranking = Ranking(pos, MODE, out, nodes + played, 0.0)
        extra["playouts"] = played
        if found is not None:
            talk = view_talk(view)
            extra["estimates"] = estimates_of(leader_policy(view, talk), view, found, steps,
                                              played, talk)
        extra["information"] = f"{KNOWLEDGE}; bounds: {extra.get('open_hands')}"
        ranking.extra.update(extra)
        finish(ranking)
        if interrupted:
            ranking.extra["interrupted"] = True
        ranking.seconds = time.perf_counter() - t0
        return ranking

    # ------------------------------------------------------------------ parts
    def _open_hands(self, view, acts, hi, lo, deadline, budget_s, budget_nodes,
                    extra) -> int:
        """The open-hands bounds over the possible partner hands, into ``hi`` (and, in the
        open game, ``lo``: no partner card hidden, one world, whose open-hands value is the
        team's exact winning chance, docs/DUO_EXPECTIMAX.md section 8); the nodes spent.
        Budgets: ``OPEN_SHARE`` of a time budget, and a node budget's nodes shared by the
        partner hands (as the open-hands mode gives its exact search the node budget and its
        leader, apart, the playouts): each hand gets an even share of the nodes the hands
        before it left unspent; with neither budget, ``OPEN_NODES`` per hand."""
        nw = _count_hands(view, MAX_WORLDS)
        extra["worlds"] = nw if nw <= MAX_WORLDS else f"more than {MAX_WORLDS}"
        if nw > MAX_WORLDS or view.deck_size() > MAX_DECK or len(view.deck) > 0:
            extra["open_hands"] = (f"not tried ({extra['worlds']} possible partner hands, "
                                   f"deck {view.deck_size()}; tried with at most "
                                   f"{MAX_WORLDS} hands, a deck of at most {MAX_DECK} and "
                                   "no known top cards)")
            return 0
        # the open-hands solver through the registry (solver.duo.open_search registers it
        # and imports this module: no import back)
        solver = solver_entry("open-hands").factory(leader=False)
        share = None if budget_s is None else OPEN_SHARE * budget_s
        t_end = None if share is None else time.perf_counter() + share
        if deadline is not None and t_end is not None:
            t_end = min(t_end, deadline)
        worlds = partner_hands(view)
        acc = {a: 0.0 for a in acts}
        acc_lo = {a: 0.0 for a in acts}
        nodes = 0
        done = 0
        per_hand = OPEN_NODES if budget_nodes is None and t_end is None else None
        for _hand, p, r in search_hands(view, worlds, solver, per_hand=per_hand,
                                        budget_nodes=budget_nodes, t_end=t_end):
            nodes += r.nodes
            add_weighted(acc, p, r, lambda row: row.hi)
            add_weighted(acc_lo, p, r, lambda row: row.lo)
            done += 1
        if done == len(worlds):
            for a in acts:
                hi[a] = min(1.0, acc[a])
                if not view.hidden:       # the open game: the hands known, a sound lo too
                    lo[a] = min(hi[a], acc_lo[a])
            extra["open_hands"] = (f"upper bounds over all {len(worlds)} possible partner "
                                   "hands (each hand's open-hands bound, weighted by its "
                                   "probability)" if view.hidden else
                                   "the open-hands search's bounds (no partner card hidden: "
                                   "the open game's exact values where it finished)")
        else:
            extra["open_hands"] = (f"stopped by the budget after {done} of {len(worlds)} "
                                   "partner hands: no bound")
        return nodes

    def _leader(self, view, hi, lo, deadline, budget_nodes, stream, on_progress):
        """The leader (:func:`policy_leader` with :func:`leader_policy`): the choice among
        the actions not proven lost (``hi`` above 0) nor proven worse than another (``hi``
        below another's ``lo``, possible in the open game), when there are such.
        (search, steps)."""
        top = max(lo.values(), default=0.0)
        alive = {a for a in hi if hi[a] > 0.0 and hi[a] >= top - EXACT_TOL}
        talk = view_talk(view)
        found, steps = policy_leader(leader_policy(view, talk), view, alive or set(hi),
                                     deadline, budget_nodes, stream, on_progress)
        rule_leader(talk, view, found, steps, alive or set(hi))
        return found, steps


def policy_leader(policy, view, allowed, deadline, budget_nodes, stream, on_progress):
    """The decision of ``policy`` (a two-player rollout policy: ``policy.search(view, stream,
    n)``, the function its ``act`` runs) at ``view``, with that search's estimates, then the
    same search with 4 times the playouts while the budget affords it: ``deadline``, the time
    left at least ``GROWTH`` times the last search's; ``budget_nodes``, the next search's
    playouts (known before it runs: :func:`next_playouts`) at most that; neither, the policy's
    own search only.  The first search always runs, so no budget gives a leader weaker than
    the policy's own decision.  ``allowed``: the action ids the leader may be (the actions
    no bound proves worse); a decision outside it gives way to the highest estimate inside
    it.  ``stream`` None: a hash of the view's text.  (search, steps)."""
    stream = _view_stream(view) if stream is None else stream
    n, found, steps = policy.n, None, []
    while n <= MAX_N:
        if found is not None and budget_nodes is not None and next_playouts(
                policy, found, n // 4) > budget_nodes:
            break
        t = time.perf_counter()
        found = policy.search(view, stream, n=n)
        took = time.perf_counter() - t
        steps.append({"policy": policy.name, "n": n,
                      "action": view.action_to_string(found.action),
                      "playouts": found.playouts, "seconds": round(took, 3)})
        if on_progress is not None:
            on_progress(0, len(allowed), found.playouts, len(steps))
        if (deadline is None and budget_nodes is None) or not found.playouts:
            break                     # no budget to grow on, or nothing to play out
        if deadline is not None and deadline - time.perf_counter() < GROWTH * took:
            break
        n *= 4
    if allowed and found.action not in allowed:      # the best estimate among the allowed
        found.action = max(allowed, key=lambda a: (found.rows.get(a, (-1.0,))[0], -a))
    return found, steps


def show_estimates(actions, found) -> None:
    """Put the leader's search's per-action estimates and intervals (``found.rows``) on the
    rows ``actions`` it has one for."""
    for av in actions:
        row = found.rows.get(av.action_id)
        if row is not None:
            av.estimate, av.ci95 = row[0], (row[1], row[2])


def estimates_of(policy, view, found, steps, played: int, talk: str = "none") -> dict:
    """The ranking's ``extra["estimates"]`` for the leader ``found`` of :func:`policy_leader`
    (the JSON names the policy and its search; ``talk`` the game)."""
    default = default_duo_policy(talk)
    game = "open" if talk == "open" else "silent"
    who = (f"the default two-player policy ({policy.name})" if policy.name == default else
           f"the {game} game's rollout policy ({policy.name}; the default {default} plays it "
           "outside its end game)")
    dealt = ("the partner's hand known (the open game)" if talk == "open"
             else "the partner's hand dealt from the unknown cards")
    return {"estimator": "policy", "policy": who, "how": "rollout", "search": found.search,
            "leader": view.action_to_string(found.action), "playouts": played,
            "playouts_per_action": max((r[3] for r in found.rows.values()), default=0),
            "method": f"{dealt}, common random numbers; the choice on the policy's "
                      "reward (Doors at the end), the estimate the share of playouts won",
            "interval": "Wilson 95%", "steps": steps}


def leader_policy(view, talk: str = "none"):
    """The rollout policy whose search is the leader at a two-player ``view``, and whose
    estimates ``onirim best`` shows, made once per process: the one the mode's default
    (:func:`default_duo_policy`) plays outside its end game, the base of its end-game rule:
    the silent game's ``duo-kcut`` under ``duo-kcut-switch``, the open game's ``OPEN_BASE``
    under ``duo-open-switch``; the rule then decides the leader where it applies
    (:func:`end_rule`, :func:`rule_leader`).  A default without such a rule (a rollout
    policy) is its own.  The one place that chooses it."""
    rule = end_rule(talk)
    return _made(default_duo_policy(talk)) if rule is None else rule.base


def end_rule(talk: str = "none"):
    """The default policy of the game ``talk`` when it is an end-game rule over a rollout
    policy (the interface of ``duo-kcut-switch`` and ``duo-open-switch``: ``in_domain``,
    ``decide(view, stream, base_action)``, ``nodes``, ``base``; read by name, as their modules
    import this one), made once per process; else None."""
    default = _made(default_duo_policy(talk))
    return default if callable(getattr(default, "in_domain", None)) else None


def _made(name: str):
    """The registered policy ``name`` at its defaults, built once per process."""
    if name not in _DUO_POLICY:
        _DUO_POLICY[name] = builtin_policy(name)
    return _DUO_POLICY[name]


def rule_leader(talk: str, view, found, steps, allowed) -> None:
    """The end-game rule of the game ``talk``'s default (:func:`end_rule`) on the leader
    ``found`` of :func:`policy_leader`: where it decides (its ``in_domain``) and more than one
    action is ``allowed``, the leader is its decision, the base's action taken to be the
    leader's search's (the policy's own when no budget grew it), if that decision is in
    ``allowed``; recorded as a step of ``steps``, with the open-hands nodes it spent.  The
    rule runs whatever the budget, as the policy's first search does: no budget gives a
    leader other than the policy's own decision."""
    rule = end_rule(talk)
    if rule is None or found is None or len(allowed) < 2 or not rule.in_domain(view):
        return
    t = time.perf_counter()
    action, how = rule.decide(view, 0, base_action=found.action)
    steps.append({"policy": rule.name, "rule": how, "action": view.action_to_string(action),
                  "playouts": 0, "nodes": rule.nodes,
                  "seconds": round(time.perf_counter() - t, 3)})
    if action in allowed:
        found.action = action


def view_talk(view) -> str:
    """The game whose leader a two-player view gets: ``open`` when it hides no partner card
    (what the open game's view knows, whichever game it came from: the open game's rollout
    policy reads only what the view holds), else ``none``."""
    return "none" if getattr(view, "hidden", 0) else "open"


def default_duo_policy(talk: str = "none") -> str:
    """The default two-player policy of the game ``talk`` (``engine.view.TALK_MODES``): the
    silent game's ``solver.duo.rollout.DEFAULT_DUO_POLICY``, the open game's
    ``solver.duo.rollout.DEFAULT_OPEN_POLICY``.  ``winrate``, ``play``'s hint and
    ``best`` all ask here."""
    if talk == "open":
        return DEFAULT_OPEN_POLICY
    return DEFAULT_DUO_POLICY


def next_playouts(policy, found, n: int) -> int:
    """The playouts of ``policy.search`` at ``4 n`` playouts per candidate, from its search at
    ``n`` (``found``), without running it: every candidate the screen keeps gets ``4 n``,
    every other keeps its ``screen`` playouts.  The screen ranks the first ``screen``
    playouts, the same at both sizes (common random numbers: playout ``j`` of a candidate
    has the same deal and draws at every ``n``), so it keeps the same candidates; without a
    screen every candidate gets ``4 n``.  With a horizon the decision's cut playouts are
    counted so (``found.cut_counts``), and the estimates' uncut ones, ``4 n`` per candidate
    (``DuoKRollout.search``), on top."""
    screened = 0 < policy.screen < n
    cut = found.cut_counts
    counts = cut.values() if cut else [r[3] for r in found.rows.values()]
    grown = sum(4 * n if (not screened or c >= n) else c for c in counts)
    return grown + (4 * n * len(cut) if cut else 0)


def _view_stream(view) -> int:
    """The policy's stream at a two-player view: a 64-bit hash of its text (the same view,
    the same stream)."""
    import hashlib
    from engine.view import observation_text
    return int(hashlib.sha256(observation_text(view).encode()).hexdigest()[:16], 16)


def warm_up() -> None:
    """Compile (or load) what the mode needs, on a throwaway deal's opening view."""
    from engine.game import Game
    IP.compile_all()
    view = player_view(Game(2).new_initial_state(seed=0))
    DuoViewRank().rank(view, budget_nodes=FIRST_N * 64)
