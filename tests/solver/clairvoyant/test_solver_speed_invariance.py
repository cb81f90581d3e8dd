"""The speed-ups of the clairvoyant solver change no result: the one-pass certificate gives the
strings of the two-pass one, and reused buffers (DFS permutations, the beam's permutation cache
kept across runs of one seed) give the same results, node counts and lines as fresh ones."""
from engine import Game
from solver.clairvoyant.solve import (ClairvoyantSolver, actions_to_strings, certified_line,
                                replay_line)


def test_one_pass_certificate_matches_two_pass():
    sv = ClairvoyantSolver(tt_mb=4)
    for seed in range(12):
        s = Game(1).new_initial_state(seed)
        r = sv.solve_state(s, verify=False)
        if r.result != "WIN":
            continue
        two = actions_to_strings(s, r.actions)
        assert replay_line(s, two) == (True, "ok")
        assert certified_line(s, r.actions) == two
        assert r.line == two
        # a line that does not end in a win is refused (the caller falls back and raises)
        assert certified_line(s, r.actions[:-1]) is None


def test_reused_buffers_give_fresh_results():
    seeds = [3, 1, 3, 7, 1, 2, 7]
    reused = ClairvoyantSolver(tt_mb=4)
    for seed in seeds:
        a = reused.solve_deal(seed)
        b = ClairvoyantSolver(tt_mb=4).solve_deal(seed)
        assert (a.result, a.nodes, a.line, a.actions) == (b.result, b.nodes, b.line, b.actions)
