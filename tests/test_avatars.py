"""Avatars (server/http/avatars.py): chosen by a player, kept with the identity, shown for the seats."""

from __future__ import annotations

import httpx

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
