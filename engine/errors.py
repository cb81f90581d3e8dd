"""Exceptions of the engine.  Every bad input raises a subclass of :class:`OnirimError`, and
leaves any state it was given unchanged."""


class OnirimError(ValueError):
    """Base class of every error the engine raises for bad input."""


class PositionError(OnirimError):
    """A position (notation or JSON) is malformed or impossible; ``field`` names the culprit."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class IllegalActionError(OnirimError):
    """An action that is unknown, malformed, or not legal in the state it was applied to."""


class SeedError(OnirimError):
    """A seed outside 0 .. 2**64-1."""


class GameConfigError(OnirimError):
    """A game made with impossible settings (e.g. 3 players)."""


class BudgetError(OnirimError):
    """A search budget that is not a usable number: negative or zero, not finite, or past
    the largest the kernels can count (``solver.budgets``)."""


class MemoFileError(OnirimError):
    """An expectimax memo file (``Expectimax.load_memo`` / ``save_memo``) that cannot be used:
    not a memo file, damaged or truncated, written by another version of the kernel, or not
    readable or writable (``solver.memo_file``)."""
