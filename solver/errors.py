"""Errors of the solvers.  Each derives from :class:`engine.errors.OnirimError`, the one base
of every error the project raises on purpose, so a caller (the command line) that handles
``OnirimError`` handles them all: one line on stderr, exit status 2, no traceback.

Errors about a position, an action or a seed as such are the engine's
(:mod:`engine.errors`); the ones here are about what a solver or a policy can do with it.
"""
from __future__ import annotations

from engine.errors import OnirimError

__all__ = ["BudgetError", "MemoFileError", "UnsupportedPosition", "CertificateError",
           "CertificateTooLarge", "PolicyError"]


class BudgetError(OnirimError):
    """A search budget that is not a usable number: negative or zero, not finite, or past
    the largest the kernels can count (``solver.budgets``)."""


class MemoFileError(OnirimError):
    """An expectimax memo file (``Expectimax.load_memo`` / ``save_memo``) that cannot be used:
    not a memo file, damaged or truncated, written by another version of the kernel, or not
    readable or writable (``solver.expectimax.memo_file``)."""


class UnsupportedPosition(OnirimError):
    """A valid position the expectimax solver does not handle (two-player, long prefix)."""


class CertificateError(OnirimError, RuntimeError):
    """A certificate (a winning line from the clairvoyant search) that fails when replayed in
    ``engine/``: a kernel bug, never bad input.  Also a ``RuntimeError``, as it always was."""


class CertificateTooLarge(OnirimError):
    """A certification replay (``solver.expectimax.certify``) reached more distinct positions than its
    ``max_positions`` allows."""


class PolicyError(OnirimError):
    """An unknown policy name, an unknown or ill-typed policy argument (``solver.api``)."""
