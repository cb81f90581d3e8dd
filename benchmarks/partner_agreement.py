"""How often a two-player policy's turn action (phase play) is the base plus2's on the same
view: the measurement behind the soft likelihood of the partner-hand filter
(:mod:`solver.duo.partner_filter`, docs/DUO_LEVERS.md, "Partner hands filtered by its last
turn").

    python -m benchmarks.partner_agreement [--policy duo-kcut-switch] [--first 0] [--deals 50]

Plays the silent game's deals ``first`` .. ``first + deals - 1`` with ``policy`` (both seats,
the honest game of ``solver.honest.play``: the view and the stream of each decision) and at
every phase-play decision compares its action with plus2's action on the same view.  Prints
the decisions counted, the share where the two agree, and among the others the mean number
of legal actions (what a uniform model of a disagreement would spread over)."""
from __future__ import annotations

import argparse
import sys

from engine.game import Game
from engine.view import player_view


def measure(policy_name: str, first: int, deals: int) -> dict:
    from solver.duo.info_greedy import base_at
    from solver.duo.info_state import encode
    from solver.honest.play import DEFAULT_POLICY_SEED, decision_stream
    from solver.api import make_policy
    policy = make_policy(policy_name)
    policy.warm_up()
    plays = agree = spread = 0
    for seed in range(first, first + deals):
        state = Game(2).new_initial_state(seed=seed)
        i = 0
        while not state.is_terminal():
            view = player_view(state)
            a = policy.act(view, decision_stream(DEFAULT_POLICY_SEED, i))
            if state.phase == "play":
                plays += 1
                if a == base_at(encode(view), "plus2"):
                    agree += 1
                else:
                    spread += len(state.legal_actions()) - 1
            state.apply_action(a)
            i += 1
    return {"policy": policy_name, "deals": deals, "plays": plays, "agree": agree,
            "share": agree / plays if plays else 0.0,
            "others": spread / (plays - agree) if plays > agree else 0.0}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--policy", default="duo-kcut-switch")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--deals", type=int, default=50)
    a = p.parse_args(argv)
    if a.deals < 1 or a.first < 0:
        print("partner_agreement: --deals must be at least 1, --first at least 0",
              file=sys.stderr)
        return 2
    r = measure(a.policy, a.first, a.deals)
    print(f"{r['policy']}: {r['plays']} turn actions in {r['deals']} deals, plus2's in "
          f"{r['agree']} ({100 * r['share']:.1f}%); elsewhere {r['others']:.1f} other legal "
          "actions on average")
    return 0


if __name__ == "__main__":
    sys.exit(main())
