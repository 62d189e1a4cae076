"""Lighthouse on the eight pages, mobile and desktop: every category's score (docs/delivery.md).

    .venv/bin/python -m bench lighthouse                     (``make bench`` runs it with the others)
    .venv/bin/python -m bench.bench_lighthouse --mode mobile --page scoring
    .venv/bin/python -m bench.bench_lighthouse --runs 3     (each score the median of three rounds)

Lighthouse 12.2.3 is pinned in tools/lighthouse (``npm ci`` there installs it; this does it when
node_modules is missing) and drives Debian's Chromium (``CHROME_PATH``, default /usr/bin/chromium),
headless. The pages are served by a server on a free local port with a temporary database, holding a
finished hand (for the replay) and a table in play against bots (seen as a spectator). Lighthouse's
default throttling: simulated, so the performance score depends on how busy the machine's CPU is
(its "benchmarkIndex" is printed); tests/test_lighthouse.py asserts the other categories.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "lighthouse"
CLI = TOOL / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
MODES = ("mobile", "desktop")
ATTEMPTS = 3  # Lighthouse runs of a page before its error is final
#: the issue's bar: category -> least score (0-100)
THRESHOLDS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 95}
#: a table against bots that stays in play: the bots act at once, the absent human's seat is not taken
#: over, so the hand waits for East's first discard (FAST_OPTIONS would let a bot play the hand out)
IN_PLAY = {"bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "claim_pause": 0, "takeover_seconds": 3600}


def ensure_lighthouse() -> Path:
    """The Lighthouse CLI script, installed from tools/lighthouse/package-lock.json when missing."""
    if not CLI.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("Lighthouse needs Node.js and npm: apt-get install nodejs npm")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOL, check=True)
    return CLI


def lighthouse(url: str, mode: str) -> dict[str, Any]:
    """Lighthouse's JSON report of ``url`` in ``mode`` ("mobile" or "desktop")."""
    node = shutil.which("node") or "node"
    with tempfile.TemporaryDirectory(prefix="sgmj-lh-") as tmp:
        out = Path(tmp) / "report.json"
        command = [
            node, str(ensure_lighthouse()), url, "--output=json", f"--output-path={out}", "--quiet",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags=--headless=new --no-sandbox --disable-gpu --user-data-dir={tmp}/profile",
        ]
        if mode == "desktop":
            command.append("--preset=desktop")
        env = {**os.environ, "CHROME_PATH": CHROME}
        for attempt in range(ATTEMPTS):
            try:
                subprocess.run(command, check=True, env=env, timeout=300, stdout=subprocess.DEVNULL)
                break
            except subprocess.CalledProcessError:  # e.g. NO_NAVSTART: its trace lost on a busy machine
                if attempt == ATTEMPTS - 1:
                    raise
        report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def scores(report: dict[str, Any]) -> dict[str, int]:
    """Category -> score 0-100 (-1 when Lighthouse could not score it)."""
    got = {c: report["categories"][c]["score"] for c in CATEGORIES}
    return {c: -1 if score is None else round(100 * score) for c, score in got.items()}


def failed_audits(report: dict[str, Any], category: str) -> list[str]:
    """The audits of ``category`` that lost points: "id (shown value)"."""
    audits = report["audits"]
    out = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = audits[ref["id"]]
        if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
            out.append(f"{ref['id']} ({audit.get('displayValue') or audit['score']})")
    return out


@contextlib.contextmanager
def demo_site() -> Iterator[tuple[str, dict[str, str]]]:
    """A server holding a finished hand and a table in play: (base URL, page name -> path)."""
    from tests.conftest import LiveServer, free_port
    from tests.test_browser import scripted_wall
    from tests.test_server import seated, wait_status

    with tempfile.TemporaryDirectory(prefix="sgmj-lh-site-") as tmp:
        server = LiveServer(free_port(), str(Path(tmp) / "site.sqlite3"))
        server.start()
        try:
            done = server.create_table("Replayed", wall=scripted_wall(), seed=3)["code"]
            ann, _ = seated(server, done, "Ann", 0)
            with ann:
                ann.send({"type": "start"})
                ann.until("view")
            wait_status(server, done, {"between_hands", "finished"})
            playing = server.post("/api/play", {"name": "Ann", "seed": 5, "options": IN_PLAY}).json()
            pages = {"lobby": "/", "how to play": "/how-to-play", "scoring": "/scoring",
                     "calculator": "/calculator", "me": "/me", "replay": f"/replay/{done}/1",
                     "table": f"/t/{playing['code']}", "tutorial": "/learn"}
            yield server.url, pages
        finally:
            server.stop()


def table(rows: list[tuple[str, str, dict[str, int]]]) -> str:
    """A Markdown table of (page, mode, scores)."""
    lines = ["| page | mode | " + " | ".join(CATEGORIES) + " |", "|---|---|" + "---:|" * len(CATEGORIES)]
    lines += [f"| {page} | {mode} | " + " | ".join(str(s[c]) for c in CATEGORIES) + " |"
              for page, mode, s in rows]
    return "\n".join(lines)


def median_scores(runs: list[dict[str, int]]) -> dict[str, int]:
    """Each category's median over ``runs`` (the lower middle one of an even count)."""
    return {c: sorted(r[c] for r in runs)[(len(runs) - 1) // 2] for c in CATEGORIES}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Lighthouse scores of the eight pages")
    parser.add_argument("--mode", choices=MODES, action="append", help="mobile or desktop (default both)")
    parser.add_argument("--page", action="append", help="a page name (default all eight)")
    parser.add_argument("--runs", type=int, default=1,
                        help="rounds over the pages; the table shows each score's median (default 1)")
    args = parser.parse_args(argv if argv is not None else [])
    ensure_lighthouse()
    got: dict[tuple[str, str], list[dict[str, int]]] = {}
    started = time.perf_counter()
    loads = [os.getloadavg()[0]]
    bench_index = None
    with demo_site() as (base, pages):
        for _ in range(max(1, args.runs)):
            for mode in args.mode or MODES:
                for name, path in pages.items():
                    if args.page and name not in args.page:
                        continue
                    report = lighthouse(base + path, mode)
                    bench_index = report["environment"].get("benchmarkIndex")
                    s = scores(report)
                    got.setdefault((name, mode), []).append(s)
                    loads.append(os.getloadavg()[0])
                    low = [f"{c}: {', '.join(failed_audits(report, c))}" for c in CATEGORIES
                           if s[c] < THRESHOLDS[c]]
                    print(f"   {name:12} {mode:7} " + "  ".join(f"{c} {s[c]:3}" for c in CATEGORIES)
                          + (f"   <- {'; '.join(low)}" if low else ""), flush=True)
    rows = [(name, mode, median_scores(runs)) for (name, mode), runs in got.items()]
    print()
    if args.runs > 1:
        print(f"   median of {args.runs} runs")
    print(table(rows))
    took = time.perf_counter() - started
    print(f"\n   Lighthouse 12.2.3, {CHROME}, benchmarkIndex {bench_index}, {took:.0f} s, "
          f"load average (1 min) {min(loads):.1f}-{max(loads):.1f} over the runs")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
