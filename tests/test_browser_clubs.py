"""Clubs in the browser (static/js/clubs.js, club.js): Ah Beng starts a club on /clubs and makes an
invite link; Mei Ling (a second context, in 中文) joins by it; after recorded matches both see the
ledger and the settle-up text in their language; a stranger sees only "no such club". The owner makes
a club table public with its box; a stranger at a replay of a members-only table is told why not."""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.test_clubs import call, invited, new_club, player, record

expect.set_options(timeout=15_000)
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def as_player(open_page: Any, cookie: str, name: str, lang: str, url: str = "") -> Page:
    """A browser whose session is ``cookie`` (``sg_session=...``, from :func:`player`)."""
    page: Page = open_page(DESKTOP, lang)
    page.context.add_cookies([{"name": "sg_session", "value": cookie.split("=", 1)[1],
                               "url": url or "http://127.0.0.1"}])
    page.on("dialog", lambda d: d.accept())
    return page


def test_create_invite_join_and_settle_up(live_server: Any, open_page: Any) -> None:
    beng_secret, mei_secret = player(live_server, "Ah Beng"), player(live_server, "Mei Ling")
    beng = as_player(open_page, beng_secret, "Ah Beng", "en", live_server.url)
    beng.goto(f"{live_server.url}/clubs")
    expect(beng.locator("#my-clubs")).to_contain_text("no club")
    beng.fill("#club-name", "<b>Thursday</b> kaki")  # typed text is shown as text, never markup
    beng.locator("#create-form button[type=submit]").click()
    expect(beng.locator("#club-title")).to_have_text("<b>Thursday</b> kaki")
    expect(beng.locator("#club-stakes")).to_have_text("Played for points · house rules: default")
    code = beng.url.rsplit("/", 1)[1]
    beng.locator("#invite-new").click()
    expect(beng.locator("#invite-made")).to_be_visible()
    link = beng.locator("#invite-url").input_value()
    assert f"{live_server.url}/invite/" in link
    # Mei Ling opens the link in her own browser, in 中文, and joins
    mei = as_player(open_page, mei_secret, "Mei Ling", "zh", live_server.url)
    mei.goto(link)
    mei.locator("#join-btn").click()
    expect(mei.locator("#club-title")).to_have_text("<b>Thursday</b> kaki")
    expect(mei.locator("#members")).to_contain_text("Ah Beng")
    expect(mei.locator("#settle-mark")).to_be_hidden()  # the owner's
    # two more members (by the API), then two matches: Ah Beng wins 2 tai off Mei Ling (+8, -4, -2, -2
    # points), then Mei Ling self-draws 1 tai (+6, -2 each): +6, +2, -4, -4 points, at 20c a point
    huat, siew = player(live_server, "Ah Huat"), player(live_server, "Siew Mei")
    invited(live_server, beng_secret, code, huat)
    invited(live_server, beng_secret, code, siew)
    started = time.time()
    seats: list[str | None] = [beng_secret, mei_secret, huat, siew]
    record(live_server, code, seats, [(0, 2, 1)], started)
    record(live_server, code, seats, [(1, 1, None)], started + 0.01)
    beng.reload()
    # points first: the ledger, the transfers and the message name points, no money, no stakes
    expect(beng.locator("#ledger tbody tr")).to_have_count(4)
    expect(beng.locator("#ledger th").last).to_have_text("Points")
    expect(beng.locator('#ledger tr[data-member] td:last-child')).to_have_text(["+6", "+2", "-4", "-4"])
    expect(beng.locator("#transfers li")).to_have_count(3)
    text = beng.locator("#settle-text").input_value()
    assert text.startswith("<b>Thursday</b> kaki: settle up") and "Siew Mei owes Ah Beng 4 points" in text
    assert "$" not in beng.locator("main").inner_text()
    mei.reload()
    expect(mei.locator("#transfers li")).to_have_count(3)
    expect(mei.locator("#money-mode")).to_have_text("这个牌友会以积分记账：谁也不欠谁钱。")
    expect(mei.locator("#money-open")).to_be_hidden()  # the owner's
    assert "Siew Mei 欠 Ah Beng 4 分" in mei.locator("#settle-text").input_value()
    assert "$" not in mei.locator("main").inner_text() and "赌注" not in mei.locator("main").inner_text()
    # the owner opts in to money: the notice of the law must be confirmed first
    beng.locator("#money-open").click()
    expect(beng.locator("#money-law")).to_contain_text("Gambling Control Act 2022")
    beng.select_option("#money-stake", "20")
    beng.locator("#money-on").click()  # unconfirmed: the form is not sent
    expect(beng.locator("#money-law")).to_be_visible()
    assert call(live_server, "GET", f"/api/clubs/{code}", beng_secret).json()["club"]["money"] is False
    beng.locator("#money-confirm").check()
    beng.locator("#money-on").click()
    expect(beng.locator("#money-form")).to_be_hidden()
    expect(beng.locator("#club-stakes")).to_contain_text("20c/40c")
    expect(beng.locator('#ledger tr[data-member] td:last-child')).to_have_text(
        ["+$1.20", "+$0.40", "-$0.80", "-$0.80"])
    assert "Siew Mei pays Ah Beng $0.80" in beng.locator("#settle-text").input_value()
    mei.reload()
    expect(mei.locator("#money-mode")).to_contain_text("会长已开启金额")
    assert "Siew Mei 付给 " in mei.locator("#settle-text").input_value()
    # the owner marks it settled: the settle-up starts again, the history keeps it
    beng.locator("#settle-mark").click()
    expect(beng.locator("#transfers li")).to_have_text(["All square: nobody owes anything."])
    expect(beng.locator("#history li")).to_have_count(1)
    # a stranger sees only "no such club"
    stranger = as_player(open_page, player(live_server, "Eve"), "Eve", "en", live_server.url)
    stranger.goto(f"{live_server.url}/club/{code}")
    expect(stranger.locator("#club-status")).to_have_text("No such club (or you are not a member of it).")
    assert "Thursday" not in stranger.content()


def test_the_owner_makes_a_club_table_public_and_a_stranger_is_told_why_not(live_server: Any,
                                                                            open_page: Any) -> None:
    ann_secret, mei_secret = player(live_server, "Ann"), player(live_server, "Mei Ling")
    club = call(live_server, "POST", "/api/clubs", ann_secret, {"name": "Kaki"}).json()["code"]
    invited(live_server, ann_secret, club, mei_secret)
    r = call(live_server, "POST", f"/api/clubs/{club}/tables", ann_secret, {"name": "Friday"})
    table = r.json()["code"]
    ann = as_player(open_page, ann_secret, "Ann", "en")
    ann.goto(f"{live_server.url}/club/{club}")
    box = ann.locator(f'#club-tables input[data-table="{table}"]')
    expect(box).not_to_be_checked()
    expect(ann.locator("#club-tables label.table-public")).to_have_text("Public")
    box.check()
    expect(ann.locator(f'#club-tables input[data-table="{table}"]')).to_be_checked()  # drawn again
    assert live_server.get(f"/api/tables/{table}").status_code == 200  # open to anyone now
    # a member sees the word (in 中文), not the box
    mei = as_player(open_page, mei_secret, "Mei Ling", "zh")
    mei.goto(f"{live_server.url}/club/{club}")
    expect(mei.locator("#club-tables li")).to_contain_text("公开")
    expect(mei.locator("#club-tables input")).to_have_count(0)
    ann.locator(f'#club-tables input[data-table="{table}"]').uncheck()
    expect(ann.locator(f'#club-tables input[data-table="{table}"]')).not_to_be_checked()
    assert live_server.get(f"/api/tables/{table}").json()["code"] == "club_only"
    # a stranger opening one of its replays is told why, in the page's language
    stranger = as_player(open_page, player(live_server, "Eve"), "Eve", "zh")
    stranger.goto(f"{live_server.url}/replay/{table}/1")
    expect(stranger.locator("#replay-error")).to_have_text(
        "只有牌友会成员可以查看这张牌桌（除非会长把它设为公开）。")
    assert "Friday" not in stranger.content()


def test_a_device_signed_out_everywhere_cannot_act_for_the_club(live_server: Any, open_page: Any) -> None:
    """Before, "sign out everywhere" left a phone the browser secret's powers: it still opened its
    account's club as owner and made an invite link. Now the phone is a new guest."""
    from tests.test_accounts import cookie_of, device, key_for, register, sign_in

    laptop, phone_api = device(live_server), device(live_server)
    key = key_for(live_server)
    assert register(laptop, key, "Ah Beng").status_code == 200
    code = laptop.post("/api/clubs", json={"name": "Kaki"}).json()["code"]
    assert sign_in(phone_api, key).status_code == 200
    phone = as_player(open_page, cookie_of(phone_api), "Ah Beng", "en", live_server.url)
    phone.goto(f"{live_server.url}/club/{code}")
    expect(phone.locator("#club-title")).to_have_text("Kaki")
    expect(phone.locator("#invite-new")).to_be_visible()  # the owner's, while signed in
    assert laptop.post("/api/account/signout-all", json={}).json()["ended"] == 2
    phone.reload()
    expect(phone.locator("#club-status")).to_have_text("No such club (or you are not a member of it).")
    expect(phone.locator("#invite-new")).to_be_hidden()
    made = phone.evaluate("""async (code) => (await fetch(`/api/clubs/${code}/invites`, {method: "POST",
        headers: {"Content-Type": "application/json"}, body: "{}"})).status""", code)
    assert made == 404  # the request the old page would send: refused
    assert "Kaki" not in phone.content()


def test_a_guest_member_downloads_the_club_ledger_as_csv(live_server: Any, open_page: Any) -> None:
    """Before, the CSV link could not send the X-Player header, so it silently failed for every member
    who was not signed in. The session cookie goes with a plain link."""
    owner, guest = player(live_server, "Ah Beng"), player(live_server, "Mei Ling")
    code = new_club(live_server, owner)["code"]
    invited(live_server, owner, code, guest)
    mei = as_player(open_page, guest, "Mei Ling", "en", live_server.url)
    mei.goto(f"{live_server.url}/club/{code}")
    expect(mei.locator("#club-title")).to_have_text("Kaki")
    with mei.expect_download() as got:
        mei.locator("#csv-link").click()
    rows = list(csv.reader(io.StringIO(Path(got.value.path()).read_text(encoding="utf-8"))))
    assert rows[0][:2] == ["member", "matches"], rows[:2]
    assert {"Ah Beng", "Mei Ling"} <= {r[0] for r in rows[1:]}, rows
