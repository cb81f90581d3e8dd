"""Public API of the clairvoyant (perfect-information) solver.

>>> from engine import Game
>>> from solver.clairvoyant import solve_deal, solve_state
>>> r = solve_deal(7)                       # doctest: +SKIP
>>> r.result, len(r.line), r.nodes, r.seconds  # doctest: +SKIP

``solve_state(state, budget_nodes=..., budget_s=None)`` solves any solo engine State in deal
mode (seed set, whole deck known) at a decision phase.  Every WIN line is replayed in
``engine/`` before it is returned (a certificate that fails raises :class:`CertificateError`,
which would be a kernel bug).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from engine import Game
from engine.errors import OnirimError

from . import deal_kernel as deal
from solver import rules_core as core
from solver.registry import register_clairvoyant
from . import search
from .beam import BEAM_EMPTY, BEAM_WIN, Beam
from solver.budgets import check_nodes, check_seconds
from solver.errors import CertificateError
from solver.tt import TranspositionTable

SOLVER_VERSION = "cv2"   # bump when the search changes (results are keyed by it)
DEFAULT_NODE_BUDGET = 20_000_000
DEFAULT_TT_MB = 64
CHUNK = 250_000         # nodes between two looks at the clock under a time budget, at most;
MIN_CHUNK = 1_000       # ... and at least: a chunk lasts about the time left at RATE_GUESS
DEFAULT_FLAGS = core.ALL_BOUNDS | search.F_TT
BEAM_WIDTHS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048)
DFS_FIRST = 1_000       # nodes the DFS gets before the beams
BEAM_SHARE = 0.5        # the beams stop escalating once they used this share
RATE_GUESS = 2_000_000  # nodes/s, to turn a time budget into a beam node limit


def clock_chunk(left_s: float, rate: float) -> int:
    """Nodes the DFS runs before it looks at the clock again: about the ``left_s`` seconds
    left at ``rate`` nodes per second, from MIN_CHUNK to CHUNK, so that a small time budget
    is not overrun by a whole chunk."""
    return max(MIN_CHUNK, min(CHUNK, int(max(0.0, left_s) * rate)))


@dataclass
class SolveResult:
    result: str                      # 'WIN' | 'LOSS' | 'UNKNOWN'
    line: list = field(default_factory=list)   # action strings (docs/NOTATION.md), WIN only
    nodes: int = 0
    seconds: float = 0.0
    actions: list = field(default_factory=list)  # engine action numbers of the line
    tt_hits: int = 0
    pruned: int = 0
    kernel_cpu_seconds: float = 0.0   # CPU time spent inside the numba searches

    def to_dict(self) -> dict:
        return {"result": self.result, "line": list(self.line), "nodes": self.nodes,
                "seconds": self.seconds}


def replay_line(state, line) -> tuple[bool, str]:
    """Replay action strings from (a clone of) ``state`` in the engine.

    Returns (won, message)."""
    s = state.clone()
    for i, text in enumerate(line):
        try:
            s.apply_action(s.string_to_action(text))
        except OnirimError as e:
            return False, f"step {i + 1} ({text!r}): {e}"
    if not s.won():
        return False, f"the line ends in phase {s.phase}, not won"
    return True, "ok"


def actions_to_strings(state, actions) -> list[str]:
    s = state.clone()
    out = []
    for a in actions:
        out.append(s.action_to_string(a))
        s.apply_action(a)
    return out


def certified_line(state, actions):
    """Format ``actions`` as strings and replay the strings, in one pass over one clone.

    At every step the engine formats the action (``action_to_string``), parses the string
    back (``string_to_action``, which searches the legal actions), and the parsed action must
    be the very action of the line; it is then applied with ``apply_action`` (which checks it
    is legal).  So the states visited are those of formatting the line (``actions_to_strings``)
    and also those of replaying its strings from a clone of ``state`` (``replay_line``): the
    same certificate as the two passes, at about two thirds of the engine's cost (one pass
    computes the legal actions twice per step instead of three times).  Returns the strings
    if the replay ends in ``won``; None on anything else (the caller then runs the two-pass
    check, which raises the error or produces the original message)."""
    s = state.clone()
    out = []
    try:
        for a in actions:
            text = s.action_to_string(a)
            if s.string_to_action(text) != a:
                return None
            s.apply_action(a)
            out.append(text)
    except OnirimError:
        return None
    if not s.won():
        return None
    return out


@register_clairvoyant(1)
class ClairvoyantSolver:
    """A reusable solver: one transposition table and one set of search arrays."""

    def __init__(self, tt_mb: float = DEFAULT_TT_MB, flags: int = DEFAULT_FLAGS,
                 beam_widths=BEAM_WIDTHS):
        self.tt = TranspositionTable(tt_mb)
        self.search = search.Search(self.tt.table)
        self.flags = flags
        self.beam_widths = tuple(beam_widths)
        self.beam = Beam(max(self.beam_widths)) if self.beam_widths else None
        # the DFS's permutation buffer, reused by every solve (K.encode rewrites its row 0,
        # a shuffle writes every other slot before it is read, Search.reset empties the cache)
        self.perms = np.zeros((deal.PERMS_ROWS, deal.ROW_W), dtype=np.uint8)

    def solve_state(self, state, budget_nodes: int | None = DEFAULT_NODE_BUDGET,
                    budget_s: float | None = None, flags: int | None = None,
                    verify: bool = True) -> SolveResult:
        budget_nodes = check_nodes(budget_nodes, "budget_nodes", allow_zero=True)
        budget_s = check_seconds(budget_s, "budget_s")
        t0 = time.perf_counter()
        st, perms, s_root, seed = deal.encode(state, self.perms)
        epoch = self.tt.new_epoch()
        fl = self.flags if flags is None else flags
        self.search.reset(st, perms, s_root, seed, epoch, fl)
        limit = budget_nodes if budget_nodes is not None else (1 << 62)
        deadline = None if budget_s is None else t0 + budget_s
        beam_nodes = 0
        beam_line = None
        beam_proof = False
        kcpu = 0.0

        def left_s():
            return None if deadline is None else deadline - time.perf_counter()

        def dfs(upto):
            nonlocal kcpu
            while True:
                nxt = upto if deadline is None else min(upto, self.search.nodes
                                                        + clock_chunk(left_s(), RATE_GUESS))
                c0 = time.process_time()
                self.search.run(nxt)
                kcpu += time.process_time() - c0
                if self.search.status in (search.ST_WIN, search.ST_LOSS) or self.search.nodes >= upto:
                    return
                if left_s() <= 0:
                    return

        # 1. a short DFS: settles small positions (near the end of a deal) at once
        dfs(min(limit, DFS_FIRST))
        # 2. beams of growing width: find wins fast (an uncut empty beam proves a loss)
        if self.search.status == search.ST_RUN and self.beam is not None:
            for w in self.beam_widths:
                room = limit - self.search.nodes - beam_nodes
                if beam_nodes >= limit * BEAM_SHARE or room <= 0:
                    break
                rs = left_s()
                if rs is not None:
                    if rs <= 0:
                        break
                    room = min(room, max(1000, int(rs * RATE_GUESS)))
                c0 = time.process_time()
                status, n, line = self.beam.run(st, perms, s_root, seed, w, room,
                                                bounds=fl & 0xFF)
                kcpu += time.process_time() - c0
                beam_nodes += n
                if status == BEAM_WIN:
                    beam_line = line
                    break
                if status == BEAM_EMPTY and not self.beam.truncated:
                    beam_proof = True
                    break
        # 3. the DFS goes on with what is left
        if beam_line is None and not beam_proof and self.search.status == search.ST_RUN:
            rest = limit - beam_nodes
            if self.search.nodes < rest and (left_s() is None or left_s() > 0):
                dfs(rest)
        info = self.search.info
        res = SolveResult("UNKNOWN", nodes=self.search.nodes + beam_nodes,
                          tt_hits=int(info[search.I_TTHITS]), pruned=int(info[search.I_PRUNED]),
                          kernel_cpu_seconds=kcpu)
        if beam_line is not None or self.search.status == search.ST_WIN:
            acts = beam_line if beam_line is not None else self.search.line()
            res.result = "WIN"
            res.actions = acts
            line = certified_line(state, acts) if verify else None
            if line is None:
                # verify=False, or the one-pass certificate met something irregular: the
                # two-pass original (format the actions, then replay the strings) decides
                res.line = actions_to_strings(state, acts)
                if verify:
                    ok, msg = replay_line(state, res.line)
                    if not ok:
                        raise CertificateError(f"WIN certificate fails in the engine: {msg}")
            else:
                res.line = line
        elif self.search.status == search.ST_LOSS or beam_proof:
            res.result = "LOSS"
        res.seconds = time.perf_counter() - t0
        return res

    def solve_deal(self, seed: int, **kw) -> SolveResult:
        return self.solve_state(Game(1).new_initial_state(seed), **kw)


_DEFAULT: ClairvoyantSolver | None = None


def _default() -> ClairvoyantSolver:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = ClairvoyantSolver()
    return _DEFAULT


def solve_state(state, budget_nodes: int = DEFAULT_NODE_BUDGET,
                budget_s: float | None = None) -> SolveResult:
    """Solve a solo engine State in deal mode: WIN (with the line), LOSS or UNKNOWN."""
    return _default().solve_state(state, budget_nodes=budget_nodes, budget_s=budget_s)


def solve_deal(seed: int, budget_nodes: int = DEFAULT_NODE_BUDGET,
               budget_s: float | None = None) -> SolveResult:
    return solve_state(Game(1).new_initial_state(seed), budget_nodes=budget_nodes,
                       budget_s=budget_s)


# ----------------------------------------------------------------------------- LOSS checks
LOSS_PROOF = "re-solve"


def loss_recipe(budget_nodes, budget_s, tt_mb, nodes, solver: str = SOLVER_VERSION,
                players: int | None = None) -> dict:
    """What makes a stored LOSS checkable: the settings to solve the deal again with.  A LOSS
    found within a node budget is found again by the same search with the same node budget and
    table size (the search is deterministic; ``budget_s`` only ever stops a search earlier).
    ``solver``: the version of the solver that found it; ``players``: 2 for a two-player deal
    (absent from a solo recipe)."""
    recipe = {"proof": LOSS_PROOF, "solver": solver}
    if players is not None:
        recipe["players"] = players
    recipe.update(
        budget_nodes=DEFAULT_NODE_BUDGET if budget_nodes is None else int(budget_nodes),
        budget_s=budget_s, tt_mb=DEFAULT_TT_MB if tt_mb is None else tt_mb, nodes=int(nodes))
    return recipe


def check_loss(state, recipe) -> tuple[str, str]:
    """Check a stored LOSS of ``state`` by solving it again with the recipe's node budget and
    table size (no time budget).  Returns ``(status, message)`` with status ``"verified"`` (the
    re-solve proves the loss again), ``"failed"`` (the re-solve finds a win, whose line is
    certified in the engine: the stored LOSS is wrong) or ``"unverified"`` (no usable recipe,
    or the re-solve cannot decide within the budget)."""
    if not isinstance(recipe, dict) or recipe.get("proof") != LOSS_PROOF:
        return "unverified", "the LOSS carries no re-solve recipe"
    try:
        budget = check_nodes(recipe.get("budget_nodes"), "budget_nodes")
        tt_mb = float(recipe.get("tt_mb"))
        if not 0.01 <= tt_mb <= 65536:
            raise ValueError(tt_mb)
    except (OnirimError, TypeError, ValueError):
        return "unverified", "the LOSS recipe has no valid budget_nodes/tt_mb"
    if budget is None:
        return "unverified", "the LOSS recipe has no node budget"
    try:
        r = ClairvoyantSolver(tt_mb=tt_mb).solve_state(state, budget_nodes=budget)
    except MemoryError:
        return "unverified", f"no memory for the recipe's {tt_mb:g} MB table"
    if r.result == "LOSS":
        return "verified", f"re-solved: LOSS in {r.nodes} nodes"
    if r.result == "WIN":
        return "failed", f"re-solved: WIN (certified line of {len(r.line)} actions)"
    return "unverified", f"re-solve undecided after {r.nodes} nodes"
