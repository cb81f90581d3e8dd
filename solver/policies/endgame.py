"""The end-game switch: play the exact expectimax's proven best action when the deck is small.

:func:`with_endgame` wraps any policy.  At a decision whose view has at most ``unknown``
cards of unknown order in the deck, the wrapper ranks every legal action with the exact
expectimax (``solver.expectimax.Expectimax.rank``) under a node budget (and, if asked, a time
budget).  If the ranking proves a best action (its ``lo`` is at least every other action's
``hi``), it plays that action; otherwise, and whenever the deck is larger, it plays the base
policy's action.  Registered as policy ``endgame`` (parameters ``base``, ``unknown``,
``budget_nodes``, ``budget_s``, ``fallback``); ``base`` may carry the base's own arguments,
``base=seq-rollout:n=4096,stop=0.01`` (:func:`parse_base`).

Determinism.  A policy must give the same action for the same view and stream.  The
expectimax keeps a memo between queries, so a search under a budget could finish or not
depending on what earlier moves left in it; the wrapper therefore clears its memo before
every search, and the table has a fixed size (it never grows).  A search under a node budget
is then a pure function of the view: the same nodes, the same bounds, the same action.  A time
budget (``budget_s``, off by default) is different: where the deadline stops the search
depends on the machine's speed, so a search that ends on its deadline may prove a best action
on one run and not on another.  Only the node budget keeps the policy deterministic; the time
budget is a safety cap for slow machines, and the documented exception.

Ties.  When several actions are proven best (equal exact values), the base policy's action is
played if it is one of them (the switch changes a decision only when it gains something),
else the one with the smallest action id.

Fallback (``fallback``, default ``base``).  When the search proves no best action, ``base``
plays the base policy's action; ``pruned`` lets the base choose only among the actions whose
``hi`` is at least every other action's ``lo`` (:func:`not_proven_worse`; sound: every best
action is kept, docs/REGRET.md section 5).  A base with ``act_among(view, stream, allowed)``
(``rollout``) restricts its own choice; another base keeps its action if allowed, else the
allowed action with the largest bound midpoint is played.  (``seq-rollout`` has
``act_among`` too.)

Compile time is not counted against a move: making the policy compiles (or loads from the
numba cache) the expectimax kernels by ranking a small fixed position.
"""
from __future__ import annotations

from engine.notation import parse_position

from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, build_policy, register_policy
from solver.results import EXACT_TOL

# Defaults, chosen by measurement (docs/REGRET.md, "Choosing U"): with at most DEFAULT_UNKNOWN
# unknown cards most exact rankings of greedy positions finish within DEFAULT_NODES nodes,
# about 0.1 s.
DEFAULT_UNKNOWN = 10
DEFAULT_NODES = 100_000
# What the switch plays when its search proves no best action: "base", the base policy's
# action; "pruned", the base policy's choice among the actions not proven worse.
FALLBACKS = ("base", "pruned")

# A small end-game position (deal 5, decision 36 of greedy play: 10 unknown cards), ranked
# once under a small node budget when the policy is made, so that the kernels are compiled
# (or loaded from numba's cache) before any move is timed.  A position with a large deck
# would be slow even for 1,000 nodes: its chance nodes have thousands of outcomes.
_WARM_POSITION = ("mode=solo phase=play hand=As,Am,Gm,Ls,Lm "
                  "row=As,Ak,As,Ok,Os,Ok,Os,Lm,Ls,Lk,Om,Os,Om,Gs,Gm,Gs "
                  "doors=DO,DO,DA,DA,DG,DG,DL deck=* discard=Os,Os,Os,Os,Os,Os,Om,Ok,As,As,"
                  "As,As,Am,Am,Am,Ak,Ak,Gs,Gs,Gs,Gs,Gs,Gm,Gk,Gk,Gk,Ls,Ls,Lm,Lm,Lk,Lk,N,N,N,N,"
                  "N,N limbo=-")


def unknown_cards(view) -> int:
    """The cards of the view's deck whose order the player does not know."""
    return sum(view.unknown)


def proven_best_actions(actions, tol: float = EXACT_TOL) -> list:
    """The rows (with ``lo``, ``hi``) whose ``lo`` is at least every other row's ``hi``
    (less ``tol``, the rounding of exact values).  Several only when they tie exactly."""
    out = []
    for a in actions:
        if all(a.lo >= b.hi - tol for b in actions if b is not a):
            out.append(a)
    return out


def not_proven_worse(actions, tol: float = EXACT_TOL) -> list:
    """The rows (with ``lo``, ``hi``) that the bounds do not prove worse than another:
    those whose ``hi`` is at least ``max_b lo_b`` (less ``tol``).  Every best action is among
    them, whatever the exact values inside the bounds (docs/REGRET.md, section 5): for a best
    action ``a`` and any ``b``, ``hi_a >= v(a) >= v(b) >= lo_b``."""
    if not actions:
        return []
    top = max(a.lo for a in actions)
    return [a for a in actions if a.hi >= top - tol]


def table_bits_for(nodes: int) -> int:
    """A fixed memo size for a search of ``nodes`` nodes: about twice as many rows (a node
    stores at most one entry), from 2**14 to 2**22 rows."""
    bits = 14
    while bits < 22 and (1 << bits) < 2 * nodes:
        bits += 1
    return bits


class EndgameSwitch(PolicyBase):
    """A policy: the exact expectimax's proven best action at small decks, else ``base``'s."""

    def __init__(self, base, unknown: int = DEFAULT_UNKNOWN, budget_nodes: int = DEFAULT_NODES,
                 budget_s: float = 0.0, warm: bool = True, fallback: str = "base"):
        from solver.expectimax.solver import Expectimax        # numba: imported only when used
        if not isinstance(unknown, int) or isinstance(unknown, bool) or unknown < 0:
            raise PolicyError(f"policy argument unknown: {unknown!r} is not a whole number "
                              "of cards >= 0")
        if not isinstance(budget_nodes, int) or isinstance(budget_nodes, bool) \
                or budget_nodes < 1:
            raise PolicyError(f"policy argument budget_nodes: {budget_nodes!r} is not a "
                              "positive whole number")
        if not isinstance(budget_s, (int, float)) or isinstance(budget_s, bool) \
                or not 0 <= budget_s <= 1e6:
            raise PolicyError(f"policy argument budget_s: {budget_s!r} is not a number of "
                              "seconds >= 0 (0: no time budget)")
        if fallback not in FALLBACKS:
            raise PolicyError(f"policy argument fallback: {fallback!r} is not one of "
                              f"{', '.join(FALLBACKS)}")
        self.base = base
        self.fallback = fallback
        self.unknown = unknown
        self.budget_nodes = budget_nodes
        self.budget_s = float(budget_s)
        self.solver = Expectimax(table_bits=table_bits_for(budget_nodes))
        self.last = None            # what the last act() did (for tests and benchmarks)
        if warm:
            self.solver.rank(parse_position(_WARM_POSITION), budget_nodes=2000, probes=False,
                             estimate=False, partial=False)     # Ctrl-C here stops the run
            self.solver.clear()

    def warm_up(self) -> None:
        """The exact search is warmed when the policy is made; this warms the base."""
        self.base.warm_up()

    def search(self, view):
        """The ranking of ``view`` under the budgets, on a cleared memo.  A Ctrl-C or SIGTERM
        during the search is raised out of it (``partial=False``), never acted on: a
        ranking a signal cut short would make the move depend on when the signal came."""
        self.solver.clear()
        return self.solver.rank(view, budget_nodes=self.budget_nodes,
                                budget_s=self.budget_s or None,
                                first_round=max(1000, self.budget_nodes // 8), probes=False,
                                estimate=False, partial=False)

    def act(self, view, stream: int) -> int:
        return self.decide(view, stream).action

    def decide(self, view, stream: int, allowed=None) -> "Decision":
        """The action of :meth:`act` with how it was chosen (:class:`Decision`: ``how`` is
        ``forced``, ``base``, ``exact``, ``pruned`` or ``base-open``; the switch's ranking;
        the base's search with its per-action estimates when the base has ``search``, as
        ``seq-rollout`` has).  ``allowed`` (a set of legal action ids; None: all) restricts
        the choice the way the pruned fallback does (``onirim best`` passes the actions its
        own bounds do not prove worse); the exact search's proven best action is played even
        if not in it (a proof beats the caller's pruning only where the two agree, which
        sound bounds always do)."""
        acts = view.legal_actions()
        if len(acts) == 1:
            self.last = "forced"
            return Decision(acts[0], "forced")
        if allowed is not None and set(allowed) >= set(acts):
            allowed = None
        if view.players != 1 or unknown_cards(view) > self.unknown:
            self.last = "base"
            return self._base_choice(view, stream, allowed, "base")
        ranking = self.search(view)
        best = proven_best_actions(ranking.actions)
        if not best:
            if self.fallback == "pruned":
                keep = {a.action_id for a in not_proven_worse(ranking.actions)}
                allowed = keep if allowed is None else (set(allowed) & keep) or keep
                if len(allowed) >= len(acts):
                    allowed = None
                else:
                    self.last = "pruned"
                    return self._base_choice(view, stream, allowed, "pruned", ranking)
            self.last = "base-open"
            return self._base_choice(view, stream, allowed, "base-open", ranking)
        self.last = "exact"
        if len(best) == 1:
            return Decision(best[0].action_id, "exact", ranking)
        ids = {a.action_id for a in best}
        b = self._base_choice(view, stream, None, "exact", ranking)
        b.action = b.action if b.action in ids else min(ids)
        return b

    def _base_choice(self, view, stream, allowed, how, ranking=None) -> "Decision":
        """The base's choice among ``allowed`` (None: every action): its search's if it has
        one (``seq-rollout``), else ``act_among``, else its action if allowed, else the
        allowed action with the largest bound midpoint (:meth:`_pruned_among`)."""
        searcher = getattr(self.base, "search", None)
        if searcher is not None:
            found = searcher(view, stream, allowed)
            return Decision(found.action, how, ranking, found)
        if allowed is None:
            return Decision(self.base.act(view, stream), how, ranking)
        return Decision(self._pruned_among(view, stream, allowed, ranking), how, ranking)

    def _pruned_among(self, view, stream, allowed, ranking):
        """The base's choice among ``allowed`` (a base without ``search``): ``act_among``
        if it has one; else its action if allowed, else the allowed action with the largest
        bound midpoint (ties: smallest id)."""
        among = getattr(self.base, "act_among", None)
        if among is not None:
            return among(view, stream, allowed)
        b = self.base.act(view, stream)
        if b in allowed:
            return b
        rows = [a for a in (ranking.actions if ranking is not None else ())
                if a.action_id in allowed]
        if not rows:
            return min(allowed)
        return min(rows, key=lambda a: (-(a.lo + a.hi), a.action_id)).action_id


class Decision:
    """What :meth:`EndgameSwitch.decide` chose: ``action``; ``how`` (``forced``, ``base``,
    ``exact``, ``pruned``, ``base-open``); ``ranking``, the switch's exact ranking if it
    searched; ``found``, the base's search (``solver.policies.seq.SeqSearch``: per-action
    estimates) if the base has one and was asked."""

    def __init__(self, action, how, ranking=None, found=None):
        self.action, self.how, self.ranking, self.found = int(action), how, ranking, found


def with_endgame(policy, unknown: int = DEFAULT_UNKNOWN, budget_s: float = 0.0,
                 budget_nodes: int = DEFAULT_NODES, fallback: str = "base") -> EndgameSwitch:
    """``policy`` with the end-game switch: at most ``unknown`` unknown deck cards, the
    exact expectimax's proven best action (node budget ``budget_nodes``, time budget
    ``budget_s`` seconds, 0 for none); otherwise ``policy``'s own action.  The result has
    ``name`` ``endgame+<name>`` and a ``config`` holding the base's."""
    sw = EndgameSwitch(policy, unknown=unknown, budget_nodes=budget_nodes, budget_s=budget_s,
                       fallback=fallback)
    base_name = getattr(policy, "name", type(policy).__name__)
    sw.name = f"endgame+{base_name}"
    sw.config = {"base": base_name, "base_config": dict(getattr(policy, "config", {}) or {}),
                 "unknown": unknown, "budget_nodes": budget_nodes, "budget_s": float(budget_s),
                 "fallback": fallback}
    return sw


ENDGAME_PARAMS = [
    Param("base", str, "greedy", "the registered policy played outside the end game, with "
                                 "its own arguments if any: NAME or NAME:k=v,k=v"),
    Param("unknown", int, DEFAULT_UNKNOWN,
          "switch to the exact expectimax at most this many unknown deck cards"),
    Param("budget_nodes", int, DEFAULT_NODES,
          "node budget of one exact ranking (deterministic)"),
    Param("budget_s", float, 0.0,
          "time budget of one exact ranking in seconds, 0 for none (a deadline that "
          "stops a search makes the move depend on the machine's speed)"),
    Param("fallback", str, "base",
          "when nothing is proven: 'base' plays the base's action, 'pruned' lets the base "
          "choose among the actions the bounds do not prove worse"),
]


@register_policy("endgame", params=ENDGAME_PARAMS,
                 doc="the base policy, but the exact expectimax's proven best move once the "
                     "deck is small")
def _endgame(base="greedy", unknown=DEFAULT_UNKNOWN, budget_nodes=DEFAULT_NODES,
             budget_s=0.0, fallback="base"):
    name, args = parse_base(base)
    if name == "endgame":
        raise PolicyError("policy argument base: 'endgame' cannot be its own base")
    return EndgameSwitch(build_policy(name, **args), unknown=unknown,
                         budget_nodes=budget_nodes, budget_s=budget_s, fallback=fallback)


# The strongest honest player measured (docs/POLICIES.md, "A budget by deck size, and a value
# function for the playouts' tails": 91.00% of deals 0-1,999 at about 20 ms of CPU per
# decision; until 2026-12-05 the same switch without the horizon, 90.25%, section "A wider
# exact end game"): ``endgame`` with these arguments, registered as ``strongest`` so that a
# user need not spell them out.  Its arguments are endgame's, with these defaults;
# ``--policy-arg`` replaces any of them.
STRONGEST_ARGS = {"base": "seq-rollout:n=4096,batch=64,stop=0.01,base=learned-base,horizon=32",
                  "unknown": 12, "budget_nodes": 400_000, "fallback": "pruned"}


register_policy("strongest",
                params=[Param(p.name, p.type, STRONGEST_ARGS.get(p.name, p.default), p.help)
                        for p in ENDGAME_PARAMS],
                doc="the strongest measured player: endgame at 12 unknown cards (400,000 "
                    "nodes, pruned fallback) over seq-rollout n=4096 on learned-base, the "
                    "value function's horizon at 32 draws")(_endgame)


def parse_base(spec: str) -> tuple[str, dict]:
    """``NAME`` or ``NAME:k=v,k=v`` (the base policy and its arguments, as strings parsed by
    the base's parameter types): ``("seq-rollout", {"n": "4096"})`` for
    ``seq-rollout:n=4096``.  A malformed pair is a PolicyError."""
    name, _, rest = str(spec).partition(":")
    args: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        k, sep, v = pair.partition("=")
        if not sep or not k.strip() or k.strip() in args:
            raise PolicyError(f"policy argument base: {pair!r} in {spec!r} is not a new "
                              "key=value")
        args[k.strip()] = v.strip()
    return name.strip(), args
