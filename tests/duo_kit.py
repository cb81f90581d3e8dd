"""Test helper for the two-player kernel (solver.duo.kernel): the engine-versus-kernel
differential run of tests/solver/duo/test_duo_kernel.py; not part of the package."""
from __future__ import annotations

from solver.duo import kernel as DK


def differential(steps: int, seed0: int, rnd, bias: bool = False):
    """Play random legal actions (the engine's list) in the engine and the kernel side by side
    over deals seed0, seed0+1, ... until ``steps`` actions were applied, comparing after every
    step the decoded state, the legal action list and the terminal status.  Raises
    AssertionError with the deal, the history and both states at the first disagreement.
    ``bias``: prefer plays (longer games, more series, Doors and shuffles).
    Returns (games, steps, phases met)."""
    from engine import Game, format_position
    done = games = 0
    seed = seed0
    phases = set()
    while done < steps:
        s = Game(2).new_initial_state(seed)
        ks = DK.kernel_state(s)
        hist = []
        while True:
            ev, kv = DK.engine_view(s), ks.decode()
            if s.phase == "won":   # the engine took the last Door from the deck, no shuffle
                ev["deck"] = kv["deck"] = None
            la = s.legal_actions()
            if ev != kv or ks.legal_actions() != la or \
                    (ks.phase() in ("won", "lost")) != s.is_terminal():
                raise AssertionError(f"duo kernel != engine: deal {seed}, history {hist}, "
                                     f"position {format_position(s)}, engine {ev}, kernel {kv}")
            phases.add(s.phase)
            if not la:
                break
            a = None
            if bias and rnd.random() < 0.6:
                plays = [x for x in la if x < 24]
                if plays:
                    a = rnd.choice(plays)
            if a is None:
                a = rnd.choice(la)
            s.apply_action(a)
            ks.apply(a)
            hist.append(a)
            done += 1
        seed += 1
        games += 1
    return games, done, phases
