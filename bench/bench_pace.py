"""The pace of a game against bots, as a player sees it (issue 24): one hand per pace in Chromium.

    .venv/bin/python -m bench.bench_pace [--hands N] [--paces relaxed,normal,fast]

Starts a server (in this process, 127.0.0.1, a free port, a temporary SQLite file), and for each pace
opens "Play vs bots" (``POST /api/play`` with the option ``pace``, default timers and bot delays) in
Debian's Chromium. The player acts at once: a win when offered, a pass on every claim, else discards
the rightmost tile. Prints, per pace, the median seconds between two of the player's turns (from one
turn's first offer to the next: three bots' turns and four claim windows) and the seconds per hand
(the deal to the result).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, free_port, give_seat_session

TOKEN_PREFIX = "sgmahjong:"  # protocol.js: the seat token of a table
OFFER = "#hand .slot.can-discard, #actions button[data-action=pass], #actions button[data-action=win]"


def play_hand(server: LiveServer, browser: Any, pace: str, seed: int) -> tuple[list[float], float]:
    """Play one hand at ``pace``: the gaps between the player's turns and the hand's seconds."""
    r = server.post("/api/play", {"name": "Bench", "options": {"pace": pace}, "seed": seed})
    assert r.status_code == 201, r.text
    answer = r.json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        give_seat_session(ctx, server.url, answer["token"])  # the seat is the player's: their session
        ctx.add_init_script(f"localStorage.setItem({TOKEN_PREFIX + answer['code']!r}, {answer['token']!r})")
        page = ctx.new_page()
        page.goto(server.url + answer["url"])
        page.wait_for_selector("#play:not([hidden])", timeout=30_000)
        start = time.monotonic()
        turns: list[float] = []
        while True:
            page.wait_for_selector(f"{OFFER}, #result:not([hidden])", timeout=120_000)
            if page.locator("#result:not([hidden])").count():
                return [b - a for a, b in itertools.pairwise(turns)], time.monotonic() - start
            version = page.evaluate("document.body.dataset.version")
            if page.locator("#actions button[data-action=win]").count():
                page.locator("#actions button[data-action=win]").click()
            elif page.locator("#actions button[data-action=pass]").count():
                page.locator("#actions button[data-action=pass]").click()
            else:
                turns.append(time.monotonic())
                page.locator("#hand .slot.can-discard").last.click()
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=60_000)
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1, help="hands per pace (default 1)")
    parser.add_argument("--paces", default="relaxed,normal,fast")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:] if __name__ == "__main__" else [])
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(free_port(), str(Path(tmp) / "pace.sqlite3"), test_hooks=True)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print(f"{'pace':<8} {'hands':>5} {'turns':>5} {'between turns (median s)':>25} "
                      f"{'p90':>5} {'per hand (median s)':>20}")
                for pace in args.paces.split(","):
                    gaps: list[float] = []
                    hands: list[float] = []
                    for h in range(args.hands):
                        g, secs = play_hand(server, browser, pace, seed=1000 + h)
                        gaps += g
                        hands.append(secs)
                    p90 = statistics.quantiles(gaps, n=10)[-1] if len(gaps) >= 2 else float("nan")
                    print(f"{pace:<8} {len(hands):>5} {len(gaps):>5} {statistics.median(gaps):>25.2f} "
                          f"{p90:>5.2f} {statistics.median(hands):>20.1f}", flush=True)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
