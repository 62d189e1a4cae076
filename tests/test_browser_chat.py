"""Chat in the browser (static/js/chat.js): four contexts at one table (three seats, English and
中文, and a spectator), quick phrases in each viewer's language, muting for oneself, hostile text
shown inert or refused (the reason in the viewer's language), a flood cut by the rate limit while
the table plays on, and a replay showing the chat at its step."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.test_browser import take_seat
from tests.test_server import wait_status

expect.set_options(timeout=15_000)
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def chat_items(page: Page) -> Any:
    return page.locator("#chat-list .chat-msg")


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_chat_phrases_mutes_and_hostile_text(live_server: Any, open_page: Any) -> None:
    code = live_server.create_table("Kaki")["code"]
    ann = open_page(DESKTOP, "en")
    bo = open_page(DESKTOP, "zh")
    cy = open_page(DESKTOP, "en")
    watcher = open_page(DESKTOP, "zh")
    take_seat(ann, live_server.url, code, "Ann", 0)
    take_seat(bo, live_server.url, code, "Bo", 1)
    take_seat(cy, live_server.url, code, "Cy", 2)
    watcher.goto(f"{live_server.url}/t/{code}")
    everyone = (ann, bo, cy, watcher)
    for page in everyone:
        expect(page.locator("#chat-panel")).to_be_visible()

    # a message and a quick phrase reach every seat and the spectator, the phrase in each one's language
    say(ann, "Hello all")
    bo.locator('#chat-phrases [data-phrase="huat"]').click()
    for page, lang in zip(everyone, ("en", "zh", "en", "zh"), strict=True):
        expect(chat_items(page).nth(0)).to_have_text("Ann Hello all")
        huat = "Huat ah!" if lang == "en" else "发啊！"
        expect(chat_items(page).nth(1).locator(".chat-body")).to_have_text(huat)
    expect(ann.locator('.chat-bubble[data-seat="1"]')).to_have_text("Huat ah!")
    # the spectator speaks too (an emote from the keyboard: J opens them)
    watcher.locator("body").press("J")
    watcher.locator('#chat-emotes button[data-emote="cat"]').click()
    for page in everyone:
        expect(chat_items(page).nth(2).locator('.emote[data-emote="cat"] svg')).to_be_visible()

    # Cy mutes Bo for herself only
    cy.locator("#chat-panel summary").click()
    cy.locator('[data-mute-me="1"] input').check()
    bo.locator('#chat-phrases [data-phrase="sorry"]').click()
    for page in (ann, bo, watcher):
        expect(chat_items(page)).to_have_count(4)
    expect(chat_items(cy)).to_have_count(2)  # Bo's lines are hidden for Cy
    say(ann, "still here")
    expect(chat_items(cy)).to_have_count(3)
    expect(chat_items(cy).nth(2)).to_have_text("Ann still here")

    # hostile text: markup shown as text, bidi overrides and control characters refused
    say(ann, "<img src=x onerror=alert(1)><script>alert(2)</script>")
    body = watcher.locator("#chat-list .chat-msg").last.locator(".chat-body")
    expect(body).to_have_text("<img src=x onerror=alert(1)><script>alert(2)</script>")
    assert watcher.locator("#chat-list img, #chat-list script").count() == 0
    say(ann, "evil \u202e txt")
    expect(ann.locator("#toast")).to_contain_text("text-direction")
    say(bo, "one\u2028two")  # a line separator: refused in Bo's language
    expect(bo.locator("#toast")).to_contain_text("换行")
    say(bo, "Z" + "\u0301" * 150)  # marks stacked on one letter
    expect(bo.locator("#toast")).to_contain_text("最多 2 个")
    ann.evaluate("document.getElementById('chat-input').removeAttribute('maxlength')")
    say(ann, "x" * 10_000)
    expect(ann.locator("#toast")).to_be_visible()
    expect(chat_items(bo)).to_have_count(6)  # none of the five reached anyone

    # a flood: cut by the chat's rate limit, the socket stays and the match starts
    burst = live_server.settings.chat_burst
    for i in range(burst + 5):
        ann.evaluate("(i) => { const f = document.getElementById('chat-input'); f.value = 'spam ' + i;"
                     " f.form.requestSubmit(); }", i)
    expect(ann.locator("#toast")).to_contain_text("Too many messages")
    ann.locator("#start-btn").click()
    for page in everyone:
        expect(page.locator("#play")).to_be_visible()
        expect(page.locator("aside.side #chat-panel")).to_be_visible()
    spam = bo.locator("#chat-list .chat-msg", has_text="spam")
    assert 0 < spam.count() <= burst  # at most a burst got through (Ann had spent some of it)


def test_replay_shows_chat_at_its_step(live_server: Any, open_page: Any) -> None:
    code = live_server.create_table("Replay chat", seed=5)["code"]
    ann = open_page(DESKTOP, "en")
    take_seat(ann, live_server.url, code, "Ann", 0)
    ann.locator("#start-btn").click()
    expect(ann.locator("#hand .slot.can-discard").first).to_be_visible()
    say(ann, "my deal")
    expect(chat_items(ann)).to_have_count(1)
    version = ann.evaluate("document.body.dataset.version")
    ann.evaluate("document.activeElement.blur()")
    ann.keyboard.press("1")  # discard the first tile (the chat's input let go of the keyboard)
    expect(ann.locator("body")).not_to_have_attribute("data-version", version)
    say(ann, "after my discard")
    expect(chat_items(ann)).to_have_count(2)
    ann.context.close()  # bots play the hand out
    wait_status(live_server, code, {"between_hands", "finished"})
    steps = [m["step"] for m in live_server.get(f"/api/tables/{code}/hands/1/replay").json()["chat"]]
    assert steps[0] == 0 and steps[1] >= 1  # said before any action, and after Ann's discard
    page = open_page(DESKTOP, "en")
    page.goto(f"{live_server.url}/replay/{code}/1?seat=0&step={steps[1] - 1}")
    expect(page.locator("#replay-chat .chat-msg")).to_have_count(1)
    expect(page.locator("#replay-chat .chat-msg")).to_have_text("Ann my deal")
    page.locator("#next").click()
    expect(page.locator("#replay-chat .chat-msg")).to_have_count(2)
    expect(page.locator("#replay-chat .chat-msg").nth(1)).to_have_text("Ann after my discard")
    page.locator("#first").click()
    expect(page.locator("#replay-chat .chat-msg")).to_have_count(1)


def test_avatar_chosen_on_me_shows_at_the_seat(live_server: Any, open_page: Any) -> None:
    page = open_page(DESKTOP, "zh")
    page.goto(f"{live_server.url}/me")
    page.fill("#me-name", "Ann")
    page.locator("#name-form button[type=submit]").click()
    expect(page.locator("#avatar-picker .avatar-pick")).to_have_count(12)
    page.locator('#avatar-picker button[data-avatar="orchid"]').click()
    orchid = page.locator('#avatar-picker button[data-avatar="orchid"]')
    expect(orchid).to_have_attribute("aria-pressed", "true")
    code = live_server.create_table("Faces")["code"]
    take_seat(page, live_server.url, code, "Ann", 0)
    expect(page.locator('#seat-list [data-seat="0"] .avatar[data-avatar="orchid"]')).to_be_visible()
    page.locator("#start-btn").click()
    expect(page.locator('.seat[data-seat="0"] .plate .avatar[data-avatar="orchid"] svg')).to_be_visible()
    expect(page.locator(".seat .plate .avatar-bot")).to_have_count(3)  # the bots have their own
    page.reload()
    expect(page.locator('.seat[data-seat="0"] .plate .avatar[data-avatar="orchid"]')).to_be_visible()
