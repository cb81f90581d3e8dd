"""The player of ``benchmarks/bench_best_player.py``: ``onirim best``'s answer at every
decision (:class:`BestPlayer`), or the control (:class:`DefaultAtBestStream`), and one deal
played by it (:func:`play_deal`); ``benchmarks/experiments.py`` runs its best-player
experiments with them."""
from __future__ import annotations

import time

POLICY_SEED = 1          # the policy seed of the rows paired with (best ignores the stream)


def params(budget_nodes=None, budget_s=None, table_bits=None, control=False, deals=500,
           first=0) -> dict:
    """A run's parameters (its rows' header; an experiment's ``params``)."""
    return {"players": 1, "mode": "expectimax", "budget_nodes": budget_nodes,
            "budget_s": budget_s, "table_bits": table_bits, "control": control,
            "policy_seed": POLICY_SEED, "seed_first": first, "deals": deals}


def make_player(p: dict):
    """The player of parameters ``p`` (:func:`params`), warmed up (nothing compiles in a
    timed deal)."""
    player = (DefaultAtBestStream() if p.get("control") else
              BestPlayer(p["budget_nodes"], p["budget_s"], p["table_bits"]))
    player.warm_up()
    return player


def play_deal(player, seed: int) -> dict:
    """Deal ``seed`` played by ``player``: its row without the timing fields."""
    from solver.honest.play import play_honest
    player.reset()
    g = play_honest(player, seed, policy_seed=POLICY_SEED)
    st = player.stats
    return {"seed": seed, "won": g.won, "doors": g.doors, "decisions": g.decisions,
            "proven": st["proven"], "leaders": st["leaders"], "no_leader": st["no_leader"],
            "max_decision_cpu_s": round(st["max_decision_cpu_s"], 4)}


class BestPlayer:
    """A policy that plays ``onirim best``'s answer: the proven best action, else the
    leader.  ``stats`` counts per game: decisions proven, leaders by policy, the largest
    CPU time of one decision."""

    name = "best"
    config: dict = {}
    players = (1,)

    def __init__(self, budget_nodes=None, budget_s=None, table_bits=None):
        self.budget_nodes, self.budget_s = budget_nodes, budget_s
        self.table_bits = table_bits
        self.reset()

    def reset(self):
        self.stats = {"proven": 0, "leaders": {}, "max_decision_cpu_s": 0.0, "no_leader": 0}

    def warm_up(self):
        from engine.game import Game
        from engine.view import player_view
        from solver import api
        api.rank(player_view(Game(1).new_initial_state(seed=10**9)), "expectimax",
                 budget_nodes=10)

    def act(self, view, stream):
        from solver import api
        acts = view.legal_actions()
        if len(acts) == 1:
            return acts[0]
        c0 = time.process_time()
        r = api.rank(view, "expectimax", budget_nodes=self.budget_nodes,
                     budget_s=self.budget_s, table_bits=self.table_bits)
        st = self.stats
        st["max_decision_cpu_s"] = max(st["max_decision_cpu_s"], time.process_time() - c0)
        if r.best is not None:
            st["proven"] += 1
            name = r.best
        elif r.leader is not None:
            pol = (r.extra.get("estimates") or {}).get("policy", "lo")
            st["leaders"][pol] = st["leaders"].get(pol, 0) + 1
            name = r.leader
        else:                           # no advice: the first row (counted)
            st["no_leader"] += 1
            name = r.actions[0].action
        return next(a.action_id for a in r.actions if a.action == name)


class DefaultAtBestStream:
    """The control: the default policy alone, on ``best``'s stream (a hash of the position,
    ``solver.advice.position_stream``) instead of the decision stream, with no exact search
    of ``best``'s own and no pruning by its bounds (``--control``)."""

    name = "default-at-best-stream"
    config: dict = {}
    players = (1,)

    def __init__(self):
        from solver.api import make_default_policy
        self.policy = make_default_policy()
        self.reset()

    def reset(self):
        self.stats = {"proven": 0, "leaders": {}, "max_decision_cpu_s": 0.0, "no_leader": 0}

    def warm_up(self):
        self.policy.warm_up()

    def act(self, view, stream):
        from solver.advice import position_stream
        c0 = time.process_time()
        a = self.policy.act(view, position_stream(view))
        st = self.stats
        st["max_decision_cpu_s"] = max(st["max_decision_cpu_s"], time.process_time() - c0)
        return a
