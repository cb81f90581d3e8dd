"""The policy and solver interface: one place where a new player or solver plugs in.

Policies
--------
A *policy* plays honest Onirim: at each decision it receives the player's view of the
position (:func:`engine.view.player_view`: a chance-mode ``State`` holding only what the player
may know) and a 64-bit ``stream`` number for its own randomness, and returns a legal action
(an integer of ``engine.game``'s action layout).  It never sees the real state, so it cannot
read the hidden deck order.  Given the same view and the same stream, it must return the same
action: that is what makes honest win rates reproducible and lets tests permute the hidden
cards and check that no decision changes.

Policies are registered by name with their parameters::

    from solver.api import Param, register_policy

    @register_policy("keys-first", params=[Param("patience", int, 2, "turns to wait")],
                     doc="discards a Key whenever it can")
    class KeysFirst:
        def __init__(self, patience=2):
            self.patience = patience
        def act(self, view, stream):
            ...

``make_policy(name, **args)`` builds one, checking every argument (``PolicyError`` names the
problem); ``policy.config`` is then the full configuration, and :func:`config_hash` its
stable hash, stored with every honest result.  ``docs/POLICIES.md`` walks through a complete
example.

Solvers
-------
A *solver* answers questions about a position: :class:`Solver` (``value`` and ``rank``).  Its
answers are :class:`ActionValue` rows in a :class:`Ranking`, the JSON of SPEC section 6:
``lo``/``hi`` are sound bounds, ``value`` is the exact value or ``None`` (never a midpoint),
and ``estimate``/``ci95`` carry a search policy's estimate, kept apart from the bounds.
``best`` is an action only when it is proven best; otherwise ``leader`` names the front runner
and ``criterion`` says how it was chosen.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from .errors import PolicyError
from .registry import _REGISTRY, Param, PolicyEntry, register_policy

__all__ = ["Policy", "Param", "PolicyEntry", "PolicyError", "register_policy",
           "policy_entries", "parse_policy_args", "make_policy", "config_hash", "Solver",
           "ActionValue", "Ranking", "EXACT_TOL"]

# Bounds closer than this are one value (see solver.expectimax.EXACT_TOL).
EXACT_TOL = 1e-15


# ----------------------------------------------------------------------------- policies
@runtime_checkable
class Policy(Protocol):
    """Decides from the player's view.  ``act`` returns a legal action of ``view``."""

    name: str
    config: dict

    def act(self, view, stream: int) -> int: ...


_BUILTINS_LOADED = False


def _load_builtins() -> None:
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        _BUILTINS_LOADED = True
        from . import policies  # noqa: F401  (registers the built-in policies)


def policy_entries() -> dict[str, PolicyEntry]:
    """Every registered policy, by name."""
    _load_builtins()
    return dict(sorted(_REGISTRY.items()))


def parse_policy_args(pairs) -> dict[str, str]:
    """``["k=v", ...]`` (``--policy-arg``) as a dict; a malformed pair is a PolicyError."""
    out: dict[str, str] = {}
    for p in pairs or ():
        k, sep, v = str(p).partition("=")
        if not sep or not k.strip():
            raise PolicyError(f"policy argument {p!r}: expected key=value")
        if k.strip() in out:
            raise PolicyError(f"policy argument {k.strip()!r} is given twice")
        out[k.strip()] = v
    return out


def make_policy(name: str, **args):
    """The policy ``name`` with ``args`` (strings are parsed by the parameter's type).

    The returned object has ``name`` and ``config`` (every parameter, defaults filled in)."""
    entries = policy_entries()
    if name not in entries:
        raise PolicyError(f"policy {name!r} is unknown (known: {', '.join(entries)})")
    entry = entries[name]
    known = {p.name: p for p in entry.params}
    for k in args:
        if k not in known:
            raise PolicyError(f"policy {name!r} has no argument {k!r}"
                              + (f" (arguments: {', '.join(known)})" if known else ""))
    config = {p.name: (p.parse(args[p.name]) if p.name in args else p.default)
              for p in entry.params}
    policy = entry.factory(**config)
    policy.name = name
    policy.config = dict(config)
    return policy


def config_hash(policy) -> str:
    """A stable hash of the policy's name and full configuration (16 hex digits)."""
    text = json.dumps({"policy": policy.name, "config": policy.config}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ----------------------------------------------------------------------------- results
@dataclass
class ActionValue:
    """One action's answer: sound bounds, the exact value when proven, and an estimate."""

    action: str
    lo: float
    hi: float
    value: float | None = None            # exact value, or None
    estimate: float | None = None         # a search policy's estimate of its winning chance
    ci95: tuple[float, float] | None = None

    @property
    def exact(self) -> bool:
        return self.hi - self.lo <= EXACT_TOL

    def to_json(self) -> dict:
        d = {"action": self.action, "value": self.value if self.exact else None,
             "lo": self.lo, "hi": self.hi, "exact": self.exact}
        if d["value"] is None and self.exact:
            d["value"] = self.lo
        if self.estimate is not None:
            d["estimate"] = self.estimate
            d["ci95"] = list(self.ci95) if self.ci95 is not None else None
        return d


def proven_best(actions: list[ActionValue]) -> ActionValue | None:
    """The action whose ``lo`` is at least every other action's ``hi``, if there is one."""
    if not actions:
        return None
    top = max(actions, key=lambda a: a.lo)
    if all(top.lo >= a.hi - EXACT_TOL for a in actions if a is not top):
        return top
    return None


@dataclass
class Ranking:
    """A ranked answer for one position (SPEC section 6)."""

    position: str
    mode: str
    actions: list[ActionValue]
    nodes: int = 0
    seconds: float = 0.0
    leader: str | None = None
    criterion: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def best(self) -> str | None:
        b = proven_best(self.actions)
        return b.action if b is not None else None

    def to_json(self) -> dict:
        d = {"position": self.position, "mode": self.mode,
             "actions": [a.to_json() for a in self.actions], "best": self.best,
             "nodes": self.nodes, "seconds": self.seconds}
        if d["best"] is None:
            d["leader"] = self.leader
            d["criterion"] = self.criterion
        d.update(self.extra)
        return d


@runtime_checkable
class Solver(Protocol):
    """Answers about a position (a ``State`` or its notation)."""

    def value(self, position) -> tuple[float, float]: ...

    def rank(self, position) -> Ranking: ...
