"""learned-base (solver.honest.learned, solver.policies.learned, benchmarks.learn_base): the
kernel's scorer against its engine reference at every decision of real games, the training
kernel against the playouts' base, the weights in the cache stamp, the training script."""
from __future__ import annotations

import numpy as np

import solver
from engine.policy import keep_doors_action
from engine.view import player_view
from solver.api import make_policy
from solver.honest import kernel as HK
from solver.honest import strong as ST
from solver.honest.learned import NF, play_at, play_by_selects_at
from solver.honest.learned_games import weights_games
from solver.honest.learned_weights import WEIGHTS
from solver.policies.learned import features, learned_base_action
from honest_kit import positions

# a vector far from greedy-keep-doors, so the comparison sees many scorer decisions
ROUGH = np.array([10, -30, 80, 120, -40, 25, 15, -60, 10, -35, 5,
                  -90, 70, -50, -80, -20, 15, 60, -40, 10], dtype=np.int64)


def test_learned_kernel_equals_its_engine_reference_at_every_decision():
    n = changed = rough_changed = 0
    for _, _, s in positions(80, 700, share=0.7, policy=learned_base_action):
        v = player_view(s)
        S = HK.encode(v)
        a = learned_base_action(v)
        assert ST.base_at(S, "learned-base") == a
        kd = keep_doors_action(v)
        changed += a != kd
        if v.phase == "play":
            r = learned_base_action(v, weights=tuple(int(x) for x in ROUGH))
            assert int(play_at(S, np.int64(kd), ROUGH)) == r
            rough_changed += r != kd
            assert len(features(v, a, kd)) == NF
        n += 1
    assert n > 2000 and rough_changed > 300, (n, rough_changed)
    assert make_policy("learned-base").act(v, 0) == learned_base_action(v)


def test_packed_keys_decide_as_the_scores_one_by_one():
    """learned_play_w (one maximum of packed keys, kd's bonus apart) against the scores one by
    one (_play_by_selects) at every play decision of real games, for every legal kd, with the
    stored weights, ROUGH, random weights (a negative kd weight among them) and small weights
    (many ties)."""
    rng = np.random.default_rng(5)
    weights = [np.array(WEIGHTS, dtype=np.int64), ROUGH]
    weights += [rng.integers(-150, 151, NF).astype(np.int64) for _ in range(6)]
    weights += [rng.integers(-2, 3, NF).astype(np.int64) for _ in range(6)]
    weights[2][0] = -40
    n = 0
    for _, _, s in positions(40, 900, share=0.7, policy=learned_base_action):
        v = player_view(s)
        if v.phase != "play":
            continue
        S = HK.encode(v)
        for kd in s.legal_actions():
            for W in weights:
                assert int(play_at(S, np.int64(kd), W)) == int(play_by_selects_at(
                    S, np.int64(kd), W)), (kd, W)
                n += 1
    assert n > 20000, n


def test_training_kernel_plays_the_playouts_base_games():
    n = 3000
    a = np.zeros(n, dtype=np.int8)
    b = np.zeros(n, dtype=np.int8)
    weights_games(np.int64(n), np.uint64(77), np.array(WEIGHTS, dtype=np.int64), a)
    ST.base_games(np.int64(n), np.uint64(77), np.int64(ST.BASES["learned-base"]), b)
    assert (a == b).all()
    kd_only = np.zeros(NF, dtype=np.int64)
    kd_only[0] = 1
    weights_games(np.int64(n), np.uint64(77), kd_only, a)
    ST.base_games(np.int64(n), np.uint64(77), np.int64(ST.BASES["greedy-keep-doors"]), b)
    assert (a == b).all()
    wr = weights_games(np.int64(n), np.uint64(77), ROUGH, a)
    assert wr != int(b.sum())       # the weights change the games


def test_an_edit_of_the_weights_restamps_the_playouts():
    assert "honest/learned_weights.py" in solver.SHARED
    for f in ("honest/playouts.py", "honest/strong.py", "honest/rollout.py"):
        assert "honest/learned_weights.py" in solver.stamp_files(f), f


def test_the_training_script_runs_on_a_tiny_budget(tmp_path, capsys):
    from benchmarks import learn_base
    out = tmp_path / "w.py"
    out.write_text('"""doc"""\nWEIGHTS = (0,)\n')
    assert learn_base.main(["--iters", "2", "--pop", "4", "--elite", "2", "--games", "300",
                            "--check", "500", "--write", "--out", str(out)]) == 0
    ns = {}
    exec(out.read_text(), ns)
    assert len(ns["WEIGHTS"]) == NF and ns["WEIGHTS"][0] == learn_base.KD_WEIGHT
    assert ns["__doc__"] == "doc"
    text = capsys.readouterr().out
    assert "iter   1" in text and "check on 500 fresh games" in text
