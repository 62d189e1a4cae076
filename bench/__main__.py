"""Run every benchmark module in this folder (or those whose names hold one of the arguments), in name
order, at their defaults, and print their figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main() -> int:
    only = sys.argv[1:]
    del sys.argv[1:]  # the names chosen here are not the benchmarks' own options: each runs at its defaults
    folder = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if m.name.startswith("bench_"))
    for name in names:
        if only and not any(o in name for o in only):
            continue
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name} ==", flush=True)
        start = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - start:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
