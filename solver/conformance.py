"""One conformance harness for every kernel: each one is walked against ``engine/`` state by
state.

Five kernels model the rules of :mod:`engine.game` (the readable reference):

``kernel``      :mod:`solver.clairvoyant.deal_kernel`, the clairvoyant deal-mode solo kernel
``expectimax``  :mod:`solver.expectimax.kernel`, the chance-mode solo kernel of the search
``honest``      :mod:`solver.honest.kernel`, the information-state playout kernel
``duo``         :mod:`solver.duo.kernel`, the two-player deal-mode kernel
``duo-honest``  :mod:`solver.duo.info_state`, the two-player information-state kernel

Each is wrapped in a small :class:`Adapter` (its encode, legal actions, step, chance step and
its fields as a plain dict, all taken from the kernel's own Python entry points; no rule is
written here), and one loop, :func:`run`, walks seeded random games in the engine and the
kernel side by side.  At every state it compares the kernel's fields with the engine's, and at
every decision the legal actions; it returns the counts (steps, games, decisions, chance
steps, decisions per phase) and the first mismatch, if any, with everything needed to replay
it (the run's seed, the game, the step, the engine's position and history, the differing
fields).

Decisions mix uniformly random legal actions with the engine's greedy policy
(:func:`engine.policy.greedy_action`): each game draws its share of greedy decisions (0, 1/2
or 1), so that some games go deep (series, Doors, prophecies, late shuffles) and others
wander.  Chance outcomes (the chance-mode kernels) follow the engine's probabilities.

The expectimax kernel has no per-action step: a search node makes all its children at once
(``decision_children``), and each child is put in the canonical form the memo table keys on
(``canonical``: the automatic steps played, the cards a prophecy is about to reorder sorted).
Its adapter therefore re-encodes the engine's state at each step and checks:

* *fields*: the canonical form of ``encode(state)`` read back through the kernel's field
  accessors equals the engine's position (so ``advance`` stops exactly where the engine rests);
* *decisions*: the set of canonical children equals the set of ``canonical(encode(child))``
  over the engine's legal actions, where the engine's child is advanced as the engine does
  it.  A prophecy is the exception: the kernel defers the order of the kept cards (they become
  *free*, docs/EXPECTIMAX.md section 2a), so there each kernel child is compared, before
  advancing, with the engine's child taken just after the decision (its kept cards sorted as
  the kernel sorts them, marked free); and the kernel's ``advance`` from each committed order
  must reach the engine's advanced child;
* *chance*: at a one-card draw, ``outcomes`` (canonical positions and probabilities) equals the
  engine's chance outcomes, each advanced; at a multi-card draw (a Nightmare's reveal, the
  cards a prophecy looks at), where the kernel draws the multiset at once, the engine's drawn
  sequence is played card by card and its end must be one of the kernel's outcomes, with the
  probability of its multiset (the path's probability times the number of orders of it).

Command line::

    python -m solver.conformance [--kernel NAME|all] [--steps N] [--seed S] [--json]

prints one line per kernel (steps checked, mismatches) and exits 1 on a mismatch.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

import numpy as np

from engine import cards
from engine import game as game_rules
from engine.notation import format_position
from engine.policy import greedy_action
from engine.rules import PROPHECY_SIZE
from solver.expectimax.rules import canonical_rows

__all__ = ["Adapter", "KernelAdapter", "ExpectimaxAdapter", "HonestAdapter", "DuoAdapter",
           "DuoHonestAdapter",
           "ADAPTERS", "Mismatch", "Result", "run", "main"]

GREEDY_SHARES = (0.0, 0.5, 1.0)   # each game draws one: the share of greedy decisions
PROB_TOL = 1e-9


# ----------------------------------------------------------------------------- results
@dataclass
class Mismatch:
    """The first state where a kernel and the engine disagree."""
    kernel: str
    seed: int                 # the run's seed (``run(..., seed=)``)
    game: int                 # the game's index in the run (0, 1, ...)
    deal: int | None          # the engine deal (deal-mode kernels), else None
    step: int                 # the run's step count when it was found
    what: str                 # "fields", "legal" or "chance"
    phase: str
    position: str             # engine.notation.format_position of the engine state
    history: list             # the engine's history (actions, draws as DRAW + type)
    diff: dict                # {name: (kernel value, engine value)}

    def __str__(self) -> str:
        return (f"{self.kernel}: {self.what} differ at step {self.step} (seed {self.seed}, "
                f"game {self.game}, deal {self.deal}, phase {self.phase}): {self.diff}; "
                f"position {self.position}; history {self.history}")


@dataclass
class Result:
    kernel: str
    steps: int = 0
    games: int = 0
    decisions: int = 0
    chance: int = 0
    seconds: float = 0.0
    phases: dict = field(default_factory=dict)     # decisions per engine phase
    checks: dict = field(default_factory=dict)     # the adapter's own checks, counted
    mismatch: Mismatch | None = None

    @property
    def mismatches(self) -> int:
        return 0 if self.mismatch is None else 1

    def as_dict(self) -> dict:
        d = asdict(self)
        d["mismatches"] = self.mismatches
        return d

    def line(self) -> str:
        s = (f"{self.kernel}: {self.steps} steps ({self.games} games, {self.decisions} "
             f"decisions, {self.chance} chance) in {self.seconds:.1f} s, "
             f"{self.mismatches} mismatches")
        if self.mismatch is not None:
            s += f"\n  {self.mismatch}"
        return s


def dict_diff(kernel: dict, engine: dict) -> dict:
    """{key: (kernel value, engine value)} over the keys where the two dicts differ."""
    keys = list(kernel) + [k for k in engine if k not in kernel]
    return {k: (kernel.get(k), engine.get(k)) for k in keys if kernel.get(k) != engine.get(k)}


# ----------------------------------------------------------------------------- adapters
class Adapter:
    """How the harness drives one kernel.  ``ks`` is the kernel's state, whatever it is.

    ``start(seed)``      a new engine game (a deal for deal-mode kernels; ``seed`` is then
                         the deal, else unused)
    ``encode(state)``    the kernel state of an engine state (the kernel's own encode)
    ``fields(ks)`` / ``engine_fields(state)``   comparable dicts of the same fields
    ``legal(ks)`` / ``engine_legal(state)``     comparable collections of the decisions
                         (the engine's sorted legal actions by default)
    ``step(ks, a)``      the kernel state after decision ``a`` (may update ``ks`` in place)
    ``chance(ks, a)``    the kernel state after chance outcome ``a`` (chance-mode kernels)
    ``check_chance(state, ks)``  an extra check at a chance node: {} or a diff
    ``reencodes``        True: no step/chance; the harness encodes the engine's next state
    """
    name = "?"
    players = 1
    deal_mode = True
    reencodes = False
    checks: Counter      # an adapter may count its own checks here (``Result.checks``)

    def start(self, seed: int):
        return game_rules.Game(self.players).new_initial_state(seed if self.deal_mode else None)

    def encode(self, state):
        raise NotImplementedError

    def fields(self, ks) -> dict:
        raise NotImplementedError

    def engine_fields(self, state) -> dict:
        raise NotImplementedError

    def legal(self, ks):
        raise NotImplementedError

    def engine_legal(self, state):
        return state.legal_actions()

    def step(self, ks, a: int):
        raise NotImplementedError

    def chance(self, ks, a: int):
        raise NotImplementedError(f"{self.name} has no chance nodes")

    def check_chance(self, state, ks) -> dict:
        return {}


class KernelAdapter(Adapter):
    """:mod:`solver.clairvoyant.deal_kernel`: deal mode, the ``KernelState`` of its turn
    (:mod:`solver.clairvoyant.deal_turn`) steps with the engine's actions; fields from its
    ``decode`` and ``engine_view``."""
    name = "kernel"

    def __init__(self):
        from solver.clairvoyant import deal_kernel as kernel
        from solver.clairvoyant import deal_turn
        self.K = kernel
        self.turn = deal_turn

    def encode(self, state):
        return self.turn.kernel_state(state)

    def fields(self, ks) -> dict:
        f = ks.decode()
        f["terminal"] = ks.phase() in ("won", "lost")
        if f["phase"] == "won":
            f["deck"] = None     # at the last Door the engine takes it out without shuffling
        return f

    def engine_fields(self, state) -> dict:
        f = self.K.engine_view(state)
        f["terminal"] = state.is_terminal()
        if state.phase == "won":
            f["deck"] = None
        return f

    def legal(self, ks):
        return sorted(ks.legal_actions())

    def step(self, ks, a):
        ks.apply(a)
        return ks


class DuoAdapter(KernelAdapter):
    """:mod:`solver.duo.kernel`: two-player deal mode, same shape as the solo kernel."""
    name = "duo"
    players = 2

    def __init__(self):
        from solver.duo import deal_turn as duo_turn
        from solver.duo import kernel as duo_kernel
        self.K = duo_kernel
        self.turn = duo_turn


class HonestAdapter(Adapter):
    """:mod:`solver.honest.kernel`: chance mode; its ``apply_action`` / ``apply_chance`` each
    followed by its ``advance``, fields from its ``decode`` and ``engine_fields``."""
    name = "honest"
    deal_mode = False

    def __init__(self):
        from solver.honest import kernel as honest_kernel
        self.K = honest_kernel

    def encode(self, state):
        return self.K.encode(state)

    def fields(self, ks) -> dict:
        f = self.K.decode(ks)
        f["chance"] = bool(self.K.is_chance(ks))
        return f

    def engine_fields(self, state) -> dict:
        f = self.K.engine_fields(state)
        f["chance"] = state.is_chance_node()
        return f

    def legal(self, ks):
        return self.K.legal_list(ks)

    def step(self, ks, a):
        self.K.apply_action(ks, np.int64(a))
        self.K.advance(ks)
        return ks

    def chance(self, ks, a):
        self.K.apply_chance(ks, np.int64(a - game_rules.DRAW))
        self.K.advance(ks)
        return ks


class DuoHonestAdapter(HonestAdapter):
    """:mod:`solver.duo.info_state`: the two-player information-state kernel on two-player
    chance-mode games (both hands known: a playout's position after the partner's hand is
    dealt); its ``step`` / ``chance_step`` (the action, then ``advance``), fields from its
    ``decode`` and ``engine_fields``.  Its view side (``encode`` of ``player_view``, the
    partner's hand in the unknown multiset) is checked in tests/solver/duo/test_info_state.py."""
    name = "duo-honest"
    players = 2

    def __init__(self):
        from solver.duo import info_state
        self.K = info_state

    def step(self, ks, a):
        self.K.step(ks, np.int64(a))
        return ks

    def chance(self, ks, a):
        self.K.chance_step(ks, np.int64(a - game_rules.DRAW))
        return ks


class ExpectimaxAdapter(Adapter):
    """:mod:`solver.expectimax.kernel`: chance mode, no per-action step; see the module
    docstring.  ``ks`` is the canonical form of ``encode(state)``: (status, w0, w1, w2, w3)."""
    name = "expectimax"
    deal_mode = False
    reencodes = True         # run() encodes the engine's state anew after every step

    def __init__(self):
        from solver.expectimax import kernel as kernel_mod
        from solver.board import unpack_board
        from solver.expectimax.encode import encode
        self.K = kernel_mod
        self.unpack_board = unpack_board
        self.raw_encode = encode
        self.ch = np.zeros((24, 4), dtype=np.int64)
        self.checks = Counter()
        self.rnd = random.Random(0)      # run() reseeds it: the multi-card draws it samples
        self.status_names = {kernel_mod.PLAY: "play", kernel_mod.PROPHECY: "prophecy", kernel_mod.DOOR: "door",
                             kernel_mod.NIGHTMARE: "nightmare", kernel_mod.REFILL: "refill",
                             kernel_mod.REDRAW: "redraw", kernel_mod.REVEAL: "reveal", kernel_mod.FORESEE: "foresee",
                             kernel_mod.WON: "won", kernel_mod.LOST: "lost", kernel_mod.PICK: "pick"}
        self.status_codes = {v: k for k, v in self.status_names.items()}

    # -- the canonical key of a position, from the kernel's words or from an engine state
    def canon(self, words) -> tuple:
        st, *w = self.K.canonical(*(np.int64(x) for x in words))
        return self.row_key((st, *w))

    def row_key(self, row) -> tuple:
        """The key of a canonical (status, w0..w3): the words of a finished game do not
        matter, only that it is won or lost."""
        st = int(row[0])
        if st in (self.K.WON, self.K.LOST):
            return (self.status_names[st],)
        return (self.status_names[st], *(int(x) for x in row[1:]))

    def engine_key(self, state) -> tuple:
        if state.is_terminal():
            return (state.phase,)
        return self.canon(self.raw_encode(state))

    def encode(self, state):
        if state.is_terminal():
            return (state.phase,)
        st, *w = self.K.canonical(*(np.int64(x) for x in self.raw_encode(state)))
        return (int(st), *(int(x) for x in w))

    # -- fields
    def fields(self, ks) -> dict:
        if isinstance(ks[0], str):
            return {"status": ks[0]}
        kernel_mod = self.K
        st, w0, w1, w2, w3 = ks
        board = self.unpack_board(w1, kernel_mod.HAND_AT)
        n = int(kernel_mod.plen(w2))
        return {"status": self.status_names[st],
                "hand": board["hand"], "last": board["last"], "series": board["series"],
                "doors": board["doors"], "phase": board["phase"],
                "drawn_colour": board["drawn_colour"],
                "unknown": [int(kernel_mod.unk_get(w0, w1, t)) for t in range(cards.NUM_TYPES)],
                "limbo_doors": [int(kernel_mod.limbo_door_get(w2, k)) for k in range(4)],
                "limbo_nightmares": int(kernel_mod.limbo_n_get(w2)),
                "left": int(kernel_mod.left_get(w2)),
                "prefix": [int(kernel_mod.slot_get(w2, w3, j)) for j in range(n - 1, -1, -1)],
                "free": int(kernel_mod.free_get(w3))}

    def engine_fields(self, state) -> dict:
        from engine.game import series_length
        from engine.rules import PH_REDRAW, PHASE_NUMBER
        if state.is_terminal():
            return {"status": state.phase}
        row = state.rows[0]
        deck = list(state.deck)
        if state.phase in ("prophecy", "foresee"):
            # cards about to be reordered at will: their order is forgotten (sorted as the
            # kernel's canonical form keeps them, largest type on top)
            k = min(PROPHECY_SIZE, state.deck_size())
            deck = sorted(deck[:k], reverse=True) + deck[k:]
        phase = "redraw" if state.phase == "setup" else state.phase
        return {"status": phase,
                "hand": sorted(state.hands[0]), "last": row[-1] if row else None,
                "series": series_length(row), "doors": sorted(state.doors[0]),
                "phase": PH_REDRAW if state.phase == "setup" else PHASE_NUMBER[state.phase],
                "drawn_colour": cards.colour(state.drawn) if state.phase == "door" else 0,
                "unknown": list(state.unknown),
                "limbo_doors": [state.limbo.count(cards.door_of(k)) for k in range(4)],
                "limbo_nightmares": state.limbo.count(cards.NIGHTMARE),
                "left": state.left if state.phase == "reveal" else 0,
                "prefix": deck, "free": 0}

    # -- decisions
    def legal(self, ks):
        """The canonical children of the decision node (a prophecy's children unadvanced)."""
        st, w0, w1, w2, w3 = ks
        nc = self.K.decision_children(np.int64(st), np.int64(w0), np.int64(w1), np.int64(w2),
                                      np.int64(w3), False, self.ch)
        rows = [tuple(int(x) for x in self.ch[i]) for i in range(nc)]
        if st == self.K.PROPHECY:
            return {("refill-free", *r) for r in rows}
        return {self.canon(r) for r in rows}

    def engine_legal(self, state):
        """The same set from the engine: its child after each legal action."""
        out = set()
        acts = state.legal_actions()
        if state.phase != "prophecy":
            for a in acts:
                s = state.clone()
                s.apply_action(a)
                out.add(self.engine_key(s))
            return out
        m = min(PROPHECY_SIZE, state.deck_size())
        self.checks["prophecy orders"] += len(acts)
        for a in acts:
            s = state.clone()
            s._apply_decision(a)           # the engine's prophecy step, before its _advance
            w0, w1, w2, w3 = self.raw_encode(s)
            # the kernel keeps the m - 1 kept cards unordered (free), sorted by type
            w2, w3 = self.K.sort_top(np.int64(w2), np.int64(w3), m - 1)
            w3 = self.K.free_set(w3, m - 1)
            out.add(("refill-free", w0, w1, int(w2), int(w3)))
            # the kernel's automatic steps from this committed order reach the engine's
            done = s.clone()
            done._advance()
            mine = self.canon(self.raw_encode(s))
            theirs = self.engine_key(done)
            if mine != theirs:
                out.add(("advance differs", a, mine, theirs))
        return out

    def step(self, ks, a):
        raise AssertionError("the expectimax adapter re-encodes the engine's state")

    def chance(self, ks, a):
        raise AssertionError("the expectimax adapter re-encodes the engine's state")

    # -- chance nodes
    def _kernel_outcomes(self, ks):
        """The kernel's outcomes of the chance node ``ks``, canonical: (rows of status and
        words, probabilities)."""
        st, w0, w1, w2, w3 = ks
        cw, cp = self.K.outcomes(np.int64(st), np.int64(w0), np.int64(w1), np.int64(w2),
                                 np.int64(w3))
        return canonical_rows(cw), cp

    def _where(self, rows, key) -> np.ndarray:
        """The rows (of ``_kernel_outcomes``) whose canonical key is ``key``."""
        code = self.status_codes[key[0]]
        hit = rows[:, 0] == code
        if len(key) > 1:
            hit &= (rows[:, 1:] == np.array(key[1:], dtype=np.int64)).all(axis=1)
        return hit

    def check_chance(self, state, ks) -> dict:
        rows, cp = self._kernel_outcomes(ks)
        if abs(float(cp.sum()) - 1.0) > PROB_TOL:
            return {"probability sum": (float(cp.sum()), 1.0)}
        if state.phase == "reveal":
            r = state.left
        elif state.phase == "foresee":
            r = min(PROPHECY_SIZE, state.deck_size()) - len(state.deck)
        else:
            r = 1
        if r <= 1:
            self.checks["one-card draws"] += 1
            # every outcome, both ways: the same canonical children, the same probabilities
            kernel: dict = {}
            for i in range(len(cp)):
                key = self.row_key(rows[i])
                kernel[key] = kernel.get(key, 0.0) + float(cp[i])
            engine: dict = {}
            for a, p in state.chance_outcomes_exact():
                s = state.clone()
                s.apply_action(a)
                key = self.engine_key(s)
                engine[key] = engine.get(key, 0.0) + float(p)
            if kernel.keys() != engine.keys():
                return {"outcomes": (sorted(kernel.keys() - engine.keys()),
                                     sorted(engine.keys() - kernel.keys()))}
            bad = {k: (kernel[k], engine[k]) for k in kernel
                   if abs(kernel[k] - engine[k]) > PROB_TOL}
            return {"probabilities": bad} if bad else {}
        # r cards at once: play one engine sequence of r draws; its end must be the kernel's
        # outcome of that multiset, with the path's probability times its number of orders
        s = state.clone()
        p = 1.0
        drawn = []
        for _ in range(r):
            acts, probs = zip(*s.chance_outcomes())
            a = self.rnd.choices(acts, weights=probs)[0]
            p *= probs[acts.index(a)]
            drawn.append(a - game_rules.DRAW)
            s.apply_action(a)
        orders = math.factorial(r)
        for n in Counter(drawn).values():
            orders //= math.factorial(n)
        key = self.engine_key(s)
        hit = self._where(rows, key)
        self.checks["multi-card draws"] += 1
        if not hit.any():
            return {"multi-draw outcome": (None, key), "drawn": (None, drawn)}
        if abs(float(cp[hit].sum()) - p * orders) > PROB_TOL:
            return {"multi-draw probability": (float(cp[hit].sum()), p * orders),
                    "drawn": (None, drawn)}
        return {}


ADAPTERS = {"kernel": KernelAdapter, "expectimax": ExpectimaxAdapter,
            "honest": HonestAdapter, "duo": DuoAdapter, "duo-honest": DuoHonestAdapter}


# ----------------------------------------------------------------------------- the loop
def run(adapter: Adapter, steps: int, seed: int = 0, greedy_shares=GREEDY_SHARES,
        max_game_steps: int = 5000) -> Result:
    """Walk seeded random games in the engine and ``adapter``'s kernel side by side until
    ``steps`` steps (decisions and chance outcomes) were checked.  Returns the counts; the
    first disagreement stops the run and is in ``Result.mismatch``."""
    rnd = random.Random(seed)
    if hasattr(adapter, "rnd"):     # an adapter's own sampling, seeded by the run
        adapter.rnd = random.Random(seed ^ 0x5EED)
    reencodes = adapter.reencodes
    adapter.checks = Counter()
    res = Result(adapter.name)
    t0 = time.time()
    while res.steps < steps:
        deal = rnd.getrandbits(48) if adapter.deal_mode else None
        share = rnd.choice(greedy_shares)
        state = adapter.start(deal)
        ks = adapter.encode(state)
        game = res.games
        res.games += 1

        def fail(what, diff):
            res.mismatch = Mismatch(adapter.name, seed, game, deal, res.steps, what,
                                    state.phase, format_position(state), state.history(),
                                    diff)
            res.seconds = time.time() - t0
            res.checks = dict(adapter.checks)
            return res

        for _ in range(max_game_steps):
            d = dict_diff(adapter.fields(ks), adapter.engine_fields(state))
            if d:
                return fail("fields", d)
            if state.is_terminal() or res.steps >= steps:
                break
            if state.is_chance_node():
                d = adapter.check_chance(state, ks)
                if d:
                    return fail("chance", d)
                acts, probs = zip(*state.chance_outcomes())
                a = rnd.choices(acts, weights=probs)[0]
                state.apply_action(a)
                ks = adapter.encode(state) if reencodes else adapter.chance(ks, a)
                res.chance += 1
            else:
                kl, el = adapter.legal(ks), adapter.engine_legal(state)
                if kl != el:
                    if isinstance(kl, set):
                        d = {"legal": (sorted(kl - el), sorted(el - kl))}
                    else:
                        d = {"legal": (kl, el)}
                    return fail("legal", d)
                la = state.legal_actions()
                a = greedy_action(state) if rnd.random() < share else rnd.choice(la)
                res.phases[state.phase] = res.phases.get(state.phase, 0) + 1
                state.apply_action(a)
                ks = adapter.encode(state) if reencodes else adapter.step(ks, a)
                res.decisions += 1
            res.steps += 1
        else:
            raise RuntimeError(f"{adapter.name}: a game longer than {max_game_steps} steps")
    res.seconds = time.time() - t0
    res.checks = dict(adapter.checks)
    return res


# ----------------------------------------------------------------------------- command line
def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m solver.conformance",
                                description="Run kernels against engine/ state by state.")
    p.add_argument("--kernel", default="all", choices=[*ADAPTERS, "all"])
    p.add_argument("--steps", type=int, default=10_000, help="steps per kernel")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="one JSON object per kernel")
    a = p.parse_args(argv)
    names = list(ADAPTERS) if a.kernel == "all" else [a.kernel]
    bad = 0
    for name in names:
        res = run(ADAPTERS[name](), a.steps, a.seed)
        bad += res.mismatches
        print(json.dumps(res.as_dict(), default=str) if a.json else res.line(), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
