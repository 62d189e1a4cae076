"""Invite links in the browser (static/js/invite.js, club.js): a new friend opens a link in 中文, sees the
club and who sent it, presses Join once (the name asked on the same screen, a suggestion filled in) and
lands on the club's page as a member; a revoked link says so as the page opens, in both languages; the
owner labels links, tells them apart by label and fingerprint, and revokes the one they mean."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.test_browser_clubs import DESKTOP, as_player
from tests.test_clubs import call, new_club, player

expect.set_options(timeout=15_000)
PHONE = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True}


def test_a_new_friend_joins_in_one_tap_in_chinese(live_server: Any, open_page: Any) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "<i>Thursday</i> kaki", stake=20)["code"]
    link = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {"label": "for Mei Ling"}).json()
    page = open_page(PHONE, "zh")  # a new visitor: no session, no name
    page.goto(f"{live_server.url}/clubs#invite={link['invite']}")
    expect(page.locator("#invite-title")).to_have_text("Ah Beng 邀请你加入牌友会")
    expect(page.locator("#invite-club")).to_have_text("<i>Thursday</i> kaki")  # text, never markup
    expect(page.locator("#invite-stakes")).to_contain_text("以积分计")  # points first: no stakes shown
    expect(page.locator("#invite-stakes")).to_contain_text("1 位成员")
    expect(page.locator("#join-name")).to_have_value(re.compile(r"^客人\d{4}$"))  # asked on this screen
    name = page.locator("#join-name").input_value()
    expect(page.locator("#my-clubs")).to_be_hidden()  # nothing sends a new friend to /me
    page.locator("#join-btn").click()  # one tap
    page.wait_for_url(f"**/club/{club}")
    expect(page.locator("#club-title")).to_have_text("<i>Thursday</i> kaki")
    expect(page.locator("#members li")).to_have_count(2)
    expect(page.locator("#members")).to_contain_text(name)
    expect(page.locator("#members")).to_contain_text("Ah Beng")
    # the link opened again: a member is shown the way in, not Join
    page.goto(f"{live_server.url}/clubs#invite={link['invite']}")
    expect(page.locator("#invite-open")).to_be_visible()
    expect(page.locator("#join-btn")).to_be_hidden()


def test_a_revoked_link_says_so_on_opening_in_both_languages(live_server: Any, open_page: Any) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "Thursday kaki")["code"]
    link = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {}).json()
    call(live_server, "POST", f"/api/clubs/{club}/invites/{link['id']}/revoke", owner, {})
    for lang, title, why in (
            ("en", "This invite link no longer works",
             "The club's owner has revoked this invite link: ask them for a new one."),
            ("zh", "这个邀请链接已经失效", "会长已撤销这个邀请链接：请向会长要一个新的。")):
        page = open_page(DESKTOP, lang)
        page.goto(f"{live_server.url}/clubs#invite={link['invite']}")
        expect(page.locator("#invite-status")).to_have_text(why)  # before any Join
        expect(page.locator("#invite-title")).to_have_text(title)
        expect(page.locator("#join-btn")).to_be_hidden()
        assert "Thursday" not in page.content()


def test_the_owner_tells_links_apart_and_revokes_the_one_meant(live_server: Any, open_page: Any) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "Thursday kaki")["code"]
    page = as_player(open_page, owner, "Ah Beng", "en", live_server.url)  # accepts the confirm
    page.goto(f"{live_server.url}/club/{club}")
    made = {}
    for label in ("for Mei Ling", "<b>for Ah Huat</b>"):
        page.fill("#invite-label", label)
        page.locator("#invite-new").click()
        expect(page.locator("#invite-made-print")).to_contain_text(label)
        made[label] = page.locator("#invite-url").input_value()
        expect(page.locator("#invite-label")).to_have_value("")
    rows = page.locator("#invites li")
    expect(rows).to_have_count(2)
    expect(rows.locator(".invite-label")).to_have_text(["<b>for Ah Huat</b>", "for Mei Ling"])
    expect(rows.nth(0)).to_contain_text("made ")
    expect(rows.nth(0)).to_contain_text("by Ah Beng")
    expect(rows.nth(0)).to_contain_text("valid until")
    prints = rows.locator("code.invite-print").all_text_contents()
    assert len(set(prints)) == 2 and all(re.fullmatch(r"[0-9a-f]{6}", p) for p in prints)
    listed = page.locator("#invites").inner_text()
    assert all(link.rsplit("/invite/", 1)[1] not in listed for link in made.values())  # never the code
    # revoke Ah Huat's: Mei Ling's stays, and Ah Huat's link says so when opened
    rows.filter(has_text="for Ah Huat").get_by_role("button").click()
    expect(rows).to_have_count(1)
    expect(rows.locator(".invite-label")).to_have_text(["for Mei Ling"])
    huat = open_page(DESKTOP, "en")
    huat.goto(made["<b>for Ah Huat</b>"])
    expect(huat.locator("#invite-status")).to_contain_text("revoked")
    mei = open_page(DESKTOP, "en")
    mei.goto(made["for Mei Ling"])
    expect(mei.locator("#invite-title")).to_have_text("Ah Beng invites you to a club")
    expect(mei.locator("#invite-print")).to_have_text(f"Invite link {prints[1]}")
