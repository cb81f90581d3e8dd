"""One deal of ``onirim bound`` (``docs/BOUND.md`` section 11): the unit of work of every
backend, a pure function of the configuration and the seed.

A *configuration* is a plain dict::

    {"w": "zero" | "exact", "stop": C or None, "budget_nodes": B, "ex_budget": E or None,
     "policy": NAME or None, "config": {...}, "policy_seed": P, "switch": D or None}

:func:`bound_deal` ``(config, seed)`` plays deal ``seed`` (the engine's deal, as ``winrate``
has it): if a policy is named, it plays honestly (``solver.honest.play``'s streams) until its
view at a decision has at most ``switch`` unknown cards; from there (or from the start) the
relaxed player of :class:`solver.bound.inner.KernelInner` takes the deal.  The row holds the
inner value and, with a policy, the policy's own result on the same deal (its game played on
to the end).  What the mean of the values bounds:

* no policy: the honest optimum of the whole game, ``V*`` of the start;
* a policy prefix: the best win probability of any honest player that plays as the policy
  until the switch and as it likes afterwards (an upper bound on that class only).
"""
from __future__ import annotations

import json
import os
import time

from engine.game import Game
from engine.view import player_view

VERSION = "bk1"          # the inner kernel's version: rows of another version are not reused

_SOLVERS: dict = {}
_POLICIES: dict = {}


# With an expectimax budget, rows made before KernelInner emptied its expectimax tables for
# every deal depended on the deals played before them in the process: not reused.
VERSION_EX_BUDGET = "bk2"


def config_key(config: dict) -> str:
    version = VERSION if config.get("ex_budget") is None else VERSION_EX_BUDGET
    return json.dumps(dict(config, version=version), sort_keys=True, separators=(",", ":"))


def make_config(w="zero", stop=None, budget_nodes=2_000_000, ex_budget=None, policy=None,
                policy_config=None, policy_seed=1, switch=None) -> dict:
    return {"w": w, "stop": stop, "budget_nodes": int(budget_nodes), "ex_budget": ex_budget,
            "policy": policy, "config": dict(policy_config or {}) if policy else None,
            "policy_seed": int(policy_seed) if policy else None,
            "switch": switch if policy else None}


def _solver(config):
    key = (config["w"], config["stop"], config["budget_nodes"], config["ex_budget"])
    ki = _SOLVERS.get(key)
    if ki is None:
        from .inner import KernelInner
        ki = KernelInner(config["w"], stop=config["stop"], limit=config["budget_nodes"],
                         memo_bits=20, ex_bits=22 if config["stop"] is not None
                         or config["w"] != "zero" else 10, ex_budget=config["ex_budget"])
        _SOLVERS[key] = ki
    return ki


def _policy(config):
    key = json.dumps([config["policy"], config["config"]], sort_keys=True)
    pol = _POLICIES.get(key)
    if pol is None:
        from solver.api import make_policy
        pol = make_policy(config["policy"], **config["config"])
        pol.warm_up()
        _POLICIES[key] = pol
    return pol


def warm_up(config, build: bool = True) -> None:
    """Compile or load the kernels (numba compiles the whole inner search, the expectimax
    calls of the stop and of W included, on its first call: a few nodes of deal 0 do it),
    and build this process's solver and policy, outside any deal's clock."""
    from .deal import deal_of_state
    from .inner import KernelInner
    view, deal = deal_of_state(Game(1).new_initial_state(seed=0))
    KernelInner("zero", limit=1000, memo_bits=10, ex_bits=10).solve(view, deal)
    if build:               # this process's solver (its tables) and policy
        _solver(config)
        if config["policy"]:
            _policy(config)


def _play_until(state, policy, policy_seed, switch, first_decision=0):
    """Play the policy on ``state`` (deal mode, in place) until a decision whose view has at
    most ``switch`` unknown cards (None: to the end); returns the decisions played."""
    from solver.honest.play import decision_stream
    i = first_decision
    while not state.is_terminal():
        view = player_view(state)
        if switch is not None and sum(view.unknown) <= switch:
            break
        a = policy.act(view, decision_stream(policy_seed, i))
        if a not in state.legal_actions():
            raise RuntimeError(f"policy chose an illegal action {a} at decision {i}")
        state.apply_action(a)
        i += 1
    return i


def bound_deal(config: dict, seed: int) -> dict:
    from .deal import deal_of_state
    c0, t0 = time.process_time(), time.perf_counter()
    state = Game(1).new_initial_state(seed=seed)
    row = {"seed": int(seed)}
    decisions = 0
    if config["policy"]:
        pol = _policy(config)
        decisions = _play_until(state, pol, config["policy_seed"], config["switch"])
        row["switch_decision"] = decisions
    row["unknown_at_start"] = sum(player_view(state).unknown)
    if state.is_terminal():
        row.update(value=1.0 if state.won() else 0.0, finished=True, nodes=0, stops=0,
                   inexact=0, decided_before_switch=True)
    else:
        view, deal = deal_of_state(state)
        r = _solver(config).solve(view, deal)
        row.update(value=r.value, finished=r.finished, nodes=r.counters["nodes"],
                   stops=r.counters["stops"], inexact=r.counters["inexact"],
                   decided_before_switch=False)
    row["cpu_s"] = time.process_time() - c0
    row["seconds"] = time.perf_counter() - t0
    if config["policy"]:
        # the policy's own result on the same deal: its game played on to the end
        if not state.is_terminal():
            _play_until(state, _policy(config), config["policy_seed"], None, decisions)
        row["policy_won"] = bool(state.won())
    row["pid"] = os.getpid()
    return row


def bound_chunk(config: dict, seeds) -> list[dict]:
    return [bound_deal(config, int(s)) for s in seeds]
