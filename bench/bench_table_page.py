"""What the table page's script costs for each message of a table at the fast pace, on a phone's CPU,
and whether the page keeps up (docs/performance.md, the table page).

    .venv/bin/python -m bench table_page                    (``make bench`` runs it with the others)
    .venv/bin/python -m bench.bench_table_page --seconds 60 --slowdown 4 --width 360

Starts a server (in this process, 127.0.0.1, a free port, a temporary SQLite file) and a table of
greedy bots at the ``fast`` pace and one seated visitor who never acts (the table's timers act for it
after half a second on its turn, 0.3 s in a claim window), watched by a page in
Debian's Chromium at ``--width`` pixels, its CPU slowed ``--slowdown`` times (Chromium's own CPU
throttling: 4 is a mid-range phone, 1 the machine itself). Every WebSocket message handler of the page
is timed from before the page's scripts run. Prints the messages, the script time per message (mean,
p90, max), the share of the watched seconds the page spent on them, and at the end how far the page
was behind the table, in hands or in versions of the hand (the seated visitor's WebSocket, read by
this process, says where the table is).
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

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, WsClient, free_port
from tests.test_server import seated

# every message handler of every WebSocket the page opens, timed (ms), from before its scripts run
TIMED = """(() => {
  window.__handled = [];
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, fn, options) {
    if (type !== "message") return add.call(this, type, fn, options);
    return add.call(this, type, (ev) => {
      const t0 = performance.now();
      try { fn(ev); } finally { window.__handled.push(performance.now() - t0); }
      const view = JSON.parse(ev.data).view || {};  // where the page is: [hand, version]
      if (typeof view.hand_number === "number") window.__at = [view.hand_number, 0];
      if (typeof view.version === "number" && window.__at) window.__at = [window.__at[0], view.version];
    }, options);
  };
})()"""
OPTIONS = {"pace": "fast", "bot_level": "greedy", "turn_seconds": 0.5, "claim_seconds": 0.3,
           "next_hand_seconds": 1}


def start_table(server: LiveServer, seed: int) -> tuple[str, WsClient]:
    """A table of bots and one visitor who never acts (the timers act for it): its code and the
    visitor's WebSocket."""
    code: str = server.create_table("Page cost", seed=seed, options=OPTIONS)["code"]
    visitor, _ = seated(server, code, "Visitor", 0)
    visitor.send({"type": "start"})
    return code, visitor


def watch(server: LiveServer, browser: Any, code: str, visitor: WsClient, seconds: float,
          slowdown: float, width: int) -> dict[str, Any]:
    """Watch the table for ``seconds``: the page's handler times and how far behind it ended."""
    phone = width < 600
    ctx = browser.new_context(viewport={"width": width, "height": 740 if phone else 768},
                              is_mobile=phone, has_touch=phone)
    try:
        page = ctx.new_page()
        page.add_init_script(TIMED)
        if slowdown > 1:
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        table_at = (0, 0)  # (hand, version)
        page.goto(f"{server.url}/t/{code}?lang=en")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                msg = visitor.recv(timeout=0.5)
            except Exception:  # nothing within the half second (between hands)
                continue
            view = msg.get("view") or {}
            if isinstance(view.get("hand_number"), int):
                table_at = (view["hand_number"], 0)
            if isinstance(view.get("version"), int):
                table_at = (table_at[0], view["version"])
        handled: list[float] = page.evaluate("() => window.__handled")
        page_at = tuple(page.evaluate("() => window.__at || [0, 0]"))
        return {"handled": handled, "table": table_at, "page": page_at, "seconds": seconds}
    finally:
        ctx.close()


def report(label: str, out: dict[str, Any]) -> str:
    ms = sorted(out["handled"])
    if not ms:
        return f"{label}: no message handled"
    p90 = ms[int(0.9 * (len(ms) - 1))]
    busy = sum(ms) / 1000 / out["seconds"]
    return (f"{label}: {len(ms)} messages, {statistics.fmean(ms):.1f} ms a message (p90 {p90:.0f}, max "
            f"{ms[-1]:.0f}), the page busy {busy:.0%} of the {out['seconds']:.0f} s, "
            f"{behind(out['table'], out['page'])} at the end")


def behind(table: tuple[int, int], page: tuple[int, int]) -> str:
    """How far the page's (hand, version) is behind the table's."""
    if page[0] < table[0]:
        return f"hand {page[0]} on the page, {table[0]} at the table"
    return f"{max(0, table[1] - page[1])} versions behind the table" if page[0] == table[0] else "level"


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=45, help="how long the page watches (default 45)")
    p.add_argument("--slowdown", type=float, default=4, help="Chromium's CPU slowdown (default 4: a phone)")
    p.add_argument("--width", type=int, default=360, help="the page's width in pixels (default 360)")
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.slowdown < 1 or not 200 <= args.width <= 4000:
        p.error("--seconds above 0, --slowdown at least 1, --width 200-4000")
    with tempfile.TemporaryDirectory(prefix="sgmj-page-") as tmp:
        server = LiveServer(free_port(), str(Path(tmp) / "page.sqlite3"))
        with server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                code, visitor = start_table(server, args.seed)
                with visitor:
                    out = watch(server, browser, code, visitor, args.seconds, args.slowdown, args.width)
            finally:
                browser.close()
    print(report(f"table page, {args.width} px, CPU slowed {args.slowdown:g}x, fast pace", out))


if __name__ == "__main__":
    main()
