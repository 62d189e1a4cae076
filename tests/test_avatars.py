"""Avatars (server/http/avatars.py): chosen by a player, kept with the identity, shown for the seats."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from sgmahjong.server.http.avatars import AVATARS
from sgmahjong.server.store import open_store
from tests.conftest import LiveServer

SECRET = "avatar-test-" + "x" * 30


def test_store_keeps_a_players_avatar_and_the_tables(database_url: str) -> None:
    store = open_store(database_url)
    try:
        assert store.set_avatar("nobody", "cat") is False
        pid = store.ensure_player("h1", "Ann")
        assert store.avatar("h1") is None
        assert store.set_avatar("h1", "plum") is True
        assert store.avatar("h1") == "plum"
        tid = store.create_table("av1", "T", False, {}, {}, None, None)
        assert store.claim(tid)
        store.link_seat_player(tid, 2, pid)
        store.link_seat_player(tid, 3, store.ensure_player("h2", "Bo"))  # no avatar chosen
        assert store.table_avatars(tid) == {2: "plum"}
        assert store.lobby_avatars([tid, 999]) == {tid: {2: "plum"}} and store.lobby_avatars([]) == {}
        assert store.set_avatar("h1", None) is True
        assert store.table_avatars(tid) == {}
    finally:
        store.close()


def test_avatar_routes(live_server: LiveServer) -> None:
    def post(body: object, secret: str | None = SECRET) -> httpx.Response:
        headers = {"X-Player": secret} if secret else {}
        return httpx.post(live_server.url + "/api/me/avatar", json=body, headers=headers, timeout=10)

    assert post({"avatar": "cat"}, None).status_code == 400
    assert post({"avatar": "cat"}).status_code == 404  # no player yet: a name first
    assert live_server.post("/api/players", {"secret": SECRET, "name": "Ann"}).status_code == 200
    bad = post({"avatar": "<svg onload=x>"})
    assert bad.status_code == 400 and "rooster" in bad.json()["error"]
    assert post({"avatar": "orchid"}).json() == {"avatar": "orchid"}
    mine = httpx.get(live_server.url + "/api/me/avatar", headers={"X-Player": SECRET}, timeout=10).json()
    assert mine == {"avatar": "orchid", "choices": list(AVATARS)} and len(AVATARS) >= 12
    code = live_server.create_table()["code"]
    live_server.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 1, "player": SECRET})
    live_server.join(code, "Bo", 2)  # no identity: no avatar
    assert live_server.get(f"/api/tables/{code}/avatars").json() == {"seats": {"1": "orchid"}}
    assert live_server.get("/api/tables/nope1234/avatars").status_code == 404


def test_the_lobby_lists_each_seats_avatar(live_server: LiveServer, open_page: Any) -> None:
    """GET /api/tables gives each human seat's avatar (None: none chosen; bots: None, drawn by the
    client); the lobby's list shows them beside the names."""
    assert live_server.post("/api/players", {"secret": SECRET, "name": "Ann"}).status_code == 200
    httpx.post(live_server.url + "/api/me/avatar", json={"avatar": "orchid"}, headers={"X-Player": SECRET})
    code = live_server.create_table("Avatars")["code"]
    r = live_server.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 0, "player": SECRET})
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
