"""``duo-krollout``: the two-player one-step rollout in numba, from the player's view.

At a decision with more than one candidate action (see
:func:`solver.duo.info_playouts.candidates`), each candidate is followed by ``n`` playouts in
the two-player information-state kernel (:mod:`solver.duo.info_state`).  Playout ``j`` deals
the partner's hand from the view's unknown multiset (the unseen deck and the partner's cards
together: the player cannot tell them apart), then both seats play the base policy
(``greedy-plus`` = ``duo-greedy-plus`` by default, or ``greedy``), each on its own cards, the
shared cards and the public board; the deck is drawn from the unknown cards as the game goes.
Every candidate sees the same deals and draws (common random numbers).  The base action is
kept unless a rival's paired mean difference exceeds ``z`` standard errors (the largest such
difference wins).  With more than ``keep`` + 1 candidates and ``0 < screen < n``, each first
gets ``screen`` playouts and only the best ``keep``, plus the base action, get the rest.

What the player knows and tells (``docs/DUO.md``, "What a player may know"): the strict
reading.  The policy decides from ``engine.view.player_view`` only (own cards, shared cards,
rows, Doors, discard, limbo, the cards its *own* prophecy put back); the players tell each
other nothing; the simulated partner decides on its own sampled cards, never on the viewer's
beyond what is public.  Given the same view and stream, the action is the same.
"""
from __future__ import annotations

import math

import numpy as np

from engine import rng
from engine.view import is_duo_view

from solver.duo import info_playouts as IP
from solver.duo import partner_filter
from solver.duo.info_state import encode
from solver.duo.value import FITTED, NFV
from solver.errors import PolicyError
from solver.registry import Param, PolicyBase, check_range as _check, register_policy

_SALT = 0x3C6EF372FE94F82B       # the duo-krollout stream salt
# the policy `onirim winrate --mode honest --players 2` and the two-player hint of `onirim play`
# use when none is named: the strongest two-player policy measured at 10 ms of CPU per decision
# or less: duo-kcut-switch (solver/duo/silent_switch.py), the silent game's end-game rule over
# duo-kcut (the rollout over plus2 with the value function's cut at 24 draws, n=384) with every
# order of a prophecy's cards tried, orders=all (experiments duo-silent-switch-kcut-orders and
# -ps2: 84.20% and 85.45% of deals 0-1999, paired +1.80 and +2.45 points against the rule over
# duo-kcut at its defaults, duo-silent-switch-kcut, standard errors 0.71; docs/DUO_LEVERS.md,
# "Every order of a prophecy's cards"; the rule: docs/DUO.md, "The silent game's end-game rule")
DEFAULT_DUO_POLICY = "duo-kcut-switch"
# the open game's (`--talk open`) default, and the policy it plays outside its end game
# (solver/duo/open_switch.py; solver.duo.view_rank.leader_policy reads both from here)
# OPEN_BASE: duo-krollout on learned (plus2 with fitted weights) with the value function's
# cut at 24 draws, n=640, screen 80 (experiments duo-open-learned-u9 and -ps2: under the
# 9-card window 1,751 and 1,749 of deals 0-1999 with policy seeds 1 and 2, against 1,731 and
# 1,702 over plus2, paired +1.00 and +2.35 points, standard errors 1.02, at 14.0 ms of CPU per
# decision against 15.4; docs/DUO_BASES.md, "A fitted plus2"); before, the same over plus2
# (experiment duo-open-p2-h24-u9).  Since, with every order of a prophecy's cards tried,
# orders=all (experiments duo-open-learned-u9-orders and -ps2: 1,796 and 1,780, paired +2.25
# and +1.55 points against the same without, standard errors 0.62 and 0.65; side by side 2%
# more CPU per decision; docs/DUO_LEVERS.md, "Every order of a prophecy's cards").
DEFAULT_OPEN_POLICY = "duo-open-switch"
OPEN_BASE = "duo-krollout:base=learned,horizon=24,n=640,screen=80,orders=all"
_WARM_SEED = 0
KNOWLEDGE = ("strict: a player sees its own cards, the shared cards, rows, Doors, discard, "
             "limbo and its own prophecy's cards, and knows the partner cards its view lists "
             "(silent game: those it saw the partner take; open game: all); the partner's "
             "other cards and the deck are one unknown multiset")


def key_of_stream(stream: int) -> int:
    return rng.mix64((int(stream) ^ _SALT) & rng.MASK)


class Rounds:
    """One decision's playout rounds: the view's state ``S``, the candidates ``cands[:m]``
    (base row ``bi``), the stream ``key``, a work state, the base and the reward."""

    def __init__(self, S, cands, m, bi, key, work, base, reward, horizon=0, spec=None):
        self.S, self.cands, self.m, self.bi, self.key = S, cands, m, bi, key
        self.work, self.base, self.reward = work, base, reward
        self.horizon = np.int64(horizon)
        self.f = np.empty(NFV, dtype=np.float64)       # the value function's scratch space
        # the partner filter's spec (solver.duo.partner_filter; None: the plain deal)
        self.spec = partner_filter.plain_spec() if spec is None else spec

    def run(self, rows, j0: int, j1: int, res) -> None:
        """Playouts j0 .. j1-1 of each candidate row in ``rows`` into ``res``."""
        for i in rows:
            IP._eval(self.S, self.cands[i], j0, j1, self.key, self.work, res[i], self.base,
                     self.reward, self.horizon, self.f, self.spec)


def rollout_params(n: int, z: float, screen: int, keep: int, swaps: str,
                   base: str = "greedy-plus") -> list:
    """The parameters of a two-player one-step rollout (this module's compiled ``duo-krollout``
    and ``duo-krollout2`` and the pure-Python ``duo-rollout`` of :mod:`solver.duo.honest`),
    with each policy's defaults."""
    return [
        Param("n", int, n, "playouts per candidate action"),
        Param("z", float, z, "margin: leave the base action only if a rival's paired mean "
                             "difference exceeds z standard errors"),
        Param("screen", int, screen, "with many candidates: playouts per candidate in the "
                                     "first round (0: no screen)"),
        Param("keep", int, keep, "with many candidates: how many the screen keeps (plus the "
                                 "base)"),
        Param("base", str, base, "base policy of the playouts: greedy, greedy-plus "
                                 "(duo-greedy-plus), plus2 (duo-plus2, compiled only), "
                                 "learned (duo-learned-base, compiled only) or team (both "
                                 "hands read: the open game only)"),
        Param("reward", str, "doors", "playout score: doors (Doors in play at the end, 8 = "
                                      "won) or win (1/0)"),
        Param("swaps", str, swaps, "exchanges tried in phase play: all, base (those of the "
                                   "base action's discard), none"),
    ]


# the compiled rollouts' horizon (docs/DUO_BASES.md, "A value function for the two-player
# playouts' tails"); late: at 0 it stays out of the config, so older rows keep their hash
HORIZON = Param("horizon", int, 0, "cut each playout at its first decision after this many "
                                   "draws and score the rest by the two-player value function "
                                   "(solver/duo/value.py; reward doors, a fitted base; 0: "
                                   "play to the end)", late=True)
# the partner filter (solver/duo/partner_filter.py; docs/DUO_LEVERS.md, "Partner hands filtered
# by its last turn"); late: off, they stay out of the config
FILTER = [Param("filter", int, 0, "1: deal the partner's hand weighed by whether the base "
                                  "(plus2) would have taken the partner's last turn action "
                                  "(the silent game; a heuristic); 0: uniformly", late=True),
          Param("eps", float, 1.0, "the filter's weight of a hand under which the base "
                                   "would not have taken that action (1: no filter)",
                late=True)]
# the late game's win reward (docs/DUO_LEVERS.md, "The win reward in the late game"); late: off,
# it stays out of the config
WIN_FROM = Param("win_from", int, 0, "at a decision with at most this many deck cards, play "
                                     "every playout to the end and score it by win (1/0) "
                                     "instead of the reward and horizon (0: never)", late=True)
# the prophecy's candidates (docs/DUO_LEVERS.md, "Every order of a prophecy's cards"); late: at
# base, it stays out of the config
ORDERS = Param("orders", str, "base", "phase prophecy: base (for each card that may be "
                                      "discarded, the rest in the base's order) or all (every "
                                      "distinct outcome: each discard with each order of the "
                                      "rest)", late=True)
ORDER_CHOICES = ("base", "all")
# more playouts at a prophecy (docs/DUO_LEVERS.md, "Every order of a prophecy's cards"); late:
# at 0 it stays out of the config
PRO_N = Param("pro_n", int, 0, "at a prophecy: this many playouts per candidate, the screen an "
                               "eighth of them (0: the policy's n and screen)", late=True)


@register_policy(
    "duo-krollout",
    params=rollout_params(n=512, z=1.0, screen=64, keep=4, swaps="all") + [HORIZON] + FILTER
    + [WIN_FROM, ORDERS, PRO_N],
    doc="two-player one-step rollout in numba from the player's view (n playouts per "
        "candidate, partner hand dealt from the unknown cards, common random numbers, "
        "z-margin)")
class DuoKRollout(PolicyBase):
    players = (2,)
    family = "duo-honest"

    def __init__(self, n=512, z=1.0, screen=64, keep=4, base="greedy-plus", reward="doors",
                 swaps="all", horizon=0, filter=0, eps=1.0, win_from=0, orders="base",
                 pro_n=0):
        if base not in IP.BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(IP.BASES)}")
        if reward not in IP.REWARDS:
            raise PolicyError(f"policy argument reward: {reward!r} is not doors or win")
        if swaps not in IP.SWAPS:
            raise PolicyError(f"policy argument swaps: {swaps!r} is not all, base or none")
        if orders not in ORDER_CHOICES:
            raise PolicyError(f"policy argument orders: {orders!r} is not base or all")
        _check("n", n, 1, 1 << 16)
        _check("z", z, 0.0)
        _check("screen", screen, 0)
        _check("keep", keep, 1)
        _check("horizon", horizon, 0, 1 << 20)
        if horizon and reward != "doors":
            raise PolicyError("policy argument horizon: the value function estimates the Doors "
                              "reward only (reward=doors)")
        if horizon and base not in FITTED:
            raise PolicyError(f"policy argument horizon: no value function is fitted for base "
                              f"{base!r} (fitted: {', '.join(FITTED) or 'none'}; "
                              "python -m benchmarks.learn_duo_value)")
        if math.isnan(z):
            raise PolicyError("policy argument z: must be a number")
        _check("filter", filter, 0, 1)
        if math.isnan(eps):
            raise PolicyError("policy argument eps: must be a number")
        _check("eps", eps, 0.0, 1.0)
        _check("win_from", win_from, 0, 1 << 20)
        if filter and base in IP.OPEN_ONLY:
            raise PolicyError(f"policy argument filter: the silent game's filter; base "
                              f"{base!r} plays the open game only")
        self.filter, self.eps = int(filter), float(eps)
        self.n, self.z, self.screen, self.keep = n, float(z), screen, keep
        self.base, self.reward, self.swaps = base, reward, swaps
        self.horizon = int(horizon)
        self.win_from = int(win_from)
        self.orders = orders
        _check("pro_n", pro_n, 0, 1 << 16)
        self.pro_n = int(pro_n)
        self.stats = np.zeros(2, dtype=np.int64)     # playouts run, candidates tried

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError("duo-krollout plays two-player games only (--players 2)")

    def warm_up(self) -> None:
        """Compile (or load) the kernels on a throwaway deal's opening view."""
        from engine.game import Game
        from engine.view import player_view
        IP.compile_all()
        small = DuoKRollout(n=2, z=self.z, screen=1 if self.screen else 0, keep=self.keep,
                            base=self.base, reward=self.reward, swaps=self.swaps,
                            horizon=self.horizon, filter=self.filter, eps=self.eps,
                            win_from=self.win_from, orders=self.orders, pro_n=self.pro_n)
        talk = "open" if self.base in IP.OPEN_ONLY else "none"
        small.act(player_view(Game(2).new_initial_state(seed=_WARM_SEED), talk=talk), 0)

    def act(self, view, stream: int) -> int:
        return self.search(view, stream, estimates=False).action

    def rounds(self, r: "Rounds", res, n: int, screen: int | None = None) -> int:
        """Fill ``res`` (candidates x ``n``) with playouts: the screen (every candidate
        ``screen`` playouts, None: the policy's, then the best ``keep`` and the base row the
        rest) or every candidate ``n``; returns the row the z-margin rule chooses."""
        from solver.honest.screening import screen_top, screens, select
        screen = self.screen if screen is None else screen
        sel = np.empty(r.m + 1, dtype=np.int64)
        if screens(n, screen, self.keep, r.m):
            r.run(range(r.m), 0, screen, res)
            q = screen_top(res, r.m, r.bi, screen, self.keep, sel)
            r.run(sel[:q], screen, n, res)
            self.stats[0] += r.m * screen + q * (n - screen)
        else:
            q = r.m
            sel[:q] = np.arange(q)
            r.run(range(r.m), 0, n, res)
            self.stats[0] += r.m * n
        return int(select(res, sel, q, r.bi, n, self.z))

    def search(self, view, stream: int, n: int | None = None, estimates: bool = True):
        """The decision of :meth:`act` (``n`` None: the policy's own) with the search's
        per-candidate estimates (``solver.policies.seq.SeqSearch``: the share of each
        candidate's playouts that won, Wilson 95%; the choice itself is made on the
        ``reward``): the kernel's ``decide`` step by step on the same arrays, so that
        ``onirim best`` on a two-player view shows what this policy plays on.  With a
        ``horizon`` a cut playout has no result, so the estimates (``estimates`` True; ``act``
        asks for none) come from ``n`` more playouts of each candidate played to the end on
        the same streams: the share won of "the action, then the base", as without a cut."""
        from solver.duo.info_state import NS, legal
        from solver.honest.screening import row_of
        from solver.policies.seq import SeqSearch, _estimate_of
        if getattr(view, "players", 1) != 2:
            raise PolicyError("duo-krollout plays two-player games only")
        if not is_duo_view(view):
            raise PolicyError("duo-krollout decides from a player's view (player_view)")
        if view.hidden and self.base in IP.OPEN_ONLY:
            raise PolicyError(f"duo-krollout: base {self.base!r} reads the partner's hand, "
                              "which this view hides (the silent game); it plays the open "
                              "game only (--talk open)")
        own_n = n is None
        n = self.n if n is None else n
        label = f"duo-krollout n={n} over duo-{self.base}"
        reward_name, horizon = self.reward, self.horizon
        if self.win_from and view.deck_size() <= self.win_from:
            reward_name, horizon = "win", 0     # the late game: played out, scored by win
            label += f", win reward (deck <= {self.win_from})"
        if horizon:
            label += f", horizon {horizon}"
        acts = view.legal_actions()
        if len(acts) == 1:
            return SeqSearch(acts[0], label)
        S = encode(view)
        ids = np.empty(IP.MAX_LEGAL, dtype=np.int64)
        nact = legal(S, ids)
        base = np.int64(IP.BASES[self.base])
        b = IP.base_action_call(S, base)
        cands = np.empty(IP.MAX_LEGAL, dtype=np.int64)
        prophecy = S[IP.PH] == IP.P_PROPHECY
        if self.orders == "all" and prophecy:
            # every distinct outcome: the legal list keeps one action per outcome, and the
            # base's action is one of them
            cands[:nact] = ids[:nact]
            m = nact
            if row_of(cands, m, b, -1) < 0:
                cands[m] = b
                m += 1
        else:
            m = IP.candidates(S, ids, nact, b, np.int64(IP.SWAPS[self.swaps]), cands)
        screen = None                                   # the policy's
        if self.pro_n and own_n and prophecy:
            n, screen = self.pro_n, self.pro_n // 8        # more playouts at a prophecy
            label += f", n={n} at this prophecy"
        if m == 1:
            return SeqSearch(int(b), label)
        key = np.uint64(key_of_stream(stream))
        reward = np.int64(IP.REWARDS[reward_name])
        bi = row_of(cands, m, b, 0)
        res = np.full((m, n), -1, dtype=np.int8)       # -1: no playout made there
        spec = (partner_filter.filter_spec(view, S, self.eps, self.base, memo=n)
                if self.filter else None)
        r = Rounds(S, cands, m, bi, key, np.empty(NS, dtype=np.int64), base, reward, horizon,
                   spec)
        row = self.rounds(r, res, n, screen)
        self.stats[1] += m
        counts = {int(cands[i]): int((res[i] >= 0).sum()) for i in range(m)}
        played = sum(counts.values())
        if horizon and estimates:      # the estimates from uncut playouts (docstring)
            res = np.full((m, n), -1, dtype=np.int8)
            Rounds(S, cands, m, bi, key, np.empty(NS, dtype=np.int64), base, reward,
                   0, spec).run(range(m), 0, n, res)
            played += m * n
        out = SeqSearch(int(cands[row]), label, playouts=played)
        out.cut_counts = counts if horizon else None   # the cut search's playouts
        if horizon and not estimates:
            return out
        from engine.rules import DOORS_TO_WIN
        full = 1 if reward_name == "win" else DOORS_TO_WIN    # a won playout's score
        for i in range(m):
            made = res[i][res[i] >= 0]
            if len(made):
                out.rows[int(cands[i])] = _estimate_of((made >= full).astype(np.int8), 1)
        return out


# duo-krollout over the base plus2 (solver.duo.info_greedy: greedy-plus with the partner's
# public needs), n chosen so that a decision costs about what duo-krollout n=512 costs
# (docs/DUO_BASES.md, "A stronger base: plus2")
N2 = 192


@register_policy(
    "duo-krollout2",
    params=rollout_params(n=N2, z=1.0, screen=N2 // 8, keep=4, swaps="all", base="plus2")
    + [HORIZON] + FILTER + [WIN_FROM, ORDERS, PRO_N],
    doc="duo-krollout over the two-player base plus2 (n=192 playouts per candidate)")
class DuoKRollout2(DuoKRollout):
    def __init__(self, n=N2, z=1.0, screen=N2 // 8, keep=4, base="plus2", reward="doors",
                 swaps="all", horizon=0, filter=0, eps=1.0, win_from=0, orders="base", pro_n=0):
        super().__init__(n=n, z=z, screen=screen, keep=keep, base=base, reward=reward,
                         swaps=swaps, horizon=horizon, filter=filter, eps=eps,
                         win_from=win_from, orders=orders, pro_n=pro_n)


# duo-kcut's defaults: the experiment duo-k2-h24-384's arguments of duo-krollout2
# (tests/solver/duo/test_duo_value.py checks that the two stay equal)
KCUT_N, KCUT_SCREEN, KCUT_HORIZON = 384, 48, 24


KCUT_PARAMS = (rollout_params(n=KCUT_N, z=1.0, screen=KCUT_SCREEN, keep=4, swaps="all",
                              base="plus2")
               + [Param("horizon", int, KCUT_HORIZON, HORIZON.help)])


@register_policy(
    "duo-kcut",
    params=KCUT_PARAMS + FILTER + [WIN_FROM, ORDERS, PRO_N],
    doc="the silent game's default: duo-krollout2 with each playout cut at 24 draws and "
        "scored by the two-player value function (n=384 playouts per candidate)")
class DuoKCut(DuoKRollout2):
    def __init__(self, n=KCUT_N, z=1.0, screen=KCUT_SCREEN, keep=4, base="plus2",
                 reward="doors", swaps="all", horizon=KCUT_HORIZON, filter=0, eps=1.0,
                 win_from=0, orders="base", pro_n=0):
        super().__init__(n=n, z=z, screen=screen, keep=keep, base=base, reward=reward,
                         swaps=swaps, horizon=horizon, filter=filter, eps=eps,
                         win_from=win_from, orders=orders, pro_n=pro_n)


# duo-kcut with the partner filter on (solver/duo/partner_filter.py): the partner's hand in
# each playout weighed by whether plus2 would have taken the partner's last turn action, a
# disagreeing hand kept with weight SPARTA_EPS (docs/DUO_LEVERS.md, "Partner hands filtered by
# its last turn")
SPARTA_EPS = 0.1


@register_policy(
    "duo-kcut-sparta",
    params=KCUT_PARAMS + [Param("filter", int, 1, FILTER[0].help),
                          Param("eps", float, SPARTA_EPS, FILTER[1].help)],
    doc="duo-kcut with the partner's hand dealt by its last turn: a hand under which plus2 "
        "would not have taken the partner's last turn action is kept with weight eps (a "
        "heuristic)")
class DuoKCutSparta(DuoKCut):
    def __init__(self, filter=1, eps=SPARTA_EPS, **args):
        super().__init__(filter=filter, eps=eps, **args)


@register_policy(
    "duo-plus2",
    params=[],
    doc="the two-player base plus2 alone (compiled; greedy-plus with the partner's public "
        "needs)")
class DuoPlus2(PolicyBase):
    players = (2,)
    family = "duo-honest"
    BASE = "plus2"      # the base it plays (info_greedy.BASES)

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError(f"{self.name} plays two-player games only (--players 2)")

    def warm_up(self) -> None:
        from engine.game import Game
        from engine.view import player_view
        from solver.duo.info_greedy import base_at
        base_at(encode(player_view(Game(2).new_initial_state(seed=_WARM_SEED))), self.BASE)

    def act(self, view, stream: int) -> int:
        from solver.duo.info_greedy import base_at
        if getattr(view, "players", 1) != 2 or not is_duo_view(view):
            raise PolicyError(f"{self.name} decides from a two-player player's view "
                              "(player_view)")
        return base_at(encode(view), self.BASE)


@register_policy(
    "duo-learned-base",
    params=[],
    doc="the two-player base learned alone (compiled; plus2 with the weights fitted by "
        "benchmarks/learn_duo_base.py)")
class DuoLearnedBase(DuoPlus2):
    BASE = "learned"


# duo-krollout with a sequential stop (as solo seq-rollout, solver/policies/seq.py): after the
# screen, the live candidates get rounds of playouts (``batch``, later a quarter of those made)
# up to ``n``; a candidate more than ``zdrop`` standard errors below the leader is dropped, and
# the rounds end once one candidate is left or no live rival's paired mean difference to the
# reference (the base row, else the leader) plus ``zstop`` standard errors reaches ``stop``
# (in the reward's unit: Doors).  The CPU an easy decision does not use is what lets ``n`` grow.
@register_policy(
    "duo-kseq",
    params=rollout_params(n=1024, z=1.0, screen=32, keep=4, swaps="all", base="plus2") + [
        Param("batch", int, 64, "playouts per live candidate in a round after the screen (a "
                                "later round: a quarter of those made, if more)"),
        Param("zdrop", float, 2.0, "drop a candidate more than zdrop standard errors below "
                                   "the leader (0: never)"),
        Param("stop", float, 0.05, "indifference stop, in Doors: end the rounds once no live "
                                   "rival can beat the reference by this much (0: never)"),
        Param("zstop", float, 2.0, "the indifference stop's margin, in standard errors")],
    doc="duo-krollout with a sequential stop: rounds of playouts up to n per candidate, the "
        "clearly worse candidates dropped, the rounds ended once no rival can beat the base")
class DuoKSeq(DuoKRollout):
    def __init__(self, n=1024, z=1.0, screen=32, keep=4, base="plus2", reward="doors",
                 swaps="all", batch=64, zdrop=2.0, stop=0.05, zstop=2.0):
        super().__init__(n=n, z=z, screen=screen, keep=keep, base=base, reward=reward,
                         swaps=swaps)
        _check("batch", batch, 1, 1 << 16)
        for name, v in (("zdrop", zdrop), ("stop", stop), ("zstop", zstop)):
            if math.isnan(v):
                raise PolicyError(f"policy argument {name}: must be a number")
            _check(name, v, 0.0)
        self.batch, self.zdrop, self.stop, self.zstop = batch, float(zdrop), float(stop), \
            float(zstop)

    def drop(self, res, alive, done: int) -> None:
        """Drop the live rows more than ``zdrop`` standard errors below the leader."""
        from solver.honest.screening import leader, paired
        if self.zdrop <= 0.0:
            return
        lead = leader(res, alive, len(alive), done)
        for i in np.flatnonzero(alive):
            if i != lead:
                mean, se = paired(res, i, lead, done)
                if mean + self.zdrop * se < 0.0:
                    alive[i] = False

    def rounds(self, r: Rounds, res, n: int, screen: int | None = None) -> int:
        from solver.honest.screening import indifferent, leader, screen_top, screens, select
        screen = self.screen if screen is None else screen
        alive = np.ones(r.m, dtype=np.bool_)
        order = np.arange(r.m)          # the rows in duo-krollout's order (its ties)
        done = 0
        if screens(n, screen, self.keep, r.m):
            r.run(range(r.m), 0, screen, res)
            self.stats[0] += r.m * screen
            done = screen
            sel = np.empty(r.m + 1, dtype=np.int64)
            order = sel[:screen_top(res, r.m, r.bi, done, self.keep, sel)]
            alive[:] = False
            alive[order] = True
        ref = r.bi
        while True:
            if done > 0:
                self.drop(res, alive, done)
                ref = r.bi if alive[r.bi] else leader(res, alive, r.m, done)
                if done >= n or alive.sum() == 1 or (self.stop > 0.0 and indifferent(
                        res, alive, r.m, ref, done, self.stop, self.zstop)):
                    break
            j1 = min(n, done + max(self.batch, done // 4))
            rows = np.flatnonzero(alive)
            r.run(rows, done, j1, res)
            self.stats[0] += len(rows) * (j1 - done)
            done = j1
        live = order[alive[order]]
        return int(select(res, live, len(live), ref, done, self.z))
