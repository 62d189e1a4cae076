"""axe-core (pinned in tools/axe, ``make test`` installs it) finds no violation on any page, in English
and 中文: the lobby, the reference pages, the calculator, the player's pages, the keys page, a replay, and
the table in each of its states: seating, in play as a spectator, in play in a seat (the hand, the offers,
the Screen reader panel), and a hand's result (docs/accessibility.md).

Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and its best practices) on the whole page once it
is drawn. axe reads the page as it is: a failure lists each rule, its impact and the elements it found.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import LiveServer, free_port, give_seat_session
from tests.test_browser import scripted_wall
from tests.test_server import seated, wait_status

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "axe"
AXE = TOOL / "node_modules" / "axe-core" / "axe.min.js"
#: the table stays in play: the bots act at once, the absent human's seat is not taken over
IN_PLAY = {"bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "claim_pause": 0, "takeover_seconds": 3600}


def axe_source() -> str:
    """axe.min.js, installed from tools/axe/package-lock.json when missing (as `make test` does)."""
    if not AXE.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("axe-core needs Node.js and npm: apt-get install nodejs npm")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOL, check=True)
    return AXE.read_text(encoding="utf-8")


Site = tuple[LiveServer, dict[str, str], dict[str, str], str]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A server holding every kind of page: (server, page name -> path, localStorage to set)."""
    server = LiveServer(free_port(), str(tmp_path_factory.mktemp("axe") / "site.sqlite3"))
    server.start()
    try:
        done = server.create_table("Replayed", wall=scripted_wall(), seed=3)["code"]
        ann, _ = seated(server, done, "Ann", 0)
        with ann:
            ann.send({"type": "start"})
            ann.until("view")
        wait_status(server, done, {"between_hands", "finished"})
        watched = server.post("/api/play", {"name": "Bo", "seed": 5, "options": IN_PLAY}).json()
        mine = server.post("/api/play", {"name": "Ann", "seed": 7, "options": IN_PLAY}).json()
        waiting = server.create_table("Friday game")["code"]
        pages = {"lobby": "/", "how to play": "/how-to-play", "scoring": "/scoring",
                 "calculator": "/calculator", "me": "/me", "leaderboard": "/leaderboard", "clubs": "/clubs",
                 "keys": "/keys", "tutorial": "/learn",
                 "replay": f"/replay/{done}/1", "table seating": f"/t/{waiting}",
                 "table watched": f"/t/{watched['code']}", "table in a seat": mine["url"],
                 "table result": f"/t/{done}"}
        yield server, pages, {f"sgmahjong:{mine['code']}": mine["token"]}, mine["token"]
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_axe_finds_no_violation_on_any_page(site: Any, browser: Browser, lang: str) -> None:
    server, pages, storage, token = site
    source = axe_source()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    give_seat_session(ctx, server.url, token)  # the seated player's own browser
    script = f"localStorage.setItem('sgmahjong:lang', '{lang}');" + "".join(
        f"localStorage.setItem('{k}', '{v}');" for k, v in storage.items())
    ctx.add_init_script(script)
    page = ctx.new_page()
    problems = []
    try:
        for name, path in pages.items():
            page.goto(server.url + path)
            expect(page.locator("html[data-drawn]")).to_be_attached()
            if name == "table in a seat":
                expect(page.locator("#hand .slot.can-discard").first).to_be_visible()
                expect(page.locator("#a11y-panel")).to_be_visible()
            elif name in {"table watched"}:
                expect(page.locator("#felt .seat").first).to_be_visible()
            elif name == "table result":
                expect(page.locator("#result .payments")).to_be_visible()
            page.wait_for_load_state("networkidle")
            page.evaluate(source)
            result = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
            for v in result["violations"]:
                targets = [n["target"] for n in v["nodes"][:3]]
                problems.append(f"{lang} {name}: {v['id']} ({v['impact']}, {len(v['nodes'])}): {targets}")
    finally:
        ctx.close()
    assert problems == [], "\n".join(problems)
