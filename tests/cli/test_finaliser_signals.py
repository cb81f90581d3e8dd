"""Signals that land inside a finaliser (``__del__``), where Python cannot raise them: while a
command runs (``onirim.cli.sigterm_as_interrupt``) a KeyboardInterrupt there is delivered again
to the command, and llvmlite's finaliser errors that such an interrupt leaves behind are not
printed after the command's one "interrupted" line (seen once in a fresh clone's run of
tests/cli/test_faults.py, ``onirim bound`` under SIGTERM)."""
from __future__ import annotations

import sys
import time

import pytest

from onirim import cli


class _InterruptedFinaliser:
    def __del__(self):
        raise KeyboardInterrupt


def _wait_for_the_signal():
    for _ in range(2000):       # the re-delivered signal is taken at a bytecode boundary
        time.sleep(0.001)


def test_an_interrupt_inside_a_finaliser_reaches_the_command():
    with pytest.raises(KeyboardInterrupt):
        with cli.sigterm_as_interrupt():
            _InterruptedFinaliser()       # dropped at once: __del__ raises the interrupt
            _wait_for_the_signal()


def test_the_hook_is_python_s_again_after_the_command():
    before = sys.unraisablehook
    with cli.sigterm_as_interrupt():
        assert sys.unraisablehook is cli._unraisable
    assert sys.unraisablehook is before


def _finaliser_error(module):
    class Half:
        def __del__(self):
            raise AttributeError("_as_parameter_")
    Half.__del__.__module__ = module
    return Half


def test_llvmlites_finaliser_noise_is_dropped_and_other_errors_are_not(capsys):
    with cli.sigterm_as_interrupt():
        _finaliser_error("llvmlite.binding.ffi")()
        assert capsys.readouterr().err == ""
        _finaliser_error("solver.something")()
        assert "AttributeError: _as_parameter_" in capsys.readouterr().err
