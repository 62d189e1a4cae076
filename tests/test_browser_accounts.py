"""Accounts in the browser, with Chromium's virtual authenticator (the DevTools protocol's WebAuthn
domain): a guest and a hand, an account claimed with a passkey on /me,
the same passkey (exported from the first authenticator, added to a second context's) signing in
elsewhere to the same history, the ranked queue joined and left; and a device link code doing the
same once (a used or expired code refused)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from sgmahjong.server.settings import ServerSettings
from tests.conftest import FAST_OPTIONS, LiveServer, serving
from tests.test_server import wait_status

expect.set_options(timeout=20_000)
CODE_SECONDS = 8.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    settings = ServerSettings(link_code_seconds=CODE_SECONDS)
    with serving(tmp_path / "accounts.sqlite3", settings=settings) as live:
        yield live


class Device:
    """A browser context with a virtual platform authenticator (passkeys need a domain: localhost)."""

    def __init__(self, browser: Browser, server: LiveServer, errors: list[str]) -> None:
        self.base = f"http://localhost:{server.port}"
        self.context: BrowserContext = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda exc: errors.append(str(exc)))
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        self.authenticator = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
            "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True,
        }})["authenticatorId"]

    def credentials(self) -> list[dict[str, Any]]:
        answer = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return list(answer["credentials"])

    def add_credential(self, credential: dict[str, Any]) -> None:
        self.cdp.send("WebAuthn.addCredential",
                      {"authenticatorId": self.authenticator, "credential": credential})

    def me(self) -> None:
        self.page.goto(self.base + "/me")
        expect(self.page.locator("#account form, #account-name").first).to_be_visible()

    def hands(self) -> list[str]:
        rows = self.page.locator("#hands tbody tr")
        expect(rows.first).to_be_visible()
        return sorted(f"{r.get_attribute('data-code')}/{r.get_attribute('data-hand')}" for r in rows.all())


@pytest.fixture
def devices(browser: Browser, server: LiveServer) -> Iterator[Any]:
    made: list[Device] = []
    errors: list[str] = []

    def make() -> Device:
        made.append(Device(browser, server, errors))
        return made[-1]

    yield make
    for d in made:
        d.context.close()
    assert errors == []


def guest_plays_a_hand(server: LiveServer, d: Device) -> str:
    """The guest starts a game against bots from the page (its session cookie goes with it, as with the
    lobby's Play button); with no timers a bot plays the seat until the hand ends."""
    d.me()
    code = d.page.evaluate("""async (options) => {
        const res = await fetch("/api/play", {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({name: "Guest Ann", seed: 4, options})});
        return (await res.json()).code;
    }""", FAST_OPTIONS)
    wait_status(server, code, {"between_hands", "finished"})
    return str(code)


def test_a_guest_claims_an_account_with_a_passkey_and_signs_in_elsewhere(server: LiveServer,
                                                                         devices: Any) -> None:
    phone = devices()
    code = guest_plays_a_hand(server, phone)
    phone.me()
    assert phone.hands() == [f"{code}/1"]
    phone.page.fill("#claim-name", "Ann")
    phone.page.click("#claim-btn")
    expect(phone.page.locator("#account-name")).to_contain_text("Ann")
    expect(phone.page.locator("#passkeys li")).to_have_count(1)
    assert phone.hands() == [f"{code}/1"]  # the guest's history is the account's
    (credential,) = phone.credentials()
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    cookies = phone.context.cookies()
    session = next(c for c in cookies if c["name"] == "sg_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"

    laptop = devices()
    laptop.add_credential(credential)  # the same passkey, synced to another device
    laptop.me()
    laptop.page.click("#signin-btn")
    expect(laptop.page.locator("#account-name")).to_contain_text("Ann")
    assert laptop.hands() == [f"{code}/1"]
    expect(laptop.page.locator("#devices li")).to_have_count(2)
    # the ranked queue from the leaderboard page: waiting (one player), then left
    laptop.page.goto(laptop.base + "/leaderboard")
    laptop.page.click("#ranked-btn")
    expect(laptop.page.locator("#ranked-status")).to_contain_text("the only one waiting")
    laptop.page.click("#ranked-leave")
    expect(laptop.page.locator("#ranked-status")).to_contain_text("You left the queue")


def test_a_device_link_code_signs_in_once_and_not_after_it_expires(server: LiveServer, devices: Any) -> None:
    phone, tablet, stranger = devices(), devices(), devices()
    code = guest_plays_a_hand(server, phone)
    phone.me()
    phone.page.fill("#claim-name", "Bo")
    phone.page.click("#claim-btn")
    expect(phone.page.locator("#account-name")).to_contain_text("Bo")
    phone.page.click("#code-btn")
    shown = phone.page.locator("#link-shown")
    expect(shown).to_contain_text("-")
    link = str(shown.get_attribute("data-code"))

    tablet.me()
    tablet.page.fill("#link-code", link)
    tablet.page.click("#link-btn")
    expect(tablet.page.locator("#account-name")).to_contain_text("Bo")
    assert tablet.hands() == [f"{code}/1"]

    stranger.me()  # the same code again: refused, it was used
    stranger.page.fill("#link-code", link)
    stranger.page.click("#link-btn")
    expect(stranger.page.locator("#account-status")).to_contain_text("Sign-in failed")

    phone.page.click("#code-btn")  # a new code, left until it expires
    expect(shown).not_to_have_attribute("data-code", link)
    late = str(shown.get_attribute("data-code"))
    time.sleep(CODE_SECONDS + 0.5)
    expect(shown).to_contain_text("expired")
    stranger.page.fill("#link-code", late)
    stranger.page.click("#link-btn")
    expect(stranger.page.locator("#account-status")).to_contain_text("Sign-in failed")
    expect(stranger.page.locator("#claim-form")).to_be_visible()  # still signed out
