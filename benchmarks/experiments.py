"""The experiments behind every published win rate, as raw per-deal rows.

    python -m benchmarks.experiments list
    python -m benchmarks.experiments run NAME [--deals N] [--limit-s T] [--shard I/K]
    python -m benchmarks.experiments run-all [--cheap]
    python -m benchmarks.experiments check NAME [--deals N] [--every K]

Each experiment (``EXPERIMENTS``) plays its deals in this process, one core, and appends one
row per deal to ``benchmarks/results/rows/NAME.jsonl.gz`` (format: ``benchmarks/rows.py``):
the deal's result, the CPU time of this process and the wall time spent on it, and the load
average.  The kernels are compiled (or loaded from numba's cache) before the first deal is
timed.  A run resumes where an earlier one stopped: the deals already stored are skipped, so
an interrupted run loses at most one deal.  ``--deals`` stops at fewer deals than the
experiment's (the rows then back a smaller figure, and the paper's check says how many are
stored); ``--limit-s`` stops after that much wall time.  ``--shard I/K`` plays only the
deals whose seed is I modulo K, so that K processes (each in its own clean tree, each writing
its own rows file) share one experiment; ``python -m benchmarks.rows merge NAME FILE ...``
then appends their runs to NAME's rows, each with its own header.

Run them one at a time, under ``nice``; ``run-all --cheap`` runs every experiment costing
less than a few CPU-minutes, and ``run-all`` every one (the rollout rows take hours).
Policies' random numbers come from the policy seed in ``params`` (``--policy-seed`` of
``onirim winrate``), never from the deal.

``check`` replays stored deals with the code of the tree it runs in and compares each row's
results (every field but the timings and the run number): it says whether today's code still
gives the stored rows, so a published figure made at an older commit is known to reproduce
or known not to (exit status 1 if a row differs).  It writes nothing.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field

from benchmarks import rule_verification as _RV
from benchmarks.rows import RowWriter, by_seed, path_of, read

HERE = os.path.dirname(os.path.abspath(__file__))


@dataclass
class Experiment:
    name: str
    kind: str                   # "honest", "clairvoyant", "duo-clairvoyant", "bound",
    #                             "best-player", "diff-kernel" or "rule-verification"
    deals: int                  # deals (or chunks) 0 .. deals-1
    params: dict = field(default_factory=dict)
    cost: str = ""              # measured or estimated CPU cost on this project's machine
    cheap: bool = True          # run by `run-all --cheap`
    command: str = ""           # the same figure through the command line


def _honest(name, policy, deals, config=None, players=1, cost="", cheap=True, talk="none",
            policy_seed=1):
    """An honest win-rate experiment; ``talk`` the two-player game's mode (``open``: the
    partner's hand known, docs/DUO.md), in the parameters only for the open game;
    ``policy_seed`` the policies' random streams (1 for every experiment of the ladders)."""
    config = config or {}
    cmd = ["onirim", "winrate", "--mode", "honest", "--policy", policy]
    for k, v in config.items():
        cmd += ["--policy-arg", f"{k}={v}"]
    if players == 2:
        cmd += ["--players", "2"]
    if talk != "none":
        cmd += ["--talk", talk]
    cmd += ["--deals", str(deals), "--seed", "0", "--policy-seed", str(policy_seed), "--json"]
    params = {"policy": policy, "config": config, "players": players,
              "policy_seed": policy_seed, "seed_first": 0}
    if talk != "none":
        params["talk"] = talk
    return Experiment(name, "honest", deals, params, cost, cheap, shlex.join(cmd))


def _switch(name, n, unknown, cost, nodes=None, base="learned-base", screen=None, extra=""):
    """The end-game switch at ``unknown`` cards over ``seq-rollout`` (``n`` playouts, rounds
    of 64, the indifference stop at 0.01) on ``base``; with ``nodes``, that node budget and the
    pruned fallback; with ``screen`` (S, K), the rollout's screen of S playouts keeping K;
    ``extra``: more rollout arguments (",early_n=256").  2,000 deals, not in ``run-all
    --cheap``."""
    rollout = f"seq-rollout:n={n},batch=64,stop=0.01,base={base}"
    if screen is not None:
        rollout += f",screen={screen[0]},keep={screen[1]}"
    rollout += extra
    config = {"base": rollout, "unknown": unknown}
    if nodes is not None:
        config.update(budget_nodes=nodes, fallback="pruned")
    return _honest(name, "endgame", 2_000, config, cost=cost, cheap=False)


def _bound(name, stop, deals=500, cost="", cheap=True):
    """An information-relaxation bound (onirim bound, docs/BOUND.md) on the deals where
    rollout n=256 plays until its view has at most 12 unknown cards; W = 0, with or without
    the exact stop at C unknown cards."""
    ex_budget = 20_000_000 if stop is not None else None
    cmd = ["onirim", "bound", "--policy", "rollout", "--policy-arg", "n=256", "--switch", "12"]
    if stop is not None:
        cmd += ["--stop", str(stop), "--ex-budget", str(ex_budget)]
    cmd += ["--deals", str(deals), "--seed", "0", "--json"]
    return Experiment(name, "bound", deals,
                      {"w": "zero", "stop": stop, "budget_nodes": 2_000_000,
                       "ex_budget": ex_budget, "policy": "rollout", "config": {"n": 256},
                       "policy_seed": 1, "switch": 12, "seed_first": 0},
                      cost, cheap, shlex.join(cmd))


def _best(name, deals, cost, budget_nodes=None, table_bits=None, control=False):
    """``onirim best``'s answer followed move by move (``benchmarks/best_player.py``, run by
    ``benchmarks/bench_best_player.py`` too:
    at every decision the view goes to ``solver.api.rank`` under ``--budget-nodes``; the
    proven best action is played, else the leader), or with ``control`` the default policy
    alone on ``best``'s stream; paired in docs/RESULTS.md with the default's and
    ``strongest``'s rows on the same deals.  Not in ``run-all --cheap``."""
    from benchmarks.best_player import params
    cmd = ["python", "-m", "benchmarks.bench_best_player"]
    cmd += ["--control"] if control else ["--budget-nodes", str(budget_nodes)]
    cmd += ["--table-bits", str(table_bits)] if table_bits is not None else []
    return Experiment(name, "best-player", deals,
                      params(budget_nodes, None, table_bits, control, deals), cost, False,
                      shlex.join(cmd + ["--deals", str(deals)]))


# The open game's rollout over plus2 (its default base until duo-open-learned-u9's rows), the
# base of every open row built on it
OPEN_P2_H24 = "duo-krollout:base=plus2,horizon=24,n=640,screen=80"
# the same rollout with four times its playouts (and its screen)
OPEN_P2_H24_2560 = "duo-krollout:base=plus2,horizon=24,n=2560,screen=320"
# the same rollout over the fitted plus2 (base learned): the open game's default base
# (solver.duo.rollout.OPEN_BASE; tests/solver/duo/test_duo_value.py keeps the default's
# experiment equal to it)
OPEN_LEARNED = "duo-krollout:base=learned,horizon=24,n=640,screen=80"
# the same with four times its playouts (and its screen)
OPEN_LEARNED_2560 = "duo-krollout:base=learned,horizon=24,n=2560,screen=320"
# the open default's rollout over the longer fit (base learned60, 60 iterations)
OPEN_LEARNED60 = "duo-krollout:base=learned60,horizon=24,n=640,screen=80"


def _open_switch(name, unknown, budget_nodes, cost, base=OPEN_P2_H24, policy_seed=1):
    """An open-game row of ``duo-open-switch`` on deals 0-1999: its exact window (``unknown``
    deck cards, ``budget_nodes``) over the rollout ``base``."""
    return _honest(name, "duo-open-switch", 2_000,
                   {"unknown": unknown, "budget_nodes": budget_nodes, "base": base},
                   players=2, talk="open", cost=cost, cheap=False, policy_seed=policy_seed)


def _kcut_switch(name, base, cost, policy_seed=1):
    """A silent-game row of the end-game rule ``duo-silent-switch`` at its defaults on deals
    0-1999 over the rollout ``base`` (``duo-kcut`` with its arguments)."""
    return _honest(name, "duo-silent-switch", 2_000, {"base": base}, players=2, cost=cost,
                   cheap=False, policy_seed=policy_seed)


def _both_defaults(tag, arg, open_cost, silent_seeds):
    """A rollout argument ``arg`` in both games' defaults of its time: the open game's 9-card
    window over learned (policy seeds 1 and 2) and the silent rule over duo-kcut (the seeds
    ``silent_seeds``), named duo-open-learned-u9-TAG and duo-silent-switch-kcut-TAG, -psK
    for seed K > 1."""
    def suffix(k):
        return "" if k == 1 else f"-ps{k}"
    return ([_open_switch(f"duo-open-learned-u9-{tag}{suffix(k)}", 9, 300_000, open_cost,
                          base=f"{OPEN_LEARNED},{arg}", policy_seed=k) for k in (1, 2)]
            + [_kcut_switch(f"duo-silent-switch-kcut-{tag}{suffix(k)}", f"duo-kcut:{arg}",
                            "about 12 CPU-minutes", policy_seed=k) for k in silent_seeds])


# The deals are always seeds 0 upwards (the same deals for every row).
EXPERIMENTS = {e.name: e for e in (
    _honest("greedy", "greedy", 10_000, cost="about 1 CPU-minute"),
    _honest("greedy-plus", "greedy-plus", 10_000, cost="about 1 CPU-minute"),
    _honest("rollout-n4", "rollout", 2_000, {"n": 4}, cost="about 2 CPU-minutes"),
    _honest("rollout-n16", "rollout", 2_000, {"n": 16}, cost="about 5 CPU-minutes"),
    _honest("rollout-n64", "rollout", 10_000, {"n": 64}, cost="about 40 CPU-minutes",
            cheap=False),
    _honest("rollout-n256", "rollout", 2_000, {"n": 256}, cost="about 25 CPU-minutes",
            cheap=False),
    _honest("rollout-n1024", "rollout", 2_000, {"n": 1024}, cost="about 45 CPU-minutes",
            cheap=False),
    # the strongest honest player (issue 29): the greedy-keep-doors base, the sequential
    # rollout over it (solver/policies/seq.py) at three playout caps, and the exact end-game
    # switch over it
    _honest("greedy-keep-doors", "greedy-keep-doors", 10_000, cost="about 1 CPU-minute"),
    _honest("seq-n256", "seq-rollout", 2_000, {"n": 256}, cost="about 3 CPU-minutes"),
    _honest("seq-n1024", "seq-rollout", 2_000, {"n": 1024}, cost="about 6 CPU-minutes"),
    _honest("seq-n4096", "seq-rollout", 2_000, {"n": 4096}, cost="about 20 CPU-minutes",
            cheap=False),
    _honest("seq-n16384", "seq-rollout", 2_000, {"n": 16384}, cost="about 2 CPU-hours",
            cheap=False),
    _honest("endgame-seq-n1024", "endgame", 2_000, {"base": "seq-rollout"},
            cost="about 15 CPU-minutes", cheap=False),
    # cheaper playouts (docs/POLICIES.md, "Cheaper playouts"): rounds of 64 and the
    # indifference stop at 0.01; the end-game switch over it at 8 unknown cards; the switch
    # over the larger seq-rollouts (run on deals 0-299 first, as seq-n4096 and seq-n16384)
    _honest("seq-n1024-stop", "seq-rollout", 2_000, {"n": 1024, "batch": 64, "stop": 0.01},
            cost="about 6 CPU-minutes"),
    _honest("endgame8-seq-n1024-stop", "endgame", 2_000,
            {"base": "seq-rollout:n=1024,batch=64,stop=0.01", "unknown": 8},
            cost="about 8 CPU-minutes", cheap=False),
    _honest("endgame-seq-n4096", "endgame", 2_000, {"base": "seq-rollout:n=4096"},
            cost="about 30 CPU-minutes", cheap=False),
    _honest("endgame-seq-n16384", "endgame", 2_000, {"base": "seq-rollout:n=16384"},
            cost="about 2 CPU-hours", cheap=False),
    # the level-2 leader at 12 unknown cards or fewer over seq-rollout n=4096
    # (solver/policies/late_l2.py)
    _honest("late-l2-seq-n4096", "late-l2", 2_000, {"base": "seq-rollout:n=4096"},
            cost="about 6 CPU-hours", cheap=False),
    # a looser indifference stop (docs/POLICIES.md, "A looser stop"): tuned in the kernel on
    # streams apart from these deals, then the same default with stop=0.05
    _honest("endgame8-seq-n1024-stop05", "endgame", 2_000,
            {"base": "seq-rollout:n=1024,batch=64,stop=0.05", "unknown": 8},
            cost="about 6 CPU-minutes", cheap=False),
    # the default's switch over seq-rollout n=128 on the learned base: the 5 ms candidate
    # (about 0.7 of the default's CPU per decision, side by side on deals from 10,000,000)
    _switch("endgame8-seq-n128-stop-learned", 128, 8, "about 8 CPU-minutes"),
    # ... and over n=768 on the learned base: the candidate for the default at 10 ms or
    # less (endgame8-seq-n1024-stop-learned costs about 12 ms)
    _switch("endgame8-seq-n768-stop-learned", 768, 8, "about 15 CPU-minutes"),
    # ... and over n=512: endgame8-seq-n768-stop-learned costs about 11 ms
    _switch("endgame8-seq-n512-stop-learned", 512, 8, "about 12 CPU-minutes"),
    # ... and over n=256: the next 5 ms candidate (0.81 of the default side by side)
    _switch("endgame8-seq-n256-stop-learned", 256, 8, "about 8 CPU-minutes"),
    # the screen (docs/POLICIES.md, "A screen for wide decisions"): 16 playouts per action
    # first, then only the 4 best and the base action go on; at n=512 it cost the same as
    # n=256 without it in the kernel (1,000 games on keys of their own): the 5 ms candidates,
    # and n=768 for the default at 10 ms
    _switch("endgame8-seq-n384-stop-learned-screen16", 384, 8, "about 7 CPU-minutes",
            screen=(16, 4)),
    _switch("endgame8-seq-n512-stop-learned-screen16", 512, 8, "about 8 CPU-minutes",
            screen=(16, 4)),
    _switch("endgame8-seq-n768-stop-learned-screen16", 768, 8, "about 11 CPU-minutes",
            screen=(16, 4)),
    # ... and over n=384 without a screen: between n=256 (84.25%) and n=768 (88.05%)
    _switch("endgame8-seq-n384-stop-learned", 384, 8, "about 10 CPU-minutes"),
    # a budget by deck size (docs/POLICIES.md, "A budget by deck size"): n=512, but 256
    # playouts per action while the deck holds 50 cards or more (early playouts are longest)
    _switch("endgame8-seq-n512-early256-stop-learned", 512, 8, "about 10 CPU-minutes",
            extra=",early_n=256,early_deck=50"),
    # the value function for the playouts' tails (docs/POLICIES.md, "A value function for the
    # playouts' tails"): every playout cut at 16 draws, the rest estimated; tuned in the kernel
    # on keys of their own (0xC0FFEE1234, 0xBEEF01): the 5 ms candidate (n=256), and n=1024;
    # then, as the kernel found longer horizons stronger at n=1024, a horizon of 32 draws
    _switch("endgame8-seq-n256-h16-stop-learned", 256, 8, "about 4 CPU-minutes",
            extra=",horizon=16"),
    _switch("endgame8-seq-n1024-h16-stop-learned", 1024, 8, "about 8 CPU-minutes",
            extra=",horizon=16"),
    _switch("endgame8-seq-n1024-h32-stop-learned", 1024, 8, "about 15 CPU-minutes",
            extra=",horizon=32"),
    # ... and `strongest`'s switch (12 unknown cards, 400,000 nodes, pruned) over n=4096
    # with the horizon at 32 draws: toward the 90% target
    _switch("endgame12p-seq-n4096-h32-stop-learned", 4096, 12, "about 45 CPU-minutes",
            nodes=400_000, extra=",horizon=32"),
    # ... and over n=4096: the frontier above 10 ms, toward the 90% target (issue 29)
    _switch("endgame8-seq-n4096-stop-learned", 4096, 8, "about 60 CPU-minutes"),
    # a wider exact end game over the strongest rollout (docs/POLICIES.md, "A wider exact end
    # game"): the switch at 10, 12 or 14 unknown cards, 400,000 nodes (14p2m: 2,000,000), the
    # pruned fallback (docs/REGRET.md section 5: the lowest late-position regret per CPU second
    # measured); 12p is the policy `strongest`; 12p over n=16384 for fourfold playouts
    # (costs: 12p and 14p from their rows, 1.36 and 1.73 s of CPU per deal; 10p and 14p2m
    # estimated from bench_cost's ratios to 12p, 0.75 and 3.5)
    _switch("endgame10p-seq-n4096-stop-learned", 4096, 10, "about 35 CPU-minutes",
            nodes=400_000),
    _switch("endgame12p-seq-n4096-stop-learned", 4096, 12, "about 45 CPU-minutes",
            nodes=400_000),
    _switch("endgame14p-seq-n4096-stop-learned", 4096, 14, "about 60 CPU-minutes",
            nodes=400_000),
    _switch("endgame14p2m-seq-n4096-stop-learned", 4096, 14, "about 3 CPU-hours",
            nodes=2_000_000),
    _switch("endgame12p-seq-n16384-stop-learned", 16384, 12, "about 60 CPU-minutes",
            nodes=400_000),
    # the learned base (docs/POLICIES.md, "A learned base policy"): alone, then as the base
    # of seq-rollout (paired with seq-n1024-stop) and of the end-game switch over it
    _honest("learned-base", "learned-base", 10_000, cost="about 2 CPU-minutes"),
    _honest("seq-n1024-stop-learned", "seq-rollout", 2_000,
            {"n": 1024, "batch": 64, "stop": 0.01, "base": "learned-base"},
            cost="about 10 CPU-minutes"),
    _honest("seq-n512-stop-learned", "seq-rollout", 2_000,
            {"n": 512, "batch": 64, "stop": 0.01, "base": "learned-base"},
            cost="about 6 CPU-minutes"),
    _switch("endgame8-seq-n1024-stop-learned", 1024, 8, "about 12 CPU-minutes"),
    # the second learned base (docs/POLICIES.md, "A second learned base: the other phases"):
    # alone, and as the base of the switch over seq-rollout n=768
    _honest("learned-base-2", "learned-base-2", 10_000, cost="about 2 CPU-minutes"),
    _switch("endgame8-seq-n768-stop-learned2", 768, 8, "about 15 CPU-minutes",
            base="learned-base-2"),
    # information-set MCTS with chance nodes (solver/policies/ismcts.py; docs/POLICIES.md,
    # "Information-set search"): at about seq-n1024-stop's CPU per decision and at 4x that;
    # c, prior and cp as tuned in-kernel on keys of their own (10,000,003)
    _honest("ismcts-i2000", "ismcts", 2_000, {"iters": 2000, "c": 1.0, "prior": 0.95, "cp": 2.0},
            cost="about 8 CPU-minutes"),
    _honest("ismcts-i8000", "ismcts", 2_000, {"iters": 8000, "c": 1.0, "prior": 0.95, "cp": 2.0},
            cost="about 35 CPU-minutes", cheap=False),
    _honest("duo-greedy", "greedy", 2_000, players=2, cost="about 1 CPU-minute"),
    _honest("duo-greedy-plus", "duo-greedy-plus", 2_000, players=2, cost="about 1 CPU-minute"),
    _honest("duo-rollout", "duo-rollout", 2_000, players=2,
            cost="about 2 CPU-hours (pure Python)", cheap=False),
    # the two-player rollout in numba (solver/duo/rollout.py): a ladder over n, the screen
    # an eighth of the playouts
    _honest("duo-k8", "duo-krollout", 2_000, {"n": 8, "screen": 1}, players=2,
            cost="about 2 CPU-minutes"),
    _honest("duo-k32", "duo-krollout", 2_000, {"n": 32, "screen": 4}, players=2,
            cost="about 4 CPU-minutes"),
    _honest("duo-k128", "duo-krollout", 2_000, {"n": 128, "screen": 16}, players=2,
            cost="about 12 CPU-minutes", cheap=False),
    # (costs from the stored rows: k512 931 s of CPU for 2,000 deals; k2048 363 s for 241
    # deals at 29.5 ms per decision, and 25.1 ms per decision at 962136b on deals 0-5)
    _honest("duo-k512", "duo-krollout", 2_000, {"n": 512, "screen": 64}, players=2,
            cost="about 15 CPU-minutes", cheap=False),
    _honest("duo-k2048", "duo-krollout", 2_000, {"n": 2048, "screen": 256}, players=2,
            cost="about 45 CPU-minutes", cheap=False),
    # the base plus2 (solver/duo/info_greedy.py: greedy-plus with the partner's public
    # needs) alone, and the rollout over it at n=192, the silent game's default
    # (duo-krollout2; docs/DUO_BASES.md, "A stronger base: plus2"); cost of the rollout from deals
    # 0-599 (about 7.5 ms of CPU per decision, 48 decisions per deal)
    _honest("duo-plus2", "duo-plus2", 2_000, players=2, cost="about 1 CPU-minute"),
    _honest("duo-k2-192", "duo-krollout2", 2_000, players=2, cost="about 15 CPU-minutes",
            cheap=False),
    # the silent game's end-game rule (solver/duo/silent_switch.py, a heuristic): duo-krollout2,
    # but at <= 6 unknown deck cards and <= 8 possible partner hands the open-hands value
    # averaged over those hands (20,000 nodes a hand; an unfinished hand plays the base; margin
    # 0.05); paired against duo-k2-192's rows on deals 0-599: 7 deals gained, 0 lost; side by
    # side with duo-krollout2 on deals 0-149, 1.13 times its CPU per decision (11.7 against
    # 10.4 ms under load; docs/DUO.md); cost estimated from those deals
    _honest("duo-silent-switch", "duo-silent-switch", 2_000,
            {"unknown": 6, "worlds": 8, "budget_nodes": 20_000, "fallback": "base",
             "margin": 0.05}, players=2, cost="about 15 CPU-minutes", cheap=False),
    # the same rule with the hands' loop stopping once the decision is known (prune, the
    # default since; exact: the same decisions, so the same games as duo-silent-switch):
    # side by side with duo-krollout2 on deals 0-599, 1.051 times its CPU per decision (7.93
    # against 7.55 ms; unpruned 1.11 on deals 0-449; docs/DUO.md, "Where its CPU
    # goes"); cost estimated from those deals
    _honest("duo-silent-switch10", "duo-silent-switch", 2_000,
            {"unknown": 6, "worlds": 8, "budget_nodes": 20_000, "fallback": "base",
             "margin": 0.05, "prune": True}, players=2, cost="about 15 CPU-minutes",
            cheap=False),
    # the same rollout at n=1024 (screen 128): the silent game's rung at <= 50 ms; 41 ms of
    # CPU per decision and 238 of 300 on deals 0-299 (onirim winrate --mode honest --players 2
    # --policy duo-krollout2 --policy-arg n=1024 --policy-arg screen=128 --deals 300)
    _honest("duo-k2-1024", "duo-krollout2", 2_000, {"n": 1024, "screen": 128}, players=2,
            cost="about 65 CPU-minutes", cheap=False),
    # duo-krollout2 with the value function's cut at 24 draws (docs/DUO_BASES.md, "A value
    # function for the two-player playouts' tails"), n=384, screen 48: on deals 0-599 494 of
    # 600 against duo-k2-192's 452 (119 deals gained, 77 lost, +7.00 +- 4.54 points); side by
    # side on deals 600-639 the same CPU per decision as duo-krollout2 (ratio 1.00); out of
    # sample (deals 600-899) 248 of 300 against duo-k2-192's 213
    _honest("duo-k2-h24-384", "duo-krollout2", 2_000,
            {"horizon": 24, "n": 384, "screen": 48}, players=2,
            cost="about 15 CPU-minutes", cheap=False),
    # the silent game's end-game rule over the default duo-kcut: side by side with duo-kcut on
    # deals 0-598 (python -m benchmarks.side_by_side run OUT 0 599 kcut=duo-kcut
    # sw=duo-silent-switch:base=duo-kcut; one process, alternated deal by deal): 500 won
    # against 494 (7 / 1), 1.054 times its CPU per decision (7.63 against 7.24 ms); duo-kcut's
    # deals there matched duo-k2-h24-384's rows
    _kcut_switch("duo-silent-switch-kcut", "duo-kcut", "about 12 CPU-minutes"),
    # the same rule over duo-kcut with four times its playouts (n=1536, screen 192): on
    # held-out deals 2000-2399 (python -m benchmarks.side_by_side run OUT 2000 2400
    # base=duo-kcut-switch big=duo-silent-switch:base=duo-kcut:n=1536,screen=192) 344 of 400
    # against the default's 321 (61 deals gained, 38 lost) at 30.4 ms of CPU per decision
    _kcut_switch("duo-silent-switch-kcut-1536", "duo-kcut:n=1536,screen=192",
                 "about 50 CPU-minutes"),
    # the silent game's default again with policy seed 2: its random streams alone, the
    # noise that any paired comparison of two rows is read against (python -m
    # benchmarks.experiments compare duo-silent-switch-kcut duo-silent-switch-kcut-ps2)
    _kcut_switch("duo-silent-switch-kcut-ps2", "duo-kcut", "about 12 CPU-minutes",
                 policy_seed=2),
    # ... and with policy seeds 3 to 8: the spread of one policy's rate over its seeds on the
    # same deals (python -m benchmarks.experiments spread duo-silent-switch-kcut
    # duo-silent-switch-kcut-ps2 ...; docs/DUO_LEVERS.md, "How far apart two policy seeds lie").
    # Deals 0-1999 at 31dac0e (two clean trees each, merged; an Intel Xeon): seeds 1-8 won
    # 1,648, 1,660, 1,620, 1,645, 1,653, 1,594, 1,633, 1,616, mean 81.68%, standard deviation
    # 1.11 points against 0.83 for independent deals (p = 0.085)
    *(_kcut_switch(f"duo-silent-switch-kcut-ps{k}", "duo-kcut", "about 12 CPU-minutes",
                   policy_seed=k) for k in range(3, 9)),
    # the open game (--talk open: the partner's hand known): the same rollout, and the open
    # game's default, its end-game switch to the exact open-hands search (solver/duo/
    # open_switch.py) at 8 unknown deck cards under 100,000 nodes; costs estimated from the
    # first 600 deals of each (7.4 and 12.2 ms of CPU per decision)
    _honest("duo-k512-open", "duo-krollout", 2_000, {"n": 512, "screen": 64}, players=2,
            talk="open", cost="about 15 CPU-minutes", cheap=False),
    _open_switch("duo-open-switch", 8, 100_000, "about 25 CPU-minutes", base="duo-krollout"),
    # the open game's default since the team base (solver/duo/team_greedy.py): the same
    # switch over duo-krollout n=512 whose playouts read both hands (base=team); cost
    # estimated from deals 0-599
    _open_switch("duo-open-team", 8, 100_000, "about 35 CPU-minutes",
                 base="duo-krollout:base=team"),
    # the candidate for the open game's default: the same switch over duo-krollout on plus2
    # at n=320 (screen 40), +4.17 points paired against duo-open-team on deals 0-599 at 19.5 ms
    # of CPU per decision (docs/DUO_BASES.md); cost estimated from those deals
    _open_switch("duo-open-plus2", 8, 100_000, "about 35 CPU-minutes",
                 base="duo-krollout:base=plus2,n=320,screen=40"),
    # the same switch over the rollout on plus2 with the value function's cut at 24 draws
    # (solver/duo/value.py; docs/DUO_BASES.md, "A value function for the two-player playouts'
    # tails"), n=640, screen 80: on deals 0-599 526 of 600 against duo-open-team's 482 (104
    # deals gained, 60 lost, +7.33 +- 4.14 points); side by side on deals 600-639, 1.14 times
    # duo-open-team's CPU per decision; cost estimated from that ratio; out of sample (deals
    # 600-899) 253 of 300 against duo-open-team's 249 and duo-open-plus2's 254
    _open_switch("duo-open-p2-h24", 8, 100_000, "about 40 CPU-minutes"),
    # the open game's default again with policy seed 2: the noise of its random streams alone
    # (python -m benchmarks.experiments compare duo-open-p2-h24 duo-open-p2-h24-ps2); its
    # seed-1 rows took 15 CPU-minutes at 8360bc4.  Deals 0-1999 at b961875: 1,690 won against
    # seed 1's 1,720, 204 / 234 (-1.50 points, standard error 1.05), 9.82 ms per decision
    _open_switch("duo-open-p2-h24-ps2", 8, 100_000, "about 15 CPU-minutes", policy_seed=2),
    # the open game's default with four times its playouts (n=2560, screen 320); its rows,
    # first made at 3bc2766 (79.7 CPU-minutes), were run again at eae967b: the same games at
    # 34.61 ms of CPU per decision against 51.50
    _open_switch("duo-open-p2-h24-2560", 8, 100_000, "about 80 CPU-minutes",
                 base=OPEN_P2_H24_2560),
    # the open game's default with a wider exact window: the switch to the exact open-hands
    # search from 10 unknown deck cards under 1,000,000 nodes (8 and 100,000 in the default);
    # on deals 0-19 16 won against the default's 17 at 27.8 ms of CPU per decision against
    # its 13.1 (one process each, not side by side); deals 0-1999 at 8360bc4: 1,741 won, 29
    # deals gained and 8 lost against the default's rows (+1.05 points, standard error 0.30)
    # at 33.95 ms (python -m benchmarks.experiments compare duo-open-p2-h24
    # duo-open-p2-h24-u10)
    _open_switch("duo-open-p2-h24-u10", 10, 1_000_000, "about 80 CPU-minutes"),
    # a narrower exact window within the open game's 20 ms: the switch from 9 unknown deck
    # cards under 300,000 nodes, with policy seeds 1 and 2 (the default's seed noise is
    # +-1.05 points, experiment duo-open-p2-h24-ps2); cost estimated from the default's and
    # duo-open-p2-h24-u10's rows.  Deals 0-1999 at e257004: 1,731 (seed 1) and 1,702 (seed 2)
    # at 15.53 and 15.31 ms per decision; paired against the default of the same seed 16 / 5
    # (+0.55, standard error 0.23) and 15 / 3 (+0.60, 0.21); the open game's default since
    # 87a1480 (papers.rowdata.OPEN_DEFAULT)
    _open_switch("duo-open-p2-h24-u9", 9, 300_000, "about 25 CPU-minutes"),
    _open_switch("duo-open-p2-h24-u9-ps2", 9, 300_000, "about 25 CPU-minutes", policy_seed=2),
    # both of the open game's measured gains at once: four times the playouts (n=2560, screen
    # 320) and the wider exact window (10 unknown deck cards, 1,000,000 nodes); do they add?
    # Deals 0-1999 at eae967b: 1,758 won at 58.25 ms of CPU per decision (90 CPU-minutes);
    # paired 32 gained / 13 lost against duo-open-p2-h24-2560 (+0.95, standard error 0.33),
    # 220 / 182 against the default (+1.90, 1.00): the two gains add
    _open_switch("duo-open-p2-h24-2560-u10", 10, 1_000_000, "about 90 CPU-minutes",
                 base=OPEN_P2_H24_2560),
    # the fitted plus2 (base learned, solver/duo/learned_weights.py; docs/DUO_BASES.md, "A
    # fitted plus2") under both games' defaults: on held-out deals 2000-2399 the silent
    # default's rollout over it won 321 against 315, the open default (8-card window) over it
    # 358 against 348, neither significant on 400 deals; cost estimated from the defaults' rows.
    # Deals 0-1999, seeds 1 and 2: silent 1,667 and 1,611 against the default's 1,648 and 1,660
    # (no gain); open 1,751 and 1,749 against the 9-card window over plus2's 1,731 and 1,702
    # (+1.00 and +2.35, standard errors 1.02) at 14.0 ms: the open game's default since
    # a0b518b (solver.duo.rollout.OPEN_BASE, papers.rowdata.OPEN_DEFAULT)
    _kcut_switch("duo-silent-switch-kcut-learned", "duo-kcut:base=learned",
                 "about 12 CPU-minutes"),
    _kcut_switch("duo-silent-switch-kcut-learned-ps2", "duo-kcut:base=learned",
                 "about 12 CPU-minutes", policy_seed=2),
    _open_switch("duo-open-learned-u9", 9, 300_000, "about 25 CPU-minutes", base=OPEN_LEARNED),
    _open_switch("duo-open-learned-u9-ps2", 9, 300_000, "about 25 CPU-minutes",
                 base=OPEN_LEARNED, policy_seed=2),
    # the open game's three measured gains at once, toward its moonshot (91%): the fitted base,
    # four times the playouts (n=2560, screen 320) and the wider exact window (10 unknown deck
    # cards, 1,000,000 nodes); cost from duo-open-p2-h24-2560-u10's rows.  Deals 0-1999 at
    # 229e137 (two clean trees, merged; an Intel Xeon, the rows before it an AMD EPYC): 1,764
    # won at 57.19 ms of CPU per decision; paired 185 / 179 against duo-open-p2-h24-2560-u10
    # (+0.30, standard error 0.95), 206 / 193 against the default duo-open-learned-u9 (+0.65,
    # 1.00): the fitted base adds nothing measurable over the other two gains.  Seed 2 at
    # 79d2728: 1,754 at 57.51 ms, 199 / 194 against the default's seed 2 (+0.25, 0.99); over
    # both seeds 87.95% against the default's 87.50%
    _open_switch("duo-open-learned-2560-u10", 10, 1_000_000, "about 90 CPU-minutes",
                 base=OPEN_LEARNED_2560),
    _open_switch("duo-open-learned-2560-u10-ps2", 10, 1_000_000, "about 90 CPU-minutes",
                 base=OPEN_LEARNED_2560, policy_seed=2),
    # the longer fit (base learned60, solver/duo/learned60_weights.py; docs/DUO_BASES.md, "A
    # longer fit") in both games' defaults, two policy seeds each, paired with the same
    # policies over learned (open) and plus2 (silent); costs from those rows.  Deals 0-1999 at
    # 98f4845 (two clean trees each, merged; an Intel Xeon): open 1,749 and 1,751 against
    # learned's 1,751 and 1,749 (-0.10 and +0.10, standard errors 0.90 and 0.94) at 14.5 ms;
    # silent 1,657 and 1,665 against the default's 1,648 and 1,660 (+0.45 and +0.25, 1.15 and
    # 1.13) at 5.8 ms: no gain in either game, neither default changes
    _open_switch("duo-open-learned60-u9", 9, 300_000, "about 25 CPU-minutes",
                 base=OPEN_LEARNED60),
    _open_switch("duo-open-learned60-u9-ps2", 9, 300_000, "about 25 CPU-minutes",
                 base=OPEN_LEARNED60, policy_seed=2),
    _kcut_switch("duo-silent-switch-kcut-learned60", "duo-kcut:base=learned60",
                 "about 12 CPU-minutes"),
    _kcut_switch("duo-silent-switch-kcut-learned60-ps2", "duo-kcut:base=learned60",
                 "about 12 CPU-minutes", policy_seed=2),
    # the late game scored by win: both games' defaults with win_from=40 on their rollout (at
    # a decision with at most 40 deck cards every playout is played to the end and scored 1/0
    # instead of by Doors and the cut; docs/DUO_LEVERS.md, "The win reward in the late game"),
    # two policy seeds each; costs from the defaults' rows.  Deals 0-1999 at c8442f6 (two clean
    # trees each, merged; an Intel Xeon): open 1,767 and 1,757 against the default's 1,751 and
    # 1,749 (+0.80 and +0.40, standard errors 0.87 and 0.88) at 16.2 ms; silent 1,613 and 1,689
    # against 1,648 and 1,660 (-1.75 and +1.45, 1.05 and 0.98) at 6.7 ms: neither default changes
    # (the silent line's seeds 3 and 4: its two seeds lie 3.8 points apart, variance ratio
    # 10.8 in python -m benchmarks.experiments spread, so two more, to see whether it spreads
    # more than the default over its seeds.  At 81fee20: 1,661 and 1,645, four seeds'
    # mean 82.60% against the default's 82.16% on its seeds 1-4; standard deviation 1.59
    # points against 0.83, p = 0.011)
    *_both_defaults("win40", "win_from=40", "about 27 CPU-minutes", (1, 2, 3, 4)),
    # every order of a prophecy's cards: the open game's default with orders=all on its
    # rollout (at a prophecy every distinct outcome is a candidate, where the default tries
    # one order per discarded card; docs/DUO_LEVERS.md, "Every order of a prophecy's cards"),
    # both games' defaults since, seeds 1 and 2, and the silent line's seeds 3-6 beside the old
    # default's seeds 1-8 (python -m benchmarks.experiments spread); costs from the defaults'
    # rows.  Deals 0-1999 at 69c1d54 (seeds 3-6 at cfe0204; two clean trees each, merged; an
    # AMD EPYC): open 1,796 and 1,780 (+2.25 and +1.55, standard errors 0.62 and 0.65),
    # silent 1,684 and 1,709 (+1.80 and +2.45, 0.71) against the old defaults of each seed
    *_both_defaults("orders", "orders=all", "about 26 CPU-minutes", (1, 2, 3, 4, 5, 6)),
    # onirim best's answer followed move by move (benchmarks/bench_best_player.py): under a
    # node budget of 20 (the default policy's leader wherever the exact search proves
    # nothing), its control (the default alone on best's stream), and under 400,000 nodes
    # (strongest's step, and late-l2's level-2 leader at 12 unknown cards or fewer); costs
    # from the stored rows: 549 s and 89 s of CPU for 500 deals, 400,000 measured on its
    # first deals
    _best("best-nodes-20", 500, "about 10 CPU-minutes", budget_nodes=20, table_bits=16),
    _best("best-control", 500, "about 2 CPU-minutes", control=True),
    _best("best-nodes-400000", 500, "about 12 CPU-hours", budget_nodes=400_000,
          table_bits=18),
    # the ceiling (issue 31): what any player that plays rollout n=256 until 12 unknown cards
    # can reach from there, with and without the exact stop at 8 unknown cards
    _bound("bound-switch12", None, cost="about 2 CPU-minutes"),
    _bound("bound-switch12-stop8", 8, cost="about 8 CPU-minutes"),
    Experiment("clairvoyant", "clairvoyant", 100_000,
               {"budget_nodes": 20_000_000, "tt_mb": None, "seed_first": 0},
               "about 7 CPU-minutes", True,
               "onirim winrate --mode clairvoyant --deals 100000 --seed 0 --json"),
    # the two-player clairvoyant team (issue 28: was a summary file of an older commit): a
    # first pass at 4,000,000 nodes per deal, and a deal it leaves undecided solved again at
    # 40,000,000 in the same row (``retried``); every WIN line is replayed in engine/
    Experiment("duo-clairvoyant", "duo-clairvoyant", 10_000,
               {"budget_nodes": 4_000_000, "retry_budget": 40_000_000, "tt_mb": None,
                "players": 2, "seed_first": 0},
               "about 15 CPU-minutes", True,
               "onirim winrate --mode clairvoyant --players 2 --deals 10000 --seed 0 "
               "--budget-nodes 4000000 --json (no retry pass)"),
    Experiment("diff-kernel", "diff-kernel", 20, {"steps_per_chunk": 50_000},
               "about 1 CPU-minute per 50,000 steps", True,
               "python -m benchmarks.diff_kernel --steps 1000000"),    # the counts of the rule verification (issue 28): each check of benchmarks/
    # rule_verification.py run for real, one row per check ("seed" is the check's index;
    # the long differential run is 20 checks, the 20 jobs of diff_kernel --jobs 20)
    Experiment("rule-verification", "rule-verification", len(_RV.CHECKS),
               {"checks": [c.name for c in _RV.CHECKS]},
               "about 45 CPU-minutes (the 10,000,000-step differential about 35)", False,
               "python -m benchmarks.rule_verification list (the command of each check)"),
)}


def git_state() -> tuple[str, bool]:
    """(short commit, whether the tree is clean apart from benchmarks/results/)."""
    try:
        c = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                           capture_output=True, text=True, timeout=5).stdout.strip()
        st = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                            capture_output=True, text=True, timeout=5).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "unknown", False
    dirty = [line for line in st if "benchmarks/results/" not in line]
    return c or "unknown", not dirty


def machine() -> dict:
    from benchmarks.harness import machine_info
    m = machine_info()
    m.pop("commit", None)
    m.pop("date", None)
    return m


def _load() -> float:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return -1.0


class _BoundWorker:
    """One deal of ``onirim bound`` at a time (solver/bound/run.py), kernels and policy made
    before the first deal."""

    def __init__(self, params):
        from solver.bound import run as bound_run
        self.R = bound_run
        self.config = bound_run.make_config(params["w"], params["stop"], params["budget_nodes"],
                                    params["ex_budget"], params["policy"], params["config"],
                                    params["policy_seed"], params["switch"])
        bound_run.warm_up(self.config)

    def play(self, seed: int) -> dict:
        return self.R.bound_deal(self.config, seed)


def _worker(e: Experiment):
    """The warmed-up player of ``e``'s rows; None for the kinds that play no deal through a
    worker (diff-kernel, rule-verification)."""
    if e.kind in ("diff-kernel", "rule-verification"):
        return None
    from solver.runs import runner as runner
    p = e.params
    if e.kind == "bound":
        return _BoundWorker(p)
    if e.kind == "best-player":
        from benchmarks.best_player import make_player
        return make_player(p)
    if e.kind == "honest":
        job = runner.honest_job(p["policy"], p["config"], p["players"], p["policy_seed"],
                                talk=p.get("talk", "none"))
    elif e.kind == "duo-clairvoyant":
        from solver.duo import search as DS
        job = runner.clairvoyant_job(p["budget_nodes"], None, p["tt_mb"] or DS.DEFAULT_TT_MB,
                                     players=2)
    else:
        from solver.clairvoyant import solve as CV
        job = runner.clairvoyant_job(p["budget_nodes"], None, p["tt_mb"] or CV.DEFAULT_TT_MB)
    return runner.get_worker(job)       # made and warmed up: no compile in any row


def _play(e: Experiment, w, seed: int) -> dict:
    if e.kind == "honest":
        r = w.play(seed)
        return {"seed": seed, "won": r["won"], "doors": r["doors"],
                "decisions": r["decisions"]}
    if e.kind == "best-player":
        from benchmarks.best_player import play_deal
        return play_deal(w, seed)
    if e.kind == "bound":
        r = w.play(seed)
        return {"seed": seed, **{k: r[k] for k in (
            "value", "finished", "inexact", "nodes", "stops", "policy_won",
            "switch_decision", "unknown_at_start", "decided_before_switch")}}
    if e.kind == "clairvoyant":
        r = w.play(seed)        # a WIN line is replayed in engine/ by the solver
        return {"seed": seed, "result": r["result"], "nodes": r["nodes"]}
    if e.kind == "duo-clairvoyant":
        r = w.play(seed)        # a WIN line is replayed in engine/ by the worker
        retried = r["result"] == "UNKNOWN"
        if retried:             # the same deal again at the retry budget, same worker
            w.job["budget_nodes"] = e.params["retry_budget"]
            try:
                r = w.play(seed)
            finally:
                w.job["budget_nodes"] = e.params["budget_nodes"]
        return {"seed": seed, "result": r["result"], "nodes": r["nodes"], "retried": retried}
    if e.kind == "rule-verification":
        from benchmarks.rule_verification import play
        return play(seed)
    from benchmarks.diff_kernel import check_steps
    steps = e.params["steps_per_chunk"]
    r = check_steps((steps, seed * 10**9))
    if not r["ok"]:
        raise SystemExit(f"diff-kernel: kernel and engine DISAGREE in chunk {seed}: {r}")
    return {"seed": seed, "steps": r["steps"], "games": r["games"], "agree": True}


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/K"`` -> (I, K) with 0 <= I < K; ValueError otherwise."""
    try:
        i, k = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard {text!r}: expected I/K, e.g. 0/2") from None
    if not 0 <= i < k:
        raise ValueError(f"--shard {text!r}: I must be at least 0 and less than K")
    return i, k


def run(name: str, deals: int | None = None, limit_s: float | None = None,
        directory=None, quiet: bool = False, shard: tuple[int, int] | None = None) -> int:
    """Play the experiment's missing deals (up to ``deals``; with ``shard`` (I, K) only the
    seeds equal to I modulo K); returns rows written."""
    e = EXPERIMENTS[name]
    n = e.deals if deals is None else min(deals, e.deals)
    commit, clean = git_state()
    argv = ["python", "-m", "benchmarks.experiments", "run", name]
    if deals:
        argv += ["--deals", str(deals)]
    if shard:
        argv += ["--shard", f"{shard[0]}/{shard[1]}"]
    header = {"command": shlex.join(argv),
              "equivalent": e.command, "commit": commit, "clean_tree": clean,
              "machine": machine(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
              "params": {**e.params, "deals": e.deals, "kind": e.kind},
              "timing": "cpu_s: CPU time of this process (time.process_time) over the deal; "
                        "wall_s: wall time over the same span; load: 1-minute load average "
                        "at its end; one process, one core; compile time excluded"}
    written = 0
    with RowWriter(name, header, directory) as out:
        todo = [s for s in range(n) if s not in out.done
                and (shard is None or s % shard[1] == shard[0])]
        if not todo:
            return 0
        w = _worker(e)
        if e.kind == "diff-kernel":     # compile the kernel before the first timed chunk
            from benchmarks.diff_kernel import check_steps
            check_steps((200, 999 * 10**9))
        t_start = time.perf_counter()
        bar = None
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm
            bar = tqdm(total=len(todo), unit="deal", file=sys.stderr)
        for s in todo:
            c0, t0 = time.process_time(), time.perf_counter()
            row = _play(e, w, s)
            row["cpu_s"] = round(time.process_time() - c0, 6)
            row["wall_s"] = round(time.perf_counter() - t0, 6)
            row["load"] = _load()
            out.add(row)
            written += 1
            if bar is not None:
                bar.update(1)
            if limit_s is not None and time.perf_counter() - t_start > limit_s:
                break
        if bar is not None:
            bar.close()
    return written


TIMING_FIELDS = ("cpu_s", "wall_s", "load", "r", "run")


def check(name: str, deals: int = 20, every: int = 1, directory=None, say=print) -> dict:
    """Replay the stored seeds 0, every, 2*every, ... (the first ``deals`` of them that are
    stored) of experiment ``name`` with this tree's code; compare each result with its row.
    {"checked", "same", "differ": [(seed, stored, now), ...], "commits"}."""
    e = EXPERIMENTS[name]
    stored = {r["seed"]: r for r in read(name, directory)}
    seeds = [s for s in range(0, e.deals, max(1, every)) if s in stored][:max(0, deals)]
    out = {"checked": 0, "same": 0, "differ": [],
           "commits": sorted({stored[s]["run"].get("commit", "?") for s in seeds})}
    if not seeds:
        return out
    w = _worker(e)
    for s in seeds:
        now = _play(e, w, s)
        want = {k: v for k, v in stored[s].items() if k not in TIMING_FIELDS}
        got = {k: v for k, v in now.items() if k not in TIMING_FIELDS}
        out["checked"] += 1
        if got == want:
            out["same"] += 1
        else:
            out["differ"].append((s, want, got))
            say(f"{name}: seed {s}: stored {want}, now {got}")
    return out


def compare(a: str, b: str, directory=None) -> dict:
    """Experiments ``a`` and ``b`` paired deal by deal on the seeds both have stored: each
    one's wins, the deals only ``b`` won (``gained``) and only ``a`` won (``lost``), and the
    difference of the win rates (``b`` - ``a``) with its standard error, from the paired
    differences d = won_b - won_a (-1, 0 or 1): se = sqrt((mean(d^2) - mean(d)^2) / n)."""
    ra, rb = (by_seed(read(x, directory)) for x in (a, b))
    seeds = sorted(set(ra) & set(rb))
    n = len(seeds)
    wa = sum(bool(ra[s]["won"]) for s in seeds)
    wb = sum(bool(rb[s]["won"]) for s in seeds)
    gained = sum(bool(rb[s]["won"]) and not ra[s]["won"] for s in seeds)
    lost = sum(bool(ra[s]["won"]) and not rb[s]["won"] for s in seeds)
    diff = (gained - lost) / n if n else 0.0
    se = math.sqrt(max(0.0, (gained + lost) / n - diff * diff) / n) if n else 0.0

    def ms(r):      # CPU per decision over the same seeds, and the commits of the rows
        dec = sum(r[s]["decisions"] for s in seeds)
        return (1000 * sum(r[s]["cpu_s"] for s in seeds) / dec if dec else None,
                sorted({r[s]["run"].get("commit", "?") for s in seeds}))
    (ms_a, commits_a), (ms_b, commits_b) = ms(ra), ms(rb)
    return {"a": a, "b": b, "deals": n, "wins_a": wa, "wins_b": wb, "gained": gained,
            "lost": lost, "diff": diff, "se": se, "ms_a": ms_a, "ms_b": ms_b,
            "commits_a": commits_a, "commits_b": commits_b}


def _chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom (the regularized upper
    incomplete gamma function Q(df/2, x/2), by its series)."""
    a, h = df / 2.0, x / 2.0
    if h <= 0.0:
        return 1.0
    term = total = 1.0 / a
    k = 0
    while term > 1e-16 * total and k < 10_000:
        k += 1
        term *= h / (a + k)
        total += term
    return max(0.0, 1.0 - total * math.exp(-h + a * math.log(h) - math.lgamma(a)))


def spread(names: list[str], directory=None) -> dict:
    """How far apart the win rates of ``names`` (one policy under several policy seeds, say)
    lie on the deals all of them stored, against how far apart they would lie if the seeds
    changed each deal's game independently of the other deals'.

    With k experiments and n deals, deal d won by w_d of them, p_d = w_d / k: under that
    independence each rate's variance is sum_d p_d (1 - p_d) / n^2, estimated without bias by
    ``expected_var`` = sum_d k / (k - 1) p_d (1 - p_d) / n^2; ``observed_var`` is the sample
    variance of the k rates (k - 1 in the denominator).  ``ratio`` = observed / expected, and
    ``p_value`` = P(chi-square with k - 1 degrees of freedom > (k - 1) ratio), the chance of a
    spread this wide under independence (the normal approximation of a rate over many deals).
    A policy seed that gives every deal's i-th decision the same random stream
    (``solver.honest.play.decision_stream``) can move all deals one way at once: a ratio
    above 1."""
    if len(names) < 2:
        raise ValueError("spread needs at least two experiments")
    rows = [by_seed(read(x, directory)) for x in names]
    seeds = sorted(set.intersection(*(set(r) for r in rows)))
    n, k = len(seeds), len(names)
    if not n:
        raise ValueError(f"{', '.join(names)} have no stored deal in common")
    wins = [sum(bool(r[s]["won"]) for s in seeds) for r in rows]
    rates = [w / n for w in wins]
    mean = sum(rates) / k
    observed = sum((r - mean) ** 2 for r in rates) / (k - 1)
    expected = 0.0
    for s in seeds:
        p = sum(bool(r[s]["won"]) for r in rows) / k
        expected += k / (k - 1) * p * (1 - p)
    expected /= n * n
    # no deal that some won and some lost: the rows agree deal by deal, both variances are 0,
    # and there is no ratio to test (None)
    ratio = observed / expected if expected > 0 else None
    return {"names": list(names), "deals": n, "wins": wins, "rates": rates, "mean": mean,
            "observed_sd": math.sqrt(observed), "expected_sd": math.sqrt(expected),
            "ratio": ratio,
            "p_value": None if ratio is None else _chi2_sf((k - 1) * ratio, k - 1)}


def status(directory=None) -> list[tuple[str, int, int]]:
    out = []
    for name, e in EXPERIMENTS.items():
        p = path_of(name, directory)
        have = len({r["seed"] for r in read(p)}) if p.exists() else 0
        out.append((name, have, e.deals))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.experiments",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="every experiment, its cost and the rows stored")
    r = sub.add_parser("run", help="play one experiment's missing deals (resumes)")
    r.add_argument("name", choices=sorted(EXPERIMENTS))
    r.add_argument("--deals", type=int, default=None, help="stop at this many deals")
    r.add_argument("--limit-s", type=float, default=None, help="stop after this wall time")
    r.add_argument("--shard", default=None, metavar="I/K",
                   help="only the seeds equal to I modulo K (merge with benchmarks.rows merge)")
    a_ = sub.add_parser("run-all", help="every experiment in turn (resumes)")
    a_.add_argument("--cheap", action="store_true", help="only the cheap ones")
    c = sub.add_parser("check", help="replay stored deals with this tree's code and compare "
                                     "their results with the rows (writes nothing)")
    c.add_argument("name", choices=sorted(EXPERIMENTS))
    c.add_argument("--deals", type=int, default=20, help="how many stored deals (default 20)")
    c.add_argument("--every", type=int, default=1,
                   help="check the seeds 0, K, 2K, ... (default 1: the first ones)")
    m = sub.add_parser("compare", help="two experiments' stored rows paired deal by deal")
    m.add_argument("a", choices=sorted(EXPERIMENTS))
    m.add_argument("b", choices=sorted(EXPERIMENTS))
    m.add_argument("--json", action="store_true", help="one JSON object")
    sp = sub.add_parser("spread", help="several experiments' rates (one policy under several "
                                       "policy seeds) against the spread of independent deals")
    sp.add_argument("names", nargs="+", choices=sorted(EXPERIMENTS), metavar="NAME")
    sp.add_argument("--json", action="store_true", help="one JSON object")
    a = ap.parse_args(argv)
    if a.cmd == "spread":
        try:
            r = spread(a.names)
        except (FileNotFoundError, ValueError) as err:
            print(f"experiments: error: {err}", file=sys.stderr)
            return 2
        if a.json:
            print(json.dumps(r))
            return 0
        for name, w in zip(r["names"], r["wins"]):
            print(f"{name}: {w} of {r['deals']} ({100 * w / r['deals']:.2f}%)")
        test = ("no deal won by some and lost by others: no ratio" if r["ratio"] is None else
                f"variance ratio {r['ratio']:.2f}, p = {r['p_value']:.3g}")
        print(f"{len(r['names'])} rates on {r['deals']} deals: mean {100 * r['mean']:.2f}%, "
              f"standard deviation {100 * r['observed_sd']:.2f} points; "
              f"{100 * r['expected_sd']:.2f} if the seeds moved each deal independently "
              f"({test})")
        return 0
    if a.cmd == "compare":
        try:
            r = compare(a.a, a.b)
        except FileNotFoundError as err:
            print(f"experiments: error: {err}", file=sys.stderr)
            return 2
        if not r["deals"]:
            print(f"experiments: error: {a.a} and {a.b} have no stored deal in common",
                  file=sys.stderr)
            return 2
        if a.json:
            print(json.dumps(r))
            return 0
        n = r["deals"]
        print(f"{n} deals stored by both: {a.a} won {r['wins_a']}, {a.b} won {r['wins_b']}; "
              f"{r['gained']} won only by {a.b}, {r['lost']} only by {a.a}; "
              f"{a.b} - {a.a} = {100 * r['diff']:+.2f} points, standard error "
              f"{100 * r['se']:.2f} (95%: {100 * (r['diff'] - 1.96 * r['se']):+.2f} to "
              f"{100 * (r['diff'] + 1.96 * r['se']):+.2f})")
        if r["ms_a"] and r["ms_b"]:
            print(f"CPU per decision: {a.a} {r['ms_a']:.2f} ms (rows of "
                  f"{', '.join(r['commits_a'])}), {a.b} {r['ms_b']:.2f} ms (rows of "
                  f"{', '.join(r['commits_b'])}), ratio {r['ms_b'] / r['ms_a']:.2f}; rows of "
                  "other commits or loads compare only roughly")
        return 0
    if a.cmd == "check":
        if a.deals < 1 or a.every < 1:
            print("experiments: error: --deals and --every must be at least 1",
                  file=sys.stderr)
            return 2
        try:
            r = check(a.name, a.deals, a.every)
        except FileNotFoundError as err:
            print(f"experiments: error: {err}", file=sys.stderr)
            return 2
        print(f"{a.name}: {r['same']} of {r['checked']} stored deals give the same result "
              f"with this tree's code (rows made at {', '.join(r['commits']) or '-'})")
        return 0 if not r["differ"] else 1
    if a.cmd == "list":
        for name, have, want in status():
            e = EXPERIMENTS[name]
            print(f"{name:<16} {have:>7}/{want:<7} {e.cost:<36} {e.command}")
        return 0
    shard = None
    if getattr(a, "shard", None):
        try:
            shard = parse_shard(a.shard)
        except ValueError as err:
            print(f"experiments: error: {err}", file=sys.stderr)
            return 2
    names = [a.name] if a.cmd == "run" else [n for n, e in EXPERIMENTS.items()
                                             if e.cheap or not a.cheap]
    for name in names:
        t0 = time.perf_counter()
        n = run(name, getattr(a, "deals", None), getattr(a, "limit_s", None), shard=shard)
        print(f"{name}: {n} rows written in {time.perf_counter() - t0:.0f} s "
              f"({path_of(name)})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
