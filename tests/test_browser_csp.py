"""The Content-Security-Policy fits the pages: in Chromium every page loads and works under it (the
lobby creates a table, the table page seats a player and starts a hand against bots) and Chromium
reports no CSP violation; a page of the site cannot be framed."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Page, expect

expect.set_options(timeout=15_000)


def watched(browser: Browser) -> tuple[Page, list[str]]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"script error: {exc}"))

    def console(msg: ConsoleMessage) -> None:
        if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text:
            problems.append(msg.text)

    page.on("console", console)
    return page, problems


def test_the_pages_work_under_the_csp(live_server: Any, browser: Browser) -> None:
    page, problems = watched(browser)
    pages = ("/how-to-play", "/scoring", "/calculator", "/me", "/leaderboard", "/clubs", "/club/nosuchclub")
    for path in pages:
        response = page.goto(live_server.url + path)
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        expect(page.locator("header.site-header nav a")).to_have_count(8)
    # the lobby: a table is created through the page's own (same-origin, JSON) POST
    page.goto(live_server.url + "/")
    page.fill("#table-name", "CSP table")
    page.locator("#create-btn").click()
    page.locator("#created-go").click()
    page.wait_for_url("**/t/**")
    # the table page: take a seat, fill with bots and play (WebSocket to the same origin)
    expect(page.locator("#seating")).to_be_visible()
    page.fill("#join-name", "Ann")
    page.locator('#seat-list [data-seat="0"] [data-action="join"]').click()
    expect(page.locator("body")).to_have_attribute("data-seat", "0")
    page.locator("#start-btn").click()
    expect(page.locator("#hand .tile").first).to_be_visible()
    assert problems == []
    page.context.close()


def test_a_page_cannot_be_framed(live_server: Any, browser: Browser) -> None:
    page, _ = watched(browser)
    page.goto(live_server.url + "/api/health")
    page.set_content(f'<iframe id="f" src="{live_server.url}/how-to-play"></iframe>')
    frame = page.frame_locator("#f")
    expect(frame.locator("header.site-header")).to_have_count(0)
    page.context.close()
