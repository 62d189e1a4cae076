"""Accounts over HTTP (a software passkey stands in for the browser's authenticator; the browser test
is test_browser_accounts.py): claiming keeps a guest's history, a passkey or a device link code signs
in another device to the same history, devices and passkeys are listed and removed, sign out
everywhere, export and delete cover the account; and the security properties: secrets stored hashed,
link codes single use, short-lived, >= 40 bits and rate-limited, no name enumeration, CSRF checks."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sgmahjong.server.http import identity, sessions
from sgmahjong.server.settings import ServerSettings
from tests.conftest import FAST_OPTIONS, LiveServer, serving
from tests.softkey import SoftKey
from tests.test_server import wait_status


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    settings = ServerSettings(link_code_seconds=2.0, sign_in_burst=6, link_guess_burst=6)
    with serving(tmp_path / "accounts.sqlite3", settings=settings) as live:
        yield live


def device(server: LiveServer, address: str | None = None) -> httpx.Client:
    """A browser: its own cookie jar (its session: a guest from its first request that needs one);
    ``address``: the client address a trusted proxy names (``X-Forwarded-For``; the server must trust
    127.0.0.1 as a proxy)."""
    headers = {"X-Forwarded-For": address} if address else None
    return httpx.Client(base_url=server.url, timeout=10, headers=headers)


def cookie_of(client: httpx.Client) -> str:
    """The ``Cookie`` header value of a device's session."""
    return f"sg_session={client.cookies['sg_session']}"


def key_for(server: LiveServer) -> SoftKey:
    return SoftKey("127.0.0.1", server.url)


def played_hand(server: LiveServer, client: httpx.Client, name: str) -> str:
    """The browser's guest plays a hand against bots (a bot plays the seat); the table's code."""
    r = client.post("/api/play", json={"name": name, "seed": 4, "options": FAST_OPTIONS})
    assert r.status_code == 201, r.text
    wait_status(server, r.json()["code"], {"between_hands", "finished"})
    return str(r.json()["code"])


def register(client: httpx.Client, key: SoftKey, name: str | None) -> httpx.Response:
    begin = client.post("/api/account/passkeys/begin", json={} if name is None else {"name": name})
    assert begin.status_code == 200, begin.text
    return client.post("/api/account/passkeys/finish",
                       json={"flow": begin.json()["flow"], "credential": key.create(begin.json()["options"])})


def sign_in(client: httpx.Client, key: SoftKey) -> httpx.Response:
    begin = client.post("/api/account/signin/begin", json={})
    assert begin.status_code == 200, begin.text
    return client.post("/api/account/signin/finish",
                       json={"flow": begin.json()["flow"], "credential": key.get(begin.json()["options"])})


def history(client: httpx.Client) -> list[tuple[str, int]]:
    data = client.get("/api/me").json()
    return [(h["code"], h["hand"]) for h in data["hands"]]


def test_a_guest_claims_an_account_and_a_second_device_signs_in_with_the_passkey(server: LiveServer) -> None:
    phone, laptop = device(server), device(server)
    code = played_hand(server, phone, "Ann")
    key = key_for(server)
    r = register(phone, key, "Ann")
    assert r.status_code == 200 and r.json()["signed_in"] and r.json()["name"] == "Ann", r.text
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie  # plain http
    assert phone.get("/api/me").json()["account"] is True
    assert history(phone) == [(code, 1)]
    # the laptop has a guest history of its own: signing in merges it into the account
    other = played_hand(server, laptop, "Ann on the laptop")
    assert sign_in(laptop, key).status_code == 200
    both = sorted([(code, 1), (other, 1)])
    assert sorted(history(laptop)) == both and sorted(history(phone)) == both
    account = laptop.get("/api/account").json()
    assert account["name"] == "Ann" and len(account["passkeys"]) == 1 and len(account["devices"]) == 2
    assert [d["current"] for d in account["devices"]].count(True) == 1


def test_a_device_link_code_signs_in_once_and_expires(server: LiveServer) -> None:
    phone, tablet, third = device(server), device(server), device(server)
    code = played_hand(server, phone, "Bo")
    assert register(phone, key_for(server), "Bo").status_code == 200
    assert tablet.post("/api/account/link-codes", json={}).status_code == 401  # only a signed-in device
    issued = phone.post("/api/account/link-codes", json={}).json()
    assert issued["expires_in"] == 2.0
    typed = issued["code"].lower().replace("-", " ")  # case, spaces and dashes do not matter
    r = tablet.post("/api/account/link", json={"code": typed})
    assert r.status_code == 200 and r.json()["name"] == "Bo", r.text
    assert history(tablet) == [(code, 1)]
    used = third.post("/api/account/link", json={"code": issued["code"]})
    assert used.status_code == 401 and used.json()["code"] == "sign_in_failed"  # single use
    late = phone.post("/api/account/link-codes", json={}).json()["code"]
    time.sleep(2.2)  # past its 2 s (this server's setting)
    expired = third.post("/api/account/link", json={"code": late})
    assert expired.status_code == 401 and expired.json() == used.json()
    assert third.get("/api/account").json() == {"signed_in": False}


def test_devices_and_passkeys_are_listed_removed_and_signed_out_everywhere(server: LiveServer) -> None:
    a, b, c = device(server), device(server), device(server)
    key, spare = key_for(server), key_for(server)
    assert register(a, key, "Cy").status_code == 200
    assert register(a, spare, None).status_code == 200  # a second passkey of the signed-in account
    assert sign_in(b, spare).status_code == 200 and sign_in(c, key).status_code == 200
    account = a.get("/api/account").json()
    assert len(account["passkeys"]) == 2 and len(account["devices"]) == 3
    # remove device c from a: c is signed out
    ref = next(d["ref"] for d in c.get("/api/account").json()["devices"] if d["current"])
    assert len(a.request("DELETE", f"/api/account/devices/{ref}", json={}).json()["devices"]) == 2
    assert c.get("/api/account").json() == {"signed_in": False}
    # remove the spare passkey: it signs in no more
    spare_id = account["passkeys"][1]["id"]
    assert len(a.request("DELETE", f"/api/account/passkeys/{spare_id}", json={}).json()["passkeys"]) == 1
    assert a.request("DELETE", f"/api/account/passkeys/{'9' * 20}", json={}).status_code == 404  # was a 500
    assert sign_in(c, spare).status_code == 401
    # sign out everywhere (from b): a and b are both signed out
    assert b.post("/api/account/signout-all", json={}).json()["ended"] == 2
    assert a.get("/api/account").json() == {"signed_in": False}
    assert b.get("/api/account").json() == {"signed_in": False}


def test_export_and_delete_cover_the_account(server: LiveServer) -> None:
    a, b = device(server), device(server)
    code = played_hand(server, a, "Di")
    key = key_for(server)
    assert register(a, key, "Di").status_code == 200 and sign_in(b, key).status_code == 200
    lines = b.get("/api/me/export").text.splitlines()
    kinds = [line.split('"kind": "')[1].split('"')[0] for line in lines]
    assert kinds == ["account", "passkey", "device", "device", "hand"] and code in lines[-1]
    r = b.request("DELETE", "/api/me", json={})
    assert r.json() == {"deleted": 1, "account": True}
    assert "sg_session=;" in r.headers["set-cookie"]  # this device's cookie is cleared
    assert a.get("/api/account").json() == {"signed_in": False}  # every session ended
    assert sign_in(a, key).status_code == 401  # the passkey is gone
    db = sqlite3.connect(server.database)
    for table in ("passkeys", "sessions", "link_codes", "player_hands", "ratings"):
        assert db.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,), table
    # the rows stay (the table's record holds), anonymised: nothing of the name or its key is left
    rows = db.execute("SELECT name, deleted IS NOT NULL FROM accounts").fetchall()
    assert rows == [("a deleted player", 1)]
    assert {r[0] for r in db.execute("SELECT name FROM players")} == {"a deleted player"}
    assert db.execute("SELECT COUNT(*) FROM seats WHERE name = 'Di'").fetchone() == (0,)
    assert register(a, key_for(server), "Di").status_code == 200  # the name is free again


def test_sessions_and_codes_are_stored_only_hashed(server: LiveServer) -> None:
    a = device(server)
    assert register(a, key_for(server), "Eve").status_code == 200
    token = a.cookies[identity.COOKIE]
    code = a.post("/api/account/link-codes", json={}).json()["code"]
    db = sqlite3.connect(server.database)
    dump = "\n".join(db.iterdump())
    assert token not in dump and code not in dump and code.replace("-", "") not in dump
    def sha(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    assert db.execute("SELECT id_hash FROM sessions").fetchall() == [(sha(token),)]
    assert db.execute("SELECT code_hash FROM link_codes").fetchall() == [(sha(code),)]


def test_link_codes_have_at_least_40_bits_and_guessing_is_rate_limited(server: LiveServer) -> None:
    assert sessions.CODE_BITS >= 40 and len(sessions.CODE_ALPHABET) ** sessions.CODE_LENGTH >= 2**40
    codes = {sessions.new_code() for _ in range(2000)}
    assert len(codes) == 2000 and all(sessions.normalize_code(c) == c for c in codes)
    guesser = device(server)
    answers = [guesser.post("/api/account/link", json={"code": sessions.new_code()}).status_code
               for _ in range(8)]
    assert answers[:6] == [401] * 6 and answers[6:] == [429, 429]  # a burst of 6 (this server), then 429
    assert int(guesser.post("/api/account/link", json={"code": "x"}).headers["retry-after"]) >= 1


def test_signing_in_never_reveals_whether_a_name_exists(server: LiveServer) -> None:
    a, b = device(server), device(server)
    key = key_for(server)
    assert register(a, key, "Fay").status_code == 200
    # signing in takes no name at all: the passkey or the code names the account
    for name in ("Fay", "Nobody"):
        r = b.post("/api/account/signin/begin", json={"name": name})
        assert r.status_code == 400 and "name" in r.json()["error"]
    # a passkey nobody registered and a registered one with a bad signature fail alike
    stranger = sign_in(b, key_for(server))
    forged = key_for(server)
    forged.credential_id, forged.user_handle = key.credential_id, key.user_handle
    wrong = sign_in(b, forged)
    assert stranger.status_code == wrong.status_code == 401 and stranger.json() == wrong.json()
    options = b.post("/api/account/signin/begin", json={}).json()["options"]
    assert options.get("allowCredentials", []) == []  # the options name no account either


def test_account_names_are_unique_whatever_their_case(server: LiveServer) -> None:
    assert register(device(server), key_for(server), "Gus").status_code == 200
    r = device(server).post("/api/account/passkeys/begin", json={"name": "  GUS "})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"


STATE_CHANGING = [
    ("POST", "/api/account/passkeys/begin"), ("POST", "/api/account/passkeys/finish"),
    ("POST", "/api/account/signin/begin"), ("POST", "/api/account/signin/finish"),
    ("POST", "/api/account/link-codes"), ("POST", "/api/account/link"), ("POST", "/api/account/signout"),
    ("POST", "/api/account/signout-all"), ("DELETE", "/api/account/devices/abc"),
    ("DELETE", "/api/account/passkeys/1"), ("DELETE", "/api/me"), ("POST", "/api/players"),
]


@pytest.mark.parametrize(("method", "path"), STATE_CHANGING)
def test_every_state_changing_account_request_is_csrf_checked(server: LiveServer, method: str,
                                                              path: str) -> None:
    a = device(server)
    assert register(a, key_for(server), "Hal").status_code == 200
    before = a.get("/api/account").json()
    foreign = a.request(method, path, json={}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403
    form: dict[str, Any] = {"content": b"code=x",
                            "headers": {"Content-Type": "application/x-www-form-urlencoded"}}
    assert a.request(method, path, **form).status_code == 415
    assert a.get("/api/account").json() == before  # nothing changed: still signed in, same devices


def test_the_session_cookie_is_secure_over_tls() -> None:
    from types import SimpleNamespace

    from starlette.requests import Request

    class Store:
        def add_session(self, row: Any, keep: int) -> None:
            self.row = row

    scope: dict[str, Any] = {"type": "http", "scheme": "https", "method": "POST", "path": "/",
                             "query_string": b"", "headers": [(b"host", b"x.example")],
                             "server": ("x.example", 443), "client": ("203.0.113.9", 5000)}
    store = Store()
    server = SimpleNamespace(store=store, settings=ServerSettings(guest_session_days=7))
    identity.replace(server, Request(scope), 5, None)
    [cookie] = scope["state"]["sg_set_cookie"]
    assert "secure" in cookie.lower() and "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert "max-age=604800" in cookie.lower()
    token = cookie.split("=")[1].split(";")[0]
    assert store.row.id_hash == hashlib.sha256(token.encode()).hexdigest() != token  # stored hashed
    assert store.row.player_id == 5 and store.row.account_id is None and store.row.address == "203.0.113.9"
