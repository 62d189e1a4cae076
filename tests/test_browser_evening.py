"""The group's whole evening in four browsers (docs/clubs.md): the owner proposes Friday 20:00 and shares
three invite links; three new friends (one in 中文, one on a 390 px phone) open them, each joins in one
tap with a name, answers the RSVP and turns notifications on; the owner opens the table from the
evening's card; the local push service decrypts what each friend's browser is sent and the test hands
it to that browser's real service worker, whose notice leads to the table; the four sit and play a hand;
the settle-up message is shared, in points by default, then in dollars once the owner opts in to money.
Headless Chromium has neither a push service nor a share sheet: PushManager.subscribe and
navigator.share are stubbed (tests/test_browser_push.py, tests/test_browser_share.py say how)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from sgmahjong.server.settings import ServerSettings
from tests.conftest import serving
from tests.push_endpoint import Browser, PushEndpoint, decrypt
from tests.test_browser_clubs import DESKTOP, as_player
from tests.test_browser_push import STUB, registration_id
from tests.test_browser_share import RECORD
from tests.test_clubs import call, new_club, player
from tests.test_evenings import next_friday

expect.set_options(timeout=30_000)
PHONE_390 = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
AUTO = """localStorage.setItem("sgmahjong:settings", JSON.stringify({autoPass: true, autoWin: true,
  autoDiscard: false, sort: "apart"}));"""
FRIENDS = [("Mei Ling", "zh", DESKTOP), ("Ah Huat", "en", PHONE_390), ("Siew Mei", "en", DESKTOP)]
# one step of a hand, measured and done at once: discard the last tile that may go, if it is my turn
DISCARD = """() => { const t = [...document.querySelectorAll('#hand .slot.can-discard .tile')].pop();
  if (t) { t.click(); return true; } return false; }"""


def shared_last(page: Page, count: int) -> dict[str, Any]:
    """What the share sheet was given the ``count``-th time."""
    page.wait_for_function(f"window.__shared.length >= {count}")
    got: dict[str, Any] = page.evaluate(f"window.__shared[{count - 1}]")
    return got


def play_the_hand(pages: list[Page]) -> None:
    """Every page discards when it is its turn (claims are passed and wins taken by the players' own
    auto-pass and auto-win) until the hand's result shows on all four (a deadline, not a count of steps:
    a busy machine takes each step more slowly; the table's timers play any seat that stalls)."""
    end = time.monotonic() + 300
    while time.monotonic() < end:
        for page in pages:
            page.evaluate(DISCARD)
        if all(p.evaluate("() => ['between_hands', 'finished'].includes(document.body.dataset.status)")
               for p in pages):
            for p in pages:  # the hand's result, on every screen
                expect(p.locator("#result")).to_be_visible()
            return
    raise AssertionError("the hand did not end: " + str([p.evaluate("document.body.dataset.status")
                                                         for p in pages]))


def test_the_whole_evening(tmp_path: Path, open_page: Any) -> None:
    settings = ServerSettings(push_http_endpoints=True)
    with PushEndpoint() as push, serving(tmp_path / "db.sqlite3", settings=settings) as live:
        owner_cookie = player(live, "Ah Beng")
        club = new_club(live, owner_cookie, "Friday kaki")["code"]
        owner = as_player(open_page, owner_cookie, "Ah Beng", "en", live.url)
        owner.context.add_init_script(RECORD)
        owner.context.add_init_script(AUTO)
        owner.goto(f"{live.url}/club/{club}")

        # the owner proposes Friday 20:00 (Singapore time), four players needed
        friday = next_friday().isoformat()
        owner.fill("#evening-when", f"{friday}T20:00")
        owner.fill("#evening-needed", "4")
        owner.locator("#evening-form button[type=submit]").click()
        card = owner.locator(".evening")
        expect(card.locator(".evening-when")).to_contain_text("20:00")
        card.locator("[data-answer='in']").click()
        expect(card.locator(".evening-counts")).to_have_text("In 1 · Maybe 0 · Out 0 · 4 needed")

        # three invite links, each passed on through the share sheet
        links = []
        for n in range(1, 4):
            owner.locator("#invite-new").click()
            expect(owner.locator("#invite-share .share-btn")).to_be_visible()
            owner.locator("#invite-share .share-btn").click()
            links.append(shared_last(owner, n)["url"])
        assert len(set(links)) == 3 and all("/invite/" in u for u in links)

        # each new friend opens a link, joins in one tap with a name, answers and turns notifications on
        keys = {}
        friends: dict[str, Page] = {}
        for (name, lang, size), link in zip(FRIENDS, links, strict=True):
            page = open_page(size, lang)
            keys[name] = Browser()
            page.context.grant_permissions(["notifications"], origin=live.url)
            subscription = keys[name].subscription(push.url(f"f{len(keys)}"))
            page.context.add_init_script(STUB % json.dumps(subscription))
            page.context.add_init_script(AUTO)
            page.goto(link)
            page.fill("#join-name", name)
            page.locator("#join-btn").click()
            page.wait_for_url(f"**/club/{club}*")
            evening = page.locator(".evening")
            evening.locator("[data-answer='in']").click()
            expect(evening.locator("[data-answer='in']")).to_have_attribute("aria-pressed", "true")
            page.locator("#push-toggle").click()
            stop = "停止通知" if lang == "zh" else "Stop notifications"
            expect(page.locator("#push-toggle")).to_have_text(stop)
            friends[name] = page
        members = call(live, "GET", f"/api/clubs/{club}", owner_cookie).json()
        assert sorted(m["name"] for m in members["members"]) == ["Ah Beng", "Ah Huat", "Mei Ling",
                                                                  "Siew Mei"]
        owner.reload()
        expect(owner.locator(".evening .evening-counts")).to_have_text("In 4 · Maybe 0 · Out 0 · 4 needed")

        # enough are in: the owner opens the table in one tap; each friend's browser is told
        owner.locator(".evening-owner button", has_text="Open the table").click()
        owner.wait_for_url(f"{live.url}/t/*")
        table = owner.url.rsplit("/", 1)[1]
        for n, (name, page) in enumerate(friends.items(), start=1):
            got = push.wait(1, f"/push/f{n}")
            message = decrypt(got[-1].body, keys[name])
            assert message["url"] == f"/t/{table}", message
            cdp, registration = registration_id(page, live.url)
            cdp.send("ServiceWorker.deliverPushMessage", {"origin": live.url, "registrationId": registration,
                                                          "data": json.dumps(message, ensure_ascii=False)})
            page.wait_for_function("async () => (await (await navigator.serviceWorker.ready)"
                                   ".getNotifications()).length > 0")
            expect(page.locator("#club-notice")).to_be_visible()
            page.locator("#club-notice-go").click()
            page.wait_for_url(f"{live.url}/t/{table}")

        # the four sit and play a hand
        everyone = [owner, *friends.values()]
        for seat, (page, name) in enumerate(zip(everyone, ["Ah Beng", *friends], strict=True)):
            page.fill("#join-name", name)
            page.locator(f'#seat-list [data-seat="{seat}"] [data-action="join"]').click()
            expect(page.locator("#seated-controls")).to_be_visible()
        owner.locator("#start-btn").click()
        for page in everyone:
            expect(page.locator("#play")).to_be_visible()
        try:
            play_the_hand(everyone)
        except AssertionError as exc:  # say what the table was waiting for
            with live.ws(table, owner_cookie) as ws:  # a club's table: its members may watch it
                ws.hello(None)
                view = ws.until("view")["view"]
            raise AssertionError(f"{exc}; the table: {view['phase']}, awaiting {view['awaiting']}, "
                                 f"window {view.get('window')}, version {view['version']}") from None
        status = call(live, "GET", f"/api/tables/{table}", owner_cookie).json()["status"]
        assert status in ("between_hands", "finished"), status

        # the settle-up, shared in points (the default), then in dollars once the owner opts in to money
        owner.goto(f"{live.url}/club/{club}")
        expect(owner.locator("#money-mode")).to_contain_text("points")
        owner.locator("#settle-share .share-btn").click()
        points = shared_last(owner, 1)  # (the page was loaded again: its own count)
        assert points["text"] == owner.locator("#settle-text").input_value()
        assert "$" not in points["text"]
        owner.locator("#money-open").click()
        owner.select_option("#money-stake", "20")
        owner.locator("#money-confirm").check()
        owner.locator("#money-on").click()
        expect(owner.locator("#club-stakes")).to_contain_text("20c/40c")
        owner.locator("#settle-share .share-btn").click()
        dollars = shared_last(owner, 2)
        assert dollars["text"] == owner.locator("#settle-text").input_value()
        owing = call(live, "GET", f"/api/clubs/{club}", owner_cookie).json()["period"]["transfers"]
        assert ("$" in dollars["text"]) == bool(owing), (owing, dollars["text"])  # a drawn hand owes nothing
        mei = friends["Mei Ling"]
        mei.goto(f"{live.url}/club/{club}")
        expect(mei.locator("#money-mode")).to_contain_text("会长已开启金额")
