"""Compile the expert's hot path with mypyc, in place (``make compile``; see :mod:`sgmahjong.native`).

    python tools/compile.py           # build the extensions beside the sources (skipped, with one line
                                      # saying why, without a C compiler, Python's headers or mypyc)
    python tools/compile.py --check   # exit 1 if an extension is missing or older than its source
    python tools/compile.py --clean   # remove the extensions (the package then runs as pure Python)

The C sources and objects go to build/mypyc; the extensions (``*.so``) sit beside the ``.py`` files
and are not committed (``.gitignore``)."""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import logging
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgmahjong.native import COMPILED, extension, source, stale  # noqa: E402

GROUP = "sgmahjong._native"  # the shared library: sgmahjong/_native__mypyc.*.so
BUILD = ROOT / "build" / "mypyc"
STAMP = BUILD / ".compiled"


def missing() -> str | None:
    """Why this machine cannot compile, or ``None``."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.exists():
        return f"no Python headers ({header}; Debian: apt-get install python3-dev)"
    if importlib.util.find_spec("mypyc") is None:
        return "no mypyc (pip install mypy)"
    return None


def outputs() -> list[Path]:
    """Every extension module in the package: the compiled modules', the shared library, and those of
    modules compiled once and since taken off ``COMPILED`` (Python would import such a leftover in place
    of its source, and it fails against the new shared library)."""
    pkg = ROOT / "sgmahjong"
    return sorted({p for suffix in importlib.machinery.EXTENSION_SUFFIXES for p in pkg.rglob(f"*{suffix}")})


def up_to_date() -> bool:
    return all(extension(n) is not None and not stale(n) for n in COMPILED)


def clean() -> None:
    for p in outputs():
        p.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def build(quiet: bool) -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    paths = [str(source(n).relative_to(ROOT)) for n in COMPILED]
    clean()
    start = time.monotonic()
    exts = mypycify(paths, group_name=GROUP, opt_level="3", target_dir=str(BUILD / "c"))
    dist = Distribution({"name": "sgmahjong-native", "ext_modules": exts})
    if quiet:  # not every compiler command line
        dist.verbose = False
        logging.getLogger("setuptools").setLevel(logging.WARNING)
        from distutils import log as dlog
        dlog.set_threshold(dlog.WARN)
    cmd = build_ext(dist)
    cmd.inplace = True
    cmd.build_temp = str(BUILD / "temp")
    cmd.build_lib = str(BUILD / "lib")
    cmd.ensure_finalized()
    cmd.run()
    STAMP.parent.mkdir(parents=True, exist_ok=True)
    STAMP.touch()  # make's target (only when built: a skipped compile is tried again next time)
    print(f"compile: {len(COMPILED)} modules compiled with mypyc in {time.monotonic() - start:.0f} s: "
          + ", ".join(n.removeprefix("sgmahjong.") for n in COMPILED))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if an extension is missing or stale")
    ap.add_argument("--clean", action="store_true", help="remove the extensions")
    ap.add_argument("--quiet", action="store_true", help="not every compiler command")
    args = ap.parse_args()
    if args.clean:
        clean()
        return 0
    if args.check:
        return 0 if up_to_date() else 1
    why = missing()
    if why is not None:
        print(f"compile: skipped, {why}: the package runs as pure Python (slower expert)")
        return 0
    os.chdir(ROOT)  # mypycify takes paths relative to the working directory
    build(args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
