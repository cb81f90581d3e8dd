"""benchmarks/learn_value.py: the logistic fit recovers known weights, the sampled rows are
the kernel's features with the games' results, and bad arguments get one line and status 2."""
from __future__ import annotations

import numpy as np

from benchmarks import learn_value as LV
from solver.honest.value import NFV


def test_the_fit_recovers_the_weights_of_synthetic_data():
    rng = np.random.default_rng(3)
    X = np.column_stack([np.ones(40_000), rng.normal(size=(40_000, 3))])
    w = np.array([-0.5, 1.5, -2.0, 0.3])
    y = (rng.random(40_000) < 1 / (1 + np.exp(-(X @ w)))).astype(float)
    got = LV.fit(X, y, ridge=0.0)
    assert np.max(np.abs(got - w)) < 0.1, got
    s = LV.summary(got, X, y)
    assert s["logloss"] < s["logloss_constant"]
    for c in s["calibration"]:
        if c["states"] > 1000:
            assert abs(c["mean_predicted"] - c["observed"]) < 0.03, c


def test_samples_are_features_of_decisions_with_their_games_result():
    X, y, game_of = LV.sample(300, 0x1234, 2)
    assert X.shape[1] == NFV and len(X) == len(y) == len(game_of) > 1000
    assert set(np.unique(y)) <= {0.0, 1.0} and 0 < y.mean() < 1
    assert np.all(X[:, 0] == 1.0) and np.all((X[:, 1] >= 1) & (X[:, 1] <= 8))
    # rows of one game share its result
    for g in np.unique(game_of)[:50]:
        assert len(set(y[game_of == g])) == 1
    again = LV.sample(300, 0x1234, 2)
    assert np.array_equal(again[0], X) and np.array_equal(again[1], y)


def test_bad_arguments_are_one_line_and_status_2(capsys):
    assert LV.main(["--games", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "learn_value" in err[0]
