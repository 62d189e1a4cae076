"""What the calculator's offline scorer needs from the static build (docs/delivery.md): Pyodide's files
(CPython on WebAssembly, from its npm package pinned in ``tools/pyodide``) and the pure-Python modules
of the scorer packed in one zip, which ``js/score-worker.js`` unpacks into Pyodide's file system.

The page runs :func:`sgmahjong.calculator.score_answer` there, the very function of ``POST /api/score``:
no second copy of the rules. Without the npm package (``make serve`` with no npm) the build has no
offline scorer and the page does not offer it.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import sgmahjong

PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
)
"""The files of Pyodide's npm package that ``loadPyodide`` fetches (no packages beyond the stdlib)."""

CORE_MODULES = (
    "sgmahjong", "sgmahjong.analysis", "sgmahjong.analysis.decompose", "sgmahjong.analysis.special",
    "sgmahjong.analysis.tables", "sgmahjong.analysis.waits", "sgmahjong.calculator", "sgmahjong.cli",
    "sgmahjong.errors", "sgmahjong.hand", "sgmahjong.melds", "sgmahjong.native", "sgmahjong.notation",
    "sgmahjong.payments", "sgmahjong.rules", "sgmahjong.scoring", "sgmahjong.scoring.context",
    "sgmahjong.scoring.facts", "sgmahjong.scoring.patterns", "sgmahjong.scoring.patterns.bonus",
    "sgmahjong.scoring.patterns.circumstances", "sgmahjong.scoring.patterns.flushes",
    "sgmahjong.scoring.patterns.honours", "sgmahjong.scoring.patterns.shapes",
    "sgmahjong.scoring.patterns.terminals", "sgmahjong.scoring.reference", "sgmahjong.scoring.registry",
    "sgmahjong.scoring.scorer", "sgmahjong.scoring.special", "sgmahjong.tiles",
)
"""Every module ``import sgmahjong.calculator`` loads (tests/test_offline_scorer.py checks the list in a
clean interpreter): their ``.py`` sources only, never a compiled extension, and nothing that does I/O."""

CORE_ZIP = "pyodide/core.zip"
"""The zip's path among the static files (served under its own hash, like a font)."""

PACKAGE = Path(sgmahjong.__file__).resolve().parent
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every entry's date: the same sources make the same bytes


def default_pyodide_dir() -> Path:
    """Where ``make pyodide`` (npm ci in tools/pyodide) puts Pyodide's package in a checkout."""
    return PACKAGE.parent / "tools" / "pyodide" / "node_modules" / "pyodide"


def pyodide_version(dist: Path | None) -> str | None:
    """The version of the Pyodide package in ``dist``, or None when it is missing or incomplete."""
    if dist is None or not all((dist / name).is_file() for name in (*PYODIDE_FILES, "package.json")):
        return None
    try:
        version = json.loads((dist / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None
    return version if isinstance(version, str) and version.replace(".", "").isalnum() else None


def module_source(name: str) -> Path:
    """The ``.py`` file of a package module (a package's ``__init__.py``)."""
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def core_inputs() -> list[Path]:
    """The source files packed into the core zip."""
    return [module_source(name) for name in CORE_MODULES]


def core_zip() -> bytes:
    """The core modules' sources as one zip (``sgmahjong/...py``), the same bytes for the same sources."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in core_inputs():
            info = zipfile.ZipInfo(path.relative_to(PACKAGE.parent).as_posix(), _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
    return out.getvalue()
