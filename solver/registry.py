"""The registries: policies by name (``register_policy``, with the parameters of a policy,
``Param``, and the defaults of its optional hooks, ``PolicyBase``) and solvers by mode
(``register_solver``, with the defaults of a solver, ``SolverBase``).

Kept apart from :mod:`solver.api` so that the built-in policies and solvers register
themselves without importing ``solver.api``, which loads them: no import cycle.
``solver.api`` re-exports every name here; use it from there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import PolicyError

__all__ = ["Param", "PolicyBase", "PolicyEntry", "check_range", "register_policy",
           "build_policy", "SolverBase", "SolverEntry", "register_solver", "OPTIONS"]


class PolicyBase:
    """The optional hooks of a policy (``solver.api.Policy``), with their defaults.  A policy
    class may derive from this; ``make_policy`` gives a policy that does not the same
    defaults, so callers use the hooks directly, never ``getattr``.

    * ``players``: the player counts the policy plays (a tuple), or None if it cannot say
      before it sees a position (it then refuses a view it cannot play);
    * ``warm_up()``: compile or load what the policy needs, called once before the first
      timed decision (default: nothing);
    * ``family``: the kernel family (``onirim.precompile.FAMILIES``) whose compiled kernels
      ``warm_up`` loads, or None if it cannot say (``onirim winrate``'s compile notice asks
      numba's cache about that family)."""

    players: tuple | None = None
    family: str | None = None

    def warm_up(self) -> None:
        """Nothing to prepare."""


def with_hooks(policy):
    """``policy`` with every hook of :class:`PolicyBase` it lacks set to the default."""
    if not isinstance(policy, PolicyBase):
        for hook in ("players", "family", "warm_up"):
            if not hasattr(policy, hook):
                setattr(policy, hook, getattr(PolicyBase, hook) if hook != "warm_up"
                        else PolicyBase.warm_up.__get__(policy))
    return policy


@dataclass(frozen=True)
class Param:
    """One policy parameter: its name, type (int, float, str or bool), default and help.

    ``late``: a parameter added after rows of the policy were stored.  While it is at its
    default it is left out of ``policy.config``, so the config (and its hash, which names a
    run's results and lets it resume) of every earlier setting stays what it was."""

    name: str
    type: type
    default: Any
    help: str = ""
    late: bool = False

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
    """Class or function decorator: register ``factory(**args)`` as policy ``name``.  A class
    gets ``name`` as a class attribute too, so an instance made without :func:`build_policy`
    (which sets it on every policy it builds) names itself in its messages."""
    def deco(factory):
        if name in _REGISTRY and _REGISTRY[name].factory is not factory:
            raise PolicyError(f"policy {name!r} is registered twice")
        if isinstance(factory, type):
            factory.name = name
        _REGISTRY[name] = PolicyEntry(name, factory, tuple(params),
                                      doc or (factory.__doc__ or "").strip().split("\n")[0])
        return factory
    return deco


def build_policy(name: str, **args):
    """The registered policy ``name`` with ``args`` (strings are parsed by the parameter's
    type), its hooks filled in (``with_hooks``), ``name`` and ``config`` set (every
    parameter, defaults filled in, but a ``late`` one at its default).  Only the
    policies registered so far: ``solver.api.make_policy`` loads the built-in ones first."""
    if name not in _REGISTRY:
        raise PolicyError(f"policy {name!r} is unknown (known: {', '.join(sorted(_REGISTRY))})")
    entry = _REGISTRY[name]
    known = {p.name: p for p in entry.params}
    for k in args:
        if k not in known:
            raise PolicyError(f"policy {name!r} has no argument {k!r}"
                              + (f" (arguments: {', '.join(known)})" if known else ""))
    config = {p.name: (p.parse(args[p.name]) if p.name in args else p.default)
              for p in entry.params}
    policy = with_hooks(entry.factory(**config))
    policy.name = name
    policy.config = {k: v for k, v in config.items()
                     if not (known[k].late and v == known[k].default)}
    return policy


# ----------------------------------------------------------------------------- solvers
class SolverBase:
    """Defaults for the parts of :class:`Solver` that many solvers do not need."""

    viewer = "player"      # whose view ``position`` ranks when it gives a note (JSON "view")

    def position(self, state, hide: bool = False):
        """The position as given, no note."""
        return state, None

    def prepare(self, state=None, say=None) -> None:
        """Nothing to compile."""

    def memo_note(self) -> str | None:
        """No memo line in the text output."""
        return None


@dataclass
class SolverEntry:
    mode: str
    factory: Callable
    players: tuple
    options: frozenset
    doc: str


# The clairvoyant (deal-mode) solver of each player count, for the ``clairvoyant`` mode of
# ``solver.clairvoyant.rank``.  Each family registers its own class from its own module
# (``solver.clairvoyant.solve``: 1, ``solver.duo.search``: 2), so that the solo family need
# not import the two-player one, which builds on it.
CLAIRVOYANT_SOLVERS: dict[int, type] = {}


def register_clairvoyant(players: int):
    """Class decorator: ``cls`` is the clairvoyant solver of ``players``-player deals."""
    def deco(cls):
        CLAIRVOYANT_SOLVERS[players] = cls
        return cls
    return deco


_SOLVERS: dict[str, SolverEntry] = {}
OPTIONS = ("threads", "table_bits", "memo", "view", "line", "tree", "certify")


# the modules whose import registers the built-in solvers (names, imported on demand by
# solver_entry; solver.api.solver_entries imports the same three)
BUILTIN_SOLVER_MODULES = ("solver.clairvoyant.rank", "solver.duo.open_search",
                          "solver.expectimax.solver")


def solver_entry(mode: str) -> "SolverEntry":
    """The registered solver of ``mode``, the built-in ones imported first if it is not
    registered yet (a caller inside ``solver/`` may need one before ``solver.api`` loaded
    them).  KeyError for a mode nobody registers."""
    if mode not in _SOLVERS:
        import importlib
        for name in BUILTIN_SOLVER_MODULES:
            importlib.import_module(name)
    return _SOLVERS[mode]


BUILTIN_POLICY_MODULE = "solver.policies"     # registers every built-in policy


def load_builtin_policies() -> None:
    """Register the built-in policies (imported by name, as :func:`solver_entry` imports the
    built-in solvers: a module inside ``solver/`` that needs a policy its own imports must not
    reach, such as a default defined above it, builds it through :func:`builtin_policy`)."""
    import importlib
    importlib.import_module(BUILTIN_POLICY_MODULE)


def builtin_policy(name: str, **args):
    """:func:`build_policy` with the built-in policies registered first."""
    load_builtin_policies()
    return build_policy(name, **args)


def register_solver(mode: str, players=(1,), options=(), doc: str = ""):
    """Class decorator: register ``factory(**kw)`` as the solver of ``mode`` for the player
    counts ``players``.  ``options`` names what it takes beyond the budgets (out of
    ``OPTIONS``; ``threads`` and ``table_bits`` are passed to the factory);
    ``solver.api.rank`` refuses the others with one line."""
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise ValueError(f"unknown solver options {sorted(unknown)}")

    def deco(factory):
        old = _SOLVERS.get(mode)
        if old is not None and old.factory is not factory:
            raise ValueError(f"solver mode {mode!r} is registered twice")
        _SOLVERS[mode] = SolverEntry(mode, factory, tuple(players), frozenset(options),
                                     doc or (factory.__doc__ or "").strip().split("\n")[0])
        return factory
    return deco


