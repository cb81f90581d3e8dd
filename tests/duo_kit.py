"""Test helpers for the two-player game: the engine-versus-kernel differential run of the
two-player kernel (solver.duo.kernel, tests/solver/duo/test_duo_kernel.py) and the redeal of
what the player to move cannot see (the hidden-order tests of the two-player policies, the
information-state kernel and the play hint); not part of the package."""
from __future__ import annotations

import random

from engine.game import Game
from engine.policy import greedy_action
from solver.duo import deal_turn as duo_turn
from solver.duo import kernel as DK


def redeal_unseen(state, rnd, talk="none"):
    """A two-player ``state`` with what the player to move cannot know dealt again: the
    partner's own cards it does not know (in the silent game all but those it saw the partner
    take, ``engine.view.known_cards``; in the open game none) and the deck below the known
    top (the top too, unless that player's own prophecy showed it) pooled; the partner gets
    its known cards and Locations of the pool back (a partner holds only Locations), the deck
    the rest in a new order.  The same multiset, the same public cards."""
    from engine import cards
    from engine.view import _minus, known_cards, known_top, prophecy_seer
    s = state.clone()
    partner = 1 - s.turn
    k = known_top(s) if prophecy_seer(s) == s.turn else 0
    known = list(s.hands[partner]) if talk == "open" else known_cards(s, partner)
    pool = _minus(s.hands[partner], known) + s.deck[k:]
    h = len(s.hands[partner]) - len(known)
    locs = [j for j, c in enumerate(pool) if cards.is_location(c)]
    pick = set(rnd.sample(locs, h))
    rest = [c for j, c in enumerate(pool) if j not in pick]
    rnd.shuffle(rest)
    s.hands[partner] = sorted(known + [pool[j] for j in sorted(pick)])
    s.deck[k:] = rest
    return s


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
        ks = duo_turn.kernel_state(s)
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


def mixed_positions(games, seed0=0, explore=0.3, rnd_seed=1):
    """(seed, state) at every decision of ``games`` two-player deal-mode games from ``seed0``:
    greedy with a share ``explore`` of random actions (some games go deep: series,
    prophecies, Doors)."""
    rnd = random.Random(rnd_seed)
    for seed in range(seed0, seed0 + games):
        s = Game(2).new_initial_state(seed=seed)
        while not s.is_terminal():
            yield seed, s
            acts = s.legal_actions()
            s.apply_action(greedy_action(s) if rnd.random() > explore else rnd.choice(acts))


def hidden_order_decisions(policy, positions, rnd, stream0: int, every: int = 3):
    """The hidden-order test of a two-player ``policy``: at every ``every``-th of
    ``positions`` ((seed, state) pairs) with two or more legal actions, its decision on the
    mover's view is legal and the same on the view of the position with what the mover
    cannot know dealt again (:func:`redeal_unseen`), at stream ``stream0 + i``.  Returns
    (decisions checked, redeals that changed the partner's hand): a test asks for enough of
    both, so that a policy reading the partner's cards would be caught."""
    from engine.view import player_view
    n = changed = 0
    for i, (_seed, s) in enumerate(positions):
        if len(s.legal_actions()) == 1 or i % every:
            continue
        r = redeal_unseen(s, rnd)
        changed += r.hands[1 - s.turn] != s.hands[1 - s.turn]
        a = policy.act(player_view(s), stream0 + i)
        assert a in s.legal_actions()
        assert policy.act(player_view(r), stream0 + i) == a
        n += 1
    return n, changed
