"""The policy and solver interface: one place where a new player or solver plugs in.

Policies
--------
A *policy* plays honest Onirim: at each decision it receives the player's view of the
position (:func:`engine.view.player_view`: a chance-mode ``State`` holding only what the player
may know) and a 64-bit ``stream`` number for its own randomness, and returns a legal action
(an integer of ``engine.game``'s action layout).  It never sees the real state, so it cannot
read the hidden deck order.  Given the same view and the same stream, it must return the same
action: that is what makes honest win rates reproducible and lets tests permute the hidden
cards and check that no decision changes.

Policies are registered by name with their parameters::

    from solver.api import Param, PolicyBase, register_policy

    @register_policy("keys-first", params=[Param("patience", int, 2, "turns to wait")],
                     doc="discards a Key whenever it can")
    class KeysFirst(PolicyBase):
        def __init__(self, patience=2):
            self.patience = patience
        def act(self, view, stream):
            ...

``make_policy(name, **args)`` builds one, checking every argument (``PolicyError`` names the
problem); ``policy.config`` is then the full configuration, and :func:`config_hash` its
stable hash, stored with every honest result.  The optional hooks (``players``,
``warm_up``) have defaults on :class:`PolicyBase`.  ``docs/POLICIES.md`` walks through a
complete example.  A new policy is one new file: importing it registers it.

Solvers
-------
A *solver* ranks the actions of a position: :class:`Solver`, registered by mode with
:func:`register_solver` the way policies register (``expectimax``, ``open-hands``,
``clairvoyant``).  :func:`rank` is the one entry (``onirim best`` calls it): it parses the
position, picks the mode, checks the budgets (``budget_nodes``, ``budget_s``: the one
spelling across the package) and options, compiles before the clock, loads and saves the
memo file, runs the clock and turns Ctrl-C and SIGTERM into an answer marked interrupted.

Its answers are :class:`ActionValue` rows in a :class:`Ranking`, the JSON of docs/NOTATION.md:
``lo``/``hi`` are sound bounds (an :class:`Interval`; ``EXACT_TOL``), ``value`` is the exact
value or ``None`` (never a midpoint), and ``estimate``/``ci95`` carry a search policy's
estimate, kept apart from the bounds.  ``best`` is an action only when it is proven best;
otherwise ``leader`` names the front runner and ``criterion`` says how it was chosen, or
``leader`` is None when nothing tells the actions apart (``criterion`` says so).
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine.errors import OnirimError

from .budgets import check_nodes, check_seconds
from .errors import PolicyError
from .registry import (_REGISTRY, _SOLVERS, OPTIONS, Param, PolicyBase,  # noqa: F401
                       PolicyEntry, SolverBase, SolverEntry, build_policy, load_builtin_policies,
                       register_policy, register_solver)
from .results import (CRITERION_ESTIMATE, CRITERION_LO, EXACT_TOL, NO_LEADER,  # noqa: F401
                      ActionValue, Interval, Ranking, bounds, finish, proven_best,
                      name_estimates, sort_actions)

__all__ = ["Policy", "PolicyBase", "Param", "PolicyEntry", "PolicyError", "register_policy",
           "policy_entries", "parse_policy_args", "make_policy", "make_default_policy",
           "default_policy_name",
           "config_hash", "EXACT_TOL", "Interval", "bounds", "ActionValue", "Ranking",
           "proven_best", "finish", "sort_actions", "Solver", "SolverBase", "register_solver",
           "solver_entries", "resolve_mode", "OptionError", "rank", "make_solver",
           "DealSolverEntry", "deal_solver_entry", "solve_deal"]

# ----------------------------------------------------------------------------- policies
@runtime_checkable
class Policy(Protocol):
    """Decides from the player's view.  ``act`` returns a legal action of ``view``.

    Hooks (defaults on :class:`PolicyBase`; ``make_policy`` gives them to a policy that does
    not derive from it): ``players``, the player counts it plays (None: it refuses a view
    it cannot play when it sees one), and ``warm_up()``, called once before the first timed
    decision to compile or load what it needs."""

    name: str
    config: dict
    players: tuple | None

    def act(self, view, stream: int) -> int: ...

    def warm_up(self) -> None: ...


_BUILTINS_LOADED = False


def _load_builtins() -> None:
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        load_builtin_policies()


def policy_entries() -> dict[str, PolicyEntry]:
    """Every registered policy, by name."""
    _load_builtins()
    return dict(sorted(_REGISTRY.items()))


def parse_policy_args(pairs) -> dict[str, str]:
    """``["k=v", ...]`` (``--policy-arg``) as a dict; a malformed pair is a PolicyError."""
    out: dict[str, str] = {}
    for p in pairs or ():
        k, sep, v = str(p).partition("=")
        if not sep or not k.strip():
            raise PolicyError(f"policy argument {p!r}: expected key=value")
        if k.strip() in out:
            raise PolicyError(f"policy argument {k.strip()!r} is given twice")
        out[k.strip()] = v
    return out


def make_policy(name: str, **args):
    """The policy ``name`` with ``args`` (strings are parsed by the parameter's type).

    The returned object has ``name`` and ``config`` (every parameter, defaults filled in,
    but a ``Param(late=True)`` at its default) and the hooks of :class:`PolicyBase`."""
    _load_builtins()
    return build_policy(name, **args)


def make_default_policy():
    """The default honest policy with its arguments (``solver.policies.DEFAULT_HONEST_POLICY``
    and ``DEFAULT_HONEST_ARGS``; ``winrate`` adds a user's pairs to them itself, so that its
    stored command names them)."""
    from .policies import DEFAULT_HONEST_ARGS, DEFAULT_HONEST_POLICY
    return make_policy(DEFAULT_HONEST_POLICY, **DEFAULT_HONEST_ARGS)


def default_policy_name(players: int = 1, talk: str = "none") -> str:
    """The default honest policy's name: solo ``solver.policies.DEFAULT_HONEST_POLICY`` (its
    arguments: ``make_default_policy``); two players, the default of the game ``talk``
    (``solver.duo.view_rank.default_duo_policy``: silent duo-kcut-switch, open
    duo-open-switch)."""
    if players == 2:
        from solver.duo.view_rank import default_duo_policy
        return default_duo_policy(talk)
    from .policies import DEFAULT_HONEST_POLICY
    return DEFAULT_HONEST_POLICY


def config_hash(policy, talk: str = "none") -> str:
    """A stable hash of the policy's name and full configuration (16 hex digits), and of the
    two-player game's mode ``talk`` (``engine.view.TALK_MODES``): the silent game's hash is
    the one every earlier run stored (no mode in the text), the open game's has it."""
    obj = {"policy": policy.name, "config": policy.config}
    if talk != "none":
        obj["talk"] = talk
    text = json.dumps(obj, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ----------------------------------------------------------------------------- solvers
@runtime_checkable
class Solver(Protocol):
    """Ranks every legal action of a position under budgets (``budget_nodes`` nodes,
    ``budget_s`` seconds; None: no budget of that kind).  Registered by mode
    (:func:`register_solver`) and called through :func:`rank`, which does what every solver
    shares: parsing, the mode, checking the budgets and options, compiling before the
    clock, the memo file, the clock, interruption.

    * ``position(state, hide)``: the state the solver ranks (a live game becomes the
      player's or the team's view; ``hide``: the listed deck order hidden) and a note for
      the text output saying whose view it is (None: the position as given);
    * ``prepare(state, say)``: compile or load what ranking ``state`` needs, before the
      clock (``say(message)`` announces a long compile);
    * ``rank(state, budget_nodes, budget_s, on_progress=, reserve_s=)``: the
      :class:`Ranking`.  ``on_progress(exact, total, nodes, round)`` after each search;
      ``reserve_s``: seconds of ``budget_s`` left for the caller (the principal line, the
      tree).  Interrupted (Ctrl-C, SIGTERM), it returns what it has found, sound, with
      ``extra["interrupted"] = True``.

    Options (``register_solver(options=...)``) add methods: ``line`` and ``tree`` (the
    principal line and the graph near the position, by a deadline), ``certify`` (an engine
    replay), ``memo`` (``load_memo(path)``, ``save_memo(path)``, ``memo_note()``)."""

    def position(self, state, hide: bool = False): ...

    def prepare(self, state=None, say=None) -> None: ...

    def rank(self, state, budget_nodes: int | None = None, budget_s: float | None = None,
             *, on_progress=None, reserve_s: float = 0.0) -> Ranking: ...


DEFAULT_MODES = {1: "expectimax", 2: "open-hands"}


def solver_entries() -> dict[str, SolverEntry]:
    """Every registered solver, by mode (the built-in ones register when imported here)."""
    from solver.clairvoyant import rank  # noqa: F401
    from solver.duo import open_search  # noqa: F401
    from solver.expectimax import solver  # noqa: F401
    return dict(sorted(_SOLVERS.items()))


class OptionError(OnirimError):
    """An argument of :func:`rank` that the mode or the position does not take.  ``option``
    is the keyword (``"mode"``, ``"memo"``, ...), so that a command line can name its flag."""

    def __init__(self, option: str, problem: str, value=None):
        self.option, self.problem, self.value = option, problem, value
        head = option if value is None else f"{option} {value}"
        super().__init__(f"{head}: {problem}")


def resolve_mode(state, mode: str | None) -> SolverEntry:
    """The solver entry of ``mode`` for ``state`` (None: ``DEFAULT_MODES`` by the player
    count: expectimax for a solo position, open-hands for a two-player one)."""
    entries = solver_entries()
    mode = DEFAULT_MODES[state.players] if mode is None else mode
    if mode not in entries:
        raise OptionError("mode", f"unknown (known: {', '.join(entries)})", mode)
    entry = entries[mode]
    if state.players not in entry.players:
        kind = "two-player" if state.players == 2 else "solo"
        other = [m for m, e in entries.items() if state.players in e.players]
        raise OptionError("mode", f"{' and '.join(_count(p) for p in entry.players)} "
                          f"positions only; a {kind} position is ranked by mode "
                          f"{' or '.join(other)}", mode)
    return entry


def _count(players: int) -> str:
    return "solo" if players == 1 else "two-player"


def check_options(entry: SolverEntry, given: dict) -> None:
    """Refuse (OptionError) every option in ``given`` (name: set?) the mode does not take."""
    for name, on in given.items():
        if on and name not in entry.options:
            takers = [m for m, e in sorted(_SOLVERS.items()) if name in e.options]
            only = f" (only in {' and '.join(takers)} mode)" if takers else ""
            raise OptionError(name, f"not available in {entry.mode} mode{only}")


def make_solver(mode: str, **kw):
    """A solver of ``mode`` (its registered factory, given the keywords among ``threads``
    and ``table_bits`` that the mode takes), to pass to :func:`rank` again and again: its
    memo is kept between queries (``onirim play``'s hint does so)."""
    entries = solver_entries()
    if mode not in entries:
        raise OptionError("mode", f"unknown (known: {', '.join(entries)})", mode)
    entry = entries[mode]
    check_options(entry, {"threads": kw.get("threads", 1) != 1,
                          "table_bits": kw.get("table_bits") is not None})
    return entry.factory(**{k: v for k, v in kw.items() if k in entry.options})


# ------------------------------------------------------------------ clairvoyant deals
@dataclass(frozen=True)
class DealSolverEntry:
    """The registered clairvoyant (deal-mode) solver of ``players``-player deals
    (``solver.registry.register_clairvoyant``): its class (``factory(tt_mb=...)``, with
    ``solve_deal`` and ``solve_state``), the version that keys its UNKNOWN results, and its
    default node budget per deal and table size (MB)."""

    players: int
    factory: type
    version: str
    budget_nodes: int
    tt_mb: float


def deal_solver_entry(players: int) -> DealSolverEntry:
    """The clairvoyant solver of ``players``-player deals (1 or 2), as registered."""
    import sys
    from .registry import CLAIRVOYANT_SOLVERS
    solver_entries()      # the built-in solvers register the two families
    if players not in CLAIRVOYANT_SOLVERS:
        raise OptionError("players", "no clairvoyant solver of that player count", players)
    cls = CLAIRVOYANT_SOLVERS[players]
    family = sys.modules[cls.__module__]
    return DealSolverEntry(players, cls, family.SOLVER_VERSION, family.DEFAULT_NODE_BUDGET,
                           family.DEFAULT_TT_MB)


def solve_deal(solver, seed: int, players: int, budget_nodes: int, budget_s: float | None,
               tt_mb: float) -> dict:
    """Deal ``seed`` solved by ``solver`` (made from :func:`deal_solver_entry`, with a table
    of ``tt_mb``) under the budgets: the row ``onirim winrate --mode clairvoyant`` stores,
    with its certificate: a WIN's line (replayed in the engine by the solver), a LOSS's
    recipe (the same search, budget and table find it again: ``onirim verify``), nothing
    for an UNKNOWN."""
    r = solver.solve_deal(seed, budget_nodes=budget_nodes, budget_s=budget_s)
    if r.result == "WIN":
        cert = list(r.line)
    elif r.result == "LOSS":      # the recipe onirim verify re-solves (solver.clairvoyant)
        from solver.clairvoyant.solve import loss_recipe
        cert = loss_recipe(budget_nodes, budget_s, tt_mb, r.nodes,
                           solver=deal_solver_entry(players).version,
                           players=2 if players == 2 else None)
    else:
        cert = []
    return {"seed": seed, "result": r.result, "nodes": int(r.nodes),
            "seconds": float(r.seconds), "certificate": cert}


LINE_SHARE = 0.1       # of budget_s kept for the principal line and the tree
LINE_MAX_S = 2.0       # ... but at most this many seconds (and this many after the ranking
                       # under budget_nodes alone)
LINE_NODES = 50_000    # node budget of each search of the line and the tree


def rank(position, mode: str | None = None, *, budget_nodes: int | None = None,
         budget_s: float | None = None, threads: int = 1, table_bits: int | None = None,
         memo: str | None = None, view: bool = False, line: bool = False,
         tree: bool = False, certify: bool = False, on_progress=None,
         on_certify=None, say=None, solver=None) -> Ranking:
    """Rank every legal action of ``position`` (a ``State`` or its notation) with the solver
    of ``mode`` (default: expectimax solo, open-hands two-player); the one entry behind
    ``onirim best``.

    Before the clock: the position is checked, the solver made (``threads``,
    ``table_bits``), its kernels compiled or loaded (``say(message)`` announces a long
    compile) and the memo file ``memo`` loaded if it exists.  Then ``budget_s`` covers
    everything else: the search, the estimates, the principal line (``line``, in the modes
    that have one) and the graph near the position (``tree``, in ``ranking.graph``).
    ``certify`` (expectimax) replays one optimal strategy in the engine afterwards, outside
    the budget (``extra["certificate"]``; ``on_certify(n)`` reports positions replayed).
    ``view``: rank from the player's (the team's) view, the listed deck order hidden.
    ``solver``: a solver of ``mode`` made earlier (:func:`make_solver`; ``threads`` and
    ``table_bits`` are then its own) to rank with again, its memo kept between queries.

    Ctrl-C (SIGINT) and SIGTERM stop the search: the ranking found so far comes back, sound,
    with ``extra["interrupted"] = True``; the memo file is saved in every case.  A bad
    argument raises an ``OnirimError`` (``OptionError``, ``BudgetError``, ...) before any
    search."""
    from engine.notation import parse_position

    budget_nodes = check_nodes(budget_nodes, "budget_nodes")
    budget_s = check_seconds(budget_s, "budget_s")
    state = parse_position(position) if isinstance(position, str) else position
    entry = resolve_mode(state, mode)
    check_options(entry, {"threads": threads != 1, "table_bits": table_bits is not None,
                          "memo": memo is not None, "view": view, "tree": tree,
                          "certify": certify})
    line = line and "line" in entry.options     # the modes without one just have none
    kw = {k: v for k, v in (("threads", threads), ("table_bits", table_bits))
          if k in entry.options}
    if solver is None:
        solver = entry.factory(**kw)
    if hasattr(solver, "adviser"):      # the leader when nothing is proven: solver/advice.py
        from . import advice
        solver.adviser = advice.advise
    ranked, note = solver.position(state, view)
    if memo is not None:
        from solver.expectimax.memo_file import check_writable
        check_writable(memo, "memo")
    with _TermAsInterrupt():
        solver.prepare(ranked, say)
        if getattr(solver, "adviser", None) is not None:
            from . import advice
            advice.prepare()            # the leader's policies, made before the clock
        loaded = _load_memo(solver, memo)
        try:
            ranking = _search(solver, ranked, budget_nodes, budget_s, line, tree,
                              on_progress)
            if certify and not ranking.interrupted:
                ranking.extra["certificate"] = solver.certify_block(
                    ranked, ranking, on_certify)
        finally:
            notes = _save_memo(solver, memo, loaded)
    if note is not None:
        ranking.extra["view"] = solver.viewer
        ranking.view_note = note
    ranking.memo_note = notes
    return ranking


def _search(solver, state, budget_nodes, budget_s, line, tree, on_progress) -> Ranking:
    """The ranking, then (within the same budget: ``LINE_SHARE`` of it, at most
    ``LINE_MAX_S``, is kept for them) the principal line and the tree."""
    t0 = time.perf_counter()                  # the clock
    reserve = min(LINE_SHARE * budget_s, LINE_MAX_S) if budget_s and (line or tree) else 0.0
    ranking = solver.rank(state, budget_nodes, budget_s, on_progress=on_progress,
                          reserve_s=reserve)
    name_estimates(ranking)
    deadline = None if budget_s is None else t0 + budget_s
    if deadline is None and budget_nodes is not None:
        deadline = time.perf_counter() + LINE_MAX_S   # budget_nodes alone: they still end
    try:
        if line and ranking.actions and not ranking.interrupted:
            first = ranking.actions[0] if (ranking.best or ranking.leader) else None
            ranking.line = solver.line(
                state, budget_nodes=LINE_NODES, deadline=deadline,
                first=None if first is None else first.action,
                first_bounds=None if first is None else (first.lo, first.hi))
        if tree and not ranking.interrupted:
            ranking.graph = solver.tree(state, budget_nodes=LINE_NODES, deadline=deadline)
    except KeyboardInterrupt:
        ranking.extra["interrupted"] = True
    ranking.seconds = time.perf_counter() - t0
    return ranking


def _load_memo(solver, path) -> int | None:
    """Load the memo file if there is one (not timed): the entries loaded, or None."""
    if path is None or not os.path.exists(path):
        return None
    return solver.load_memo(path)


def _save_memo(solver, path, loaded) -> str | None:
    """Save the memo file (also after an interrupt); the memo's line for the text output."""
    note = solver.memo_note()
    if note is None:
        return None
    if path is not None:
        n = solver.save_memo(path)
        note += (f"; {loaded:,} entries loaded from {path}, {n:,} saved"
                 if loaded is not None else f"; {n:,} entries saved to {path}")
    return note


class _TermAsInterrupt:
    """While active (in the main thread), SIGTERM raises KeyboardInterrupt as Ctrl-C does,
    so that a stopped query still returns what it found and saves its memo."""

    def __init__(self):
        self.old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGTERM, self._raise)
        return self

    @staticmethod
    def _raise(signum, frame):
        raise KeyboardInterrupt

    def __exit__(self, *exc):
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)
        return False
