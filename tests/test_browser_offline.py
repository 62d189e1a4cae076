"""The installed web app without the network (issue 28; docs/delivery.md): the service worker installs,
the browser goes offline (``context.set_offline(True)``), the calculator and How to play reload and work
(a hand scored before gets its answer again; a new hand says that scoring needs the server, and is
scored by itself once the network is back), the table
shows "offline, reconnecting" and, back online, resumes. With the offline scorer kept (Pyodide running the
server's own Python in the page), a new hand is scored offline as the server scores it, and a bad hand
gets the same message. Debian's Chromium, never ``playwright install``."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bench.bench_lighthouse import IN_PLAY
from sgmahjong.server.http.assets import STATIC_DIR
from sgmahjong.server.http.offline_scorer import default_pyodide_dir, pyodide_version
from sgmahjong.server.settings import ServerSettings
from sgmahjong.tiles import ALL_TILES
from tests.conftest import LiveServer, free_port
from tests.test_browser_look import strings

expect.set_options(timeout=20_000)
HAND = "23s55p [123m] [456m] [789p] +4s /1f1a"


def installed(browser: Browser, url: str) -> tuple[Any, Page, list[str]]:
    """A fresh context whose page at ``url`` is controlled by the installed service worker."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url, wait_until="domcontentloaded")
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
    # not kept on this device (the server offers it when Pyodide is installed: `make pyodide`)
    en = strings("en")
    offered = pyodide_version(default_pyodide_dir()) is not None
    expect(page.locator("#calc-error")).to_have_text(
        f"{en['error.offline']} {en['calc.offline.not_kept']}" if offered else en["error.offline"])
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


def shown(page: Page) -> tuple[str, list[str], list[str]]:
    """The calculator's result as the player reads it: the heading, the patterns' rows, the payments'."""
    result = page.locator("#calc-result")
    return (result.locator("h2").inner_text(), result.locator("tr[data-pattern]").all_inner_texts(),
            result.locator("tr[data-seat]").all_inner_texts())


def test_the_kept_offline_scorer_scores_a_new_hand_as_the_server(live_server: LiveServer,
                                                                   browser: Browser) -> None:
    assert pyodide_version(default_pyodide_dir()) is not None, "Pyodide is missing: run `make pyodide`"
    en = strings("en")
    context, page, errors = installed(browser, live_server.url + "/calculator")
    fetched: list[str] = []
    context.on("request", lambda r: fetched.append(r.url))
    page.reload()  # now under the worker: the control is offered
    keep = page.locator("#offline-keep")
    expect(keep).to_be_visible()
    assert "MB" in keep.inner_text()
    assert not [url for url in fetched if "/pyodide/" in url]  # nothing of it before the player asks
    keep.click()
    expect(page.locator("#offline-state")).to_have_text(en["calc.offline.ready"], timeout=60_000)
    expect(keep).to_be_hidden()

    # online: the server's answers, as the page shows them
    new_hand = "234m 99p 56s [678p] [CCC] +4s /1f"  # never scored on this device before going offline
    bad_hand = "23s55p [123m] [456m] [789p] x +4s"
    not_a_win = "23s55p [123m] [456m] [789p] +9s /1f1a"
    server = live_server.post("/api/score", {"hand": new_hand, "seat": "E", "wind": "E",
                                             "self_drawn": True}).json()
    assert server["valid"] and server["payments"]
    score(page, bad_hand)
    expect(page.locator("#calc-error")).to_be_visible()
    online_error = page.locator("#calc-error").inner_text()
    score(page, not_a_win)
    expect(page.locator("#calc-result h2.error")).to_be_visible()
    online_reason = page.locator("#calc-result h2.error").inner_text()

    context.set_offline(True)
    page.goto(live_server.url + "/calculator")
    expect(page.locator("#picked .tile")).to_have_count(16)
    expect(page.locator("#offline-state")).to_have_text(en["calc.offline.ready"])
    started = time.monotonic()
    score(page, new_hand)
    expect(page.locator("#calc-result h2")).to_have_text(f"{server['tai']} tai", timeout=60_000)
    cold = time.monotonic() - started
    heading, patterns, payments = shown(page)
    assert heading == f"{server['tai']} tai" and len(patterns) == len(server["patterns"])
    assert [row.split()[-1] for row in payments] == [f"{v:+d}" if v > 0 else str(v)
                                                     for v in server["payments"].values()]
    started = time.monotonic()
    score(page, not_a_win)  # the scorer is running: at once
    expect(page.locator("#calc-result h2.error")).to_have_text(online_reason)
    warm = time.monotonic() - started
    score(page, bad_hand)  # the same message as online
    expect(page.locator("#calc-error")).to_have_text(online_error)
    expect(page.locator("#calc-error")).not_to_have_attribute("data-waiting", "")  # answered, not waiting
    print(f"\noffline scorer: first score {cold:.2f} s (Pyodide starting), next {warm:.2f} s")
    assert errors == []
    context.close()


KEPT = """async () => {
  const cache = await caches.open("sgmj-scorer");
  return (await cache.keys()).map((req) => new URL(req.url).pathname).sort();
}"""


UPDATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (registration) await registration.update().catch(() => null);
}"""


def scorer_files(server: LiveServer) -> list[str]:
    """The offline scorer's files of the server's current release (its service worker's list)."""
    sw = httpx.get(server.url + "/sw.js", timeout=60).text
    build = json.loads(re.search(r"^const BUILD = (.*);$", sw, re.M).group(1))  # type: ignore[union-attr]
    return sorted(build["scorer"]["files"])


def reopened_until(page: Page, url: str, files: list[str]) -> None:
    """Open ``url`` again until the page says the scorer is kept and the cache holds exactly ``files``
    (a new service worker takes over at a page load, then fetches the new files in the background).

    Chromium checks for a new worker about a second after a navigation, and puts the check off again at
    each new request of the page: reopened every half second on a fast machine, the check would never
    run. So each round asks for it, as the browser does for a player who stays on the page.

    A navigation that starts just as the new worker takes over can stay pending in Chromium (in 5 of
    41 runs of this test on a 2-core machine busy with a bench): the worker is active and answers its
    own fetches and cache reads in milliseconds, the server answers, and a new navigation loads at
    once. Such a round is opened again, as a player would reload."""
    for _ in range(120):
        # the page's own ready state (its tiles drawn), not "load": with the scorer kept, "load" also
        # waits for the scorer's files, which a busy machine can take most of a minute to read
        try:
            page.goto(url, wait_until="domcontentloaded", timeout=30_000)
        except PlaywrightTimeoutError:
            continue
        page.locator("#picked .tile").first.wait_for()
        if page.evaluate(KEPT) == files and page.get_attribute("#offline-scorer", "data-kept") == "true":
            return
        page.evaluate(UPDATE)
        page.wait_for_timeout(500)
    raise AssertionError(f"the kept files never became {files}: {page.evaluate(KEPT)}")


def test_the_kept_scorer_survives_releases_and_follows_a_new_version(tmp_path: Path,
                                                                    browser: Browser) -> None:
    static, pyodide = tmp_path / "static", tmp_path / "pyodide"
    shutil.copytree(STATIC_DIR, static)
    shutil.copytree(default_pyodide_dir(), pyodide)
    settings = ServerSettings(static_dir=str(static), static_build_dir=str(tmp_path / "build"),
                              static_check_seconds=0.01, pyodide_dir=str(pyodide))
    server = LiveServer(free_port(), str(tmp_path / "db.sqlite3"), settings=settings)
    server.start()
    try:
        url = server.url + "/calculator"
        context, page, errors = installed(browser, url)
        page.reload()
        page.locator("#offline-keep").click()
        expect(page.locator("#offline-scorer")).to_have_attribute("data-kept", "true", timeout=60_000)
        first = scorer_files(server)
        assert page.evaluate(KEPT) == first

        # a release that changes a page's module only: the kept files stay, nothing is fetched again
        api = static / "js" / "api.js"
        api.write_text(api.read_text(encoding="utf-8") + "\n// another release\n", encoding="utf-8")
        assert scorer_files(server) == first
        fetched: list[str] = []
        context.on("request", lambda r: fetched.append(r.url))
        reopened_until(page, url, first)
        assert not [u for u in fetched if "/static/pyodide/" in u]

        # another Pyodide (here: its version only): the new set is fetched, then the old one dropped
        package = pyodide / "package.json"
        package.write_text(package.read_text(encoding="utf-8").replace('"0.27.7"', '"0.27.7.1"', 1),
                           encoding="utf-8")
        second = scorer_files(server)
        assert second != first and all("/0.27.7.1/" in f or "/core." in f for f in second)
        reopened_until(page, url, second)
        assert errors == []
        context.close()
    finally:
        server.stop()
