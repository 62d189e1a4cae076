"""Replays of finished hands: the frames (``sgmahjong.replay``) and the server's endpoints, which
serve nothing of a hand before it has ended."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sgmahjong.bots import make_bot
from sgmahjong.game.log import replay, to_log
from sgmahjong.game.testing import random_hand
from sgmahjong.replay import ReplayError, replay_frames
from sgmahjong.review import bot_hand_log, review_log
from sgmahjong.rules import RuleSet
from tests.conftest import LiveServer
from tests.test_server import seated, wait_status

RULES = RuleSet()
TILE = re.compile(r"\b[1-9][mps]\b|\b[1-8]f\b|\b[1-4]a\b")


def test_frames_follow_the_hand_to_its_end() -> None:
    log = bot_hand_log(RULES, [make_bot("strong", i, RULES) for i in range(4)], seed=11)
    state, events = replay(log)
    data = replay_frames(log)
    frames = data["frames"]
    assert len(frames) == len(log.splitlines())  # the deal, then one frame per action
    assert [f["number"] for f in frames] == list(range(len(frames)))
    assert sum(len(f["events"]) for f in frames) == len(events)
    last = frames[-1]["view"]
    assert last["phase"] == "ended" and last["result"] == state.result == data["result"]
    assert last["hand_ledger"] == list(state.ledger)
    for seat, st in enumerate(state.seats):
        assert sorted(last["seats"][seat]["concealed"]) == sorted(t.notation for t in st.concealed)
        assert last["seats"][seat]["discards"] == [t.notation for t in st.discards]
    # every frame shows each seat its own tiles: a concealed hand of 13 or 14 tiles with the melds
    for f in frames[1:-1]:
        for sv in f["view"]["seats"]:
            own = len(sv["concealed"]) + (1 if sv["drawn"] else 0)
            assert own == sv["concealed_count"]
    assert data["wall_hash"] == state.wall_hash


def test_an_unfinished_log_is_not_replayed() -> None:
    state, _ = random_hand(RULES, 3)
    lines = to_log(state).splitlines()
    with pytest.raises(ReplayError, match="not ended"):
        replay_frames("\n".join(lines[:20]))


def _unfinished_table(live_server: LiveServer) -> tuple[Any, str, str]:
    code = live_server.create_table(seed=5)["code"]
    ann, token = seated(live_server, code, "Ann", 0)
    ann.send({"type": "start"})
    view = ann.until("view")["view"]
    assert view["phase"] == "turn" and view["turn"] == 0  # Ann deals: the hand waits for her discard
    return ann, code, token


def test_nothing_of_an_unfinished_hand_is_served(live_server: LiveServer) -> None:
    ann, code, _ = _unfinished_table(live_server)
    with ann:
        base = f"/api/tables/{code}/hands/1"
        for path in (f"{base}/log", f"{base}/replay", f"{base}/review?seat=E", f"{base}/review?seat=2"):
            r = live_server.get(path)
            assert r.status_code == 409, path
            assert r.json() == {"error": "the log of a hand is published when the hand ends"}
            assert not TILE.search(r.text)
        # the replay page itself is a static page: no hand data in it
        page = live_server.get(f"/replay/{code}/1")
        assert page.status_code == 200 and "wall_hash" not in page.text and not TILE.search(page.text)
        assert live_server.get(f"/api/tables/{code}/hands/2/replay").status_code == 404
        assert live_server.get("/api/tables/nope1234/hands/1/replay").status_code == 404
        assert live_server.get(f"/api/tables/{code}/hands/x/replay").status_code == 400
        assert live_server.get(f"/api/tables/{code}/hands/1/review?seat=Q").status_code == 400


def test_replay_and_review_of_a_finished_hand(live_server: LiveServer) -> None:
    ann, code, _ = _unfinished_table(live_server)
    ann.close()  # Ann leaves: a bot plays her seat to the end
    wait_status(live_server, code, {"between_hands", "finished"})
    log = live_server.get(f"/api/tables/{code}/hands/1/log").text
    state, _ = replay(log)
    data = live_server.get(f"/api/tables/{code}/hands/1/replay").json()
    assert data["code"] == code and data["hand_number"] == 1 and data["seats"][0]["name"] == "Ann"
    assert data["frames"][-1]["view"]["result"] == state.result
    assert data["wall_hash"] == state.wall_hash
    review = live_server.get(f"/api/tables/{code}/hands/1/review?seat=S").json()
    expected = review_log(log, 1)
    assert review["summary"] == expected.summary() and review["seat"] == 1
    assert len(review["decisions"]) == len(expected.decisions) > 0
