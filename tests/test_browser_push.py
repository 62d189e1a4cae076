"""Notifications in the browser (static/js/clubevening.js, static/sw.js): headless Chromium has no push
service, so the page's PushManager.subscribe is stubbed to hand out a subscription of the test's local
push service (tests/push_endpoint.py) with keys the test made; the page's own opt-in code gives it to the
server. Another member opens a club table; the local push service checks and decrypts what the server
sends, and the test delivers it to the page's real service worker (CDP ServiceWorker.deliverPushMessage):
a notification in the page's language appears, and the page's notice leads to the table. The RSVP card
in English and 中文."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from sgmahjong.server.settings import ServerSettings
from tests.conftest import serving
from tests.push_endpoint import Browser, PushEndpoint, decrypt
from tests.test_browser_clubs import as_player
from tests.test_clubs import call, invited, new_club, player
from tests.test_evenings import SG, next_friday

expect.set_options(timeout=20_000)
PHONE = {"viewport": {"width": 360, "height": 740}}

STUB = """(() => {
  const sub = %s;
  PushManager.prototype.subscribe = async function () {
    return { endpoint: sub.endpoint, expirationTime: null, toJSON: () => sub };
  };
})();"""


def registration_id(page: Page, origin: str) -> tuple[Any, str]:
    """A CDP session of ``page`` and the registration id of its origin's service worker."""
    cdp = page.context.new_cdp_session(page)
    found: list[str] = []

    def seen(event: dict[str, Any]) -> None:
        found.extend(r["registrationId"] for r in event["registrations"]
                     if r["scopeURL"].startswith(origin) and not r.get("isDeleted"))

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    deadline = time.monotonic() + 20
    while not found:  # the events of enable arrive while Playwright waits on something
        assert time.monotonic() < deadline, "the page's service worker was not seen"
        page.wait_for_timeout(50)
    return cdp, found[-1]


def test_a_table_opened_reaches_the_service_worker(tmp_path: Path, open_page: Any) -> None:
    settings = ServerSettings(push_http_endpoints=True)
    with PushEndpoint() as push, serving(tmp_path / "db.sqlite3", settings=settings) as live:
        owner, mei = player(live, "Ah Beng"), player(live, "Mei Ling")
        club = new_club(live, owner, "Kaki")["code"]
        invited(live, owner, club, mei)
        keys = Browser()
        page = as_player(open_page, mei, "Mei Ling", "zh", live.url)
        page.context.grant_permissions(["notifications"], origin=live.url)
        page.context.add_init_script(STUB % json.dumps(keys.subscription(push.url("mei"))))
        page.goto(f"{live.url}/club/{club}")
        toggle = page.locator("#push-toggle")
        expect(toggle).to_have_text("有人开桌时通知我")
        expect(page.locator("#evening-propose")).to_be_hidden()  # the owner's
        toggle.click()
        expect(page.locator("#push-state")).to_contain_text("这个浏览器会收到通知")
        expect(toggle).to_have_text("停止通知")

        r = call(live, "POST", f"/api/clubs/{club}/tables", owner, {"name": "Friday"})
        table = r.json()["code"]
        (got,) = push.wait(1, "/push/mei")
        message = decrypt(got.body, keys)
        assert message["title"] == "Kaki：有一桌开了" and message["url"] == f"/t/{table}"

        cdp, registration = registration_id(page, live.url)
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": live.url, "registrationId": registration,
                                                      "data": json.dumps(message, ensure_ascii=False)})
        read = ("async () => (await (await navigator.serviceWorker.ready).getNotifications())"
                ".map(n => [n.title, n.body, n.data.url, n.tag])")
        end = time.monotonic() + 30
        while not (shown := page.evaluate(read)) and time.monotonic() < end:
            page.wait_for_timeout(50)  # polling the service worker until it has shown the notification
        body = "Ah Beng 开了“Friday”。点这里入座。"
        assert shown == [["Kaki：有一桌开了", body, f"/t/{table}", f"table-{table}"]]
        notice = page.locator("#club-notice")
        expect(notice).to_contain_text("Kaki：有一桌开了")
        page.locator("#club-notice-go").click()
        page.wait_for_url(f"{live.url}/t/{table}")


def rsvp_card(live: Any, open_page: Any, out: Path | None) -> None:
    owner, mei, kumar, siew = (player(live, n) for n in ("Ah Beng", "Mei Ling", "Kumar", "Siew Mei"))
    club = new_club(live, owner, "Friday kaki")["code"]
    for who in (mei, kumar, siew):
        invited(live, owner, club, who)
    local = f"{next_friday().isoformat()}T20:00"
    evening = call(live, "POST", f"/api/clubs/{club}/sessions", owner, {"local": local}).json()
    for who, answer in ((owner, "in"), (mei, "in"), (kumar, "maybe"), (siew, "out")):
        call(live, "POST", f"/api/clubs/{club}/sessions/{evening['id']}/answer", who, {"answer": answer})
    for lang in ("en", "zh"):
        for size, name in ((None, "desktop"), (PHONE, "phone")):
            page = as_player(open_page, owner, "Ah Beng", lang, live.url) if size is None else None
            if page is None:
                page = open_page(size, lang, timezone_id="Europe/London")
                page.context.add_cookies([{"name": "sg_session", "value": owner.split("=", 1)[1],
                                           "url": live.url}])
                page.on("dialog", lambda d: d.accept())
            page.goto(f"{live.url}/club/{club}")
            card = page.locator(f".evening[data-session='{evening['id']}']")
            counts = {"en": "In 2 · Maybe 1 · Out 1 · 4 needed",
                      "zh": "来 2 · 也许 1 · 不来 1 · 需要 4 人"}[lang]
            expect(card.locator(".evening-counts")).to_have_text(counts)
            expect(card.locator(".answer-in")).to_contain_text("Ah Beng, Mei Ling")
            expect(card.locator(".answer-maybe")).to_contain_text("Kumar")
            expect(card.locator("[data-answer='in']")).to_have_attribute("aria-pressed", "true")
            expect(card.locator(".evening-when")).to_contain_text("Asia/Singapore")
            if name == "phone":  # the reader's own zone, London: 12:00 there
                expect(card.locator(".evening-local")).to_contain_text("12:00")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, width
            if out is not None:
                page.locator("#evening-card").screenshot(path=str(out / f"club-evening-{name}-{lang}.png"))
    assert dt.datetime.fromisoformat(local).replace(tzinfo=SG).hour == 20


def test_the_rsvp_card_in_english_and_chinese(tmp_path: Path, open_page: Any) -> None:
    with serving(tmp_path / "db.sqlite3") as live:
        rsvp_card(live, open_page, None)


def test_answering_changes_the_card(live_server: Any, open_page: Any) -> None:
    owner, mei = player(live_server, "Ah Beng"), player(live_server, "Mei Ling")
    club = new_club(live_server, owner, "Kaki")["code"]
    invited(live_server, owner, club, mei)
    page = as_player(open_page, owner, "Ah Beng", "en", live_server.url)
    page.goto(f"{live_server.url}/club/{club}")
    expect(page.locator("#evenings")).to_contain_text("No evening planned")
    page.fill("#evening-when", f"{next_friday().isoformat()}T20:00")
    page.fill("#evening-needed", "2")
    page.locator("#evening-form button[type=submit]").click()
    card = page.locator(".evening")
    expect(card.locator(".evening-counts")).to_have_text("In 0 · Maybe 0 · Out 0 · 2 needed")
    card.locator("[data-answer='maybe']").click()
    expect(card.locator("[data-answer='maybe']")).to_have_attribute("aria-pressed", "true")
    card.locator("[data-answer='in']").click()
    expect(card.locator(".evening-counts")).to_have_text("In 1 · Maybe 0 · Out 0 · 2 needed")
    evening = card.get_attribute("data-session")
    call(live_server, "POST", f"/api/clubs/{club}/sessions/{evening}/answer", mei, {"answer": "in"})
    page.reload()
    open_button = page.locator(".evening-owner button", has_text="Open the table")
    open_button.click()
    page.wait_for_url(f"{live_server.url}/t/*")
    listed = call(live_server, "GET", f"/api/clubs/{club}/sessions", mei).json()["sessions"][0]
    assert listed["table"] == page.url.replace(live_server.url, "")
