"""learned-base-2 (solver.honest.learned2, solver.policies.learned2, benchmarks.learn_base
--base 2): the kernel's scorers against their engine reference at every decision of real
games, the training kernel against the playouts' base, the weights in the cache stamp, the
training script."""
from __future__ import annotations

import numpy as np

import solver
from engine.policy import keep_doors_action
from engine.view import player_view
from solver.api import make_policy
from solver.honest import kernel as HK
from solver.honest import strong as ST
from solver.honest.learned import NF as NFP
from solver.honest.learned2 import FEATURES, NF, NPF, learned2_at
from solver.honest.learned2_weights import OTHER, PLAY
from solver.honest.learned_games import weights_games, weights_games2
from solver.honest.learned_weights import WEIGHTS
from solver.policies.learned2 import learned2_action, nightmare_features, prophecy_features
from honest_kit import positions

# vectors far from greedy-keep-doors, so the comparison sees many scorer decisions
_rng = np.random.default_rng(5)
ROUGH_P = np.array([10, -30, 80, 120, -40, 25, 15, -60, 10, -35, 5,
                    -90, 70, -50, -80, -20, 15, 60, -40, 10], dtype=np.int64)
ROUGH_O = np.rint(_rng.standard_normal(NF) * 30).astype(np.int64)
ROUGH_O[0] = ROUGH_O[NPF] = 20


def test_learned2_kernel_equals_its_engine_reference_at_every_decision():
    n = 0
    seen = {"prophecy": 0, "nightmare": 0}
    changed = {"prophecy": 0, "nightmare": 0}
    rough = tuple(int(x) for x in ROUGH_P), tuple(int(x) for x in ROUGH_O)
    for _, _, s in positions(60, 900, share=0.7, policy=learned2_action):
        v = player_view(s)
        S = HK.encode(v)
        a = learned2_action(v)
        assert ST.base_at(S, "learned-base-2") == a
        kd = keep_doors_action(v)
        r = learned2_action(v, *rough)
        assert int(learned2_at(S, np.int64(kd), ROUGH_P, ROUGH_O)) == r
        if v.phase in seen:
            seen[v.phase] += 1
            changed[v.phase] += r != kd
            feats = prophecy_features if v.phase == "prophecy" else nightmare_features
            assert len(feats(v, a, kd)) == (NPF if v.phase == "prophecy" else NF - NPF)
        n += 1
    assert n > 1500 and min(changed.values()) > 50, (n, seen, changed)
    assert make_policy("learned-base-2").act(v, 0) == learned2_action(v)


def test_training_kernel_plays_the_playouts_base_games():
    n = 3000
    a = np.zeros(n, dtype=np.int8)
    b = np.zeros(n, dtype=np.int8)
    weights_games2(np.int64(n), np.uint64(77), np.array(PLAY, dtype=np.int64),
                   np.array(OTHER, dtype=np.int64), a)
    ST.base_games(np.int64(n), np.uint64(77), np.int64(ST.BASES["learned-base-2"]), b)
    assert (a == b).all()
    # the other phases at greedy-keep-doors (their kd alone) play learned-base's games
    kd_only = np.zeros(NF, dtype=np.int64)
    kd_only[0] = kd_only[NPF] = 1
    weights_games2(np.int64(n), np.uint64(77), np.array(WEIGHTS, dtype=np.int64), kd_only, a)
    weights_games(np.int64(n), np.uint64(77), np.array(WEIGHTS, dtype=np.int64), b)
    assert (a == b).all()
    wr = weights_games2(np.int64(n), np.uint64(77), ROUGH_P, ROUGH_O, a)
    assert wr != int(b.sum())       # the weights change the games


def test_an_edit_of_the_weights_restamps_the_playouts():
    assert "honest/learned2_weights.py" in solver.SHARED
    for f in ("honest/playouts.py", "honest/strong.py", "honest/rollout.py"):
        assert "honest/learned2_weights.py" in solver.stamp_files(f), f
    assert len(PLAY) == NFP and len(OTHER) == len(FEATURES) == NF


def test_the_training_script_runs_on_a_tiny_budget(tmp_path, capsys):
    from benchmarks import learn_base
    out = tmp_path / "w.py"
    out.write_text('"""doc"""\nPLAY = (0,)\nOTHER = (0,)\n')
    assert learn_base.main(["--base", "2", "--iters", "2", "--joint-iters", "1", "--pop", "4",
                            "--elite", "2", "--games", "300", "--check", "500", "--write",
                            "--out", str(out)]) == 0
    ns = {}
    exec(out.read_text(), ns)
    assert len(ns["PLAY"]) == NFP and len(ns["OTHER"]) == NF
    assert ns["PLAY"][0] == ns["OTHER"][0] == ns["OTHER"][NPF] == learn_base.KD_WEIGHT
    assert ns["__doc__"] == "doc"
    text = capsys.readouterr().out
    assert "other iter   1" in text and "joint iter   0" in text
    assert "check on 500 fresh games" in text


def test_the_prophecy_shortcut_equals_scoring_every_order():
    """prophecy_w scores the sorted order of each discard only (and kd): the same action as
    the reference, which scores every legal action, under random weights, a negative kd
    weight (every order scored) included."""
    rng = np.random.default_rng(11)
    ws = [np.rint(rng.standard_normal(NF) * 30).astype(np.int64) for _ in range(6)]
    for j, w in enumerate(ws):
        w[0] = (-40, 0, 10, 60, 100, 200)[j]
        w[NPF] = 100
    n = 0
    for _, _, s in positions(40, 1900, share=0.7, policy=learned2_action):
        if s.phase != "prophecy":
            continue
        v = player_view(s)
        S = HK.encode(v)
        kd = keep_doors_action(v)
        for w in ws:
            r = learned2_action(v, PLAY, tuple(int(x) for x in w))
            assert int(learned2_at(S, np.int64(kd), np.array(PLAY, dtype=np.int64), w)) == r
        n += 1
    assert n > 40, n
