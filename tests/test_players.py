"""Players' history (/me): a visitor's player (its session), the hands of its seats, totals, export and
delete."""

from __future__ import annotations

import json
from typing import Any

import httpx

from sgmahjong.game.log import replay
from tests.conftest import FAST_OPTIONS, LiveServer, session_cookie
from tests.test_server import seated, wait_status


def me(server: LiveServer, cookie: str | None, query: str = "") -> dict[str, Any]:
    r = server.get(f"/api/me{query}", cookie)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def joined(server: LiveServer, code: str, name: str, seat: int) -> tuple[str, str]:
    """A new visitor takes the seat: its token and the visitor's session cookie."""
    j = server.join(code, name, seat)
    return str(j["token"]), str(j["cookie"])


def test_history_totals_match_the_ledger_over_a_match(live_server: LiveServer) -> None:
    options = {**FAST_OPTIONS, "bot_level": "greedy"}
    code = live_server.create_table("History", seed=11, rules={"rounds": 1}, options=options)["code"]
    token, secret = joined(live_server, code, "Ann", 2)
    message: dict[str, Any] = {"type": "start"}
    # Ann starts each hand and leaves at once (a bot plays her seat) until the match is over
    while wait_status(live_server, code, {"lobby", "between_hands", "finished"})["status"] != "finished":
        with live_server.ws(code) as ann:
            ann.hello(token)
            ann.send(message)
            ann.until("view", lambda m: m["status"] in ("playing", "finished"))
        message = {"type": "next"}
    with live_server.ws(code) as ws:
        ws.hello(token)
        final = ws.until("view")["view"]
    number = final["hand_number"]
    assert number >= 4
    # what each hand's log says happened to seat 2
    nets, winds, wins, deal_ins, win_tai = [], [], 0, 0, 0
    for n in range(1, number + 1):
        state, _ = replay(live_server.get(f"/api/tables/{code}/hands/{n}/log").text)
        res = state.result or {}
        nets.append(state.ledger[2])
        winds.append("ESWN"[(2 - state.dealer) % 4])  # the wind seat 2 held that hand
        if res.get("winner") == 2:
            wins += 1
            win_tai += res["tai"]
        elif res.get("winner") is not None and not res.get("self_drawn") and res.get("shooter") == 2:
            deal_ins += 1
    data = me(live_server, secret)
    t = data["totals"]
    assert data["known"] and data["name"] == "Ann"
    assert t["hands"] == number and t["net"] == sum(nets) == final["match_ledger"][2]
    assert t["wins"] == wins and t["deal_ins"] == deal_ins
    assert t["win_rate"] == wins / number and t["deal_in_rate"] == deal_ins / number
    assert t["average_win_tai"] == (win_tai / wins if wins else 0.0)
    assert t["net_per_hand"] == sum(nets) / number
    # the chart's running net ends at the total; pages hold the hands newest first
    assert [p["net"] for p in data["series"]][-1] == sum(nets) and len(data["series"]) == number
    page1 = me(live_server, secret, "?size=3&page=1")
    assert page1["pages"] == -(-number // 3)
    listed = [h["hand"] for p in range(1, page1["pages"] + 1)
              for h in me(live_server, secret, f"?size=3&page={p}")["hands"]]
    assert listed == list(range(number, 0, -1))
    # each hand names the wind the seat held, which moves with the dealer (not the seat's position)
    listed_winds = [h["wind"] for p in range(1, page1["pages"] + 1)
                    for h in me(live_server, secret, f"?size=3&page={p}")["hands"]]
    assert listed_winds == winds[::-1] and len(set(winds)) > 1
    first = page1["hands"][0]
    assert first["code"] == code and first["table"] == "History" and first["preset"] == "custom"
    assert first["net"] == nets[-1] and first["replay"] == f"/replay/{code}/{number}"
    # export: one line for the player, then every hand oldest first
    r = live_server.get("/api/me/export", secret)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(x) for x in r.text.splitlines()]
    assert lines[0] == {"kind": "player", "name": "Ann", "created": lines[0]["created"]}
    assert [x["hand"] for x in lines[1:]] == list(range(1, number + 1))
    assert [x["net"] for x in lines[1:]] == nets
    # delete: the history and the identity are gone
    r = httpx.request("DELETE", f"{live_server.url}/api/me", headers={"Cookie": secret}, json={})
    assert r.json() == {"deleted": number, "account": False}
    gone = me(live_server, secret)  # the session ended with its player
    assert not gone["known"] and gone["hands"] == [] and gone["totals"]["hands"] == 0
    assert live_server.get("/api/me/export", secret).status_code == 404
    # the hands themselves are still the table's (others may replay them)
    assert live_server.get(f"/api/tables/{code}/hands/1/replay").status_code == 200


def test_an_unfinished_hand_is_not_in_the_history(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=5)["code"]
    token, secret = joined(live_server, code, "Bo", 0)
    with live_server.ws(code) as bo:
        bo.hello(token)
        bo.send({"type": "start"})
        view = bo.until("view")["view"]
        assert view["phase"] == "turn" and view["turn"] == 0  # the hand waits for Bo
        data = me(live_server, secret)
        assert data["hands"] == [] and data["totals"]["hands"] == 0 and data["series"] == []


def test_identity_checks_and_naming(live_server: LiveServer) -> None:
    unknown = live_server.get("/api/me")  # no session: an unknown visitor, and none is made to read
    assert unknown.status_code == 200 and not unknown.json()["known"] and "set-cookie" not in unknown.headers
    forged = live_server.get("/api/me", "sg_session=" + "A" * 43)
    assert forged.status_code == 200 and not forged.json()["known"]
    named = live_server.post("/api/players", {"name": "  Cy   Lee "})  # a guest made now
    assert named.json() == {"name": "Cy Lee"}
    cookie = session_cookie(named)
    assert cookie is not None and "httponly" in named.headers["set-cookie"].lower()
    assert me(live_server, cookie)["name"] == "Cy Lee" and me(live_server, cookie)["known"]
    assert live_server.post("/api/players", {"secret": "x", "name": "Cy"}, cookie).status_code == 400
    assert live_server.post("/api/players", {"name": ""}, cookie).status_code == 400
    # the same session renames the same player (no new one)
    assert live_server.post("/api/players", {"name": "Cy"}, cookie).headers.get("set-cookie") is None
    assert me(live_server, cookie)["name"] == "Cy"
    # a seat another visitor took is not this player's
    code = live_server.create_table(seed=5)["code"]
    ws, _ = seated(live_server, code, "Di", 1)
    ws.close()
    assert me(live_server, cookie)["totals"]["hands"] == 0


def test_an_old_browser_secret_is_adopted_once(live_server: LiveServer) -> None:
    """A browser of an older release kept a secret: its first visit adopts that guest (its hands),
    and the secret opens nothing again."""
    import sqlite3

    from sgmahjong.server.table.seats import hash_token

    secret = "s" * 40
    db = sqlite3.connect(live_server.database, timeout=10)
    with db:  # an older release's guest: a player known only by the secret's hash
        pid = db.execute("INSERT INTO players (secret_hash, name, created) VALUES (?, ?, 1)",
                         (hash_token(secret), "Old Ann")).lastrowid
    first = live_server.post("/api/me/adopt", {"secret": secret})
    assert first.json() == {"adopted": True}
    cookie = session_cookie(first)
    assert me(live_server, cookie)["name"] == "Old Ann"
    again = live_server.post("/api/me/adopt", {"secret": secret})  # another browser with the same secret
    assert again.json() == {"adopted": False} and me(live_server, session_cookie(again))["name"] != "Old Ann"
    assert live_server.post("/api/me/adopt", {"secret": "short"}).status_code == 400
    row = db.execute("SELECT name, secret_hash FROM players WHERE id = ?", (pid,)).fetchone()
    assert row[0] == "Old Ann" and row[1] != hash_token(secret)  # the secret is forgotten


def test_player_store_methods_on_both_backends(database_url: str) -> None:
    from sgmahjong.server.store import PlayerHandRow, open_store

    store = open_store(database_url, worker="w1")
    try:
        table_id = store.create_table("PLAY", "Players", False, {"min_tai": 1}, dict(FAST_OPTIONS))
        pid = store.new_guest("Ann")
        store.rename_player(pid, "Ann Lee")
        assert store.player_name(pid) == "Ann Lee" and store.player_name(pid + 100) is None
        store.link_seat_player(table_id, 2, pid)
        store.link_seat_player(table_id, 3, pid)
        store.link_seat_player(table_id, 3, None)
        assert store.seat_players(table_id) == {2: pid}
        for hand, (won, net) in enumerate([(True, 8), (False, -4), (False, 0)], start=1):
            row = PlayerHandRow(table_id, hand, 2, 100.0 + hand, won, dealt_in=net < 0, drawn=net == 0,
                                tai=3 if won else 1, net=net, wind=None if hand == 1 else hand)
            store.add_player_hands(row.table_id, {2: pid}, {2: row})
            store.add_player_hands(row.table_id, {2: pid}, {2: row})  # recorded once
        assert store.player_totals(pid) == {"hands": 3, "wins": 1, "deal_ins": 1, "win_tai": 3, "net": 4,
                                            "tables": 1}
        newest = store.player_hands(pid, 2)
        assert [r.hand for r in newest] == [3, 2] and newest[0].code == "PLAY" and newest[0].drawn
        assert [r.hand for r in store.player_hands(pid, 5, 1, newest_first=False)] == [2, 3]
        assert newest[1].rules == {"min_tai": 1} and newest[1].table_name == "Players"
        assert [r.wind for r in store.player_hands(pid, 5)] == [3, 2, None]  # None: recorded before winds
        store.delete_player(pid)  # its row stays, anonymised (the table's seat stays linked to it)
        assert store.player_name(pid) is None and store.seat_players(table_id) == {2: pid}
        assert store.player_totals(pid)["hands"] == 0
    finally:
        store.close()


def test_play_vs_bots_is_in_the_history(live_server: LiveServer) -> None:
    r = live_server.post("/api/play", {"name": "Eve", "seed": 4, "options": FAST_OPTIONS})
    assert r.status_code == 201, r.text
    secret = session_cookie(r)
    code = r.json()["code"]
    wait_status(live_server, code, {"between_hands", "finished"})  # Eve never came: a bot played her seat
    hands = me(live_server, secret)["hands"]
    assert [(h["code"], h["hand"], h["seat"]) for h in hands] == [(code, 1, 0)]
