"""Validation of search budgets, shared by the API and the command line.

A node budget is a whole number from 1 to ``MAX_NODES`` (the kernels count nodes in int64);
a time budget is a finite number of seconds above 0 and at most ``MAX_SECONDS`` (the
kernels hold deadlines as int64 microseconds).  ``None`` means no budget of that kind.
Anything else raises :class:`solver.errors.BudgetError` before any search starts, so a bad
budget never leaves a half-done search or a traceback behind.
"""
from __future__ import annotations

import os

import math
import numbers

from .errors import BudgetError

MAX_NODES = 1 << 62
MAX_SECONDS = 1e7          # about 116 days


def _subject(name: str) -> str:
    """``name`` as the subject of a message: a command-line option gets the error line's
    ``<field>: <problem>`` form (``--budget-s: must be ...``), an API name reads as prose
    (``time budget must be ...``)."""
    return f"{name}:" if name.startswith("-") else name


def check_nodes(n, name: str = "node budget", allow_zero: bool = False):
    """``n`` as an int, or None; raises BudgetError naming ``name`` when unusable."""
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise BudgetError(f"{_subject(name)} must be a whole number, not {n!r}")
    n = int(n)
    lo = 0 if allow_zero else 1
    if not lo <= n <= MAX_NODES:
        raise BudgetError(f"{_subject(name)} must be from {lo} to 2**62, not {n}")
    return n


def check_seconds(t, name: str = "time budget", allow_zero: bool = False):
    """``t`` as a float, or None; raises BudgetError naming ``name`` when unusable."""
    if t is None:
        return None
    if isinstance(t, bool) or not isinstance(t, numbers.Real):
        raise BudgetError(f"{_subject(name)} must be a number of seconds, not {t!r}")
    t = float(t)
    if not math.isfinite(t) or not (0 <= t if allow_zero else 0 < t) or t > MAX_SECONDS:
        raise BudgetError(f"{_subject(name)} must be a {'' if allow_zero else 'positive '}number of "
                          f"seconds up to {MAX_SECONDS:g}, not {t!r}")
    return t


def available_memory() -> int | None:
    """Bytes of memory available now (Linux: MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
