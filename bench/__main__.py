"""Run every benchmark module in this folder, in name order, and print their figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main() -> int:
    only = sys.argv[1:]
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
