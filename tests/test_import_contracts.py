"""The layers of the package are checked by import-linter (``make lint`` runs ``lint-imports`` with the
contracts in pyproject.toml): they hold for the code as it is, and each one fails on a violation
added to a copy of the package. And no module of the package grows past 500 lines."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = str(Path(sys.executable).parent / "lint-imports")

MAX_LINES = 500
"""The longest a module of the package may be (docs/ARCHITECTURE.md)."""

# (module file, a line that breaks one contract, the contract's name)
VIOLATIONS = [
    ("tiles.py", "from .server import settings as _settings", "The rules core never imports"),
    ("bots/base.py", "from ..server import protocol as _protocol", "The bots never import the server"),
    ("server/table/seats.py", "from starlette import routing as _routing", "Only the HTTP edge"),
    ("server/store/base.py", "from .. import tables as _tables", "No import cycles inside the package"),
]


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LINT, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300,
                          check=False)


def test_the_package_keeps_its_import_contracts() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_each_contract_fails_on_a_violation(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "sgmahjong", tmp_path / "sgmahjong",
                    ignore=shutil.ignore_patterns("static", "*.so", "__pycache__", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for path, line, _ in VIOLATIONS:
        module = tmp_path / "sgmahjong" / path
        module.write_text(module.read_text() + f"\n{line}  # a violation\n")
    result = _lint(tmp_path)
    assert result.returncode != 0
    for _, _, contract in VIOLATIONS:
        assert any(contract in row and " BROKEN" in row for row in result.stdout.splitlines()), (
            contract, result.stdout)


def test_every_module_of_the_package_stays_within_its_length() -> None:
    lengths = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
               for p in (ROOT / "sgmahjong").rglob("*.py")}
    assert len(lengths) > 100, "the package's modules are found"
    too_long = {path: n for path, n in lengths.items() if n > MAX_LINES}
    assert too_long == {}, f"split these modules: {too_long}"
