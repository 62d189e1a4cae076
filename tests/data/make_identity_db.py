"""Build ``identity-era.sqlite3`` and ``identity-era.json`` (tests/test_identity_upgrade.py) with the code
of a checkout from before every visitor had a server-side session (browser-held secrets in the
``X-Player`` header): ``PYTHONPATH=CHECKOUT python tests/data/make_identity_db.py OUT_DIR``.

The database holds two guests with hands (Ann played against bots; Bo too, and owns a club Ann joined),
an account (Cy, who played as a guest first, then claimed an account with a passkey, and is signed in)
and a rated match of four accounts (Cy, Di, Ed, Fay). The JSON holds the browser secrets, Cy's session
cookie and passkey, and what the server answered then: each player's history, the club page, the
leaderboard and Cy's rating.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import FAST_OPTIONS, LiveServer, free_port
from tests.softkey import SoftKey

SEED = 2026


def wait_status(server: LiveServer, code: str, statuses: set[str], timeout: float = 240) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.get(f"/api/tables/{code}").json()["status"] in statuses:
            return
        time.sleep(0.1)
    raise TimeoutError(f"table {code} never reached {statuses}")


def browser(server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=10, headers={"X-Player": secrets.token_urlsafe(32)})


def played(server: LiveServer, client: httpx.Client, name: str, seed: int) -> str:
    r = client.post("/api/play", json={"name": name, "player": client.headers["X-Player"], "seed": seed,
                                       "options": FAST_OPTIONS})
    assert r.status_code == 201, r.text
    wait_status(server, r.json()["code"], {"between_hands", "finished"})
    return str(r.json()["code"])


def register(server: LiveServer, client: httpx.Client, key: SoftKey, name: str) -> None:
    begin = client.post("/api/account/passkeys/begin", json={"name": name})
    assert begin.status_code == 200, begin.text
    done = client.post("/api/account/passkeys/finish",
                       json={"flow": begin.json()["flow"], "credential": key.create(begin.json()["options"])})
    assert done.status_code == 200, done.text


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    db = out / "identity-era.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    server = LiveServer(free_port(), str(db))
    server.start()
    try:
        ann, bo, cy = browser(server), browser(server), browser(server)
        played(server, ann, "Ann", SEED)
        played(server, bo, "Bo", SEED + 1)
        club = bo.post("/api/clubs", json={"name": "Kaki"}).json()["code"]
        invite = bo.post(f"/api/clubs/{club}/invites", json={}).json()["invite"]
        named = ann.post("/api/players", json={"secret": ann.headers["X-Player"], "name": "Ann"})
        assert named.status_code == 200
        assert ann.post("/api/clubs/join", json={"invite": invite}).status_code == 200
        played(server, cy, "Cy", SEED + 2)
        keys = {name: SoftKey("127.0.0.1", server.url) for name in ("Cy", "Di", "Ed", "Fay")}
        register(server, cy, keys["Cy"], "Cy")
        others = {name: browser(server) for name in ("Di", "Ed", "Fay")}
        for name, client in others.items():
            register(server, client, keys[name], name)
        # a rated match (this code rated any table with the ranked rules and four accounts): Cy stays,
        # her turns time out; the others never come, bots play them
        options = {**FAST_OPTIONS, "next_hand_seconds": 0.1, "turn_seconds": 0.2, "claim_seconds": 0.1,
                   "bot_level": "greedy"}
        table = server.create_table("Ranked", seed=5, preset="site", rules={"rounds": 1}, options=options)
        code = table["code"]
        tokens = []
        for seat, (name, client) in enumerate([("Cy", cy), *others.items()]):
            r = client.post(f"/api/tables/{code}/join",
                            json={"name": name, "seat": seat, "player": client.headers["X-Player"]})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        with server.ws(code) as ws:
            ws.hello(tokens[0])
            ws.send({"type": "start"})
            wait_status(server, code, {"finished"})
        expected: dict[str, Any] = {
            "secrets": {"Ann": ann.headers["X-Player"], "Bo": bo.headers["X-Player"],
                        "Cy": cy.headers["X-Player"]},
            "cy_cookie": cy.cookies["sg_session"],
            "club": club, "ranked": code,
            "me": {name: c.get("/api/me").json() for name, c in (("Ann", ann), ("Bo", bo), ("Cy", cy))},
            "club_page": bo.get(f"/api/clubs/{club}").json(),
            "leaderboard": server.get("/api/leaderboard?season=all").json()["rows"],
            "cy_rating": cy.get("/api/me/rating?season=all").json(),
        }
    finally:
        server.stop()
    (out / "identity-era.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
