"""Avatars (server/http/avatars.py): chosen by a player, kept with the identity, shown for the seats."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from sgmahjong.server.http.avatars import AVATARS
from sgmahjong.server.store import open_store
from tests.conftest import LiveServer


def test_store_keeps_a_players_avatar_and_the_tables(database_url: str) -> None:
    store = open_store(database_url)
    try:
        assert store.set_avatar(999, "cat") is False
        pid = store.new_guest("Ann")
        assert store.avatar(pid) is None
        assert store.set_avatar(pid, "plum") is True
        assert store.avatar(pid) == "plum"
        tid = store.create_table("av1", "T", False, {}, {}, None, None)
        assert store.claim(tid)
        store.link_seat_player(tid, 2, pid)
        store.link_seat_player(tid, 3, store.new_guest("Bo"))  # no avatar chosen
        assert store.table_avatars(tid) == {2: "plum"}
        assert store.lobby_avatars([tid, 999]) == {tid: {2: "plum"}} and store.lobby_avatars([]) == {}
        assert store.set_avatar(pid, None) is True
        assert store.table_avatars(tid) == {}
    finally:
        store.close()


def test_avatar_routes(live_server: LiveServer) -> None:
    ann = httpx.Client(base_url=live_server.url, timeout=10)  # a browser: its session in its cookie jar

    assert ann.get("/api/me/avatar").json()["avatar"] is None  # no session yet: none, and none made
    assert "set-cookie" not in ann.get("/api/me/avatar").headers
    assert ann.post("/api/players", json={"name": "Ann"}).status_code == 200
    bad = ann.post("/api/me/avatar", json={"avatar": "<svg onload=x>"})
    assert bad.status_code == 400 and "rooster" in bad.json()["error"]
    assert ann.post("/api/me/avatar", json={"avatar": "orchid"}).json() == {"avatar": "orchid"}
    mine = ann.get("/api/me/avatar").json()
    assert mine == {"avatar": "orchid", "choices": list(AVATARS)} and len(AVATARS) >= 12
    code = live_server.create_table()["code"]
    assert ann.post(f"/api/tables/{code}/join", json={"name": "Ann", "seat": 1}).status_code == 200
    live_server.join(code, "Bo", 2)  # another visitor, who chose none
    assert live_server.get(f"/api/tables/{code}/avatars").json() == {"seats": {"1": "orchid"}}
    assert live_server.get("/api/tables/nope1234/avatars").status_code == 404


def test_the_lobby_lists_each_seats_avatar(live_server: LiveServer, open_page: Any) -> None:
    """GET /api/tables gives each human seat's avatar (None: none chosen; bots: None, drawn by the
    client); the lobby's list shows them beside the names."""
    ann = httpx.Client(base_url=live_server.url, timeout=10)
    assert ann.post("/api/players", json={"name": "Ann"}).status_code == 200
    ann.post("/api/me/avatar", json={"avatar": "orchid"})
    code = live_server.create_table("Avatars")["code"]
    r = ann.post(f"/api/tables/{code}/join", json={"name": "Ann", "seat": 0})
    assert r.status_code == 200
    assert live_server.post(f"/api/tables/{code}/join", {"name": "Bo", "seat": 2}).status_code == 200
    listed = next(t for t in live_server.get("/api/tables").json()["tables"] if t["code"] == code)
    assert [s["avatar"] for s in listed["seats"]] == ["orchid", None, None, None]
    page = open_page({"viewport": {"width": 1280, "height": 900}}, "en")
    page.goto(live_server.url + "/")
    row = page.locator(f'#tables tr[data-code="{code}"]')
    expect(row.locator('.avatar[data-avatar="orchid"]')).to_have_count(1)
    expect(row.locator(".avatar")).to_have_count(1)  # Bo chose none; the empty seats have none
    expect(row).to_contain_text("Ann")
