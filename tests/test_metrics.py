"""What operators see: ``GET /metrics`` (Prometheus text format) and the JSON event lines."""

from __future__ import annotations

import json
import logging
import re

import pytest

from sgmahjong.server.events import log_event, set_worker
from tests.conftest import FAST_OPTIONS, LiveServer


def _value(text: str, name: str) -> float:
    """A sample's value in the exposition text (0 if it is not there yet)."""
    m = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def test_metrics_count_actions_latency_writes_refusals_and_sockets(live_server: LiveServer) -> None:
    before = live_server.get("/metrics").text
    options = {**FAST_OPTIONS, "takeover_seconds": 60}
    code = live_server.create_table("Metrics", seed=5, options=options)["code"]
    token = live_server.join(code, "Ann", 0)["token"]
    with live_server.ws(code) as ws:
        ws.hello(token)
        ws.send({"type": "start"})
        view = ws.settle()["view"]
        during = live_server.get("/metrics")
        assert during.headers["content-type"].startswith("text/plain")
        assert _value(during.text, "sgmahjong_sockets") >= 1
        assert _value(during.text, "sgmahjong_live_tables") >= 1
        legal = view["legal_actions"]
        ws.send({"type": "action", "action": legal[0], "version": view["version"] + 5})  # refused: stale
        assert ws.until("error")["code"] == "stale"
        ws.send({"type": "action", "action": legal[0], "version": view["version"]})
        ws.settle()
    after = live_server.get("/metrics").text
    for name in ('sgmahjong_actions_applied_total{source="human"}', "sgmahjong_action_update_seconds_count",
                 "sgmahjong_send_delay_seconds_count", "sgmahjong_loop_lag_seconds_count",
                 "sgmahjong_store_write_seconds_count", 'sgmahjong_refusals_total{code="stale"}'):
        assert _value(after, name) > _value(before, name), name
    assert 'sgmahjong_errors_total' in after and "sgmahjong_action_update_seconds_bucket" in after


def test_each_notable_event_is_one_json_line(caplog: pytest.LogCaptureFixture) -> None:
    set_worker("w9")
    with caplog.at_level(logging.INFO, logger="sgmahjong.events"):
        log_event("table_claimed", table="AbCd12", hand=3)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "sgmahjong.events"]
    assert len(lines) == 1
    assert {k: lines[0][k] for k in ("event", "worker", "table", "hand")} == {
        "event": "table_claimed", "worker": "w9", "table": "AbCd12", "hand": 3}
    assert isinstance(lines[0]["ts"], float)
