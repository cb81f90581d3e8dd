"""A policy's random numbers come from a policy seed, independent of the deal (docs/WINRATE.md,
"Honest mode"), and compile time stays out of every deal's seconds (the rollout policy's
warm_up)."""
import json
import subprocess
import sys

import pytest

from engine import rng
from engine.policy import greedy_action
from solver.honest.play import (DEFAULT_POLICY_SEED, _POLICY_STREAM_BASE, decision_stream,
                           play_honest)


class Recorder:
    """Plays greedy and records every (view's deck size, stream) it receives."""
    name = "recorder"

    def __init__(self):
        self.streams = []

    def act(self, view, stream):
        self.streams.append(stream)
        return greedy_action(view)


def _streams(seed, policy_seed=DEFAULT_POLICY_SEED):
    r = Recorder()
    play_honest(r, seed, policy_seed=policy_seed)
    return r.streams


def test_the_streams_carry_no_information_about_the_deal():
    """Deals 0..19 played with one policy seed: the i-th decision of every deal gets the same
    stream, so no function of the streams can tell the deals apart."""
    runs = [_streams(s) for s in range(20)]
    assert len({len(r) for r in runs}) > 1          # the games differ ...
    for i in range(min(len(r) for r in runs)):
        assert len({r[i] for r in runs}) == 1       # ... the streams do not
    # another policy seed gives other numbers
    other = _streams(0, policy_seed=DEFAULT_POLICY_SEED + 1)
    assert other[0] != runs[0][0]


def test_inverting_the_stream_does_not_find_the_deal():
    """The former leak: a stream was stream_key(deal, 2**40 + i), so searching the small deal
    seeds for one that gives the stream recovered the deal.  Now the same search finds no deal
    seed in 0..4999 (other than the policy seed itself, which is public and the same for every
    deal)."""
    for deal in (3, 417, 2024):
        st = _streams(deal)
        for i in (0, 5):
            found = [s for s in range(5000) if rng.stream_key(s, _POLICY_STREAM_BASE + i)
                     == st[i]]
            assert found == [DEFAULT_POLICY_SEED]
            assert deal not in found


def test_the_same_policy_seed_replays_the_same_game():
    from solver.api import make_policy
    p = make_policy("rollout", n=4)
    a = play_honest(p, 12, policy_seed=5)
    b = play_honest(p, 12, policy_seed=5)
    assert a.actions == b.actions and a.policy_seed == 5
    assert decision_stream(5, 0) != decision_stream(6, 0)


_WARM_CHECK = r"""
import json, sys
from numba.core.registry import CPUDispatcher
from solver.honest import kernel as HK
from solver.runs import runner as runner
job = runner.honest_job("rollout", {"n": 8}, 1, 1)
w = runner.get_worker(job)            # made and warmed up, as winrate does
def sigs():
    return {k: len(v.signatures) for k, v in vars(HK).items() if isinstance(v, CPUDispatcher)}
before = sigs()
row = w.play(5)
after = sigs()
print(json.dumps({"before": before, "after": after, "decisions": row["decisions"]}))
"""


@pytest.mark.slow   # a fresh process loads the honest kernel's cache (compiles it if cold)
def test_rollout_warm_up_compiles_everything_a_deal_uses():
    """In a fresh process: after the worker's warm-up, playing a deal compiles (or loads)
    no numba function of the honest kernel, so no compile time can enter the deal's
    seconds.  Without Rollout.warm_up the first deal compiled decide1 and its callees."""
    out = subprocess.run([sys.executable, "-c", _WARM_CHECK], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout.strip().splitlines()[-1])
    assert d["decisions"] > 0
    assert d["before"]["decide1"] >= 1
    grew = {k: (d["before"][k], v) for k, v in d["after"].items() if v != d["before"][k]}
    assert grew == {}
