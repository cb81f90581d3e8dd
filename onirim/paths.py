"""One check for every path a command writes to, with the same words everywhere.

``output_file(path, field)`` is for a file option (``--db``, ``--tree``, ``--memo``),
``output_folder(path, field)`` for a folder option (``bench --out``).  Both are called before
any long work starts, and both treat the same cases alike:

* an empty path is refused (it never means "a temporary file");
* a file option naming a folder, or a folder option naming a file, is refused;
* a missing folder is created, with its missing parents (as ``mkdir -p`` would), unless
  ``create=False``, in which case it is refused;
* a path that cannot be written (a read-only file or folder, a read-only file system) is
  refused; the test writes for real, since permission bits say nothing to root.

Each refusal is an :class:`OutputPathError` whose message is ``<field>: <problem>``, which
the command line prints as ``onirim: error: <field>: <problem>`` with exit status 2.  An
existing file is never modified by the check.
"""
from __future__ import annotations

import os
import tempfile

from engine.errors import OnirimError


class OutputPathError(OnirimError):
    """An output path that cannot be used; ``field`` names the option."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


def clip(text: str, limit: int = 60) -> str:
    """``text``, cut to about ``limit`` characters with the length of the whole (for echoing
    user input in one-line messages)."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:max(8, limit - 24)]}... ({len(text)} characters)"


def _show(path: str) -> str:
    return repr(clip(path, 200))


def _basic(path, field: str) -> str:
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise OutputPathError(field, f"expected a path, not {type(path).__name__}")
    if not path.strip():
        raise OutputPathError(field, "empty path: give a file or folder name")
    if "\x00" in path:
        raise OutputPathError(field, "the path contains a NUL character")
    return path


def _writable_folder(folder: str, field: str) -> None:
    """Refuse ``folder`` (an existing folder) unless a file can be created in it."""
    try:
        fd, name = tempfile.mkstemp(prefix=".onirim-write-check-", dir=folder)
    except OSError as e:
        raise OutputPathError(field, f"cannot write in folder {_show(folder)} "
                                     f"({e.strerror or e})") from None
    os.close(fd)
    try:
        os.unlink(name)
    except OSError:
        pass


def _make_folder(folder: str, field: str, create: bool) -> None:
    """Make sure ``folder`` exists as a folder (creating it and its parents if allowed)."""
    if os.path.isdir(folder):
        return
    # the nearest part of the path that exists must be a folder
    up = folder
    while up and not os.path.exists(up):
        parent = os.path.dirname(up)
        if parent == up:
            break
        up = parent
    if up and os.path.exists(up) and not os.path.isdir(up):
        raise OutputPathError(field, f"{_show(up)} is a file, not a folder")
    if not create:
        raise OutputPathError(field, f"folder {_show(folder)} does not exist")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise OutputPathError(field, f"cannot create folder {_show(folder)} "
                                     f"({e.strerror or e})") from None


def output_file(path, field: str, create: bool = True) -> str:
    """Check a file the command will write (and may read first).  Returns the path as an
    absolute path; raises :class:`OutputPathError`."""
    path = _basic(path, field)
    full = os.path.abspath(os.path.expanduser(path))
    if os.path.isdir(full):
        raise OutputPathError(field, f"{_show(path)} is a folder, not a file")
    if path.endswith(("/", os.sep)):
        raise OutputPathError(field, f"{_show(path)} names a folder, not a file")
    folder = os.path.dirname(full)
    _make_folder(folder, field, create)
    if os.path.exists(full):
        if not os.path.isfile(full):
            raise OutputPathError(field, f"{_show(path)} is not a regular file")
        try:
            with open(full, "ab"):
                pass
        except OSError as e:
            raise OutputPathError(field, f"{_show(path)} is not writable "
                                         f"({e.strerror or e})") from None
    else:
        _writable_folder(folder, field)
    return full


def output_folder(path, field: str, create: bool = True) -> str:
    """Check a folder the command will write files into.  Returns it as an absolute path;
    raises :class:`OutputPathError`."""
    path = _basic(path, field)
    full = os.path.abspath(os.path.expanduser(path))
    if os.path.exists(full) and not os.path.isdir(full):
        raise OutputPathError(field, f"{_show(path)} is a file, not a folder")
    _make_folder(full, field, create)
    _writable_folder(full, field)
    return full
