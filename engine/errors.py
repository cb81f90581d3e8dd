"""Exceptions of the engine.  Every bad input raises a subclass of :class:`OnirimError`, and
leaves any state it was given unchanged.

``OnirimError`` is the one base of every error the project raises on purpose; the solvers'
own errors (a budget, a memo file, a certificate, an unsupported position) derive from it in
:mod:`solver.errors`, where they belong."""


class OnirimError(ValueError):
    """Base class of every error the engine raises for bad input."""


class PositionError(OnirimError):
    """A position (notation or JSON) is malformed or impossible; ``field`` names the culprit."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class PlayerViewError(PositionError):
    """The text is a two-player *player's view* (the partner's hand written ``?,?,?``), not a
    full position: ``engine.notation.parse_position`` refuses it, and ``view`` holds it as
    ``engine.notation.parse_view`` reads it (a duo view, ``engine.view``), for a caller that
    can answer from one player's information."""

    def __init__(self, field: str, problem: str, view=None):
        super().__init__(field, problem)
        self.view = view


class IllegalActionError(OnirimError):
    """An action that is unknown, malformed, or not legal in the state it was applied to."""


class SeedError(OnirimError):
    """A seed outside 0 .. 2**64-1."""


class GameConfigError(OnirimError):
    """A game made with impossible settings (e.g. 3 players)."""
