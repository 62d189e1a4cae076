"""The match flow on the server: play vs bots, quick play, rematch, one display name per table, the
table log sent at hello and each seat's hints (docs/protocol.md)."""

from __future__ import annotations

import sqlite3
from typing import Any

from sgmahjong.commands import score as score_command
from sgmahjong.hints import seat_hints
from sgmahjong.notation import parse_tiles
from sgmahjong.rules import RuleSet
from tests.conftest import FAST_OPTIONS, LiveServer, stacked_wall
from tests.test_server import seated, wait_status


def test_two_players_cannot_share_a_display_name(live_server: LiveServer) -> None:
    code = live_server.create_table()["code"]
    live_server.join(code, "Ann", 0)
    r = live_server.post(f"/api/tables/{code}/join", {"name": " ann ", "seat": 1})
    assert r.status_code == 409
    assert "already called 'Ann'" in r.json()["error"]
    assert live_server.join(code, "Bo", 1)["seat"] == 1


def test_play_vs_bots_starts_at_once(live_server: LiveServer) -> None:
    r = live_server.post("/api/play", {"name": "Ann", "options": FAST_OPTIONS})
    assert r.status_code == 201, r.text
    answer = r.json()
    assert answer["seat"] == 0 and answer["url"] == f"/t/{answer['code']}"
    summary = live_server.get(f"/api/tables/{answer['code']}").json()
    assert summary["private"] and summary["status"] != "lobby"
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot", "bot"]
    # not listed in the lobby
    assert answer["code"] not in {t["code"] for t in live_server.get("/api/tables").json()["tables"]}
    with live_server.ws(answer["code"]) as ws:
        assert ws.hello(answer["token"])["seat"] == 0
        ws.until("view")
    bad = live_server.post("/api/play", {"name": "x" * 25})
    assert bad.status_code == 400 and "at most 24" in bad.json()["error"]


def test_quick_play_pairs_players_then_opens_a_new_table(live_server: LiveServer) -> None:
    private = live_server.create_table(private=True)["code"]
    live_server.join(private, "Zed", 0)
    first = live_server.post("/api/quick", {"name": "Ann"}).json()
    second = live_server.post("/api/quick", {"name": "Bo"}).json()
    assert first["code"] == second["code"] != private
    assert first["seat"] != second["seat"]
    # the same name again: that table refuses it, so another opens
    third = live_server.post("/api/quick", {"name": "ann"}).json()
    assert third["code"] != first["code"]
    summary = live_server.get(f"/api/tables/{first['code']}").json()
    assert sorted(s["name"] for s in summary["seats"] if s["kind"] == "human") == ["Ann", "Bo"]


def play_to_the_end(live_server: LiveServer, code: str, tokens: list[str], player: str | None = None) -> None:
    """Both humans away (bots play their seats); between hands both say next (``player``: the session
    cookie the table's summary is read with)."""
    for _ in range(60):
        summary = wait_status(live_server, code, {"between_hands", "finished"}, player=player)
        if summary["status"] == "finished":
            return
        clients = [live_server.ws(code) for _ in tokens]
        for ws, token in zip(clients, tokens, strict=True):
            ws.hello(token)
        for ws in clients:
            ws.send({"type": "next"})
        clients[0].until("view", lambda m: m["status"] in ("playing", "finished"))
        for ws in clients:
            ws.close()
    raise AssertionError("the match did not end")


def test_rematch_when_both_humans_agree(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=5, rules={"rounds": 1})["code"]
    joined = live_server.post(f"/api/tables/{code}/join", {"name": "Ann", "seat": 0})
    ann_token = joined.json()["token"]  # her seat is her session's player's: her hands are hers (/me)
    ann = live_server.ws(code)
    assert ann.hello(ann_token)["seat"] == 0
    bo, bo_token = seated(live_server, code, "Bo", 2)
    ann.send({"type": "rematch"})
    assert ann.until("error")["code"] == "wrong_status"
    ann.send({"type": "start"})
    ann.until("view")
    ann.close()
    bo.close()
    play_to_the_end(live_server, code, [ann_token, bo_token])
    ann, bo = live_server.ws(code), live_server.ws(code)
    ann.hello(ann_token)
    bo.hello(bo_token)
    ann.send({"type": "rematch"})
    table = bo.until("table", lambda m: m["table"]["rematch"]["votes"] == [0])["table"]
    assert table["rematch"]["code"] is None
    bo.send({"type": "rematch"})
    new = bo.until("rematch")["code"]
    assert ann.until("rematch")["code"] == new != code
    summary = live_server.get(f"/api/tables/{new}").json()
    assert summary["status"] != "lobby" and summary["rules"]["rounds"] == 1
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "human", "bot"]
    assert [s["name"] for s in summary["seats"]][::2] == ["Ann", "Bo"]
    # the same tokens open the same seats of the new table; the old one stays readable
    with live_server.ws(new) as ws:
        assert ws.hello(bo_token)["seat"] == 2
    old = live_server.get(f"/api/tables/{code}").json()
    assert old["status"] == "finished" and old["rematch"]["code"] == new
    # Ann's seat of the rematch is still hers: its hands will reach her /me, as the first match's did
    with sqlite3.connect(live_server.database) as db:
        links = dict(db.execute(
            "SELECT t.code, p.player_id FROM seat_players p JOIN tables t ON t.id = p.table_id"
            " WHERE p.seat = 0").fetchall())
    assert links[new] == links[code] is not None
    ann.close()
    bo.close()


def test_log_at_hello_is_redacted_for_the_viewer(live_server: LiveServer) -> None:
    code = live_server.create_table(seed=9, options={**FAST_OPTIONS, "turn_seconds": 60})["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        ann.until("view")
    with live_server.ws(code) as ws:
        ws.hello(token)
        log = ws.until("log")
        deals = [e for e in log["events"] if e["kind"] == "deal"]
        assert len(deals) == 4
        assert all(("tiles" in e) == (e["seat"] == 0) for e in deals)
        assert all("wall" not in e and "seed" not in e for e in log["events"])
    with live_server.ws(code) as spectator:
        spectator.hello(None)
        log = spectator.until("log")
        assert all("tiles" not in e for e in log["events"] if e["kind"] == "deal")
        assert all("tile" not in e for e in log["events"] if e["kind"] == "draw")


READY = "123m456m789p4588s"  # waits on 3s and 6s


def test_hints_of_a_ready_hand_match_the_scorer(live_server: LiveServer) -> None:
    wall = stacked_wall(E="123m456m789p4588s1p", draws="9s")
    code = live_server.create_table(wall=wall, options={**FAST_OPTIONS, "turn_seconds": 60})["code"]
    ann, _ = seated(live_server, code, "Ann", 0)
    with ann:
        ann.send({"type": "start"})
        hints = ann.until("hints")["hints"]
        assert hints["drawn"] == "1p" and hints["drawn_keeps_ready"]
        assert hints["tiles"] == 13 and hints["shanten"] == 0
        waits = {w["tile"]: w for w in hints["waits"]}
        assert set(waits) == {"3s", "6s"}
        for tile, w in waits.items():
            assert w["unseen"] == 4
            assert w["hand"].endswith("+" + tile)
            for self_drawn, key in ((False, "discard"), (True, "self_drawn")):
                args = [w["hand"], "--seat", "E", "--wind", "E", "--json"]
                args += ["--self-drawn"] if self_drawn else []
                cli = score_json(args)
                assert (w[key]["tai"], w[key]["valid"]) == (cli["tai"], cli["valid"])


def score_json(argv: list[str]) -> dict[str, Any]:
    import argparse

    parser = argparse.ArgumentParser()
    score_command.add_arguments(parser)
    return score_command.score_json(parser.parse_args(argv))


def test_hints_count_unseen_and_the_drawn_tile() -> None:
    tiles = parse_tiles(READY + "3s")
    visible = [0] * 34
    visible[parse_tiles("6s")[0]] = 3
    h = seat_hints(tiles, (), (), 1, 0, visible, RuleSet(), drawn=parse_tiles("3s")[0])
    assert h["drawn_wins"] and not h["drawn_keeps_ready"]
    assert {w["tile"]: w["unseen"] for w in h["waits"]} == {"3s": 3, "6s": 1}
    h = seat_hints(parse_tiles(READY + "9p"), (), (), 1, 0, visible, RuleSet(), drawn=parse_tiles("9p")[0])
    assert h["drawn_keeps_ready"] and not h["drawn_wins"]
    far = seat_hints(parse_tiles("147m258p369sESWN"), (), (), 0, 0, [0] * 34, RuleSet())
    assert far["shanten"] > 0 and far["waits"] == []
