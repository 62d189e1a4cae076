"""The modules compiled to C with mypyc (``make compile``, ``tools/compile.py``), and the guard that
keeps a compiled module from standing in for a newer source.

The expert's rollouts run through :mod:`.bots.lean` (with :mod:`.bots.lean_state`,
:mod:`.bots.lean_seat` and :mod:`.bots.lean_policy`), the quick policy in
:mod:`.bots.forward`, the distance arithmetic of :mod:`.bots.efficiency`, the shape waits of
:mod:`.analysis.waits`, the wall shuffle of :mod:`.bots.shuffle` and the values at a horizon of
:mod:`.bots.horizon` (the expert's ``cut`` option). Compiled in place, each sits as an
extension module beside its ``.py`` file (``lean.cpython-311-x86_64-linux-gnu.so``), with the shared
``sgmahjong/_native__mypyc*.so``, and Python imports the extension first. The pure Python is the
reference and behaves identically (a test plays the expert both ways); a machine without a C compiler
runs it as it is.

:func:`install` (called when the package is imported) puts a finder first on ``sys.meta_path`` that
loads the compiled modules' ``.py`` files instead of their extensions when

- ``SGMAHJONG_PURE`` is set in the environment (to ``1``): the pure Python, for comparing; or
- any extension is older than its source (an edit since the last ``make compile``): with a warning, so
  that a stale build never runs silently in place of the code being read.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED = (
    "sgmahjong.analysis.waits",
    "sgmahjong.bots.efficiency",
    "sgmahjong.bots.shuffle",
    "sgmahjong.bots.forward",
    "sgmahjong.bots.lean_seat",
    "sgmahjong.bots.lean_state",
    "sgmahjong.bots.lean",
    "sgmahjong.bots.lean_policy",
    "sgmahjong.bots.horizon",
)
"""The compiled modules (leaves first), by name."""

INLINED = ("sgmahjong.tiles", "sgmahjong.game.state")
"""Modules whose ``Final`` constants the compiled code holds inlined (``NUM_PLAYING``, the phases): an
extension older than one of them is stale too."""

PURE_ENV = "SGMAHJONG_PURE"
ROOT = Path(__file__).resolve().parent


def source(name: str) -> Path:
    """The ``.py`` file of a package module."""
    return ROOT.joinpath(*name.split(".")[1:]).with_suffix(".py")


def extension(name: str) -> Path | None:
    """The compiled extension of a package module, if one was built for this Python."""
    py = source(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        so = py.with_suffix(suffix)
        if so.exists():
            return so
    return None


def stale(name: str) -> bool:
    """Whether ``name`` has an extension older than its source (or than a module in ``INLINED``)."""
    so = extension(name)
    if so is None:
        return False
    built = so.stat().st_mtime
    return any(built < source(n).stat().st_mtime for n in (name, *INLINED))


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def is_compiled(module: ModuleType) -> bool:
    """Whether a loaded module is the compiled extension."""
    return str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads the ``.py`` of every compiled module when the pure Python is asked for or any extension is
    stale (all of them: compiled modules call each other's compiled code directly, so one stale
    extension would still run beside the other sources)."""

    def __init__(self) -> None:
        self.stale: list[str] | None = None  # found at the first import of a compiled module

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        if not pure_requested():
            if self.stale is None:
                self.stale = [n for n in COMPILED if stale(n)]
                if self.stale:
                    warnings.warn(f"compiled modules older than their sources ({', '.join(self.stale)}): "
                                  "running the pure Python (`make compile` rebuilds)", RuntimeWarning,
                                  stacklevel=2)
            if not self.stale:
                return None  # the normal import: the extension first, else the source
        return importlib.util.spec_from_file_location(fullname, source(fullname))


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())
