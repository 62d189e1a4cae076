"""The talk panel's names and fit in the browser (static/js/chat.js): the host's mute list names the
human seats as they are now (a seat taken after the list was opened shows its player's name; a bot is
never listed), spectators speak by their display names and the table lists who watches, and the nine
quick phrases all fit inside the panel and the screen, desktop and phone, English and 中文."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.test_browser import take_seat

expect.set_options(timeout=15_000)
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def test_mute_list_names_seats_as_they_fill_never_bots_and_spectators_by_name(
        live_server: Any, open_page: Any) -> None:
    code = live_server.create_table("Kaki")["code"]
    other = live_server.create_table("Elsewhere")["code"]
    ann = open_page(DESKTOP, "en")
    bo = open_page(DESKTOP, "zh")
    dee = open_page(DESKTOP, "zh")
    take_seat(ann, live_server.url, code, "Ann", 0)
    ann.locator("#chat-panel summary").click()  # the host opens the mute list while seats are empty
    rows = ann.locator("#chat-mutes .chat-mute-row")
    expect(rows).to_have_count(1)  # the spectators only: nobody else is seated
    expect(rows.first).to_have_attribute("data-mute-seat", "s")

    take_seat(bo, live_server.url, code, "Bo", 1)
    expect(ann.locator('#chat-mutes [data-mute-seat="1"] > span')).to_have_text("Bo")
    expect(ann.locator('[data-mute-seat="1"] [data-mute-all="1"]')).to_be_visible()  # the host's own control
    ann.locator('#seat-list [data-seat="2"] [data-action="add-bot"]').click()
    expect(ann.locator('#seat-list [data-seat="2"]')).to_contain_text("Bot")
    expect(rows).to_have_count(2)  # Bo and the spectators: the bot says nothing, so it is not listed
    expect(ann.locator('#chat-mutes [data-mute-seat="2"]')).to_have_count(0)
    expect(ann.locator("#chat-mutes")).not_to_contain_text("Seat")
    # Bo's list: the host by name, no bot
    bo.locator("#chat-panel summary").click()
    expect(bo.locator('#chat-mutes [data-mute-seat="0"] > span')).to_have_text("Ann")
    expect(bo.locator("#chat-mutes .chat-mute-row")).to_have_count(2)

    # Dee (a name saved by taking a seat elsewhere) watches: named in the list of watchers and in chat
    take_seat(dee, live_server.url, other, "Dee <b>", 0)
    dee.goto(f"{live_server.url}/t/{code}")
    expect(dee.locator("body")).to_have_attribute("data-seat", "spectator")
    expect(ann.locator("#chat-watchers")).to_have_text("Watching: 1 — Dee <b>")
    expect(bo.locator("#chat-watchers")).to_have_text("观战：1 人 — Dee <b>")
    assert ann.locator("#chat-watchers b").count() == 0  # a name is text, never markup
    dee.locator('#chat-phrases [data-phrase="jiayou"]').click()
    expect(ann.locator("#chat-list .chat-msg").last).to_have_text("Dee <b> Jia you!")
    expect(bo.locator("#chat-list .chat-msg").last).to_have_text("Dee <b> 加油！")
    # a second watcher without a name is counted, not named
    anon = open_page(DESKTOP, "en")
    anon.goto(f"{live_server.url}/t/{code}")
    expect(ann.locator("#chat-watchers")).to_have_text("Watching: 2 — Dee <b>")
    anon.close()
    expect(ann.locator("#chat-watchers")).to_have_text("Watching: 1 — Dee <b>")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_quick_phrase_fits_in_the_panel_and_the_screen(
        live_server: Any, open_page: Any, size: dict[str, Any], lang: str) -> None:
    code = live_server.create_table("Kaki")["code"]
    page: Page = open_page(size, lang)
    take_seat(page, live_server.url, code, "Ann", 0)
    phrases = page.locator("#chat-phrases .chat-phrase")
    expect(phrases).to_have_count(9)
    page.locator("#chat-phrases").scroll_into_view_if_needed()
    # measured in one step: each button's box inside the phrases' box and the viewport, none cut off
    boxes = page.evaluate("""() => {
      const box = document.getElementById('chat-phrases').getBoundingClientRect();
      return [...document.querySelectorAll('#chat-phrases .chat-phrase')].map((b) => {
        const r = b.getBoundingClientRect();
        return {id: b.dataset.phrase, r: [r.left, r.top, r.right, r.bottom],
                box: [box.left, box.top, box.right, box.bottom], vw: innerWidth, vh: innerHeight,
                clipped: b.scrollWidth > b.clientWidth + 1};
      });
    }""")
    assert len(boxes) == 9
    for b in boxes:
        left, top, right, bottom = b["r"]
        bl, bt, br, bb = b["box"]
        assert bl - 0.5 <= left and right <= br + 0.5 and bt - 0.5 <= top and bottom <= bb + 0.5, b
        assert left >= 0 and right <= b["vw"] and top >= 0 and bottom <= b["vh"], b
        assert not b["clipped"], b
