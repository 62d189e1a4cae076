"""Clubs over HTTP (server/http/clubs.py): a club's page data and ledger from recorded matches, invite
links (once shown, revocable), what a non-member sees (nothing: 404, nothing in the lobby), who may sit
at a club table, the owner's powers, settle-up periods and seasons, the CSV export."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

import httpx

from sgmahjong.payments import win_payments
from sgmahjong.rules import RuleSet
from sgmahjong.server.store import open_store
from sgmahjong.server.table.seats import hash_token
from tests.conftest import FAST_OPTIONS, LiveServer, session_cookie
from tests.test_clubs_store import record_match
from tests.test_matchflow import play_to_the_end


def call(server: LiveServer, method: str, path: str, secret: str | None, body: Any = None) -> httpx.Response:
    headers = {"Cookie": secret} if secret else {}
    return httpx.request(method, server.url + path, headers=headers, json=body, timeout=10)


def player(server: LiveServer, name: str) -> str:
    """A new visitor who chose a name: its session cookie."""
    r = server.post("/api/players", {"name": name})
    assert r.status_code == 200, r.text
    cookie = session_cookie(r)
    assert cookie is not None
    return cookie


def new_club(server: LiveServer, owner: str, name: str = "Kaki", **extra: Any) -> dict[str, Any]:
    r = call(server, "POST", "/api/clubs", owner, {"name": name, **extra})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def invited(server: LiveServer, owner: str, club: str, who: str) -> str:
    r = call(server, "POST", f"/api/clubs/{club}/invites", owner, {})
    assert r.status_code == 201, r.text
    code = str(r.json()["invite"])
    r = call(server, "POST", "/api/clubs/join", who, {"invite": code})
    assert r.status_code == 200, r.text
    return code


def paid_by(winner: int, tai: int, shooter: int | None) -> list[int]:
    return win_payments(tai, winner=winner, shooter=shooter, self_drawn=shooter is None, rules=RuleSet())


def record(server: LiveServer, club: str, secrets_at: list[str | None],
           hands: list[tuple[int | None, int, int | None]], when: float) -> None:
    """Record a finished match of ``club`` into the server's database (the store path the table uses),
    the server stopped meanwhile (a SQLite file has one user): ``hands`` as (winner, tai, shooter), paid
    by the default payment chart."""
    server.stop()
    store = open_store(server.database)
    try:
        row = store.club(club)
        assert row is not None
        found = [None if s is None else store.session(hash_token(s.split("=", 1)[1]), time.time())
                 for s in secrets_at]
        ids = [None if p is None else p.player_id for p in found]
        nets: list[tuple[int, ...]] = []
        wins: list[tuple[int | None, int]] = []
        for winner, tai, shooter in hands:
            if winner is None:
                nets.append((0, 0, 0, 0))
                wins.append((None, 0))
            else:
                nets.append(tuple(paid_by(winner, tai, shooter)))
                wins.append((winner, tai))
        record_match(store, row.id, ids, nets, wins, when)
    finally:
        store.close()
        server.start()


def test_a_club_from_creation_to_settle_up(live_server: LiveServer) -> None:
    names = ["Ah Beng", "Mei Ling", "Ah Huat", "Siew Mei"]
    people = {n: player(live_server, n) for n in names}
    beng = people["Ah Beng"]
    club = new_club(live_server, beng, "  Thursday   kaki ", stake=20)
    assert club["name"] == "Thursday kaki" and club["role"] == "owner"
    assert club["money"] is False and club["stake"] is None  # points first: no stakes in a currency
    code = club["code"]
    started = time.time()  # the matches below are played after the club began
    for n in names[1:]:
        invited(live_server, beng, code, people[n])
    two_matches: list[list[tuple[int | None, int, int | None]]] = [
        [(0, 1, 1), (2, 3, None), (None, 0, None)],  # Beng wins off Mei Ling; Huat self-draws 3 tai
        [(1, 2, 0)],  # Mei Ling wins 2 tai off Beng
    ]
    for i, hands in enumerate(two_matches):
        record(live_server, code, [people[n] for n in names], hands, started + i / 100)
    page = call(live_server, "GET", f"/api/clubs/{code}", people["Siew Mei"]).json()
    assert [m["name"] for m in page["members"]] == names and page["members"][0]["role"] == "owner"
    # the ledger is the sum of the matches' payments, at 20c a point
    paid = {n: 0 for n in names}
    for hands in two_matches:
        for winner, tai, shooter in hands:
            if winner is not None:
                net = paid_by(winner, tai, shooter)
                for seat, n in enumerate(names):
                    paid[n] += net[seat]
    lines = {r["name"]: r for r in page["period"]["ledger"]}
    assert {n: lines[n]["net"] for n in names} == paid == {n: lines[n]["owed"] for n in names}
    assert {n: lines[n]["money"] for n in names} == {n: None for n in names}  # points: no money
    assert page["period"]["bots"] == {"points": 0, "money": None}
    points = page["period"]["transfers"]
    assert points and all(x["cents"] is None and x["points"] > 0 for x in points)
    assert all(n["money"] is None for m in page["recent"] for n in m["nets"])
    csv_text = call(live_server, "GET", f"/api/clubs/{code}/ledger.csv", beng).text
    csv_rows = list(csv.reader(io.StringIO(csv_text)))
    assert csv_rows[0] == ["member", "matches", "hands won", "biggest hand (tai)", "owed (points)"]
    # money is the owner's opt-in, behind the notice of the law: a member may not, nor the owner unconfirmed
    r = call(live_server, "POST", f"/api/clubs/{code}/money", people["Mei Ling"], {"money": True,
                                                                                  "law_confirmed": True})
    assert r.status_code == 403 and r.json()["code"] == "owner_only"
    r = call(live_server, "POST", f"/api/clubs/{code}/money", beng, {"money": True})
    assert r.status_code == 400 and r.json()["code"] == "money_law_unconfirmed"
    assert call(live_server, "GET", f"/api/clubs/{code}", beng).json()["club"]["money"] is False
    r = call(live_server, "POST", f"/api/clubs/{code}/money", beng, {"money": True, "law_confirmed": True})
    assert r.status_code == 200 and r.json()["money"] is True and r.json()["stake"] == 20
    page = call(live_server, "GET", f"/api/clubs/{code}", people["Siew Mei"]).json()
    assert page["club"]["money"] is True  # members see the club's mode
    lines = {r["name"]: r for r in page["period"]["ledger"]}
    assert {n: lines[n]["money"] for n in names} == {n: 20 * v for n, v in paid.items()}
    assert [(x["from"], x["to"], x["points"]) for x in page["period"]["transfers"]] == [
        (x["from"], x["to"], x["points"]) for x in points]
    assert lines["Ah Huat"]["wins"] == 1 and lines["Ah Huat"]["biggest"] == 3
    assert lines["Ah Beng"]["matches"] == 2
    assert page["season"]["ledger"] == page["period"]["ledger"]
    # settle-up: every balance settled, at most n - 1 transfers
    left = {n: lines[n]["money"] for n in names}
    for x in page["period"]["transfers"]:
        left[x["from"]] += x["cents"]
        left[x["to"]] -= x["cents"]
    assert set(left.values()) == {0} and len(page["period"]["transfers"]) <= 3
    assert page["period"]["outside"] == 0
    assert [r["hands"] for r in page["recent"]] == [1, 3] and page["invites"] is None  # the owner's
    # CSV of the period, names as text
    r = call(live_server, "GET", f"/api/clubs/{code}/ledger.csv?scope=period", beng)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][0] == "member" and {row[0]: row[5] for row in rows[1:]}["Ah Huat"] == "%.2f" % (
        paid["Ah Huat"] * 20 / 100) and len(rows) == 6 and rows[5][0] == "(bots and guests)"
    # only the owner marks settled or starts a season; settled starts a new, empty period
    assert call(live_server, "POST", f"/api/clubs/{code}/settle", people["Mei Ling"], {}).status_code == 403
    assert call(live_server, "POST", f"/api/clubs/{code}/settle", beng, {}).json() == {"period": 2}
    page = call(live_server, "GET", f"/api/clubs/{code}", beng).json()
    assert page["period"]["number"] == 2 and all(r["money"] == 0 for r in page["period"]["ledger"])
    assert page["period"]["transfers"] == [] and page["history"][0]["settled"]
    assert len(page["history"][0]["transfers"]) >= 1  # the settled period's transfers are kept
    assert {r["name"]: r["net"] for r in page["season"]["ledger"]} == paid  # the season goes on
    assert call(live_server, "POST", f"/api/clubs/{code}/season", beng, {}).json() == {"period": 3}
    page = call(live_server, "GET", f"/api/clubs/{code}", beng).json()
    assert page["season"]["number"] == 2 and all(r["net"] == 0 for r in page["season"]["ledger"])
    # the owner turns money off again: points
    r = call(live_server, "POST", f"/api/clubs/{code}/money", beng, {"money": False})
    assert r.status_code == 200 and r.json()["money"] is False and r.json()["stake"] is None


def test_invite_links_are_shown_once_and_can_be_revoked(live_server: LiveServer) -> None:
    owner, friend, other = player(live_server, "Ann"), player(live_server, "Ben"), player(live_server, "Cat")
    code = new_club(live_server, owner)["code"]
    made = call(live_server, "POST", f"/api/clubs/{code}/invites", owner, {}).json()
    assert made["url"] == f"/invite/{made['invite']}" and len(made["invite"]) >= 24
    listed = call(live_server, "GET", f"/api/clubs/{code}", owner).json()["invites"]
    assert [i["id"] for i in listed] == [made["id"]] and "invite" not in listed[0]  # never shown again
    assert call(live_server, "POST", "/api/clubs/join", friend, {"invite": made["invite"]}).status_code == 200
    r = call(live_server, "POST", f"/api/clubs/{code}/invites/{made['id']}/revoke", owner, {})
    assert r.status_code == 200
    r = call(live_server, "POST", "/api/clubs/join", other, {"invite": made["invite"]})
    assert r.status_code == 404 and r.json()["code"] == "invite_revoked"
    assert call(live_server, "GET", f"/api/clubs/{code}", other).status_code == 404
    # a member (not the owner) may not make or revoke links; the owner cannot leave
    assert call(live_server, "POST", f"/api/clubs/{code}/invites", friend, {}).status_code == 403
    assert call(live_server, "POST", f"/api/clubs/{code}/leave", owner, {}).status_code == 409
    # an expired link does not join
    short = call(live_server, "POST", f"/api/clubs/{code}/invites", owner, {"days": 0.00000001}).json()
    assert call(live_server, "POST", "/api/clubs/join", other, {"invite": short["invite"]}).status_code == 404
    # the owner removes a member, who then sees nothing
    ben = next(m for m in call(live_server, "GET", f"/api/clubs/{code}", owner).json()["members"]
               if m["name"] == "Ben")
    r = call(live_server, "POST", f"/api/clubs/{code}/remove", owner, {"member": ben["member"]})
    assert r.status_code == 200
    assert call(live_server, "GET", f"/api/clubs/{code}", friend).status_code == 404


def test_a_non_member_sees_nothing_of_a_club(live_server: LiveServer) -> None:
    owner, stranger = player(live_server, "Ann"), player(live_server, "Eve")
    code = new_club(live_server, owner, "Secret kaki")["code"]
    table = call(live_server, "POST", f"/api/clubs/{code}/tables", owner, {}).json()
    for who in (stranger, None):
        for path in (f"/api/clubs/{code}", f"/api/clubs/{code}/ledger.csv"):
            r = call(live_server, "GET", path, who)
            assert r.status_code == 404 and r.json() == {"error": "no such club"}
            assert "Secret" not in r.text
        for path in ("/settle", "/season", "/invites", "/tables", "/leave"):
            assert call(live_server, "POST", f"/api/clubs/{code}{path}", who, {}).status_code == 404
    # the same answer as a club that does not exist
    assert call(live_server, "GET", "/api/clubs/nosuchclub", stranger).json() == {"error": "no such club"}
    assert call(live_server, "GET", "/api/clubs", stranger).json()["clubs"] == []
    # the page is one shell for any address: it tells nothing of the club
    real, fake = live_server.get(f"/club/{code}"), live_server.get("/club/nosuchclub")
    assert real.status_code == fake.status_code == 200
    assert real.text.replace(code, "nosuchclub") == fake.text and "Secret" not in real.text  # (og:url)
    # the club's tables are private: not in the lobby
    lobby = live_server.get("/api/tables").json()
    assert table["code"] not in str(lobby) and "Secret" not in str(lobby)


def test_only_members_sit_at_a_club_table(live_server: LiveServer) -> None:
    owner, friend, stranger = (player(live_server, n) for n in ("Ann", "Ben", "Eve"))
    code = new_club(live_server, owner, preset="shooter_pays")["code"]
    invited(live_server, owner, code, friend)
    table = call(live_server, "POST", f"/api/clubs/{code}/tables", friend, {"name": "Thursday"}).json()
    summary = call(live_server, "GET", f"/api/tables/{table['code']}", friend).json()
    assert summary["private"] and summary["name"] == "Thursday"
    assert summary["rules"]["payout"] == "shooter_pays"  # the club's house rules
    join = f"/api/tables/{table['code']}/join"
    for who in (stranger, None):
        r = live_server.post(join, {"name": "Eve"}, who)
        assert r.status_code == 403 and r.json()["code"] == "club_only"
    assert live_server.post(join, {"name": "Ann", "seat": 0}, owner).status_code == 200
    assert live_server.post(join, {"name": "Ben", "seat": 1}, friend).status_code == 200
    page = call(live_server, "GET", f"/api/clubs/{code}", friend).json()
    assert [t["code"] for t in page["tables"]] == [table["code"]]
    # a table of no club is open to anyone
    public = live_server.create_table()["code"]
    r = live_server.post(f"/api/tables/{public}/join", {"name": "Eve"}, stranger)
    assert r.status_code == 200


def test_bad_input_is_refused_with_a_reason(live_server: LiveServer) -> None:
    owner = player(live_server, "Ann")
    guest = None  # no session, no name chosen: not a player yet
    r = call(live_server, "POST", "/api/clubs", guest, {"name": "Kaki"})
    assert r.status_code == 400 and "/me" in r.json()["error"]
    for body, why in [({"name": "x" * 41}, "1-40"), ({"name": "  "}, "1-40"),
                      ({"name": "a\x07b"}, "control character"), ({"name": "K", "stake": 20000}, "at most"),
                      ({"name": "K", "preset": "nope"}, "house rules"),
                      ({"name": "K", "preset": "site", "stake": 15}, "multiple of 10"),
                      ({"name": "K", "extra": 1}, "extra"), ({"name": 5}, "name")]:
        r = call(live_server, "POST", "/api/clubs", owner, body)
        assert r.status_code == 400 and why in r.json()["error"], (body, r.text)
    code = new_club(live_server, owner, preset="site", stake=20)["code"]
    for body, why in [({"money": True, "law_confirmed": True, "stake": 15}, "bad_stake"),
                      ({"money": True, "law_confirmed": True, "stake": 20000}, "bad_stake"),
                      ({"money": True, "law_confirmed": False}, "money_law_unconfirmed")]:
        r = call(live_server, "POST", f"/api/clubs/{code}/money", owner, body)
        assert r.status_code == 400 and r.json()["code"] == why, (body, r.text)
    site = call(live_server, "POST", f"/api/clubs/{code}/money", owner,
                {"money": True, "law_confirmed": True, "stake": 30}).json()
    assert site["stake"] == 30 and site["cents_per_point"] == 3
    assert call(live_server, "POST", "/api/clubs/join", owner, {"invite": "x" * 101}).status_code == 400
    assert call(live_server, "GET", f"/api/clubs/{code}/ledger.csv?scope=all", owner).status_code == 400
    assert call(live_server, "POST", f"/api/clubs/{code}/invites/abc/revoke", owner, {}).status_code == 404
    assert call(live_server, "POST", f"/api/clubs/{code}/remove", owner, {"member": "999"}).status_code == 404
    assert call(live_server, "POST", f"/api/clubs/{code}/remove", owner, {"member": "²"}).status_code == 404
    big = "9" * 20  # an id beyond a database's integer: these were 500s
    assert call(live_server, "POST", f"/api/clubs/{code}/remove", owner, {"member": big}).status_code == 404
    assert call(live_server, "POST", f"/api/clubs/{code}/invites/{big}/revoke", owner, {}).status_code == 404


def test_a_club_match_played_to_the_end_and_its_rematch(live_server: LiveServer) -> None:
    """A real match at a club table (two members, two bots; the members' seats played by bots once they
    leave): the club's ledger is the match's final ledger for the members' seats; the rematch is the
    club's too."""
    ann, bo = player(live_server, "Ann"), player(live_server, "Bo")
    code = new_club(live_server, ann, stake=10)["code"]
    invited(live_server, ann, code, bo)
    r = call(live_server, "POST", f"/api/clubs/{code}/tables", ann, {"options": FAST_OPTIONS})
    table = r.json()["code"]
    tokens = []
    for name, seat, secret in (("Ann", 0, ann), ("Bo", 2, bo)):
        r = live_server.post(f"/api/tables/{table}/join", {"name": name, "seat": seat}, secret)
        tokens.append(r.json()["token"])
    with live_server.ws(table) as ws:
        ws.hello(tokens[0])
        ws.send({"type": "start"})
        ws.until("view")
    play_to_the_end(live_server, table, tokens, ann)
    with live_server.ws(table) as ws:
        ws.hello(tokens[0])
        final = ws.until("view")["view"]["match_ledger"]
    page = call(live_server, "GET", f"/api/clubs/{code}", bo).json()
    lines = {r["name"]: r for r in page["period"]["ledger"]}
    assert (lines["Ann"]["net"], lines["Bo"]["net"]) == (final[0], final[2])
    assert lines["Ann"]["money"] is None and lines["Ann"]["matches"] == 1  # points first
    # the bots' share apart: what their seats won is no member's; the members' figures sum to zero and
    # are exactly what the settle-up pays
    bots = final[1] + final[3]
    assert page["period"]["bots"] == {"points": bots, "money": None}
    assert page["period"]["outside"] == -bots == final[0] + final[2]
    owed = {n: lines[n]["owed"] for n in ("Ann", "Bo")}
    assert sum(owed.values()) == 0 and all(x["cents"] is None for x in page["period"]["transfers"])
    for x in page["period"]["transfers"]:
        owed[x["from"]] += x["points"]
        owed[x["to"]] -= x["points"]
    assert set(owed.values()) == {0}
    r = call(live_server, "POST", f"/api/clubs/{code}/money", ann, {"money": True, "law_confirmed": True})
    money_page = call(live_server, "GET", f"/api/clubs/{code}", bo).json()
    lines = {r["name"]: r for r in money_page["period"]["ledger"]}
    assert all(lines[n]["money"] == 10 * lines[n]["owed"] for n in ("Ann", "Bo"))
    clients = [live_server.ws(table) for _ in tokens]
    for ws, token in zip(clients, tokens, strict=True):
        ws.hello(token)
        ws.send({"type": "rematch"})
    new = clients[0].until("rematch")["code"]
    for ws in clients:
        ws.close()
    assert new in [t["code"] for t in call(live_server, "GET", f"/api/clubs/{code}", ann).json()["tables"]]
