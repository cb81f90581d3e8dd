"""benchmarks/learn_duo_base.py: the fit of plus2's weights (the base ``learned``) runs on a
tiny budget, is deterministic, holds the anchor, writes a weights module the base can read,
and refuses bad arguments with exit status 2."""
from __future__ import annotations

import numpy as np

import solver
from benchmarks import learn_duo_base
from solver.duo.info_greedy import P2_NF, P2_TUNE, P2_WEIGHTS

TINY = ["--iters", "2", "--pop", "4", "--elite", "2", "--games", "300", "--check", "400",
        "--check-rounds", "1"]


def test_the_fit_runs_on_a_tiny_budget_and_is_deterministic(tmp_path, capsys):
    outs = []
    for name in ("a.py", "b.py"):
        out = tmp_path / name
        assert learn_duo_base.main(TINY + ["--write", "--out", str(out)]) == 0
        ns = {}
        exec(out.read_text(), ns)
        outs.append((ns["WEIGHTS"], ns["TUNE"]))
    (w, t), again = outs[0], outs[1]
    assert (w, t) == again
    assert len(w) == P2_NF and len(t) == len(P2_TUNE) and w[0] == learn_duo_base.GP_WEIGHT
    text = capsys.readouterr().out
    assert "plus2 fit iter   1" in text and f"check key {learn_duo_base.CHECK_KEY}:" in text


def test_the_search_starts_at_plus2_and_the_objective_counts_wins_and_doors():
    v = learn_duo_base.start_vector()
    assert list(v) == list(P2_WEIGHTS) + list(P2_TUNE)
    out = np.zeros(200, dtype=np.int64)
    score = learn_duo_base.play(v, 200, 5, out)
    assert score == 100 * int((out == 8).sum()) + int(out.sum()) and score > 0


def test_the_keys_are_apart_from_the_other_fits():
    from benchmarks import learn_base
    keys = {learn_duo_base.TRAIN_KEY, learn_duo_base.CHECK_KEY, learn_base.TRAIN_KEY,
            learn_base.CHECK_KEY, learn_base.TRAIN_KEY2, learn_base.CHECK_KEY2}
    assert len(keys) == 6 and min(keys) > 10_000


def test_bad_arguments_exit_2(capsys):
    assert learn_duo_base.main(["--elite", "5", "--pop", "4"]) == 2
    assert "learn_duo_base:" in capsys.readouterr().err


def test_the_learned_weights_restamp_the_two_player_kernels():
    assert "duo/learned_weights.py" in solver.SHARED
    assert "duo/learned_weights.py" in solver.stamp_files("duo/info_playouts.py")
