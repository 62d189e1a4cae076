"""Web Push end to end (server/push/, http/evenings.py): a member turns a club's notifications on, another
opens a club table, and the server's real sender posts to a local push service (tests/push_endpoint.py),
which checks the VAPID token against the served key and decrypts the body with the subscription's key.
A push service answering 410 has its subscription removed; a deleted player's subscriptions go."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from sgmahjong.server.http.evenings import push_service
from sgmahjong.server.push.sender import Notice, PushSender
from sgmahjong.server.push.vapid import make_keys
from sgmahjong.server.settings import ServerSettings
from sgmahjong.server.store import open_store
from sgmahjong.server.store.push_sql import SubscriptionRow
from tests.conftest import serving
from tests.push_endpoint import Browser, PushEndpoint, check_vapid, decrypt
from tests.test_accounts import device, key_for, register
from tests.test_clubs import call, invited, new_club, player

PUSH = ServerSettings(push_http_endpoints=True)


def test_a_table_opened_is_pushed_signed_and_encrypted(tmp_path: Path) -> None:
    with PushEndpoint() as push, serving(tmp_path / "db.sqlite3", settings=PUSH) as live:
        owner, mei = player(live, "Ah Beng"), player(live, "Mei")
        club = new_club(live, owner, "Kaki, the Friday lot")["code"]
        invited(live, owner, club, mei)
        key = live.get("/api/push/key").json()["key"]
        assert live.get("/api/push/key").json()["key"] == key  # made once, kept
        phone, laptop = Browser(), Browser()
        r = call(live, "POST", f"/api/clubs/{club}/push", mei,
                 {"on": True, "subscription": phone.subscription(push.url("mei")), "lang": "zh"})
        assert r.status_code == 200, r.text
        r = call(live, "POST", f"/api/clubs/{club}/push", owner,
                 {"on": True, "subscription": laptop.subscription(push.url("owner"))})
        assert r.status_code == 200, r.text
        listed = call(live, "GET", f"/api/clubs/{club}/sessions", mei).json()
        assert listed["push"] == {"key": key, "on": True}

        r = call(live, "POST", f"/api/clubs/{club}/tables", owner, {"name": "Friday"})
        assert r.status_code == 201, r.text
        first = r.json()["code"]
        (got,) = push.wait(1, "/push/mei")
        _served, claims = check_vapid(got.headers["authorization"], key)
        assert claims["aud"] == push.origin and claims["sub"] == PUSH.push_contact
        assert got.headers["content-encoding"] == "aes128gcm" and int(got.headers["ttl"]) == PUSH.push_ttl
        message = decrypt(got.body, phone)
        assert message["title"] == "Kaki, the Friday lot：有一桌开了"  # Mei's page was in 中文
        assert message["body"] == "Ah Beng 开了“Friday”。点这里入座。"
        assert message["url"] == f"/t/{first}" and message["club"] == club and message["kind"] == "table"

        r = call(live, "POST", f"/api/clubs/{club}/tables", mei, {"name": "Late"})  # now Mei opens one
        second = r.json()["code"]
        (to_owner,) = push.wait(1, "/push/owner")
        check_vapid(to_owner.headers["authorization"], key)
        message = decrypt(to_owner.body, laptop)
        assert message["title"] == "Kaki, the Friday lot: a table is open"
        assert message["url"] == f"/t/{second}"  # never told of the table the owner opened
        assert len(push.wait(1, "/push/mei")) == 1  # nor Mei of hers

        r = call(live, "POST", f"/api/clubs/{club}/push", mei, {"on": False})
        assert r.status_code == 200 and r.json() == {"on": False}
        call(live, "POST", f"/api/clubs/{club}/tables", owner, {})
        assert len(push.wait(1, "/push/mei")) == 1
        assert call(live, "GET", f"/api/clubs/{club}/sessions", mei).json()["push"]["on"] is False


def test_subscriptions_are_checked_and_members_only(tmp_path: Path) -> None:
    with serving(tmp_path / "db.sqlite3") as live:  # push_http_endpoints off: https only
        owner, stranger = player(live, "Ah Beng"), player(live, "Stranger")
        club = new_club(live, owner)["code"]
        good = Browser().subscription("https://push.example.invalid/x")
        r = call(live, "POST", f"/api/clubs/{club}/push", stranger, {"on": True, "subscription": good})
        assert r.status_code == 404
        plain = Browser().subscription("http://127.0.0.1:9/x")
        r = call(live, "POST", f"/api/clubs/{club}/push", owner, {"on": True, "subscription": plain})
        assert r.status_code == 400 and r.json()["code"] == "push_subscription"
        for endpoint in ("https://10.0.0.5/x", "https://[::1]/x", "https://localhost/x", "https://db.internal/x",
                         "https://user@push.example.invalid/x", "ftp://push.example.invalid/x"):
            inner = Browser().subscription(endpoint)  # the server posts there: never a local address
            r = call(live, "POST", f"/api/clubs/{club}/push", owner, {"on": True, "subscription": inner})
            assert r.status_code == 400 and r.json()["code"] == "push_subscription", endpoint
        # what the resolver reads as a local address too (these passed before)
        for endpoint in ("https://127.1/x", "https://0x7f.0.0.1/x", "https://127.0.0.1./x", "https://localhost./x"):
            assert not push_service(endpoint, local=False), endpoint
        assert push_service("https://fcm.googleapis.com/fcm/send/x", local=False)
        bad = {**good, "keys": {"p256dh": "A" * 87, "auth": good["keys"]["auth"]}}
        r = call(live, "POST", f"/api/clubs/{club}/push", owner, {"on": True, "subscription": bad})
        assert r.status_code == 400 and r.json()["code"] == "push_subscription"
        r = call(live, "POST", f"/api/clubs/{club}/push", owner, {"on": True})
        assert r.status_code == 400 and r.json()["code"] == "push_subscription"
        r = call(live, "POST", f"/api/clubs/{club}/push", owner, {"on": True, "subscription": good})
        assert r.status_code == 200


def test_a_gone_subscription_is_removed_and_a_full_queue_drops(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    browser = Browser()
    with PushEndpoint() as push:
        push.gone.add("/push/gone")
        auth = browser.subscription("")["keys"]["auth"]
        rows = [SubscriptionRow(push.url(n), 1, browser.p256dh, auth, "en") for n in ("gone", "kept")]
        for row in rows:
            store.add_subscription(row, 1.0, 10)
        removed = threading.Event()

        def gone(endpoint: str) -> None:
            store.remove_subscription(endpoint)
            removed.set()

        sender = PushSender(lambda: store.vapid_keys(make_keys, 1.0)[0], gone, queue_max=2, senders=1,
                            timeout=5, ttl=60, contact="mailto:a@example.invalid")

        async def run() -> None:
            task = asyncio.get_running_loop().create_task(sender.run())
            await asyncio.sleep(0)
            sender.send([Notice(row, {"title": "t"}) for row in (*rows, rows[1])])  # the third: no room
            await asyncio.to_thread(removed.wait, 30)
            await asyncio.to_thread(push.wait, 2)
            task.cancel()

        asyncio.run(run())
        assert removed.is_set() and sender.dropped == 1
        assert [s.endpoint for s in store.subscriptions([1])] == [push.url("kept")]
        assert decrypt(push.wait(1, "/push/kept")[0].body, browser) == {"title": "t"}
    store.close()


def test_subscriptions_are_bounded_and_go_with_the_player(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    settings = ServerSettings(push_http_endpoints=True, push_subscriptions_per_player=2)
    with serving(db, settings=settings) as live:
        owner = player(live, "Ah Beng")
        club = new_club(live, owner)["code"]
        for n in range(3):
            r = call(live, "POST", f"/api/clubs/{club}/push", owner,
                     {"on": True, "subscription": Browser().subscription(f"http://127.0.0.1:9/{n}")})
            assert r.status_code == 200
        me = call(live, "GET", f"/api/clubs/{club}", owner).json()["me"]
    store = open_store(f"sqlite:///{db}")
    assert [s.endpoint for s in store.subscriptions([int(me)])] == ["http://127.0.0.1:9/1",
                                                                    "http://127.0.0.1:9/2"]
    store.close()
    with serving(db, settings=settings) as live:
        assert call(live, "DELETE", "/api/me", owner, {}).status_code == 200
    store = open_store(f"sqlite:///{db}")
    assert store.subscriptions([int(me)]) == []
    store.close()


def test_signing_out_everywhere_stops_the_notifications(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    with serving(db, settings=PUSH) as live:
        phone = device(live)
        assert register(phone, key_for(live), "Cy").status_code == 200
        club = phone.post("/api/clubs", json={"name": "Kaki"}).json()["code"]
        r = phone.post(f"/api/clubs/{club}/push",
                       json={"on": True, "subscription": Browser().subscription("http://127.0.0.1:9/cy")})
        assert r.status_code == 200, r.text
        cy = int(phone.get(f"/api/clubs/{club}").json()["me"])
        mei = player(live, "Mei")  # another player's browser keeps its notifications
        other = new_club(live, mei, "Other")["code"]
        r = call(live, "POST", f"/api/clubs/{other}/push", mei,
                 {"on": True, "subscription": Browser().subscription("http://127.0.0.1:9/mei")})
        assert r.status_code == 200
        assert phone.post("/api/account/signout-all", json={}).status_code == 200
    store = open_store(f"sqlite:///{db}")
    try:
        assert store.subscriptions([cy]) == []
        assert [s.endpoint for s in store.subscriptions(range(1, cy + 10))] == ["http://127.0.0.1:9/mei"]
    finally:
        store.close()
