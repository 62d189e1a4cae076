"""Sharing in the browser (static/js/share.js): Share hands the system's share sheet (the Web Share API,
stubbed here to record what it is given) the right title, text and link for an invite, a table, a
replay and the club's settle-up message, in the page's language; without a share sheet (or when it
fails other than by the reader closing it) WhatsApp and Telegram links carry the same text, encoded,
and Copy puts it on the clipboard."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect

from tests.conftest import FAST_OPTIONS, LiveServer
from tests.test_browser_clubs import DESKTOP, as_player
from tests.test_clubs import call, new_club, player
from tests.test_server import seated, wait_status

expect.set_options(timeout=15_000)
PHONE = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True}
RECORD = """window.__shared = [];
Object.defineProperty(Navigator.prototype, "share", { configurable: true, writable: true,
  value: function (data) { window.__shared.push(data); return Promise.resolve(); } });"""
FAIL = """window.__asked = 0;
Object.defineProperty(Navigator.prototype, "share", { configurable: true, writable: true, value: function () {
  window.__asked += 1; return Promise.reject(new DOMException(%s, %s)); } });"""
ABSENT = "delete Navigator.prototype.share;"


def shared(page: Page) -> list[dict[str, Any]]:
    """What the share sheet was given so far (once it was given something)."""
    page.wait_for_function("window.__shared.length > 0")
    got: list[dict[str, Any]] = page.evaluate("window.__shared")
    return got


def ended_hand(server: LiveServer) -> str:
    """A table named "Friday night" whose first hand bots played to its end: its code."""
    code = server.create_table("Friday night", seed=3, options=FAST_OPTIONS)["code"]
    ann, _ = seated(server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    wait_status(server, code, {"between_hands", "finished"})
    return code


def test_share_gives_the_sheet_an_invite_and_the_settle_up_in_chinese(
        live_server: LiveServer, open_page: Any) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "<b>Friday</b> kaki")["code"]
    page = as_player(open_page, owner, "Ah Beng", "zh", live_server.url)
    page.context.add_init_script(RECORD)
    page.goto(f"{live_server.url}/club/{club}")
    page.locator("#invite-new").click()
    invite_url = re.compile("^" + re.escape(f"{live_server.url}/invite/"))
    expect(page.locator("#invite-url")).to_have_value(invite_url)
    url = page.locator("#invite-url").input_value()
    expect(page.locator("#invite-share .share-btn")).to_have_text("分享邀请链接")
    page.locator("#invite-share .share-btn").click()
    assert shared(page) == [{"title": "加入 <b>Friday</b> kaki",
                             "text": "来加入我们的新加坡麻将牌友会 <b>Friday</b> kaki：", "url": url}]
    expect(page.locator("#invite-share .share-fallback")).to_be_hidden()  # the sheet did it
    expect(page.locator("#settle-text")).to_have_value(re.compile(r"^<b>Friday</b> kaki：结算"))
    page.locator("#settle-share .share-btn").click()
    page.wait_for_function("window.__shared.length > 1")
    settle = page.evaluate("window.__shared[1]")
    assert settle == {"title": "<b>Friday</b> kaki：结算", "text": page.locator("#settle-text").input_value(),
                      "url": f"{live_server.url}/club/{club}"}


def test_share_gives_the_sheet_a_table_link_and_a_replay(live_server: LiveServer, open_page: Any) -> None:
    table = live_server.create_table("Friday night")["code"]
    page = open_page(PHONE, "en")
    page.context.add_init_script(RECORD)
    page.goto(f"{live_server.url}/t/{table}")
    button = page.locator("#table-share .share-btn")
    expect(button).to_have_text("Share")
    expect(button).to_be_visible()  # its section shows once the server has welcomed the page
    assert (button.bounding_box() or {"height": 0})["height"] >= 40  # a target for a thumb
    button.click()
    assert shared(page) == [{"title": "Friday night: a Singapore Mahjong table",
                             "text": "Come and play Singapore Mahjong with us at Friday night:",
                             "url": f"{live_server.url}/t/{table}"}]
    code = ended_hand(live_server)
    zh = open_page(PHONE, "zh")
    zh.context.add_init_script(RECORD)
    zh.goto(f"{live_server.url}/replay/{code}/1?step=3")
    zh.locator("#replay-share .share-btn").click()
    assert shared(zh) == [{"title": "Friday night，第 1 局", "text": "来看 Friday night 第 1 局的回放：",
                           "url": f"{live_server.url}/replay/{code}/1"}]


def test_without_a_share_sheet_whatsapp_telegram_and_copy(live_server: LiveServer, open_page: Any) -> None:
    table = live_server.create_table("Friday night")["code"]
    link = f"{live_server.url}/t/{table}"
    page = open_page(PHONE, "zh", permissions=["clipboard-read", "clipboard-write"])
    page.context.add_init_script(ABSENT)
    page.goto(link)
    expect(page.locator("#table-share .share-btn")).to_have_text("分享")
    assert page.evaluate("'share' in navigator") is False
    page.locator("#table-share .share-btn").click()
    panel = page.locator("#table-share .share-fallback")
    expect(panel).to_be_visible()
    text = "来 Friday night 和我们一起打新加坡麻将吧："
    wa = urlsplit(panel.locator(".share-whatsapp").get_attribute("href") or "")
    assert (wa.scheme, wa.netloc, wa.path) == ("https", "wa.me", "/")
    assert parse_qs(wa.query) == {"text": [f"{text} {link}"]}
    tg = urlsplit(panel.locator(".share-telegram").get_attribute("href") or "")
    assert (tg.netloc, tg.path) == ("t.me", "/share/url")
    assert parse_qs(tg.query) == {"url": [link], "text": [text]}
    for target in (".share-whatsapp", ".share-telegram", ".share-copy"):
        assert panel.locator(target).bounding_box()["height"] >= 40
    panel.locator(".share-copy").click()
    expect(panel.locator(".share-status")).to_have_text("已复制：贴到你们的群聊里吧。")
    assert page.evaluate("navigator.clipboard.readText()") == f"{text}\n{link}"


def test_a_failing_sheet_falls_back_but_a_cancelled_one_does_not(live_server: LiveServer,
                                                                   open_page: Any) -> None:
    table = live_server.create_table("Friday night")["code"]
    cancelled = open_page(DESKTOP, "en")
    cancelled.context.add_init_script(FAIL % ('"cancelled"', '"AbortError"'))
    cancelled.goto(f"{live_server.url}/t/{table}")
    cancelled.locator("#table-share .share-btn").click()
    failed = open_page(DESKTOP, "en")
    failed.context.add_init_script(FAIL % ('"not allowed"', '"NotAllowedError"'))
    failed.goto(f"{live_server.url}/t/{table}")
    failed.locator("#table-share .share-btn").click()
    expect(failed.locator("#table-share .share-fallback")).to_be_visible()
    expect(failed.locator("#table-share .share-whatsapp")).to_have_text("WhatsApp")
    cancelled.wait_for_function("window.__asked === 1")
    cancelled.evaluate("new Promise((done) => setTimeout(done))")  # the rejection handled
    expect(cancelled.locator("#table-share .share-fallback")).to_be_hidden()  # the reader closed it


def test_a_member_passes_an_invite_on_as_its_previewed_link(live_server: LiveServer, open_page: Any) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "Friday kaki")["code"]
    made = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {}).json()
    page = as_player(open_page, owner, "Ah Beng", "en", live_server.url)
    page.context.add_init_script(RECORD)
    page.goto(f"{live_server.url}/clubs#invite={made['invite']}")  # a link of the older form
    expect(page.locator("#invite-open")).to_be_visible()
    page.locator("#invite-share .share-btn").click()
    assert shared(page) == [{"title": "Join Friday kaki",
                             "text": "Join our Singapore Mahjong club Friday kaki:",
                             "url": f"{live_server.url}/invite/{made['invite']}"}]
