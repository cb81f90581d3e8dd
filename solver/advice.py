"""The leader of ``onirim best`` when nothing is proven: the action the strongest policy the
budget affords would take, with that policy's own search estimates.

``Expectimax.rank`` (mode ``expectimax``, what ``onirim best`` calls on a solo position) first
bounds every action; when the bounds prove no best action, :func:`advise` asks the policies
of ``LADDER`` in turn for their decision at the position's view, each restricted to the
actions the bounds do not prove worse (``solver.policies.endgame.not_proven_worse``: every
best action is among them), and the last decision made is the leader:

* the default honest policy (``solver.api.make_default_policy``: the end-game switch at 8
  unknown cards over ``seq-rollout`` n=1024 on the learned base, the value function's horizon
  at 32 draws), always: it costs a few milliseconds of CPU (its own end-game search up to
  100,000 nodes late in a game), and it is the floor, whatever the budget;
* ``strongest`` (the switch at 12 unknown cards, 400,000 nodes, pruned, over n=4096): under a
  node budget of at least ``STRONG_NODES`` nodes, or when the time left is at least
  ``GROWTH`` times what the step before took (and ``STRONG_MIN_S`` at 12 unknown cards or
  fewer, where its end-game search runs);
* at ``LATE_UNKNOWN`` (12) unknown cards or fewer, ``late-l2``'s level-2 leader (256
  playouts per action, each played to the end by the level-1 rollout over
  greedy-keep-doors): under a node budget of at least ``LATE_NODES``, or with ``LATE_MIN_S``
  left.  On the late positions of docs/REGRET.md it chooses better than both policies' searches
  (mean regret 0.0075 standalone, against 0.0162 for the default's and 0.0092 for
  strongest's);
* with more than 12 unknown cards, strongest's search with ``seq-rollout`` at n=16,384
  (indifference stop 0.0025) and then 65,536 (no stop) playouts per action (the same search
  with more playouts), under a time budget only, on the same rule.

A step whose policy's own exact search proves its action best (``how`` ``exact``) ends the
ladder: a proof is not improved on.

Each step is the policy's own ``decide`` (``EndgameSwitch.decide``, which calls
``SeqRollout.search``, the one function behind the policies' ``act``), never a copy of their
search; a step is run only when the budget affords it, so more time never gives a weaker
leader than the smallest budget's (the default's decision).  The estimates shown are the
per-action means of the last step's playouts, with their 95% intervals
(``solver.policies.seq.SeqSearch``), named by the search that made them.

Determinism: the policies' decisions are functions of the view and the stream; the stream is
a hash of the position (:func:`position_stream`), so the same position gets the same answer
under a node budget.  Under a time budget the steps run depend on the clock (as the exact
search's bounds do).
"""
from __future__ import annotations

import hashlib
import time

from engine.notation import format_position

STRONG_NODES = 400_000      # a node budget from this up: strongest's step (its own search's)
GROWTH = 4.0                # a step is run if the time left is this many times the last one's
STRONG_MIN_S = 1.0          # ... and at least this at <= 12 unknown cards (strongest's
                            # end-game search of 400,000 nodes; about 0.2 to 1 s of CPU)
LATE_UNKNOWN = 12           # at most this many unknown cards: the level-2 leader (late-l2) ...
LATE_NODES = 20_000         # ... under a node budget from this up, or with LATE_MIN_S left
LATE_MIN_S = 1.0            # (its 256 level-2 playouts per action: 0.2 to 0.8 s of CPU)
MORE = ((16_384, 0.0025, 2.0), (4_096, 0.0, 0.0), (16_384, 0.0, 0.0), (65_536, 0.0, 0.0))
                            # the time budget's further steps:
                            # strongest's search with more playouts per action, a smaller
                            # indifference stop and at last no drop (n, stop, zdrop): at
                            # stop=0.01 the playouts end at the same point whatever n; the
                            # last gives every action n playouts

_POLICIES: dict[str, object] = {}


def position_stream(view) -> int:
    """The policies' stream at ``view``: a 64-bit hash of its notation (the same position,
    the same stream; nothing but the view goes in)."""
    text = format_position(view)
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)


def _policy(step: str):
    """The policy of a ladder step, made once per process (making one warms its exact
    search; the further steps share ``strongest``'s exact search and its memo)."""
    if step not in _POLICIES:
        from solver.policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
        from solver.registry import build_policy as make_policy    # policies registered
        if step == "default":                                       # by the import above
            _POLICIES[step] = make_policy(DEFAULT_HONEST_POLICY, **DEFAULT_HONEST_ARGS)
        elif step == "strongest":
            _POLICIES[step] = make_policy("strongest")
        elif step == "late-l2":
            _POLICIES[step] = make_policy("late-l2", base="greedy")
        else:
            from solver.policies.endgame import EndgameSwitch
            strong = _policy("strongest")
            n, stop, zdrop = next(m for m in MORE if step == _more_name(*m))
            base = make_policy("seq-rollout", n=n, batch=64, stop=stop, zdrop=zdrop,
                               base="learned-base", horizon=32)
            sw = EndgameSwitch(base, unknown=strong.unknown, budget_nodes=strong.budget_nodes,
                               fallback=strong.fallback, warm=False)
            sw.solver = strong.solver
            _POLICIES[step] = sw
        _POLICIES[step].warm_up()
    return _POLICIES[step]


def _more_name(n: int, stop: float, zdrop: float) -> str:
    return f"n={n} stop={stop:g} zdrop={zdrop:g}"


def prepare() -> None:
    """Make (compile or load) every step's policy before any clock: making ``strongest``
    allocates its exact search's memo (about 64 MiB) and warms it."""
    for step in ("default", "strongest", "late-l2", *(_more_name(*m) for m in MORE)):
        _policy(step)


def _label(step: str) -> str:
    if step == "default":
        return "the default policy"
    if step == "strongest":
        return "strongest"
    if step == "late-l2":
        return "late-l2 (the level-2 leader)"
    n, stop, zdrop = step.split()
    return f"strongest at {n} ({stop.replace('=', ' ')}, {zdrop.replace('=', ' ')})"


class Advice:
    """The leader and its estimates: ``action``, ``how`` (the last step's
    ``Decision.how``), ``policy`` (its label), ``search`` (the label of the search whose
    estimates ``rows`` are: {action: (mean, lo, hi, playouts)}), ``steps`` (one dict per
    step run) and ``seconds``."""

    def __init__(self):
        self.action = None
        self.how = self.policy = self.search = None
        self.rows: dict = {}
        self.steps: list[dict] = []
        self.seconds = 0.0

    def describe(self) -> dict:
        """The ranking's ``extra["estimates"]`` (the JSON)."""
        playouts = sum(r[3] for r in self.rows.values())
        most = max((r[3] for r in self.rows.values()), default=0)
        return {"estimator": "policy", "policy": self.policy, "search": self.search,
                "how": self.how, "playouts": playouts, "playouts_per_action": most,
                "interval": "95% (Wilson's for won/lost playouts, normal for cut ones)",
                "steps": self.steps, "seconds": round(self.seconds, 3)}


def _steps(budget_nodes, deadline, unknown=0):
    """The ladder's steps this budget may run at a view with ``unknown`` unknown deck cards,
    in order (each also subject to the clock)."""
    yield "default"
    if deadline is None:
        if budget_nodes is not None and budget_nodes >= STRONG_NODES:
            yield "strongest"
        if budget_nodes is not None and budget_nodes >= LATE_NODES and unknown <= LATE_UNKNOWN:
            yield "late-l2"
        return
    yield "strongest"
    if unknown <= LATE_UNKNOWN:
        yield "late-l2"
        return
    for more in MORE:
        yield _more_name(*more)


def advise(view, actions, budget_nodes=None, deadline=None, stream=None) -> Advice:
    """The leader at ``view`` among ``actions`` (the ranking's rows, with sound ``lo``/``hi``;
    none is proven best) under the budget: ``budget_nodes`` (the steps it names) or
    ``deadline`` (a ``time.perf_counter()`` value: a step runs while the time left is at
    least ``GROWTH`` times the last step's).  The first step always runs."""
    from solver.policies.endgame import not_proven_worse, unknown_cards
    stream = position_stream(view) if stream is None else stream
    allowed = {a.action_id for a in not_proven_worse(actions)}
    out = Advice()
    t0 = time.perf_counter()
    last = 0.0
    unknown = unknown_cards(view)
    for step in _steps(budget_nodes, deadline, unknown):
        if out.how == "exact":
            break                  # a step's own exact search proved its action best
        if deadline is not None and out.steps:
            left = deadline - time.perf_counter()
            need = GROWTH * last
            if step.startswith("n="):        # its playouts at the last step's pace
                n = int(step.split()[0][2:])
                per = last / max(1, out.steps[-1]["playouts"])
                spread = len(allowed) if step.endswith("zdrop=0") else 2
                need = max(need, GROWTH * per * n * spread)
            if step == "strongest" and unknown <= 12:
                need = max(need, STRONG_MIN_S)
            if step == "late-l2":
                need = max(need, LATE_MIN_S)
            if left < need:
                break
        policy = _policy(step)
        t = time.perf_counter()
        if step == "late-l2":
            from solver.policies.endgame import Decision
            found = policy.search(view, stream, allowed)
            d = Decision(found.action, "level-2", None, found)
        else:
            d = policy.decide(view, stream, allowed)
        last = time.perf_counter() - t
        out.action, out.how, out.policy = d.action, d.how, _label(step)
        if d.found is not None and d.found.rows:
            out.rows, out.search = dict(d.found.rows), d.found.search
        elif d.how == "exact":            # the estimates of the search it would have run
            found = policy.base.search(view, stream, allowed if len(allowed) > 1 else None)
            out.rows, out.search = dict(found.rows), found.search
        out.steps.append({"policy": out.policy, "action": view.action_to_string(d.action),
                          "how": d.how, "seconds": round(last, 3),
                          "playouts": d.found.playouts if d.found is not None else 0})
    out.seconds = time.perf_counter() - t0
    return out
