"""One user's game on the analysis board, and what the page may see of it.

The game is an engine ``State`` dealt by seed (deal mode, as ``onirim play``), moves are the
engine's action strings, and what a move did is told by ``onirim play``'s own
:func:`onirim.cmd_play.describe`.  What the page gets (:meth:`WebGame.board`) is the player's
view only (:func:`engine.view.observation_fields`: the deck's known top cards, its size, no
seed; in a two-player game the partner's cards as ``?``) until the game ends; then the seed
and the rest of the deck are added, with the command that replays the deal.  ``undo`` and
the whole deck exist only in analysis mode, as with ``onirim play --analysis``.

The win-probability graph: after each move the position the player faces is ranked (a
``best`` job with the graph's budget) and :func:`point_of` reads one number from the
ranking: the best action's exact value when the search proves a best action, otherwise the
highest estimate (the winning chance of the estimates' policy after the action, as the
ranking says), otherwise the highest ``lo``.  A move's drop is that number minus the played
action's own number in the same ranking, so a bad draw is not counted as a bad move.
"""
from __future__ import annotations

from engine.errors import GameConfigError, IllegalActionError
from engine.game import Game
from engine.notation import clip
from engine.view import observation_fields

from onirim.cmd_play import _stream, describe
from onirim.render import _series_groups, phase_line

# The game modes the page offers: name -> (label, players).  A new mode (the open
# two-player game, once the engine has it) is an entry here, its deal in ``WebGame``, and
# its fields on the page.
GAME_MODES = {"solo": ("solo", 1), "silent": ("two-player (the silent game)", 2)}
MODE_OF_PLAYERS = {1: "solo", 2: "silent"}     # ``onirim play --players N``'s game
MARKED_DROPS = 3          # the graph marks this many of the largest drops
MIN_DROP = 0.005          # ... when at least this large


def point_of(ranking: dict) -> dict | None:
    """One graph point from a ranking's JSON: ``value``, ``kind`` (exact, estimate, bound),
    the action with the highest number (``best``) and every action's number."""
    acts = ranking.get("actions") or []
    if not acts:
        return None
    if ranking.get("best") is not None:
        kind = "exact"
        per = {a["action"]: (a["value"] if a["exact"] else a["lo"]) for a in acts}
    elif any(a.get("estimate") is not None for a in acts):
        kind = "estimate"
        per = {a["action"]: (a["value"] if a["exact"] else a.get("estimate", a["lo"]))
               for a in acts}
    else:
        kind = "bound"
        per = {a["action"]: a["lo"] for a in acts}
    best = ranking.get("best") or max(per, key=per.get)
    return {"value": per[best], "kind": kind, "best": best, "actions": per,
            "interrupted": bool(ranking.get("interrupted"))}


class WebGame:
    """A game in progress: the state, the moves so far, the undo stack, the graph points."""

    def __init__(self, mode: str, seed: int, analysis: bool = False):
        if mode not in GAME_MODES:
            raise GameConfigError(f"mode: {clip(str(mode))!r} is not a game mode here "
                                  f"(known: {', '.join(GAME_MODES)})")
        self.mode, self.seed, self.analysis = mode, seed, analysis
        self.players = GAME_MODES[mode][1]
        self.state = Game(self.players).new_initial_state(seed)
        self.moves: list[dict] = []
        self.undo_stack: list = []
        self.points: dict[int, dict] = {}   # decision index -> point_of(its ranking)
        self.version = 0                    # bumped by every change (a stale job is dropped)

    # -------------------------------------------------------------- moves
    def view_text(self) -> str:
        """The player's view in the notation (what ``onirim best`` takes)."""
        return self.state.observation_string()

    def full_text(self) -> str:
        """The whole position with the deal (for the worker's hint, which reads only the
        player's view of it; never sent to the page before the game ends)."""
        from engine.notation import format_position
        return format_position(self.state)

    def hint_stream(self) -> int:
        return _stream(self.seed, len(self.moves))

    def move(self, label: str) -> dict:
        """Play the legal move named ``label`` (an engine action string)."""
        s = self.state
        if s.is_terminal():
            raise IllegalActionError("the game is over: start a new one")
        action = s.string_to_action(label)
        before = s.clone()
        position = self.view_text()
        log = s.apply_action_logged(action)
        name = before.action_to_string(action)
        lines = describe(before, s, log, name)
        if s.players == 2:
            lines = [_private_draws(line) for line in lines]
        entry = {"n": len(self.moves), "player": before.turn, "action": name,
                 "position": position, "log": lines}
        self.undo_stack.append(before)
        self.moves.append(entry)
        self.version += 1
        return entry

    def undo(self) -> None:
        if not self.analysis:
            raise IllegalActionError("undo is off: taking a move back after seeing the card "
                                     "it drew is not honest play. To analyse a game, start "
                                     "it in analysis mode (undo then works).")
        if not self.undo_stack:
            raise IllegalActionError("nothing to undo")
        self.state = self.undo_stack.pop()
        self.moves.pop()
        for i in [i for i in self.points if i > len(self.moves)]:
            del self.points[i]
        self.version += 1

    # -------------------------------------------------------------- the page's view
    def board(self) -> dict:
        s = self.state
        over = s.is_terminal()
        fields = observation_fields(s)
        deck = [c for c in fields.get("deck", []) if c != "*"]
        d = {"players": s.players, "game_mode": self.mode, "mode": GAME_MODES[self.mode][0],
             "phase": s.phase,
             "phase_text": phase_line(s), "turn": s.turn, "fields": fields,
             "deck_count": s.deck_size(), "deck_known": deck,
             "legal": [] if over else [s.action_to_string(a) for a in s.legal_actions()],
             "over": over, "won": s.won() if over else None,
             "analysis": self.analysis, "decisions": len(self.moves),
             "moves": [{k: m[k] for k in ("n", "player", "action", "log")}
                       for m in self.moves],
             "series": [[[_code(c) for c in g] for g in _series_groups(row)]
                        for row in s.rows],
             "position": self.view_text(), "position_json": fields,
             "modes": [[k, label] for k, (label, _) in GAME_MODES.items()],
             "version": self.version}
        if s.phase == "prophecy":
            d["revealed"] = deck[:min(5, s.deck_size())]
        if over:
            d["seed"] = self.seed
            flag = " --players 2" if s.players == 2 else ""
            d["replay"] = f"onirim play --seed {self.seed}{flag}"
            d["deck_rest"] = [_code(c) for c in s.deck]
            d["result"] = (f"You won: all 8 Doors are in play after {len(self.moves)} "
                           "decisions." if s.won() else
                           f"You lost: the deck ran out with {len(s.all_doors())} of 8 "
                           f"Doors in play after {len(self.moves)} decisions.")
        return d

    def deck(self) -> dict:
        """The whole deck in order (analysis mode only: it is not the player's view)."""
        if not self.analysis and not self.state.is_terminal():
            raise IllegalActionError("the deck is hidden: showing it is not honest play; "
                                     "start the game in analysis mode to see it")
        return {"deck": [_code(c) for c in self.state.deck], "seed": self.seed}

    def graph(self) -> dict:
        """The points so far, each move's drop, and the largest drops marked."""
        pts = []
        for i in range(len(self.moves) + 1):
            p = self.points.get(i)
            if i == len(self.moves) and self.state.is_terminal():
                p = {"value": 1.0 if self.state.won() else 0.0, "kind": "exact",
                     "best": None, "actions": {}}
            row = {"i": i, "value": None if p is None else p["value"],
                   "kind": None if p is None else p["kind"]}
            if i < len(self.moves):
                played = self.moves[i]["action"]
                row["played"] = played
                if p is not None and played in p["actions"]:
                    row["drop"] = max(0.0, p["value"] - p["actions"][played])
                    row["better"] = p["best"] if p["best"] != played else None
            pts.append(row)
        drops = sorted((r for r in pts if r.get("drop", 0) >= MIN_DROP and r.get("better")),
                       key=lambda r: -r["drop"])[:MARKED_DROPS]
        for r in drops:
            r["marked"] = True
        return {"points": pts, "marked": [r["i"] for r in drops]}


def _private_draws(line: str) -> str:
    """Two players: a line of ``describe`` that names the cards drawn into a hand (``drew Os
    Am``) says only how many, since a player does not see the partner's hand; Doors and
    Nightmares drawn, limbo and reveals are public and stay."""
    if line.startswith("drew ") and ":" not in line and "," not in line:
        n = len(line.split()) - 1
        return f"drew {n} card{'s' if n != 1 else ''}"
    return line


def _code(c: int) -> str:
    from engine.cards import CODES
    return CODES[c]
