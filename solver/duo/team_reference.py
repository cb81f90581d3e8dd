"""The open game's team base (:mod:`solver.duo.team_greedy`) in plain Python over engine
two-player positions whose both hands are known: the readable version the kernel is tested
against (``tests/solver/duo/test_team_greedy.py``), written from that module's rules."""
from __future__ import annotations

from engine import cards
from engine import game

from solver.duo.honest import duo_greedy_plus_action


def _partner_use_py(state, q: int, c: int) -> int:
    """:func:`solver.duo.team_greedy.partner_use` on an engine two-player position (a State
    or an open view)."""
    col = cards.colour(c)
    if cards.door_of(col) in state.doors[q]:
        return 0
    row = state.rows[q]
    last = row[-1] if row else None
    fits = (last is not None and cards.colour(last) == col
            and 0 < game.series_length(row) < 3 and cards.symbol(last) != cards.symbol(c))
    return 1 + cards.is_key(c) + (2 if fits else 0)


def _team_rank_py(state, c: int, shared_only: bool) -> tuple:
    """:func:`solver.duo.team_greedy.team_discard_rank`: engine.policy._discard_rank with the
    team's "needed"."""
    p = state.turn
    col = cards.colour(c)
    needed = (cards.door_of(col) not in state.doors[p]
              or (shared_only and cards.door_of(col) not in state.doors[1 - p]))
    row = state.rows[p]
    s_len = game.series_length(row) if row else 0
    in_series = bool(row) and cards.colour(row[-1]) == col and 0 < s_len < 3 and needed
    count = sum(1 for x in state.active_hand() if cards.colour(x) == col)
    return (cards.is_key(c), needed, in_series, count,
            0 if cards.symbol(c) == cards.SUN else 1, c)


def team_action_py(state) -> int:
    """The team base in plain Python over an engine two-player position whose both hands are
    known (a full State, or ``engine.view.player_view(state, talk="open")``): the reference
    the kernel's :func:`solver.duo.team_greedy.team` is tested against, written from that
    module's rules."""
    a = duo_greedy_plus_action(state)
    own = list(state.hands[state.turn])
    shared = list(state.shared)
    if state.phase == "play" and a >= game.DISCARD:
        c = min(set(own + shared), key=lambda x: _team_rank_py(state, x, x not in own))
        zone = 0 if c in own else 1
        (own if zone == 0 else shared).remove(c)
        q = 1 - state.turn
        pairs = [(_partner_use_py(state, q, x) - _partner_use_py(state, q, y), x, y)
                 for x in sorted(set(own)) if _partner_use_py(state, q, x)
                 for y in sorted(set(shared)) if y != x]
        gain = max((g for g, _x, _y in pairs), default=0)
        if gain <= 0:
            return game.DISCARD + zone * 12 + c
        _g, x, y = next(t for t in pairs if t[0] == gain)
        return game.SWAP + (zone * 12 + c) * 144 + x * 12 + y
    if state.phase == "nightmare" and game.NM_KEY <= a < game.NM_DOOR:
        held = sorted({cards.colour(x) for x in own + shared if cards.is_key(x)})
        col = min(held, key=lambda k: _team_rank_py(state, cards.key_of(k), True))
        return game.NM_KEY + (0 if cards.key_of(col) in own else 1) * 4 + col
    return a
