"""The ranked queue's box in the browser (static/js/ranked.js, ranked_wait.js): the counts and the wait
to expect ("not enough players yet", then an estimate once matches were made), in English and 中文;
alone in the queue, playing bots while the place is kept, told of the match on the bots table's page
and taken to the ranked seat in one tap."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer, serving
from tests.test_accounts import device, key_for, register
from tests.test_matchmaking import wait_matched
from tests.test_ranked_queue_counts import SETTINGS

expect.set_options(timeout=20_000)
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def server(tmp_path: Any) -> Iterator[LiveServer]:
    with serving(tmp_path / "wait.sqlite3", settings=SETTINGS) as live:
        yield live


def signed_in(server: LiveServer, n: int) -> list[httpx.Client]:
    out = []
    for i in range(n):
        client = device(server, f"198.51.100.{i + 1}")  # each at home: never kept apart by address
        assert register(client, key_for(server), f"Waiter {i}").status_code == 200
        out.append(client)
    return out


def as_account(page: Page, server: LiveServer, client: httpx.Client) -> None:
    cookie = {"name": "sg_session", "value": client.cookies["sg_session"], "url": server.url}
    page.context.add_cookies([cookie])


def test_alone_in_the_queue_play_bots_and_be_told_of_the_match_there(
        server: LiveServer, open_page: Any) -> None:
    clients = signed_in(server, 5)
    ann: Page = open_page(DESKTOP, "en")
    as_account(ann, server, clients[0])
    ann.goto(f"{server.url}/leaderboard")
    counts = ann.locator("#ranked-counts")
    expect(counts).to_have_text(
        "Online now: 5 · in the queue: 0. Expected wait: not enough players yet to tell.")
    ann.click("#ranked-btn")
    expect(ann.locator("#ranked-status")).to_contain_text("the only one waiting")
    expect(counts).to_contain_text("in the queue: 1.")
    ann.click("#ranked-bots")  # alone: bots while the place is kept
    ann.wait_for_url(re.compile(r"/t/[\w-]+$"))  # a table code may hold "-" (URL-safe base64)
    bots_code = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#play")).to_be_visible()  # an ordinary table against bots, playing at once
    wait = ann.locator("#ranked-wait")
    expect(wait).to_have_attribute("data-state", "waiting")
    expect(wait).to_contain_text("You are in the ranked queue")
    assert server.get(f"/api/tables/{bots_code}/ranked").json()["ranked"] is False

    tickets = [c.post("/api/ranked/join", json={}).json()["ticket"] for c in clients[1:4]]
    expect(wait).to_have_attribute("data-state", "found")
    expect(wait).to_contain_text(
        "Your ranked match is ready! This bots table is unrated: leaving it costs nothing.")
    ann.get_by_role("button", name="Go to the ranked table").click()
    ann.wait_for_url(lambda url: "/t/" in url and not url.endswith(f"/t/{bots_code}"))
    code = ann.url.rsplit("/", 1)[1]
    assert code != bots_code
    # the ranked seat is hers
    expect(ann.locator("body")).to_have_attribute("data-seat", re.compile(r"^[0-3]$"))
    assert server.get(f"/api/tables/{code}/ranked").json()["ranked"] is True
    for client, ticket in zip(clients[1:4], tickets, strict=True):
        assert wait_matched(client, ticket)["code"] == code
    expect(ann.locator("#ranked-wait")).to_have_count(0)  # the wait is over: nothing more to tell

    # once matches were made, the next player sees an estimate (in 中文 here, on a phone)
    eve: Page = open_page(PHONE, "zh")
    as_account(eve, server, clients[4])
    eve.goto(f"{server.url}/leaderboard")
    expect(eve.locator("#ranked-counts")).to_have_text(
        re.compile(r"^在线：5 人 · 排队中：0 人。 预计等待：约 \d+ 秒。$"))
