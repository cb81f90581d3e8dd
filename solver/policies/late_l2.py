"""The ``late-l2`` policy: a base policy, but a level-2 rollout leader once few cards are
unknown (solo).

At a decision whose view has at most ``unknown`` cards of unknown order in the deck, every
legal action gets ``n`` playouts played to the end by the level-1 rollout over
greedy-keep-doors (``inner`` playouts per action inside, the ``rollout`` policy's margin and
screen: :func:`solver.honest.strong.estimate_all_l2`), playout ``j`` of every action on the
same chance stream, and the action with the most wins is played (ties: the first in the
kernel's order).  Elsewhere the base policy plays (``base``, with its own arguments as in
``endgame``: ``seq-rollout:n=4096``).

Why: on the late positions of docs/REGRET.md this leader's mean regret is 0.0028 against
0.0137 for ``seq-rollout``'s own choice (docs/POLICIES.md, "Cheaper playouts, and the switch
over larger rollouts"): the level-1 rollout's playouts value the actions far better than the
base policy's, and late playouts are short enough to afford 256 of them per action (0.76 s of
CPU per position there).

Same view and stream, same action: every random number comes from the stream, and the kernel
reads only the view (the unknown cards as counts).
"""
from __future__ import annotations

import numpy as np

from engine import rng

from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, build_policy, check_range, register_policy

_SALT = 0x3C6EF372FE94F82B           # this policy's own playout key


def _key(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


class LateL2(PolicyBase):
    players = (1,)

    def __init__(self, base, unknown: int, n: int, inner: int):
        self.base, self.unknown, self.n, self.inner = base, unknown, n, inner
        self.last = None

    def warm_up(self) -> None:
        from engine.game import Game
        from engine.view import player_view
        self.base.warm_up()
        self._leader(player_view(Game(1).new_initial_state(seed=0)), 0, n=2, inner=2)

    def _leader(self, view, stream, n, inner):
        return self.search(view, stream, n=n, inner=inner).action

    def search(self, view, stream, allowed=None, n=None, inner=None):
        """The level-2 leader with its per-action estimates (``SeqSearch``: wins of the ``n``
        level-2 playouts after each action, Wilson 95%): the action with the most wins among
        ``allowed`` (None: every legal action; ties: the first in the kernel's order).  What
        :meth:`act` plays at few unknown cards, and what ``onirim best`` shows there."""
        from solver.honest import kernel as honest_kernel
        from solver.honest import strong
        from solver.policies.seq import SeqSearch, _estimate_of
        n = self.n if n is None else n
        inner = self.inner if inner is None else inner
        S = honest_kernel.encode(view)
        acts = np.zeros(honest_kernel.MAX_LEGAL, dtype=np.int64)
        res = np.zeros((honest_kernel.MAX_LEGAL, n), dtype=np.int8)
        m = strong.estimate_all_l2(S, np.int64(n), np.uint64(_key(stream)), acts, res,
                                   np.int64(inner), np.float64(1.0), np.int64(16), np.int64(6),
                                   np.int64(strong.KEEP_DOORS))
        keep = [i for i in range(m) if allowed is None or int(acts[i]) in allowed]
        wins = res[:m].sum(axis=1, dtype=np.int64)
        best = max(keep, key=lambda i: (wins[i], -i))
        out = SeqSearch(int(acts[best]), f"level-2 rollout n={n} (inner {inner}) over "
                        "greedy-keep-doors", playouts=n * len(keep))
        for i in keep:
            out.rows[int(acts[i])] = _estimate_of(res[i], 1)
        return out

    def act(self, view, stream: int) -> int:
        if view.players != 1:
            raise PolicyError("late-l2 plays solo games only")
        acts = view.legal_actions()
        if len(acts) == 1:
            self.last = "forced"
            return acts[0]
        if sum(view.unknown) > self.unknown:
            self.last = "base"
            return self.base.act(view, stream)
        self.last = "l2"
        return self._leader(view, stream, self.n, self.inner)


@register_policy("late-l2", params=[
    Param("base", str, "seq-rollout", "the policy played while many cards are unknown "
                                      "(NAME or NAME:k=v,k=v)"),
    Param("unknown", int, 12, "the level-2 leader at most this many unknown deck cards"),
    Param("n", int, 256, "level-2 playouts per action"),
    Param("inner", int, 32, "playouts per action of the level-1 rollout inside them"),
], doc="a base policy, but the leader of level-2 rollout playouts once few cards are unknown")
def _late_l2(base="seq-rollout", unknown=12, n=256, inner=32):
    from solver.policies.endgame import parse_base
    name, args = parse_base(base)
    if name == "late-l2":
        raise PolicyError("policy argument base: 'late-l2' cannot be its own base")
    check_range("unknown", unknown, 0)
    check_range("n", n, 1, 1 << 16)
    check_range("inner", inner, 1, 1 << 16)
    return LateL2(build_policy(name, **args), unknown, n, inner)
