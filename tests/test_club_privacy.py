"""A club table is its members' alone (http/clubs.may_see): its summary, results, replays with their chat,
reviews and the expert's work on its hands are refused to anyone else (403 ``club_only``) unless the owner
made that table public; and new clubs and invite links are counted per person (identity and address) per
day (``clubs_per_day``, ``club_invites_per_day``), stored so that every worker counts the same."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from tests.conftest import FAST_OPTIONS, LiveServer, serving
from tests.test_clubs import call, invited, new_club, player
from tests.test_server import wait_status

SECRET_CHAT = "meet at Ah Beng's at eight"


def club_table_with_a_hand(server: LiveServer) -> tuple[str, str, str, str, str]:
    """(owner, member, stranger, club, table): a club table whose first hand bots played to its end
    (the owner sat at East, said something in the chat, started and left)."""
    owner, member, stranger = (player(server, n) for n in ("Ann", "Ben", "Eve"))
    club = new_club(server, owner, "Secret kaki")["code"]
    invited(server, owner, club, member)
    body = {"name": "Thursday", "options": FAST_OPTIONS}
    table = call(server, "POST", f"/api/clubs/{club}/tables", owner, body).json()["code"]
    token = server.post(f"/api/tables/{table}/join", {"name": "Ann", "seat": 0}, owner).json()["token"]
    with server.ws(table) as ann:
        ann.hello(token)
        ann.send({"type": "start"})
        ann.until("view")
        ann.send({"type": "chat", "kind": "text", "body": SECRET_CHAT})
        ann.until("chat", lambda m: m["body"] == SECRET_CHAT)
    wait_status(server, table, {"between_hands", "finished"}, player=member)
    return owner, member, stranger, club, table


def reads(table: str) -> list[tuple[str, str]]:
    """Every HTTP request that reads something of a table or its hands: (method, path)."""
    hand = f"/api/tables/{table}/hands/1"
    return [("GET", f"/api/tables/{table}"), ("GET", f"/api/tables/{table}/results"),
            ("GET", f"/api/tables/{table}/avatars"),
            ("GET", f"{hand}/log"), ("GET", f"{hand}/replay"), ("GET", f"{hand}/review?seat=0"),
            ("POST", f"{hand}/expert?seat=0"), ("GET", f"{hand}/expert?seat=0"),  # GET: asked already
            ("POST", f"/api/tables/{table}/expert?seat=0"), ("POST", f"{hand}/analysis?seat=0&step=0")]


def test_a_club_table_is_its_members_alone_until_the_owner_makes_it_public(tmp_path: Path) -> None:
    settings = ServerSettings(analysis_deals=4)
    with serving(tmp_path / "club.sqlite3", settings=settings) as server:
        owner, member, stranger, club, table = club_table_with_a_hand(server)
        for who in (stranger, None):
            for method, path in reads(table):
                r = call(server, method, path, who, {} if method == "POST" else None)
                assert r.status_code == 403, (path, r.text)
                assert r.json() == {"error": "only the club's members may see a club's table",
                                    "code": "club_only"}, path
                assert "Secret" not in r.text and "Thursday" not in r.text and "Ann" not in r.text
        for method, path in reads(table):  # a member reads (and asks the expert) as before
            r = call(server, method, path, member, {} if method == "POST" else None)
            assert r.status_code in (200, 202), (path, r.text)
        replay = call(server, "GET", f"/api/tables/{table}/hands/1/replay", member).json()
        assert SECRET_CHAT in [m["body"] for m in replay["chat"]]
        assert call(server, "GET", f"/api/tables/{table}", member).json()["name"] == "Thursday"

        # only the owner opens a table to everyone, and only a table of their club
        public = f"/api/clubs/{club}/tables/{table}/public"
        assert call(server, "POST", public, member, {"public": True}).status_code == 403
        assert call(server, "POST", public, stranger, {"public": True}).status_code == 404  # no such club
        other = server.create_table()["code"]
        r = call(server, "POST", f"/api/clubs/{club}/tables/{other}/public", owner, {"public": True})
        assert r.status_code == 404
        assert call(server, "POST", public, owner, {"public": "yes"}).status_code == 400
        r = call(server, "POST", public, owner, {"public": True})
        assert r.status_code == 200 and r.json() == {"code": table, "public": True}
        page = call(server, "GET", f"/api/clubs/{club}", member).json()
        assert [(m["code"], m["public"]) for m in page["recent"]] == [(table, True)]
        for method, path in reads(table):
            r = call(server, method, path, stranger, {} if method == "POST" else None)
            assert r.status_code != 403, (path, r.text)
        replay = call(server, "GET", f"/api/tables/{table}/hands/1/replay", None).json()
        assert SECRET_CHAT in [m["body"] for m in replay["chat"]]
        # and back to the members alone (kept in the store: a restarted server says the same)
        assert call(server, "POST", public, owner, {"public": False}).json()["public"] is False
        server.restart()
        assert call(server, "GET", f"/api/tables/{table}/hands/1/replay", stranger).status_code == 403
        assert call(server, "GET", f"/api/tables/{table}/hands/1/replay", member).status_code == 200


def test_a_table_of_no_club_stays_open_to_anyone(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    assert live_server.get(f"/api/tables/{code}").status_code == 200
    assert live_server.get(f"/api/tables/{code}/results").json() == {"hands": []}


def test_the_store_keeps_a_club_tables_privacy_and_counts_daily_uses(database_url: str) -> None:
    store = open_store(database_url)
    try:
        owner = store.new_guest("Ann")
        club = store.create_club("KAKI", "Kaki", 2, "default", owner, 1.0)
        table = store.create_table("ABCD1234", "T", True, {}, {})
        other = store.create_table("EFGH5678", "U", True, {}, {})
        store.add_club_table(club, table, 2.0)
        assert store.club_table_access(table) == (club, False)  # private by default
        assert store.club_table_access(other) is None  # no club's
        assert store.set_club_table_public(club, table, True)
        assert not store.set_club_table_public(club, other, True)  # not the club's table
        assert store.club_table_access(table) == (club, True)
        assert [t.public for t in store.club_tables(club, 5, live=False)] == [True]
        assert store.set_club_table_public(club, table, False)
        assert store.club_table_access(table) == (club, False)
        # a daily quota: two uses a day for each key
        assert store.take_quota("clubs", ["addr", "me"], 2, 0.0, 10.0)
        assert store.take_quota("clubs", ["addr", "me"], 2, 0.0, 20.0)
        assert not store.take_quota("clubs", ["addr2", "me"], 2, 0.0, 30.0)  # "me" has used two
        assert not store.take_quota("clubs", ["addr"], 2, 0.0, 30.0)  # and so has "addr"
        assert store.take_quota("invites", ["addr", "me"], 2, 0.0, 30.0)  # another kind counts apart
        assert store.take_quota("clubs", ["addr3", "you"], 2, 0.0, 30.0)
        assert store.take_quota("clubs", ["addr", "me"], 2, 15.0, 40.0)  # the use at 10 is forgotten
        assert not store.take_quota("clubs", ["me"], 2, 15.0, 41.0)  # 20 and 40 count
        assert store.take_quota("clubs", [], 2, 15.0, 42.0)  # nobody to count
    finally:
        store.close()


def _as(server: LiveServer, method: str, path: str, secret: str | None, address: str,
        body: Any = None) -> httpx.Response:
    """A request as if from ``address`` (the trusted proxy's X-Forwarded-For)."""
    headers = {"X-Forwarded-For": address, **({"Cookie": secret} if secret else {})}
    return httpx.request(method, server.url + path, headers=headers, json=body, timeout=10)


def test_new_clubs_and_invite_links_are_counted_per_identity_and_per_address(tmp_path: Path) -> None:
    settings = ServerSettings(clubs_per_day=2, club_invites_per_day=3, trusted_proxies=("127.0.0.0/8",))
    with serving(tmp_path / "quota.sqlite3", settings=settings) as server:
        ann, bob, cat = (player(server, n) for n in ("Ann", "Bob", "Cat"))
        one, two, three = "203.0.113.1", "203.0.113.2", "203.0.113.3"
        clubs = [_as(server, "POST", "/api/clubs", ann, one, {"name": f"Kaki {i}"}) for i in range(2)]
        assert [r.status_code for r in clubs] == [201, 201]
        refused = _as(server, "POST", "/api/clubs", ann, one, {"name": "Kaki 3"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "clubs_per_day" and refused.json()["params"] == {"most": 2}
        assert _as(server, "POST", "/api/clubs", ann, two, {"name": "Kaki 3"}).status_code == 429  # identity
        assert _as(server, "POST", "/api/clubs", bob, one, {"name": "Kaki 3"}).status_code == 429  # address
        assert _as(server, "POST", "/api/clubs", bob, two, {"name": "Bob's"}).status_code == 201
        # a refused request (a bad name) uses nothing of the day's quota
        assert _as(server, "POST", "/api/clubs", cat, three, {"name": " "}).status_code == 400
        assert [_as(server, "POST", "/api/clubs", cat, three, {"name": f"C{i}"}).status_code
                for i in range(3)] == [201, 201, 429]
        # invite links: three a day for a person, whatever club they are made for
        code = clubs[0].json()["code"]
        made = [_as(server, "POST", f"/api/clubs/{code}/invites", ann, one, {}).status_code for _ in range(3)]
        assert made == [201, 201, 201]
        r = _as(server, "POST", f"/api/clubs/{code}/invites", ann, two, {})
        assert r.status_code == 429 and r.json()["code"] == "invites_per_day"
        other = clubs[1].json()["code"]
        assert _as(server, "POST", f"/api/clubs/{other}/invites", ann, three, {}).status_code == 429


def test_only_members_watch_a_club_table_and_its_chat_until_it_is_public(live_server: LiveServer) -> None:
    """Before, a stranger with a club table's code watched it and chatted there. Now the socket of
    anyone not a member is refused before its hello, unless the owner made the table public."""
    owner, member, stranger = (player(live_server, n) for n in ("Ann", "Ben", "Eve"))
    club = new_club(live_server, owner, "Secret kaki")["code"]
    invited(live_server, owner, club, member)
    body = {"name": "Thursday", "options": FAST_OPTIONS}
    table = call(live_server, "POST", f"/api/clubs/{club}/tables", owner, body).json()["code"]
    for who in (stranger, None):
        with live_server.ws(table, who) as ws:
            with contextlib.suppress(ConnectionClosed):  # refused at once, before any hello
                ws.send({"type": "hello", "token": None})
            refused = ws.recv()
            assert refused["type"] == "error" and refused["code"] == "club_only"
    with live_server.ws(table, member) as ws:  # a member watches
        assert ws.hello(None)["seat"] is None
    made = call(live_server, "POST", f"/api/clubs/{club}/tables/{table}/public", owner, {"public": True})
    assert made.status_code == 200, made.text
    with live_server.ws(table, stranger) as ws:  # public now: anyone
        assert ws.hello(None)["seat"] is None
