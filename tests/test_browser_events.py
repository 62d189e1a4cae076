"""An eight-player duplicate event in the browser (docs/events.md): the organiser opens its page, a
friend enters on its page in 中文, the organiser starts it; two tables, three rounds of two hands, every
entrant present and playing (a WebSocket each, as a page would) except one who is away in round 2.
Both tables of each round are dealt the same walls (the docs/wall.md recipe on the published hashes and
reveals), the standings the page shows equal a recomputation from the stored hands, the absent entrant's
round is marked as played by a bot, and every hand has a replay."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
import time
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from playwright.sync_api import Page, expect

from sgmahjong.tournament import EventRules, standings
from tests.conftest import FAST_OPTIONS, LiveServer, WsClient
from tests.test_browser_clubs import as_player
from tests.test_clubs import call, player
from tests.test_events import recompute
from tests.test_wall import _recipe

NAMES = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei", "Kumar", "Jia Hui", "Wei Jie", "Farah"]
AWAY = "Kumar"  # away in round 2: a bot plays the seat


class Entrant(threading.Thread):
    """One entrant's table page, reduced to its socket, in a thread: sits at the table the test names
    (``target``; None: away), plays (a win when there is one, else the first discard or pass) and is
    ready for the next hand at once."""

    def __init__(self, server: LiveServer, cookie: str, name: str) -> None:
        super().__init__(daemon=True)
        self.server, self.cookie, self.name = server, cookie, name
        self.target: str | None = None
        self.stop = False
        self.failure: BaseException | None = None
        self.ws: WsClient | None = None
        self.code: str | None = None
        self.seat: int | None = None
        self.sent_for = -1
        self.phase = ""

    def run(self) -> None:
        try:
            while not self.stop:
                if self.target != self.code:
                    self._leave()
                    if self.target is not None:
                        self._sit(self.target)
                if self.ws is None:
                    time.sleep(0.05)  # away: nothing to read
                    continue
                try:
                    msg = self.ws.recv(timeout=0.2)
                except TimeoutError:
                    continue
                if msg.get("type") == "view":
                    self._answer(msg["view"])
        except BaseException as exc:  # reported by the test
            self.failure = exc
        finally:
            self._leave()

    def _sit(self, code: str) -> None:
        self.ws = self.server.ws(code, self.cookie)
        self.seat = self.ws.hello(None)["seat"]
        assert self.seat is not None, f"{self.name} has no seat at {code}"
        self.code, self.sent_for, self.phase = code, -1, ""

    def _leave(self) -> None:
        if self.ws is not None:
            self.ws.close()
        self.ws, self.code = None, None

    def _answer(self, view: dict[str, Any]) -> None:
        assert self.ws is not None
        phase, self.phase = view.get("phase", ""), view.get("phase", "")
        if phase == "ended":
            self.ws.send({"type": "next"})  # ready for the next hand (whose versions count again)
            self.sent_for = -1
            return
        legal = view.get("legal_actions") or []
        if self.seat in view.get("awaiting", []) and legal and view["version"] > self.sent_for:
            action = "win" if "win" in legal else next(
                (a for a in legal if a.startswith(("discard", "pass"))), legal[0])
            self.ws.send({"type": "action", "action": action, "version": view["version"]})
            self.sent_for = view["version"]


def _event(server: LiveServer, code: str) -> dict[str, Any]:
    data: dict[str, Any] = call(server, "GET", f"/api/events/{code}", None).json()
    return data


def test_an_eight_player_duplicate_event_with_one_entrant_away_in_round_two(
        live_server: LiveServer, open_page: Any) -> None:
    people = {n: player(live_server, n) for n in NAMES}
    organiser: Page = as_player(open_page, people[NAMES[0]], NAMES[0], "en", live_server.url)
    made = call(live_server, "POST", "/api/events", people[NAMES[0]],
                {"name": "CNY duplicate", "format": "duplicate", "rounds": 3, "hands": 2,
                 "options": {**FAST_OPTIONS, "next_hand_seconds": 1, "takeover_seconds": 1}})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    organiser.goto(f"{live_server.url}/event/{code}")
    expect(organiser.locator("#event-title")).to_have_text("CNY duplicate")
    organiser.click("#enter")
    expect(organiser.locator("#entrants li")).to_have_count(1)

    friend = as_player(open_page, people[NAMES[1]], NAMES[1], "zh", live_server.url)
    friend.goto(f"{live_server.url}/event/{code}")
    expect(friend.locator("#enter")).to_have_text("参加")
    friend.click("#enter")
    expect(friend.locator("#leave")).to_be_visible()
    for name in NAMES[2:]:
        assert call(live_server, "POST", f"/api/events/{code}/enter", people[name], {}).status_code == 200
    organiser.reload()
    expect(organiser.locator("#entrants li")).to_have_count(8)
    organiser.click("#start")
    expect(organiser.locator("#rounds .event-round")).to_have_count(1)

    entrants = {n: Entrant(live_server, people[n], n) for n in NAMES}
    for e in entrants.values():
        e.start()
    end = time.monotonic() + 240
    data = _event(live_server, code)
    try:
        while data["status"] != "finished":
            assert time.monotonic() < end, f"the event did not finish: {data}"
            current = data["played"][-1]
            for e in entrants.values():
                assert e.failure is None, (e.name, e.failure)
                table = next(t for t in current["tables"] if e.name in t["seats"])
                away = e.name == AWAY and current["round"] == 2
                live = table["status"] in ("playing", "between_hands")
                e.target = table["code"] if live and not away else None
            time.sleep(0.3)  # the entrants play in their threads; the test follows the event's rounds
            data = _event(live_server, code)
    finally:
        for e in entrants.values():
            e.stop = True
        for e in entrants.values():
            e.join(timeout=5)

    verify = _recipe()
    for rnd in data["played"]:
        assert len(rnd["tables"]) == 2 and len(rnd["walls"]) == 2
        for wall in rnd["walls"]:
            for t in rnd["tables"]:
                base = f"{live_server.url}/api/tables/{t['code']}/hands/{wall['hand']}"
                shown = httpx.get(base + "/replay", timeout=30)
                assert shown.status_code == 200, shown.text  # every hand has its replay
                assert shown.json()["wall_hash"] == wall["wall_hash"]  # both tables: the published wall
                assert verify(wall["wall_hash"], shown.json()["result"]["wall_reveal"])

    db = sqlite3.connect(f"file:{live_server.database}?mode=ro", uri=True)
    try:
        names, records = recompute(lambda sql, params: db.execute(sql, params).fetchall(), code)
    finally:
        db.close()
    assert len(records) == 3 * 2 * 2
    again = standings(list(names), records, EventRules(format="duplicate", rounds=3, hands=2))
    by_bot = {names[r.entrant]: r.by_bot for r in again}
    assert by_bot[AWAY] == 2 and all(v == 0 for n, v in by_bot.items() if n != AWAY), by_bot

    organiser.reload()
    expect(organiser.locator("#event-status")).to_have_text("The event is over.")
    rows = organiser.locator("#standings tr")
    expect(rows).to_have_count(9)
    shown = [rows.nth(i + 1).locator("td").all_text_contents() for i in range(8)]
    scores = [round(float(r.score), 2) for r in again]
    assert [(cells[1], cells[2]) for cells in shown] == [
        (names[r.entrant], f"+{x:g}" if x > 0 else f"{x:g}") for r, x in zip(again, scores, strict=True)]
    friend.reload()
    expect(friend.locator("#event-status")).to_have_text("比赛已结束。")
    first = data["played"][0]["tables"][0]["code"]
    organiser.goto(f"{live_server.url}/replay/{first}/1")
    expect(organiser.locator("body")).to_contain_text("CNY duplicate")


def test_an_organiser_creates_an_event_on_the_events_page(live_server: LiveServer, open_page: Any) -> None:
    cookie = player(live_server, "Ah Beng")
    page: Page = as_player(open_page, cookie, "Ah Beng", "zh", live_server.url)
    page.goto(f"{live_server.url}/events")
    expect(page.locator("#my-events li")).to_have_text("你还没有发起或参加比赛。")
    page.fill("#event-name", "新年复式赛")
    page.select_option("#event-format", "duplicate")
    page.fill("#event-rounds", "3")
    page.fill("#event-hands", "2")
    page.select_option("#event-pace", "fast")
    page.click("#event-form button[type=submit]")
    page.wait_for_url("**/event/*")
    expect(page.locator("#event-title")).to_have_text("新年复式赛")
    expect(page.locator("#event-about")).to_contain_text("复式赛，3 轮，每轮 2 局")
    expect(page.locator("#start")).to_be_visible()
    page.goto(f"{live_server.url}/events")
    expect(page.locator("#my-events li a")).to_have_text("新年复式赛")
    too_long = "x" * 61
    page.fill("#event-name", too_long)
    page.evaluate("document.getElementById('event-name').removeAttribute('maxlength')")
    page.fill("#event-name", too_long)
    page.click("#event-form button[type=submit]")
    expect(page.locator("#events-status")).to_have_text("比赛名称为 1 到 60 个字。")


def test_an_event_with_a_start_time_and_a_join_code_in_the_browser(live_server: LiveServer,
                                                                     open_page: Any) -> None:
    """The organiser sets a start time and entry by join code on /events (English); the page they land
    on holds the code and shows the time in Singapore's zone and theirs; a friend who follows that link
    (中文) enters in one tap; one who has the page's address without the code is told, in 中文, to ask
    for the link."""
    organiser = as_player(open_page, player(live_server, "Ah Beng"), "Ah Beng", "en", live_server.url)
    organiser.goto(f"{live_server.url}/events")
    organiser.fill("#event-name", "Friday Swiss night")
    day = (dt.datetime.now(ZoneInfo("Asia/Singapore")) + dt.timedelta(days=30)).date()
    organiser.fill("#event-starts", f"{day.isoformat()}T20:00")
    expect(organiser.locator("#event-entry option[value=club]")).to_be_disabled()  # owns no club
    organiser.select_option("#event-entry", "code")
    organiser.click("#event-form button[type=submit]")
    organiser.wait_for_url("**/event/*?join=*")
    join = organiser.url.split("join=", 1)[1]
    expect(organiser.locator("#event-when")).to_contain_text("(Asia/Singapore)")
    expect(organiser.locator("#event-when")).to_contain_text("your time:")
    expect(organiser.locator("#event-entry")).to_contain_text("Entry with the join code")
    expect(organiser.locator("#code-note")).to_contain_text(f"Join code {join}")
    code = organiser.url.split("/event/", 1)[1].split("?")[0]
    eight_pm = dt.datetime.combine(day, dt.time(20, 0), ZoneInfo("Asia/Singapore")).timestamp()
    assert live_server.get(f"/api/events/{code}").json()["starts"] == eight_pm  # Singapore's 20:00

    friend = as_player(open_page, player(live_server, "Mei Ling"), "Mei Ling", "zh", live_server.url)
    friend.goto(organiser.url)
    expect(friend.locator("#join-code")).to_have_value(join)
    friend.click("#enter")
    expect(friend.locator("#entrants li")).to_have_text(["Mei Ling"])
    expect(friend.locator("#leave")).to_be_visible()

    stranger = as_player(open_page, player(live_server, "Ah Huat"), "Ah Huat", "zh", live_server.url)
    stranger.goto(organiser.url.split("?", 1)[0])
    expect(stranger.locator("#join-code")).to_have_value("")
    stranger.click("#enter")
    expect(stranger.locator("#event-status")).to_have_text("参加这个比赛需要报名码：请向主办人要链接。")
    expect(stranger.locator("#entrants li")).to_have_text(["Mei Ling"])
