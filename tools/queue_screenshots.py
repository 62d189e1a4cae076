"""Screenshots of the ranked queue (docs/accounts.md), as a player sees them.

    .venv/bin/python tools/queue_screenshots.py OUTDIR

Starts a server on a free port with a temporary database; four accounts play one ranked match first
(so the queue has a wait to estimate). Then, for each language and size, Ann queues alone on the
leaderboard (the counts, the expected wait and the offer of bots: ranked-queue-*.png), plays bots while
she waits, and three more players queue: the bots table's page tells her of the match
(ranked-wait-*.png). 1366x768 and 360 px, English and 中文, reduced to 256 colours.
"""

from __future__ import annotations

import sys
import tempfile
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
from playwright.sync_api import sync_playwright

from sgmahjong.server.settings import ServerSettings
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, serving
from tests.softkey import SoftKey
from tools.screenshots import DESKTOP, PHONE, page_for, shrink

SETTINGS = ServerSettings(sign_in_burst=100, queue_interval_seconds=0.2, queue_window=50,
                          queue_widen_per_second=40, trusted_proxies=("127.0.0.1",), queue_counts_seconds=0)
HOMES = count(1)


def account(server: LiveServer, name: str) -> httpx.Client:
    """A signed-in player at a home of their own (the queue never seats two of one address together)."""
    client = httpx.Client(base_url=server.url, timeout=10,
                          headers={"X-Forwarded-For": f"198.51.100.{next(HOMES)}"})
    key = SoftKey("127.0.0.1", server.url)
    begin = client.post("/api/account/passkeys/begin", json={"name": name}).json()
    finish = client.post("/api/account/passkeys/finish",
                         json={"flow": begin["flow"], "credential": key.create(begin["options"])})
    finish.raise_for_status()
    return client


def queue_and_wait(clients: list[httpx.Client]) -> None:
    tickets = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in clients]
    for client, ticket in zip(clients, tickets, strict=True):
        for _ in range(300):
            if client.post("/api/ranked/poll", json={"ticket": ticket}).json()["status"] == "matched":
                break


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    names = iter(["Mei Ling", "Ah Seng", "Farah", "Wei Jie", "Priya", "Kumar", "Siew Lan", "Daniel",
                  "Xin Yi", "Rahman", "Hui Min", "Jun Wei", "Aisha", "Ben", "Li Na", "Raj", "Ann", "Bo"])
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p, \
            serving(Path(tmp) / "queue.sqlite3", settings=SETTINGS) as server:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        queue_and_wait([account(server, n) for n in ("Kopi", "Teh", "Milo", "Bandung")])
        for lang in ("en", "zh"):
            for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                ann = account(server, next(names))
                others = [account(server, next(names)) for _ in range(3)]
                page = page_for(browser, size, lang)
                page.context.add_cookies([{"name": "sg_session", "value": ann.cookies["sg_session"],
                                           "url": server.url}])
                page.goto(f"{server.url}/leaderboard?lang={lang}")
                page.click("#ranked-btn")
                page.wait_for_selector("#ranked-bots:not([hidden])")
                page.locator("#ranked-card").scroll_into_view_if_needed()
                shot = out / f"ranked-queue-{label}-{lang}.png"
                page.screenshot(path=str(shot))
                shrink(shot)
                page.click("#ranked-bots")
                page.wait_for_selector('#ranked-wait[data-state="waiting"]')
                page.wait_for_selector("#hand .slot .tile")
                for client in others:
                    client.post("/api/ranked/join", json={})
                page.wait_for_selector('#ranked-wait[data-state="found"]', timeout=30_000)
                page.evaluate("window.scrollTo(0, 0)")
                shot = out / f"ranked-wait-{label}-{lang}.png"
                page.screenshot(path=str(shot))
                shrink(shot)
                page.context.close()
        browser.close()


if __name__ == "__main__":
    main()
