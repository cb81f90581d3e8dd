"""The ``seq-rollout`` policy: a one-step rollout whose playouts stop early by a sequential
test, over the ``greedy-keep-doors`` base (solo).

At a decision every legal action (a prophecy: every distinct outcome) gets playouts of the base
policy in rounds, playout ``j`` of every action on the same chance stream (common random
numbers).  After each round an action whose paired mean difference to the leader (the live
action with the most wins) is more than ``zdrop`` standard errors below zero is dropped; the
playouts stop when one action is left or every live action has ``n``.  The action played is the
rollout's z-margin choice among the live ones: the base action unless a rival beats it by more
than ``z`` standard errors of the paired difference.  The kernel is
:func:`solver.honest.strong.decide_seq` (its docstring has the details).

``screen`` > 0 adds a screen: a decision with more than ``keep`` + 1 actions first gives every
action ``screen`` playouts, and only the ``keep`` actions with the most wins and the base action
go on (docs/POLICIES.md, "A screen for wide decisions").

``stop`` > 0 adds the indifference stop: after a round, if no live rival could beat the
reference by ``stop`` (its paired mean difference plus ``zstop`` standard errors is below
``stop``), the playouts end there (off by default; docs/POLICIES.md, "Cheaper playouts").

``early_n`` > 0 caps the playouts per action at ``early_n`` instead of ``n`` while the deck (its
public size) holds at least ``early_deck`` cards: early playouts are the longest, so a budget
that grows as the deck shrinks (docs/POLICIES.md, "A budget by deck size").

``act_among(view, stream, allowed)``: the same sequential choice over the allowed actions only
(the end-game switch's ``fallback=pruned``).

With ``zdrop=0`` there is no drop: every action gets ``n`` playouts, and the policy is the
``rollout`` policy's decision without its screen, over the chosen base.

Same view and stream, same action: every random number comes from the stream, and the kernel
reads only the view (the unknown cards as counts).
"""
from __future__ import annotations

import math

import numpy as np

from engine import rng

from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, check_range, register_policy

# The policy's playout key is mix64 of the decision stream and this salt (its own, so that its
# playouts are not the rollout policy's).
_SALT = 0x6A09E667F3BCC909
DEFAULT_N = 1024
DEFAULT_BATCH = 32
DEFAULT_ZDROP = 2.0
DEFAULT_BASE = "greedy-keep-doors"
MAX_KEEP = 256         # more than any decision's legal actions


def key_of_stream(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


@register_policy(
    "seq-rollout",
    params=[
        Param("n", int, DEFAULT_N, "most playouts per action"),
        Param("batch", int, DEFAULT_BATCH, "playouts per action in a round (a round later "
                                           "grows to a quarter of the playouts made so far)"),
        Param("z", float, 1.0, "margin: leave the base action only if a rival's paired mean "
                               "difference exceeds z standard errors"),
        Param("zdrop", float, DEFAULT_ZDROP, "drop an action more than zdrop standard errors "
                                             "behind the leader (0: never)"),
        Param("base", str, DEFAULT_BASE, "base policy of the playouts: greedy, greedy-plus, "
                                         "greedy-keep-doors, learned-base or learned-base-2"),
        Param("stop", float, 0.0, "indifference stop: end the playouts once no live rival can "
                                  "beat the reference by this much (0: never)"),
        Param("zstop", float, 2.0, "the indifference stop's margin, in standard errors"),
        Param("screen", int, 0, "first-round playouts per action of a screen: only the keep "
                                "best and the base action go on (0: no screen)", late=True),
        Param("keep", int, 4, "actions kept by the screen (besides the base action)",
              late=True),
        Param("early_n", int, 0, "most playouts per action while the deck holds at least "
                                 "early_deck cards (0: n throughout)", late=True),
        Param("early_deck", int, 50, "deck size from which early_n applies", late=True),
        Param("horizon", int, 0, "cut each playout at its first decision after this many "
                                 "draws and estimate the rest with the value function "
                                 "(0: play to the end)", late=True),
    ],
    doc="one-step rollout over greedy-keep-doors with sequential dropping of clearly worse "
        "actions (numba)")
class SeqRollout(PolicyBase):
    players = (1,)

    def __init__(self, n=DEFAULT_N, batch=DEFAULT_BATCH, z=1.0, zdrop=DEFAULT_ZDROP,
                 base=DEFAULT_BASE, stop=0.0, zstop=2.0, screen=0, keep=4, early_n=0,
                 early_deck=50, horizon=0):
        from solver.honest import strong
        if base not in strong.BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(strong.BASES)}")
        check_range("n", n, 1, 1 << 20)
        check_range("batch", batch, 1, 1 << 20)
        if math.isnan(z) or math.isnan(zdrop) or math.isnan(stop) or math.isnan(zstop):
            raise PolicyError("policy argument z, zdrop, stop, zstop: must be numbers")
        check_range("z", z, 0.0)
        check_range("zdrop", zdrop, 0.0)
        check_range("stop", stop, 0.0, 1.0)
        check_range("zstop", zstop, 0.0)
        check_range("screen", screen, 0, 1 << 20)
        check_range("keep", keep, 1, MAX_KEEP)
        check_range("early_n", early_n, 0, 1 << 20)
        check_range("early_deck", early_deck, 0, 1 << 20)
        check_range("horizon", horizon, 0, 1 << 20)
        self.n, self.batch, self.z, self.zdrop, self.base = n, batch, float(z), float(zdrop), base
        self.stop, self.zstop = float(stop), float(zstop)
        self.screen, self.keep = int(screen), int(keep)
        self.early_n, self.early_deck = int(early_n), int(early_deck)
        self.horizon = int(horizon)

    def n_at(self, view) -> int:
        """The playout cap at ``view``: ``early_n`` while the deck (its public size) holds at
        least ``early_deck`` cards, if ``early_n`` is set; else ``n``."""
        if self.early_n and view.deck_size() >= self.early_deck:
            return self.early_n
        return self.n

    def warm_up(self) -> None:
        """Compile (or load) the kernel on a throwaway opening view, tiny playout counts."""
        from engine.game import Game
        from engine.view import player_view
        view = player_view(Game(1).new_initial_state(seed=0))
        small = SeqRollout(n=4, batch=2, z=self.z, zdrop=self.zdrop, base=self.base,
                           stop=self.stop, zstop=self.zstop, screen=min(self.screen, 2),
                           keep=self.keep, horizon=self.horizon)
        small.act(view, 0)
        small.act_among(view, 0, view.legal_actions()[:2])

    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError("seq-rollout plays solo games only")
        return self.search(view, stream).action

    def act_among(self, view, stream: int, allowed) -> int:
        """The sequential choice restricted to the actions ``allowed`` (a non-empty subset of
        the legal action ids), from the same key as :meth:`act`: the rounds, drops and choice
        run over the allowed actions only; the reference is the base action if allowed, else
        the allowed action with the most wins.  For the end-game switch's pruned fallback
        (docs/REGRET.md, section 5)."""
        return self.search(view, stream, allowed).action

    def search(self, view, stream: int, allowed=None) -> "SeqSearch":
        """The decision of :meth:`act` (``allowed`` None) or :meth:`act_among` (``allowed``
        given), with the search's own per-action estimates (:class:`SeqSearch`): the one
        place both run the kernel (:func:`solver.honest.strong.seq_core`), so that what
        ``onirim best`` shows is what the policy played on."""
        if view.players != 1:
            raise PolicyError("seq-rollout plays solo games only")
        acts = view.legal_actions()
        if allowed is not None:
            allowed = sorted({int(a) for a in allowed})
            if not allowed or not set(allowed) <= set(acts):
                raise PolicyError(f"allowed actions {allowed!r} are not a non-empty subset of "
                                  "the legal actions")
            if len(allowed) == 1:
                return SeqSearch(allowed[0], self.label())
        elif len(acts) == 1:
            return SeqSearch(acts[0], self.label())
        from solver.honest import kernel as honest_kernel
        from solver.honest import strong
        from solver.honest.screening import row_of
        from solver.honest.state import legal
        state = honest_kernel.encode(view)
        order = np.empty(honest_kernel.MAX_LEGAL, dtype=np.int64)
        nact = legal(state, order)
        base = np.int64(strong.BASES[self.base])
        base_action = strong._base_at(state, base)
        if allowed is None:            # decide_seq
            sub = order[:nact].copy()
            bi = row_of(sub, nact, base_action, 0)
        else:                          # decide_seq_among: the kernel's order
            sub = np.array([a for a in order[:nact] if int(a) in set(allowed)], dtype=np.int64)
            bi = row_of(sub, len(sub), base_action, -1)
        n = self.n_at(view)
        res = np.full((len(sub), n), -1, dtype=np.int8)    # -1: no playout made there
        used = np.zeros(1, dtype=np.int64)
        row = strong.seq_core(state, sub, np.int64(len(sub)), np.int64(bi), np.int64(n),
                              np.int64(self.batch), np.float64(self.z),
                              np.float64(self.zdrop), np.uint64(key_of_stream(stream)), base,
                              res, used, np.float64(self.stop), np.float64(self.zstop),
                              np.int64(self.screen), np.int64(self.keep),
                              np.int64(self.horizon))
        from solver.honest.value import VSCALE
        out = SeqSearch(int(sub[row]), self.label(), playouts=int(used[0]))
        scale = VSCALE if self.horizon > 0 else 1
        for i, a in enumerate(sub):
            made = res[i][res[i] >= 0]
            if len(made):
                out.rows[int(a)] = _estimate_of(made, scale)
        return out

    def label(self) -> str:
        """What the search is, for the output: ``seq-rollout n=1024 over learned-base,
        horizon 32``."""
        text = f"seq-rollout n={self.n} over {self.base}"
        if self.early_n:
            text += f" (n={self.early_n} from {self.early_deck} deck cards)"
        return text + (f", horizon {self.horizon}" if self.horizon else "")


class SeqSearch:
    """One sequential-rollout decision: ``action`` (what the policy plays), ``search`` (its
    label), ``playouts`` (made in all) and ``rows``: per action searched, ``(mean, lo, hi,
    playouts)``, the mean playout score after the action (the chance to win of the base
    policy's play, a cut playout scored by the value function) and its 95% interval
    (Wilson's for 0/1 playouts, the normal one for a horizon's fractional scores).  An
    action dropped early has few playouts and a wide interval; an action not searched
    (``allowed``) has no row.  ``cut_counts``: a two-player search under a horizon sets it
    to the cut playouts made per candidate (its estimates come from uncut ones,
    ``solver.duo.rollout``); None elsewhere."""

    def __init__(self, action: int, search: str, playouts: int = 0):
        self.action, self.search, self.playouts = int(action), search, playouts
        self.rows: dict[int, tuple[float, float, float, int]] = {}
        self.cut_counts: dict | None = None


def _estimate_of(made, scale: int) -> tuple[float, float, float, int]:
    """(mean, lo, hi, n) of playout scores ``made`` (0 .. scale) as a winning chance."""
    from solver.stats import wilson
    n = len(made)
    x = made.astype(np.float64) / scale
    mean = float(x.mean())
    if scale == 1:
        lo, hi = wilson(int(made.sum()), n)
    else:
        half = 1.96 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else 1.0
        lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    return mean, float(lo), float(hi), n
