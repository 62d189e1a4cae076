"""An event's start time and entry (docs/events.md): a scheduled event begins by itself at its time (or
forgets the time when too few entered), entry by join code (stored hashed, wrong codes counted per
person) or by club membership (a club's event is its members' alone), and the link preview of an
event's page."""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest

from sgmahjong.rules import RuleSet
from sgmahjong.server.settings import ServerSettings
from tests.conftest import FAST_OPTIONS, LiveServer, serving
from tests.test_clubs import call, invited, new_club, player

SG = ZoneInfo("Asia/Singapore")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    settings = ServerSettings(event_check_seconds=0.2, event_codes_per_day=3)
    with serving(tmp_path / "entry.sqlite3", settings=settings) as live:
        yield live


def local(seconds_from_now: float, zone: ZoneInfo = SG) -> str:
    """A wall-clock time in ``zone`` as the form sends it."""
    return (dt.datetime.now(zone) + dt.timedelta(seconds=seconds_from_now)).strftime("%Y-%m-%dT%H:%M:%S")


def page(server: LiveServer, code: str, who: str | None) -> httpx.Response:
    return call(server, "GET", f"/api/events/{code}", who)


def wait_for(server: LiveServer, code: str, who: str, ok: object, seconds: float = 60) -> dict[str, object]:
    end = time.monotonic() + seconds
    while True:
        data: dict[str, object] = page(server, code, who).json()
        if callable(ok) and ok(data):
            return data
        assert time.monotonic() < end, data
        time.sleep(0.2)  # polling the event's state (the runner checks every event_check_seconds)


def test_an_event_begins_by_itself_at_its_start_time(server: LiveServer) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    past = call(server, "POST", "/api/events", ann, {"name": "Too late", "starts": local(-60)})
    assert past.status_code == 400 and past.json()["code"] == "bad_time"
    nonsense = call(server, "POST", "/api/events", ann, {"name": "Never", "starts": "Friday 8pm later"})
    assert nonsense.json()["code"] == "bad_time"
    unknown_zone = call(server, "POST", "/api/events", ann, {"name": "Nowhere", "starts": local(600),
                                                               "zone": "Mars/Olympus"})
    assert unknown_zone.json()["code"] == "bad_time"
    made = call(server, "POST", "/api/events", ann, {"name": "Friday cup", "starts": local(4), "rounds": 1,
                                                     "hands": 1, "options": FAST_OPTIONS})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    data = page(server, code, ann).json()
    assert data["status"] == "open" and data["zone"] == "Asia/Singapore"
    assert abs(data["starts"] - time.time() - 4) < 3 and data["local"] == dt.datetime.fromtimestamp(
        data["starts"], SG).strftime("%Y-%m-%dT%H:%M")
    for who in (ann, ben):
        assert call(server, "POST", f"/api/events/{code}/enter", who, {}).status_code == 200
    running = wait_for(server, code, ann, lambda d: d["status"] != "open")  # nobody pressed Start
    assert running["status"] in ("running", "finished") and running["round"] == 1

    # an event whose time comes with one entrant forgets its time: its organiser starts it
    lone = call(server, "POST", "/api/events", ann, {"name": "Lonely cup", "starts": local(2)}).json()["code"]
    assert call(server, "POST", f"/api/events/{lone}/enter", ann, {}).status_code == 200
    left = wait_for(server, lone, ann, lambda d: d["starts"] is None)
    assert left["status"] == "open" and left["round"] == 0


def test_a_round_of_a_full_match(server: LiveServer) -> None:
    """hands 0: each round is a full match of the house rules' rounds (not in duplicate: its tables
    share a fixed number of walls)."""
    ann, ben = player(server, "Ann"), player(server, "Ben")
    dup = call(server, "POST", "/api/events", ann, {"name": "Dup", "format": "duplicate", "hands": 0})
    assert dup.status_code == 400 and dup.json()["code"] == "event_hands"
    code = call(server, "POST", "/api/events", ann, {"name": "Long night", "hands": 0, "rounds": 1,
                                                     "preset": "site"}).json()["code"]
    for who in (ann, ben):
        assert call(server, "POST", f"/api/events/{code}/enter", who, {}).status_code == 200
    assert call(server, "POST", f"/api/events/{code}/start", ann, {}).status_code == 200
    table = page(server, code, ann).json()["played"][0]["tables"][0]["code"]
    rules = call(server, "GET", f"/api/tables/{table}", ann).json()["rules"]
    assert rules["match_hands"] == 0 and rules["rotate_every_hand"] is False
    assert rules["rounds"] == RuleSet.preset("site").rounds  # the whole match of the house rules


def test_entry_by_join_code_is_checked_hashed_and_wrong_codes_are_counted(server: LiveServer) -> None:
    ann, ben, cy = (player(server, n) for n in ("Ann", "Ben", "Cy"))
    made = call(server, "POST", "/api/events", ann, {"name": "Code cup", "entry": "code"})
    assert made.status_code == 201, made.text
    code, join = made.json()["code"], made.json()["join_code"]
    assert made.json()["url"] == f"/event/{code}?join={join}" and len(join) >= 8
    db = sqlite3.connect(f"file:{server.database}?mode=ro", uri=True)
    try:
        stored = db.execute("SELECT join_hash, entry FROM tournaments WHERE code = ?", (code,)).fetchall()
    finally:
        db.close()
    assert stored == [(hashlib.sha256(join.encode()).hexdigest(), "code")]  # only its hash is kept
    assert page(server, code, ben).json()["entry"] == "code"  # readable with the link
    none = call(server, "POST", f"/api/events/{code}/enter", ben, {})
    assert none.status_code == 403 and none.json()["code"] == "event_code"
    for _ in range(2):
        wrong = call(server, "POST", f"/api/events/{code}/enter", ben, {"code": join[::-1] + "x"})
        assert wrong.json()["code"] == "event_code"
    # the third wrong code of the day (event_codes_per_day=3, counted per person) is refused as such,
    # and a right code afterwards still enters (the limit counts wrong codes only)
    assert call(server, "POST", f"/api/events/{code}/enter", ben, {"code": "guess"}).json()["code"] == \
        "event_codes_per_day"
    assert call(server, "POST", f"/api/events/{code}/enter", ben, {"code": join}).status_code == 200
    assert call(server, "POST", f"/api/events/{code}/enter", cy, {"code": join}).status_code == 200
    assert page(server, code, ann).json()["entrants"] == ["Ben", "Cy"]
    long = call(server, "POST", f"/api/events/{code}/enter", cy, {"code": "x" * 41})
    assert long.status_code == 400
    # the organiser makes a new join link: the old code stops working (and only they may)
    assert call(server, "POST", f"/api/events/{code}/code", ben, {}).json()["code"] == "organiser_only"
    fresh = call(server, "POST", f"/api/events/{code}/code", ann, {}).json()
    assert fresh["url"] == f"/event/{code}?join={fresh['join_code']}" and fresh["join_code"] != join
    dan = player(server, "Dan")  # from the same address as Ben: its wrong codes are counted already
    old = call(server, "POST", f"/api/events/{code}/enter", dan, {"code": join})
    assert old.status_code in (403, 429) and old.json()["code"] in ("event_code", "event_codes_per_day")
    new = call(server, "POST", f"/api/events/{code}/enter", dan, {"code": fresh["join_code"]})
    assert new.status_code == 200 and new.json()["entrants"] == ["Ben", "Cy", "Dan"]


def test_a_clubs_event_is_its_members_alone(server: LiveServer) -> None:
    owner, member, stranger = (player(server, n) for n in ("Owner", "Member", "Stranger"))
    club = new_club(server, owner, "Kaki")["code"]
    invited(server, owner, club, member)
    by_member = call(server, "POST", "/api/events", member, {"name": "Mine", "entry": "club", "club": club})
    assert by_member.status_code == 403 and by_member.json()["code"] == "owner_only"
    no_club = call(server, "POST", "/api/events", owner, {"name": "Mine", "entry": "club", "club": "nope"})
    assert no_club.json()["code"] == "owner_only"
    listed = call(server, "GET", "/api/events", owner).json()["clubs"]
    assert listed == [{"code": club, "name": "Kaki"}]
    assert call(server, "GET", "/api/events", member).json()["clubs"] == []  # a member owns none
    made = call(server, "POST", "/api/events", owner, {"name": "Kaki cup", "entry": "club", "club": club})
    assert made.status_code == 201 and made.json()["join_code"] is None
    code = made.json()["code"]
    for who in (stranger, None):
        shut = page(server, code, who)
        assert shut.status_code == 403 and shut.json()["code"] == "event_members_only"
    shut = call(server, "POST", f"/api/events/{code}/enter", stranger, {})
    assert shut.json()["code"] == "event_members_only"
    assert call(server, "POST", f"/api/events/{code}/enter", member, {}).status_code == 200
    data = page(server, code, member).json()
    assert data["entry"] == "club" and data["club"] == "Kaki" and data["entrants"] == ["Member"]


def _meta(body: str, key: str) -> str:
    found = re.search(rf'<meta property="{key}" content="([^"]*)">', body)
    assert found is not None, key
    return html.unescape(found.group(1))


def test_an_events_link_preview_names_it_unless_it_is_a_clubs(server: LiveServer) -> None:
    owner = player(server, "Organiser")
    code = call(server, "POST", "/api/events", owner, {"name": "<b>CNY</b> cup", "format": "duplicate",
                                                        "rounds": 3, "hands": 4}).json()["code"]
    assert call(server, "POST", f"/api/events/{code}/enter", owner, {}).status_code == 200
    crawler = httpx.get(f"{server.url}/event/{code}", timeout=10)  # a messenger: no session
    assert crawler.status_code == 200 and "<b>CNY" not in crawler.text  # a name is text, escaped
    assert _meta(crawler.text, "og:title") == "<b>CNY</b> cup · a Singapore Mahjong event"
    assert _meta(crawler.text, "og:description").startswith(
        "Duplicate, 3 rounds of 4 hands, organised by Organiser · 1 entrant.")
    full = call(server, "POST", "/api/events", owner, {"name": "Long night", "hands": 0}).json()["code"]
    zh_page = httpx.get(f"{server.url}/event/{full}", headers={"Accept-Language": "zh"}, timeout=10)
    described = _meta(zh_page.text, "og:description")
    assert described.startswith("按积分配对，3 轮，每轮打完整一场，由 Organiser 发起 · 0 人参加。")
    assert _meta(crawler.text, "og:image").endswith("/static/icons/card-event.png")
    assert httpx.get(f"{server.url}/static/icons/card-event.png", timeout=10).status_code == 200
    zh = httpx.get(f"{server.url}/event/{code}", headers={"Accept-Language": "zh-CN"}, timeout=10)
    assert _meta(zh.text, "og:title") == "<b>CNY</b> cup · 新加坡麻将比赛"
    club = new_club(server, owner, "Secret kaki")["code"]
    private = call(server, "POST", "/api/events", owner, {"name": "Members cup", "entry": "club",
                                                          "club": club}).json()["code"]
    for unknown in (private, "nope"):
        body = httpx.get(f"{server.url}/event/{unknown}", timeout=10).text
        assert _meta(body, "og:title") == "A Singapore Mahjong event" and "Members cup" not in body
