"""The installed web app without the network (issue 28; docs/delivery.md): the service worker installs,
the browser goes offline (``context.set_offline(True)``), the calculator and How to play reload and work
(a hand scored before gets its answer again; a new hand says that scoring needs the server, and is
scored by itself once the network is back), the table
shows "offline, reconnecting" and, back online, resumes. Debian's Chromium, never ``playwright install``."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from bench.bench_lighthouse import IN_PLAY
from sgmahjong.tiles import ALL_TILES
from tests.conftest import LiveServer
from tests.test_browser_look import strings

expect.set_options(timeout=20_000)
HAND = "23s55p [123m] [456m] [789p] +4s /1f1a"


def installed(browser: Browser, url: str) -> tuple[Any, Page, list[str]]:
    """A fresh context whose page at ``url`` is controlled by the installed service worker."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.evaluate("""async () => {
      await navigator.serviceWorker.ready;
      while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 50));
    }""")
    return context, page, errors


def score(page: Page, hand: str) -> None:
    page.fill("#hand", hand)
    page.check("#self_drawn")
    page.locator("#calc-btn").click()


def test_pages_open_offline_and_the_table_reconnects(live_server: LiveServer, browser: Browser) -> None:
    body = {"hand": HAND, "seat": "E", "wind": "E", "self_drawn": True}
    expected = live_server.post("/api/score", body).json()
    code = live_server.post("/api/play", {"name": "Ann", "seed": 5, "options": IN_PLAY}).json()["code"]
    context, page, errors = installed(browser, live_server.url + "/calculator")
    # online, under the worker: the rules and the pattern names are kept, and one hand is scored
    page.reload()
    expect(page.locator("#picked .tile")).to_have_count(16)
    score(page, HAND)
    expect(page.locator("#calc-result h2")).to_have_text(f"{expected['tai']} tai")
    page.goto(live_server.url + "/how-to-play")
    expect(page.locator("#options-table tbody tr").first).to_be_visible()

    context.set_offline(True)
    page.goto(live_server.url + "/calculator")
    expect(page.locator("#picked .tile")).to_have_count(16)
    score(page, HAND)  # scored before on this device: the same answer
    expect(page.locator("#calc-result h2")).to_have_text(f"{expected['tai']} tai")
    expect(page.locator("#calc-result tr[data-pattern]")).to_have_count(len(expected["patterns"]))
    new_hand = "23s55p [123m] [456m] [789p] +1s /1f1a"
    score(page, new_hand)  # a new hand: it needs the server, the page says so and keeps the hand
    expect(page.locator("#calc-error")).to_have_text(strings("en")["error.offline"])
    expect(page.locator("#calc-error")).to_have_attribute("data-waiting", "")
    context.set_offline(False)  # back online: the waiting hand is scored without another click
    new_answer = live_server.post("/api/score", {**body, "hand": new_hand}).json()
    expect(page.locator("#calc-result h2")).to_have_text(f"{new_answer['tai']} tai")
    expect(page.locator("#calc-result tr[data-pattern]")).to_have_count(len(new_answer["patterns"]))
    assert page.input_value("#hand") == new_hand
    context.set_offline(True)

    page.goto(live_server.url + "/how-to-play")
    expect(page.locator("#gallery figure .tile")).to_have_count(len(ALL_TILES))
    expect(page.locator("#options-table tbody tr").first).to_be_visible()

    page.goto(f"{live_server.url}/t/{code}")
    expect(page.locator("#conn")).to_have_text(strings("en")["table.offline_reconnecting"])
    expect(page.locator("body")).to_have_attribute("data-connected", "false")

    context.set_offline(False)  # the connection's next try (at most 5 s on) finds the server
    expect(page.locator("#conn")).to_have_text(strings("en")["table.connected"])
    expect(page.locator("#play")).to_be_visible()
    assert errors == []
    context.close()
