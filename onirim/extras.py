"""Optional extras: a missing one is named in the error, with the command that installs it."""
from __future__ import annotations

import importlib

from engine.errors import OnirimError


class MissingExtra(OnirimError, ModuleNotFoundError):
    """An optional dependency is not installed; the message names the extra to install.  A
    ``ModuleNotFoundError`` too, so that ``except ImportError`` still catches it."""


def require(module: str, extra: str, package: str, user: str):
    """``import module``, or :class:`MissingExtra` naming the ``extra`` of onirim (and the
    ``package`` on PyPI) that provides it; ``user`` is the module that needs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is not None and e.name != module and not module.startswith(e.name + "."):
            raise           # the extra is there but broken: its own error says what
        err = MissingExtra(f"{user} needs the optional extra [{extra}]: pip install "
                           f"'onirim[{extra}]' (or pip install {package}); {module} is not "
                           "installed")
        err.name = module
        raise err from None
