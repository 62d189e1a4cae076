"""View deltas (sgmahjong/server/table/deltas.py) and the fan-out that sends them (docs/protocol.md)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sgmahjong.game import SeatViews
from sgmahjong.rules import RuleSet
from sgmahjong.server.table import engine
from sgmahjong.server.table.deltas import ClientViews, merge_delta, view_delta
from tests.conftest import LiveServer

VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)


def _played_views(seed: int, steps: int) -> list[dict[int | None, dict[str, Any]]]:
    """Every viewer's view after each of ``steps`` random legal actions of a seeded match."""
    rng = random.Random(seed)
    match, _ = engine.start_match(RuleSet(), seed, None)
    cache = SeatViews()  # as a table builds its views: unchanged seat entries are shared
    out = [{v: engine.view(match, v, cache) for v in VIEWERS}]
    for _ in range(steps):
        if engine.hand_of(match).ended:
            if engine.finished(match):
                break
            match, _ = engine.next_hand(match)
        else:
            seat = rng.choice(engine.awaiting(match))
            match, _ = engine.apply(match, seat, rng.choice(engine.legal_texts(match, seat)))
        out.append({v: engine.view(match, v, cache) for v in VIEWERS})
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), gap=st.integers(1, 5))
def test_merging_the_delta_gives_the_new_view(seed: int, gap: int) -> None:
    views = _played_views(seed, 150)
    sent = resent = 0
    for i in range(len(views) - gap):
        for v in VIEWERS:
            old, new = views[i][v], views[i + gap][v]
            delta = view_delta(old, new)
            assert delta is not None
            assert merge_delta(old, delta) == new
            assert view_delta(new, new) == {}
            # only what changed is sent: every other key of the delta differs from the old view; a
            # seat entry is sent when it is not the very entry the old view had (it was rebuilt,
            # because the seat's tiles changed): rarely one that came back to what it was
            for key, value in delta.items():
                if key == "seats":
                    sent += len(value)
                    resent += sum(old["seats"][int(i)] == s for i, s in value.items())
                else:
                    assert old.get(key) != value
    # over one step a rebuilt entry almost always shows a change; over a longer gap a seat's tiles
    # may come back to what they were (a tile drawn and discarded)
    assert resent <= (0.01 if gap == 1 else 0.1) * sent + 2, (resent, sent)


def test_a_lost_key_or_reshaped_seats_has_no_delta() -> None:
    assert view_delta({"a": 1, "b": 2}, {"a": 1}) is None
    assert view_delta({"seats": [1, 2]}, {"seats": [1, 2, 3]}) is None
    assert view_delta({"seats": [1, 2]}, {"seats": [1, 5]}) == {"seats": {"1": 5}}
    assert view_delta({"a": 1}, {"a": 1, "b": None}) == {"b": None}


def test_client_views_expand_events_then_the_whole_view() -> None:
    views = ClientViews()
    assert views.expand({"type": "delta", "view": {"version": 3}, "events": []}) == []  # no base yet
    whole = {"version": 1, "seats": [{"s": 0}, {"s": 1}], "phase": "turn"}
    out = views.expand({"type": "view", "status": "playing", "view": whole, "timer": None})
    assert out == [{"type": "view", "status": "playing", "view": whole, "timer": None}]
    out = views.expand({"type": "delta", "status": "playing", "timer": None,
                        "view": {"version": 2, "seats": {"1": {"s": 9}}}, "events": [{"kind": "x"}]})
    assert out[0] == {"type": "event", "event": {"kind": "x"}, "version": 2}
    assert out[1]["view"] == {"version": 2, "seats": [{"s": 0}, {"s": 9}], "phase": "turn"}
    assert whole["version"] == 1  # the old view is left as it was
    assert views.expand({"type": "pong"}) == [{"type": "pong"}]


def test_after_hello_play_reaches_clients_as_deltas(live_server: LiveServer) -> None:
    """Each seat gets its whole view on hello, then one delta per change (never an empty one), and
    the merged view equals the whole view a new connection gets."""
    code = live_server.create_table(seed=7)["code"]
    tokens = [live_server.join(code, f"P{s}", s)["token"] for s in range(4)]
    clients = [live_server.ws(code) for _ in range(4)]
    try:
        for ws, token in zip(clients, tokens, strict=True):
            ws.hello(token)
        clients[0].send({"type": "start"})
        views = [ws.until("view")["view"] for ws in clients]
        for _ in range(12):
            seat = next(s for s in range(4) if views[s]["legal_actions"])
            v = views[seat]
            action = "pass" if "pass" in v["legal_actions"] else v["legal_actions"][0]
            clients[seat].send({"type": "action", "action": action, "version": v["version"]})
            views = [ws.settle(quiet=0.3)["view"] for ws in clients]
        for ws in clients:
            kinds = [m["type"] for m in ws.raw if m["type"] in ("view", "delta")]
            assert kinds[0] == "view" and kinds.count("view") == 1 and kinds.count("delta") >= 1
            for m in ws.raw:
                if m["type"] == "delta":
                    assert m["events"] or set(m["view"]) - {"version"}
        for s in range(4):
            with live_server.ws(code) as again:
                again.hello(tokens[s])
                assert again.until("view")["view"] == views[s]
    finally:
        for ws in clients:
            ws.close()
