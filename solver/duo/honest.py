"""Honest two-player policies: each seat decides from its own view (``engine.view.player_view``:
its own 3 cards, the 2 shared cards, both rows, the Doors, the discard pile, the limbo, the
deck cards its own prophecy showed, and the unknown multiset of the deck *and the partner's
hand*).  ``docs/DUO.md``, "What a player may know" and "Honest two-player policies", has the
rulings, and "Measured: two-player win rates through `onirim winrate`" the ladder.

* ``greedy`` (``solver.policies``) already plays both seats: :func:`engine.policy.greedy_action`
  reads only the active player's cards, the shared cards, the rows, the Doors and the deck size.
* ``duo-greedy-plus``: greedy with the two changes of solo ``greedy-plus`` (``docs/HONEST.md``)
  written for the active seat (its row, its Doors).
* ``duo-rollout``: the one-step rollout of the honest-play issue (``solver/honest/rollout.py``: common
  random numbers, a z-margin against the base action) in pure Python over ``engine/``.

The rollout's playouts never read the real partner hand or deck: playout ``j`` deals a
position consistent with the view (:func:`engine.view.sample_position`: the partner's hand
drawn from the unknown Locations, the rest of the unknown cards as the deck, drawn in random
order as the game goes), from a generator seeded by the decision stream and ``j``.  Every
candidate action is followed by the base policy on the same dealt position with the same
draws (common random numbers), so two actions are compared on the same futures.

Candidates (to keep a pure-Python rollout affordable; each restriction is a choice of which
actions to *try*, the base action is always among them, so the policy never plays worse than
its evidence says):

* phase play: every play, every plain discard, and the exchanges (``discard X swap a/b``) of
  the card the base action discards, if it discards (``swaps=base``; ``all``: every exchange;
  ``none``: no exchange);
* phase prophecy: for each revealed card that may be discarded, one order of the kept cards,
  the base policy's (greedy's ``_prophecy_value`` order), so the rollout chooses *which* card
  to discard;
* door, nightmare, draft: every legal action.

With more than ``keep`` + 1 candidates and ``0 < screen < n``, every candidate first gets
``screen`` playouts; the ``keep`` best by mean reward, plus the base action, get the other
``n - screen`` (the heuristic of ``solver/honest/rollout.py``).

Reward: ``reward=doors`` (default) scores a playout by the Doors in play at its end (8 = won):
with two-player greedy winning about 4% of deals, a win/loss reward over a few playouts is
almost always 0 - 0 and carries no signal; the Door count does.  ``reward=win`` scores 1/0.
"""
from __future__ import annotations

import math
import random

from engine import cards
from engine import game
from engine import rng
from engine.actions import DRAW
from engine.policy import _prophecy_value, greedy_action
from engine.rules import PROPHECY_SIZE
from engine.view import is_duo_view, sample_position

from solver.errors import PolicyError
from solver.registry import PolicyBase, check_range as _check, register_policy
# the parameters shared with the compiled rollout; importing it also registers duo-krollout
from solver.duo.rollout import rollout_params

_SALT = 0x6A09E667F3BCC909       # the duo rollout's stream salt


# ----------------------------------------------------------------------------- base policies
def duo_greedy_plus_action(state) -> int:
    """Greedy with solo greedy-plus's two changes, for the active seat of a two-player game:

    1. at a Nightmare, where greedy would reveal the top 5 cards, discard the hand instead;
    2. in phase play, where greedy would discard a non-Key card that may be played on the
       active row, while that row has no open series of a colour the active player still
       needs, play the card instead."""
    a = greedy_action(state)
    if state.phase == "nightmare":
        return game.NM_REDRAW if a == game.NM_REVEAL else a
    if state.phase == "play" and game.DISCARD <= a < game.SWAP:
        zone, c = divmod(a - game.DISCARD, 12)
        row = state.rows[state.turn]
        last = row[-1] if row else None
        if not cards.is_key(c) and (last is None or cards.symbol(last) != cards.symbol(c)):
            open_needed = (last is not None and game.series_length(row) < 3
                           and cards.door_of(cards.colour(last)) not in state.doors[state.turn])
            if not open_needed:
                return game.PLAY + zone * 12 + c
    return a


BASES = {"greedy": greedy_action, "greedy-plus": duo_greedy_plus_action}


def _need_duo(view) -> None:
    if getattr(view, "players", 1) != 2:
        raise PolicyError("this policy plays two-player games only")


@register_policy("duo-greedy-plus",
                 doc="two-player greedy, but discard the hand rather than reveal at a "
                     "Nightmare, and play (not discard) a playable non-Key card")
class DuoGreedyPlus(PolicyBase):
    players = (2,)

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError("duo-greedy-plus plays two-player games only (--players 2)")

    def act(self, view, stream: int) -> int:
        _need_duo(view)
        return duo_greedy_plus_action(view)


# ----------------------------------------------------------------------------- playouts
def _draw(state, rnd: random.Random) -> int:
    """A card type drawn from ``state.unknown`` by its count."""
    u = state.unknown
    x = rnd.random() * sum(u)
    last = 0
    for t, n in enumerate(u):
        if n:
            last = t
            x -= n
            if x < 0:
                return t
    return last


def playout(state, base, rnd: random.Random) -> int:
    """Play the chance-mode two-player ``state`` to its end with ``base`` deciding for both
    seats and ``rnd`` drawing the unknown cards; returns the Doors in play at the end (8 =
    won).  Uses the engine's own steps (``_apply_decision``/``_apply_chance`` and
    ``_advance``) without ``apply_action``'s legality check, which costs half the time: the
    base policies return legal actions (``tests/solver/duo/test_duo_honest.py`` replays playouts through
    ``apply_action`` and gets the same end)."""
    s = state
    while not s.is_terminal():
        if s.is_chance_node():
            s._apply_chance(_draw(s, rnd))
        else:
            s._apply_decision(base(s))
        s._advance()
    return 8 if s.phase == "won" else len(s.all_doors())


def playout_checked(state, base, rnd: random.Random) -> int:
    """:func:`playout` through ``apply_action`` (every action checked): the reference."""
    s = state
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(DRAW + _draw(s, rnd))
        else:
            s.apply_action(base(s))
    return 8 if s.phase == "won" else len(s.all_doors())


# ----------------------------------------------------------------------------- candidates
def candidates(view, base_action: int, swaps: str = "base") -> list[int]:
    """The actions the rollout tries at ``view`` (see the module doc); the base action is
    always among them, first."""
    legal = view.legal_actions()
    out = [base_action]
    if view.phase == "play":
        keep_swap = None
        if game.DISCARD <= base_action < game.SWAP:
            keep_swap = base_action - game.DISCARD          # zone * 12 + card
        for a in legal:
            if a < game.SWAP:
                out.append(a)
            elif swaps == "all" or (swaps == "base" and (a - game.SWAP) // 144 == keep_swap):
                out.append(a)
    elif view.phase == "prophecy":
        k = min(PROPHECY_SIZE, view.deck_size())
        revealed = list(view.deck[:k])
        hand = view.active_hand()
        want = set()
        for i in range(k):
            rest = [revealed[j] for j in range(k) if j != i]
            rest.sort(key=lambda c: (_prophecy_value(view, hand, c), c), reverse=True)
            want.add((revealed[i], tuple(rest)))
        # the legal action of each wanted outcome (one per distinct outcome), in legal order
        by_outcome = view._prophecy_actions()
        out += sorted(by_outcome[w] for w in want)
    else:
        out += legal
    seen = set()
    return [a for a in out if not (a in seen or seen.add(a))]


# ----------------------------------------------------------------------------- the policy
@register_policy(
    "duo-rollout",
    params=rollout_params(n=6, z=2.0, screen=2, keep=2, swaps="base"),
    doc="two-player one-step rollout over engine/ (n playouts per candidate on positions "
        "dealt from the player's view, common random numbers, z-margin)")
class DuoRollout(PolicyBase):
    players = (2,)

    def __init__(self, n=6, z=2.0, screen=2, keep=2, base="greedy-plus", reward="doors",
                 swaps="base"):
        if base not in BASES:
            raise PolicyError(f"policy argument base: {base!r} is not one of "
                              f"{', '.join(BASES)}")
        if reward not in ("doors", "win"):
            raise PolicyError(f"policy argument reward: {reward!r} is not doors or win")
        if swaps not in ("base", "all", "none"):
            raise PolicyError(f"policy argument swaps: {swaps!r} is not base, all or none")
        _check("n", n, 1, 1 << 16)
        _check("z", z, 0.0)
        _check("screen", screen, 0)
        _check("keep", keep, 1)
        if math.isnan(z):
            raise PolicyError("policy argument z: must be a number")
        self.n, self.z, self.screen, self.keep = n, float(z), screen, keep
        self.base_name, self.base = base, BASES[base]
        self.reward, self.swaps = reward, swaps

    def check_players(self, players: int) -> None:
        if players != 2:
            raise PolicyError("duo-rollout plays two-player games only (--players 2)")

    def _score(self, doors: int) -> int:
        return doors if self.reward == "doors" else int(doors == 8)

    def _run(self, view, acts, js, key, res) -> None:
        """Playouts ``js`` of every action of ``acts``; scores appended to ``res[a]``."""
        for j in js:
            sub = rng.mix64(key ^ ((j + 1) * rng.GAMMA))
            pos = sample_position(view, random.Random(sub))
            for a in acts:
                s = pos.clone()
                s._apply_decision(a)
                s._advance()
                res[a].append(self._score(playout(s, self.base, random.Random(sub ^ 1))))

    def act(self, view, stream: int) -> int:
        _need_duo(view)
        if not is_duo_view(view):
            raise PolicyError("duo-rollout decides from a player's view (player_view)")
        legal = view.legal_actions()
        b = self.base(view)
        if len(legal) == 1:
            return legal[0]
        cands = candidates(view, b, self.swaps)
        if len(cands) == 1:
            return b
        key = rng.mix64((int(stream) ^ _SALT) & rng.MASK)
        res = {a: [] for a in cands}
        n = self.n
        if len(cands) > self.keep + 1 and 0 < self.screen < n:
            self._run(view, cands, range(self.screen), key, res)
            mean = {a: sum(r) / len(r) for a, r in res.items()}
            order = sorted((a for a in cands if a != b), key=lambda a: (-mean[a], a))
            cands = [b] + order[:self.keep]
            self._run(view, cands, range(self.screen, n), key, res)
        else:
            self._run(view, cands, range(n), key, res)
        best, best_d = b, 0.0
        rb = res[b]
        for a in cands:
            if a == b:
                continue
            d = [x - y for x, y in zip(res[a], rb)]
            m = len(d)
            mu = sum(d) / m
            var = sum((x - mu) ** 2 for x in d) / (m - 1) if m > 1 else 0.0
            if mu > self.z * math.sqrt(var / m) and mu > best_d:
                best, best_d = a, mu
        return best

