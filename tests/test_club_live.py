"""The live club page (server/http/club_live.py, server/clubs/live.py, choices.py, opening.py): who is
online, who sits where at the club's open tables (members by name, bots marked), the versioned summary
(304 when unchanged), members only, a club table opened with the club's choices (and their limits),
the owner's defaults, which club a table is of, the poll limit, the rematch with the same four, and the
store's part on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.clubs.choices import ClubChoices, merged, parse_choices, table_setup
from sgmahjong.server.clubs.live import SeenWrites
from sgmahjong.server.protocol import ProtocolError
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from sgmahjong.server.table.seats import bot_name
from tests.conftest import FAST_OPTIONS, LiveServer, serving
from tests.test_clubs import call, invited, new_club, player
from tests.test_clubs_store import record_match
from tests.test_matchflow import play_to_the_end

FAST = {"options": {k: v for k, v in FAST_OPTIONS.items() if k not in ("turn_seconds", "claim_seconds")},
        "choices": {"turn_seconds": 0, "pace": "fast"}}


def club_of_three(server: LiveServer) -> tuple[str, str, str, str]:
    """(owner Ann, member Ben, stranger Eve, club code)."""
    ann, ben, eve = (player(server, n) for n in ("Ann", "Ben", "Eve"))
    club = new_club(server, ann, "Kaki")["code"]
    invited(server, ann, club, ben)
    return ann, ben, eve, club


def live(server: LiveServer, club: str, who: str | None, tag: str | None = None) -> Any:
    headers = {"Cookie": who} if who else {}
    if tag:
        headers["If-None-Match"] = tag
    return httpx.get(f"{server.url}/api/clubs/{club}/live", headers=headers, timeout=10)


def test_the_live_summary_says_who_is_online_and_who_sits_where(live_server: LiveServer) -> None:
    ann, ben, eve, club = club_of_three(live_server)
    first = live(live_server, club, ann)
    assert first.status_code == 200
    data = first.json()
    assert [o["name"] for o in data["online"]] == ["Ann"]  # her page is open; Ben's is not
    assert data["tables"] == [] and data["poll"] == live_server.settings.club_poll_seconds
    tag = first.headers["ETag"]
    again = live(live_server, club, ann, tag)
    assert again.status_code == 304 and again.headers["ETag"] == tag and again.content == b""
    # Ben opens a table of the club with the choices; Ann sits at East, a bot at West
    r = call(live_server, "POST", f"/api/clubs/{club}/tables", ben, {"name": "Thursday", **FAST})
    assert r.status_code == 201, r.text
    table = r.json()["code"]
    assert live_server.post(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0}, ann).status_code == 200
    token = live_server.post(f"/api/tables/{table}/join", {"name": "Ben", "seat": 1}, ben).json()["token"]
    with live_server.ws(table) as ws:
        ws.hello(token)
        ws.send({"type": "add_bot", "seat": 2, "level": "strong"})
        ws.until("table", lambda m: m["table"]["seats"][2]["kind"] == "bot")
    changed = live(live_server, club, ann, tag)
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    data = changed.json()
    (t,) = data["tables"]
    assert t["code"] == table and t["name"] == "Thursday" and t["status"] == "lobby"
    assert [(s["kind"], s["name"], s["level"]) for s in t["seats"]] == [
        ("human", "Ann", None), ("human", "Ben", None), ("bot", bot_name("strong"), "strong"),
        ("empty", None, None)]
    page = call(live_server, "GET", f"/api/clubs/{club}", ann).json()
    members = {m["name"]: m["member"] for m in page["members"]}
    assert [s["member"] for s in t["seats"]] == [members["Ann"], members["Ben"], None, None]
    # Ben has not had the page open, but he sits at the club's table: online, at that table
    assert {o["name"]: o["table"] for o in data["online"]} == {"Ann": table, "Ben": table}
    # anyone not a member: the same 404 as for a club that does not exist
    for who in (eve, None):
        r = live(live_server, club, who)
        assert r.status_code == 404 and "ETag" not in r.headers
    assert live(live_server, "NOPE", ann).status_code == 404


def test_online_is_the_page_open_recently(tmp_path: Path) -> None:
    settings = ServerSettings(club_online_seconds=1.0)
    with serving(tmp_path / "db.sqlite3", settings=settings) as server:
        ann, ben, _eve, club = club_of_three(server)
        assert [o["name"] for o in live(server, club, ben).json()["online"]] == ["Ben"]
        assert {o["name"] for o in live(server, club, ann).json()["online"]} == {"Ann", "Ben"}
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # Ben's page closed: he is online for a second more at most
            names = [o["name"] for o in live(server, club, ann).json()["online"]]
            if names == ["Ann"]:
                break
            time.sleep(0.2)
        assert names == ["Ann"]


def test_polls_are_limited_per_person(tmp_path: Path) -> None:
    settings = ServerSettings(club_polls_per_minute=1, club_poll_burst=3)
    with serving(tmp_path / "db.sqlite3", settings=settings) as server:
        ann, ben, _eve, club = club_of_three(server)
        tag = live(server, club, ann).headers["ETag"]
        assert [live(server, club, ann, tag).status_code for _ in range(3)] == [304, 304, 429]
        assert live(server, club, ann).json()["code"] == "rate_limited"
        assert live(server, club, ben).status_code == 200  # another person has their own allowance


def test_a_club_table_opens_with_the_clubs_choices(live_server: LiveServer) -> None:
    ann, ben, eve, club = club_of_three(live_server)
    # the owner's defaults: members read them, only the owner sets them, within the limits
    base = f"/api/clubs/{club}/defaults"
    assert call(live_server, "GET", base, ben).json()["defaults"] == {
        "rounds": 4, "hands": 0, "turn_seconds": 30, "pace": "normal", "bot_level": "greedy"}
    r = call(live_server, "POST", base, ben, {"rounds": 2})
    assert r.status_code == 403 and r.json()["code"] == "owner_only"
    assert call(live_server, "GET", base, eve).status_code == 404
    r = call(live_server, "POST", base, ann, {"rounds": 2, "bot_level": "strong", "turn_seconds": 20})
    assert r.status_code == 200 and r.json()["defaults"] == {
        "rounds": 2, "hands": 0, "turn_seconds": 20, "pace": "normal", "bot_level": "strong"}
    for bad, code in (({"rounds": 5}, "invalid"), ({"turn_seconds": 2}, "club_turn_seconds"),
                      ({"turn_seconds": 301}, "club_turn_seconds"), ({"pace": "warp"}, "invalid"),
                      ({"wall": "x"}, "invalid"), ({"rounds": "2"}, "invalid"), ({"hands": 17}, "invalid")):
        r = call(live_server, "POST", base, ann, bad)
        assert r.status_code == 400 and r.json()["code"] == code, (bad, r.text)
        r = call(live_server, "POST", f"/api/clubs/{club}/tables", ben, {"choices": bad})
        assert r.status_code == 400 and r.json()["code"] == code, (bad, r.text)
    assert call(live_server, "GET", base, ann).json()["defaults"]["rounds"] == 2  # refusals changed nothing
    # Ben opens a table: his choices over the club's defaults
    r = call(live_server, "POST", f"/api/clubs/{club}/tables", ben,
             {"choices": {"pace": "fast", "turn_seconds": 0}})
    assert r.status_code == 201, r.text
    summary = call(live_server, "GET", f"/api/tables/{r.json()['code']}", ben).json()
    assert summary["rules"]["rounds"] == 2 and summary["private"] is True
    options = summary["options"]
    assert (options["turn_seconds"], options["claim_seconds"], options["pace"], options["bot_level"]) == (
        0, 0, "fast", "strong")
    assert options["spectator_chat"] is False
    r = call(live_server, "POST", f"/api/clubs/{club}/tables", ann,
             {"choices": {"rounds": 4, "turn_seconds": 60}})
    options = call(live_server, "GET", f"/api/tables/{r.json()['code']}", ann).json()["options"]
    assert (options["turn_seconds"], options["claim_seconds"]) == (60, 30)
    r = call(live_server, "POST", f"/api/clubs/{club}/tables", ann, {"choices": {"hands": 8}})
    summary = call(live_server, "GET", f"/api/tables/{r.json()['code']}", ann).json()
    assert summary["changed_rules"] == {"rounds": 2, "match_hands": 8}
    r = call(live_server, "POST", f"/api/clubs/{club}/tables", ann, {"options": {"no_such": 1}})
    assert r.status_code == 400 and r.json()["code"] == "invalid"


def test_a_table_knows_its_club_for_its_members(live_server: LiveServer) -> None:
    ann, ben, eve, club = club_of_three(live_server)
    table = call(live_server, "POST", f"/api/clubs/{club}/tables", ben, {}).json()["code"]
    got = call(live_server, "GET", f"/api/tables/{table}/club", ben).json()["club"]
    assert got["code"] == club and got["name"] == "Kaki" and got["url"] == f"/club/{club}"
    assert got["money"] is False and got["stake"] is None  # points first
    assert call(live_server, "POST", f"/api/clubs/{club}/money", ann,
                {"money": True, "law_confirmed": True, "stake": 20}).status_code == 200
    got = call(live_server, "GET", f"/api/tables/{table}/club", ben).json()["club"]
    assert got["money"] is True and got["stake"] == 20
    assert call(live_server, "GET", f"/api/tables/{table}/club", eve).json() == {"club": None}
    assert call(live_server, "GET", f"/api/tables/{table}/club", None).json() == {"club": None}
    other = live_server.create_table("Open")["code"]
    assert call(live_server, "GET", f"/api/tables/{other}/club", ann).json() == {"club": None}


def test_a_club_rematch_seats_the_same_four_at_a_club_table(live_server: LiveServer) -> None:
    ann, ben, eve, club = club_of_three(live_server)
    body = {"name": "Friday", **FAST, "choices": {**FAST["choices"], "rounds": 1, "bot_level": "strong"}}
    table = call(live_server, "POST", f"/api/clubs/{club}/tables", ann, body).json()["code"]
    a = live_server.post(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0}, ann).json()["token"]
    b = live_server.post(f"/api/tables/{table}/join", {"name": "Ben", "seat": 2}, ben).json()["token"]
    with live_server.ws(table) as ws:
        ws.hello(a)
        ws.send({"type": "start"})
        ws.until("view")
    play_to_the_end(live_server, table, [a, b], player=ann)
    with live_server.ws(table) as wa, live_server.ws(table) as wb:
        wa.hello(a)
        wb.hello(b)
        wa.send({"type": "rematch"})
        wb.until("table", lambda m: m["table"]["rematch"]["votes"] == [0])
        wb.send({"type": "rematch"})
        new = wb.until("rematch")["code"]
    assert new != table
    summary = call(live_server, "GET", f"/api/tables/{new}", ben).json()
    old = call(live_server, "GET", f"/api/tables/{table}", ben).json()
    assert [(s["kind"], s["name"], s["bot_level"]) for s in summary["seats"]] == [
        (s["kind"], s["name"], s["bot_level"]) for s in old["seats"]]
    assert summary["rules"] == old["rules"] and summary["options"] == old["options"]
    assert summary["private"] is True
    # a club table: the club's page lists it, a stranger is refused, the members' seats are theirs
    assert call(live_server, "GET", f"/api/tables/{new}/club", ben).json()["club"]["code"] == club
    assert call(live_server, "GET", f"/api/tables/{new}", eve).json()["code"] == "club_only"
    (t,) = live(live_server, club, ann).json()["tables"]
    assert t["code"] == new and [s["name"] for s in t["seats"]][::2] == ["Ann", "Ben"]
    assert t["seats"][0]["member"] is not None and t["seats"][2]["member"] is not None


def test_the_choices_become_rules_and_options() -> None:
    assert merged(ClubChoices(rounds=2), ClubChoices(pace="fast")) == ClubChoices(
        rounds=2, hands=0, turn_seconds=30, pace="fast", bot_level="greedy")
    chosen = ClubChoices(rounds=1, hands=0, turn_seconds=12, pace="relaxed", bot_level="expert")
    assert table_setup(chosen) == (
        {"rounds": 1, "match_hands": 0},
        {"turn_seconds": 12, "claim_seconds": 6, "pace": "relaxed", "bot_level": "expert"})
    assert parse_choices(None, 60) == ClubChoices()
    assert parse_choices({"turn_seconds": 0}, 60).turn_seconds == 0
    with pytest.raises(ProtocolError) as got:
        parse_choices({"turn_seconds": 61}, 60)
    assert got.value.code == "club_turn_seconds" and got.value.params == {"min": 5, "most": 60}
    with pytest.raises(ProtocolError):
        parse_choices({"bot_level": "random"}, 60)  # a club's bots play at a level, not at random
    with pytest.raises(ProtocolError):
        parse_choices(["rounds"], 60)


def test_seen_writes_are_throttled_and_bounded() -> None:
    seen = SeenWrites(10.0, 3)
    assert seen.due(1, 1, 100.0) and not seen.due(1, 1, 105.0) and seen.due(1, 1, 110.0)
    for p in range(2, 10):
        assert seen.due(1, p, 111.0)
    assert len(seen) == 3
    assert seen.due(1, 1, 112.0)  # forgotten: written once more, never lost


def test_the_store_keeps_presence_defaults_and_the_ledger_stamp(database_url: str) -> None:
    store = open_store(database_url)
    try:
        ann, ben = store.new_guest("Ann"), store.new_guest("Ben")
        club = store.create_club("KAKI", "Kaki", 2, "default", ann, 1.0)
        other = store.create_club("OTHER", "Other", 2, "default", ben, 1.0)
        store.club_seen(club, ann, 10.0)
        store.club_seen(club, ben, 20.0)
        store.club_seen(other, ann, 30.0)
        store.club_seen(club, ann, 25.0)  # one row per club and member: moved on
        assert store.club_seen_since(club, 21.0) == [ann]
        assert store.club_seen_since(club, 0.0) == sorted([ann, ben])
        assert store.club_seen_since(other, 0.0) == [ann]
        assert store.club_table_defaults(club) == {}
        store.set_club_table_defaults(club, {"rounds": 2, "pace": "fast"})
        assert store.club_table_defaults(club) == {"rounds": 2, "pace": "fast"}
        assert store.club_table_defaults(other) == {}
        assert store.club_ledger_stamp(club) == (0, 0.0, 1)
        store.next_period(club, 50.0, settled=True, new_season=False)
        assert store.club_ledger_stamp(club)[2] == 2
        record_match(store, club, [ann, None, ben, None], [(4, -4, 0, 0), (0, 2, -2, 0)], [(0, 1), (1, 1)],
                     60.0)
        stamp = store.club_ledger_stamp(club)
        assert stamp[:1] == (4,) and stamp[1] > 60.0  # two hands, two members' seats in each
        store.delete_player(ben)  # a forgotten player is nowhere, not even seen
        assert store.club_seen_since(club, 0.0) == [ann]
    finally:
        store.close()
