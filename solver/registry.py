"""The policy registry: ``register_policy`` and the parameters of a policy (``Param``).

Kept apart from :mod:`solver.api` so that the built-in policies (:mod:`solver.policies`)
register themselves without importing ``solver.api``, which loads them: no import cycle.
``solver.api`` re-exports every name here; use it from there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import PolicyError

__all__ = ["Param", "PolicyEntry", "check_range", "register_policy"]


@dataclass(frozen=True)
class Param:
    """One policy parameter: its name, type (int, float, str or bool), default and help."""

    name: str
    type: type
    default: Any
    help: str = ""

    def parse(self, value):
        """``value`` (a string from the command line, or a Python value) as ``self.type``."""
        if isinstance(value, str) and self.type is not str:
            text = value.strip()
            try:
                if self.type is bool:
                    if text.lower() in ("1", "true", "yes", "on"):
                        return True
                    if text.lower() in ("0", "false", "no", "off"):
                        return False
                    raise ValueError
                return self.type(text)
            except ValueError:
                raise PolicyError(f"policy argument {self.name}: {value!r} is not "
                                  f"{self.type.__name__}") from None
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not isinstance(value, self.type) or (self.type is int and isinstance(value, bool)):
            raise PolicyError(f"policy argument {self.name}: {value!r} is not "
                              f"{self.type.__name__}")
        return value


def check_range(name: str, value, lo, hi=None) -> None:
    """A policy argument's range check, one line of ``PolicyError`` when it is outside
    ``[lo, hi]`` (``hi`` None: no upper bound)."""
    if value < lo or (hi is not None and value > hi):
        rng_text = f">= {lo}" if hi is None else f"from {lo} to {hi}"
        raise PolicyError(f"policy argument {name}: {value!r} must be {rng_text}")


@dataclass
class PolicyEntry:
    name: str
    factory: Callable[..., Any]
    params: tuple
    doc: str


_REGISTRY: dict[str, PolicyEntry] = {}


def register_policy(name: str, params=(), doc: str = ""):
    """Class or function decorator: register ``factory(**args)`` as policy ``name``."""
    def deco(factory):
        if name in _REGISTRY and _REGISTRY[name].factory is not factory:
            raise PolicyError(f"policy {name!r} is registered twice")
        _REGISTRY[name] = PolicyEntry(name, factory, tuple(params),
                                      doc or (factory.__doc__ or "").strip().split("\n")[0])
        return factory
    return deco
