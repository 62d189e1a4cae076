"""A database made before every visitor had a server-side session (tests/data/identity-era.sqlite3, built
by tests/data/make_identity_db.py with that code: guests known by browser-held secrets, a club, an
account signed in, a rated match) opens with today's code: every player keeps their history, a browser
that held a secret keeps its hands after its first visit, the signed-in account stays signed in, the
club is its members', and every rating is computed again from the record to the same figures."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import httpx

from sgmahjong.cli import main
from tests.conftest import LiveServer, free_port

DATA = Path(__file__).parent / "data"


def history(me: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(h["code"], h["hand"], h["net"]) for h in me["hands"]]


def test_a_database_of_browser_secrets_upgrades_and_everyone_keeps_their_history(tmp_path: Path) -> None:
    expected: dict[str, Any] = json.loads((DATA / "identity-era.json").read_text())
    db = tmp_path / "upgraded.sqlite3"
    shutil.copy(DATA / "identity-era.sqlite3", db)
    server = LiveServer(free_port(), str(db))
    server.start()
    try:
        browsers = {name: httpx.Client(base_url=server.url, timeout=10) for name in ("Ann", "Bo")}
        for name, client in browsers.items():
            # the page's first visit after the upgrade sends the old secret once
            adopted = client.post("/api/me/adopt", json={"secret": expected["secrets"][name]})
            assert adopted.json() == {"adopted": True}, name
            me = client.get("/api/me").json()
            assert me["name"] == name and history(me) == history(expected["me"][name])
            assert me["totals"] == expected["me"][name]["totals"]
        # the club is its members': Bo's page is what it was, Ann is a member
        page = browsers["Bo"].get(f"/api/clubs/{expected['club']}").json()
        then = expected["club_page"]
        assert page["club"]["name"] == "Kaki" and page["club"]["role"] == "owner"
        assert sorted(m["name"] for m in page["members"]) == sorted(m["name"] for m in then["members"])
        assert browsers["Ann"].get(f"/api/clubs/{expected['club']}").json()["club"]["role"] == "member"
        assert httpx.get(f"{server.url}/api/clubs/{expected['club']}").status_code == 404  # nobody else's
        # the secret opens nothing again
        again = httpx.post(f"{server.url}/api/me/adopt", json={"secret": expected["secrets"]["Ann"]})
        assert again.json() == {"adopted": False}
        # Cy's session (signed in then) is still signed in, with her history and her rating
        cy = httpx.Client(base_url=server.url, timeout=10, cookies={"sg_session": expected["cy_cookie"]})
        account = cy.get("/api/account").json()
        assert account["signed_in"] and account["name"] == "Cy"
        assert history(cy.get("/api/me").json()) == history(expected["me"]["Cy"])
        assert cy.get("/api/me/rating?season=all").json()["standing"] == expected["cy_rating"]["standing"]
        board = server.get("/api/leaderboard?season=all").json()["rows"]
        assert board == expected["leaderboard"]
    finally:
        server.stop()
    # every rating computed again from the record (the rating history of a match rated before records
    # were kept) gives the same figures
    before = sqlite3.connect(db).execute("SELECT account_id, season, mu, sigma, matches, rank, points"
                                        " FROM ratings ORDER BY 1, 2").fetchall()
    assert main(["ladder", "recompute", "--database", str(db)]) == 0
    after = sqlite3.connect(db).execute("SELECT account_id, season, mu, sigma, matches, rank, points"
                                       " FROM ratings ORDER BY 1, 2").fetchall()
    assert len(before) == 8 and [r[:2] + r[4:] for r in after] == [r[:2] + r[4:] for r in before]
    assert all(abs(a[2] - b[2]) < 1e-9 and abs(a[3] - b[3]) < 1e-9
               for a, b in zip(after, before, strict=True))
