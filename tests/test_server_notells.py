"""No tells online (RULES.md §3), end to end: four human clients play seeded hands through the server;
every message each seat that is not asked receives between a discard and the next draw is recorded,
and the messages have one shape whether or not somebody could claim. The same for an added kong with
and without a possible robber."""

from __future__ import annotations

import json
import queue
import random
import threading
from collections import defaultdict
from typing import Any

from sgmahjong.server.table.deltas import ClientViews
from tests.conftest import FAST_OPTIONS, LiveServer, WsClient, stacked_wall

Msg = dict[str, Any]


class Table4:
    """Four seated clients, their messages read by threads into one queue and logged per seat: ``raw``
    as received (``view``/``delta`` messages), ``logs`` expanded as a browser does (events, then the
    whole view), each expanded message with the index of its raw message in ``at``."""

    def __init__(self, server: LiveServer, code: str) -> None:
        self.clients: list[WsClient] = []
        self.raw: list[list[Msg]] = [[], [], [], []]
        self.logs: list[list[Msg]] = [[], [], [], []]
        self.at: list[list[int]] = [[], [], [], []]
        self.latest: list[Msg | None] = [None, None, None, None]
        self.q: queue.Queue[tuple[int, Msg | None, int]] = queue.Queue()
        for seat in range(4):
            token = server.join(code, f"P{seat}", seat)["token"]
            ws = server.ws(code)
            assert ws.hello(token)["seat"] == seat
            self.clients.append(ws)
        self.threads = [threading.Thread(target=self._read, args=(s,), daemon=True) for s in range(4)]
        for t in self.threads:
            t.start()

    def _read(self, seat: int) -> None:
        ws = self.clients[seat]
        views = ClientViews()
        while True:
            try:
                data = json.loads(ws.conn.recv())
            except Exception:
                self.q.put((seat, None, -1))
                return
            self.raw[seat].append(data)
            for msg in views.expand(data):
                self.q.put((seat, msg, len(self.raw[seat]) - 1))

    def take(self, block: bool) -> bool:
        """Log one queued message (waiting for one if ``block``); False when none was there."""
        try:
            seat, msg, at = self.q.get(timeout=30) if block else self.q.get_nowait()
        except queue.Empty:
            if block:
                raise AssertionError("the table went quiet while a seat had something to do") from None
            return False
        assert msg is not None, f"seat {seat}'s connection closed"
        assert msg.get("type") != "error", msg
        self.logs[seat].append(msg)
        self.at[seat].append(at)
        if msg.get("type") == "view":
            self.latest[seat] = msg["view"]
        return True

    def drain(self) -> None:
        while self.take(block=False):
            pass

    def close(self) -> None:
        for ws in self.clients:
            ws.close()
        for t in self.threads:
            t.join(timeout=10)


def drive(t: Table4, choose: Any, done: Any) -> None:
    """Answer every seat's view that offers actions with ``choose(seat, view)`` (each view once)
    until ``done()``."""
    answered: set[tuple[int, int, tuple[str, ...]]] = set()
    while True:
        t.drain()
        if done():
            return
        acted = False
        for seat in range(4):
            view = t.latest[seat]
            if view is None or not view["legal_actions"]:
                continue
            key = (seat, view["version"], tuple(view["legal_actions"]))
            if key in answered:
                continue
            answered.add(key)
            text = choose(seat, view)
            if text is not None:
                t.clients[seat].send({"type": "action", "action": text, "version": view["version"]})
                acted = True
        if not acted:
            t.take(block=True)


def shape(msg: Msg, v0: int) -> tuple[Any, ...]:
    """What a message shows, without the tiles and times that differ from hand to hand."""
    kind = msg.get("type")
    if kind == "event":
        ev = msg["event"]
        return ("event", ev["kind"], tuple(sorted(ev)), msg["version"] - v0)
    if kind == "view":
        v, timer = msg["view"], msg["timer"]
        return ("view", v["phase"], v["version"] - v0, tuple(v["awaiting"]), bool(v["legal_actions"]),
                (v["window"] or {}).get("kind"), None if timer is None else tuple(sorted(timer)))
    if kind == "hints":
        return ("hints",)
    return (kind,)


def raw_shape(msg: Msg, v0: int, source: int, *, last: bool = False) -> tuple[Any, ...]:
    """A message as sent (``view`` or ``delta``): its keys, the seats it changes (counted from the
    discarder), its events' kinds and keys, its timer's keys and version step. Of the ``last``
    message (the one with the next draw) only its kind, version step and events up to the draw: what
    follows depends on the tile drawn (a flower's replacement, its payment)."""
    kind = msg.get("type")
    if kind not in ("view", "delta"):
        return (kind,)
    view, timer = msg["view"], msg["timer"]
    if last:
        events = []
        for e in msg.get("events") or ():
            events.append((e["kind"], tuple(sorted(e))))
            if e["kind"] == "draw":
                break
        return (kind, view.get("version", v0) - v0, tuple(events))
    seats = view.get("seats")
    changed = tuple(sorted((int(i) - source) % 4 for i in seats)) if isinstance(seats, dict) else None
    version = view["version"] - v0 if "version" in view else None
    return (kind, tuple(sorted(view)), changed, version, None if timer is None else tuple(sorted(timer)),
            tuple((e["kind"], tuple(sorted(e))) for e in msg.get("events") or ()))


def claim_options(t: Table4, version: int) -> bool:
    """Whether any seat was offered a claim at ``version`` (each asked seat's own view shows it)."""
    return any(m.get("type") == "view" and m["view"]["version"] == version and m["view"]["phase"] == "claim"
               and m["view"]["legal_actions"] for log in t.logs for m in log)


def _random_hand(server: LiveServer, hand: int) -> Table4:
    """Four clients play a seeded hand to its end with random choices (claims now and then)."""
    code = server.create_table(seed=100 + hand, options={**FAST_OPTIONS})["code"]
    t = Table4(server, code)
    rng = random.Random(hand)

    def choose(seat: int, view: Msg) -> str | None:
        legal = view["legal_actions"]
        if view["phase"] == "claim":
            return "pass" if rng.random() < 0.85 or "pass" not in legal else rng.choice(legal)
        if "win" in legal:
            return "win"
        return rng.choice([a for a in legal if a.startswith("discard")] or legal)

    try:
        t.clients[0].send({"type": "start"})
        drive(t, choose, lambda: any(v is not None and v["phase"] == "ended" for v in t.latest))
    finally:
        t.close()
    return t


def test_after_a_discard_an_unasked_seat_sees_one_shape_whether_or_not_anyone_could_claim(
        live_server: LiveServer) -> None:
    shapes: dict[tuple[bool, bool], set[tuple[Any, ...]]] = defaultdict(set)
    windows = 0
    for hand in range(5):
        t = _random_hand(live_server, hand)
        for seat in range(4):
            log = t.logs[seat]
            for i, m in enumerate(log):
                if m.get("type") != "event" or m["event"]["kind"] != "discard" or m["event"]["seat"] == seat:
                    continue
                v0 = m["version"]
                source = m["event"]["seat"]
                trace = [shape(log[i - 1], v0), shape(m, v0)]  # the discard's "action" event, the discard
                asked = False
                outcome = None
                end = i
                for end, n in enumerate(log[i + 1:], start=i + 1):  # noqa: B007
                    trace.append(shape(n, v0))
                    if n.get("type") == "view" and n["view"]["version"] == v0 and n["view"]["legal_actions"]:
                        asked = True
                    if n.get("type") == "event" and n["event"]["kind"] in ("draw", "pong", "chow", "kong",
                                                                           "win", "drawn_game"):
                        outcome = n["event"]["kind"]
                        break  # the next draw (what follows it depends on the tile drawn)
                if asked or outcome != "draw":
                    continue  # an asked seat sees its options; a claim's outcome is public anyway
                drawer = seat == (source + 1) % 4
                first, final = t.at[seat][i], t.at[seat][end]
                sent = [raw_shape(r, v0, source, last=k == final)
                        for k, r in enumerate(t.raw[seat][first:final + 1], start=first)]
                shapes[(drawer, claim_options(t, v0))].add((tuple(trace), tuple(sent)))
                windows += 1
    assert windows > 100
    for drawer in (False, True):
        could, could_not = shapes[(drawer, True)], shapes[(drawer, False)]
        assert could and could_not, (drawer, len(could), len(could_not))
        assert could == could_not and len(could) == 1, (drawer, could, could_not)
    ((one, sent),) = shapes[(False, True)]
    # the discard at v+1 (its view: phase claim, nobody awaited, no timer), then the next draw at v+2
    assert [s for s in one if s[0] == "view"] == [("view", "claim", 0, (), False, "discard", None)]
    assert one[-1] == ("event", "draw", ("kind", "seat", "source"), 1)
    # as sent: two messages, one per version step (nothing between them)
    assert [s[0] for s in sent] == ["delta", "delta"] and sent[0][3] == 0 and sent[1][1] == 1


ROB = dict(E="5p 8m9m 3s6s9s 1p2p7p8p 7s E S W", S="5p5p 2s 8s 3p 9p ESWN F P 7m",
           N="1p 4p 7p 2m 5m 8m 3s 6s 9s S W N P", draws="F P N 5p")
SCRIPT = [(0, "discard 5p"), (1, "pong"), (1, "discard 2s"), (2, "discard F"), (3, "discard P"),
          (0, "discard N"), (1, "kong 5p")]


def _added_kong(server: LiveServer, robber: bool) -> dict[int, list[tuple[Any, ...]]]:
    west = "123m 456m CCC 11s 46p" if robber else "123m 456m CCC 11s 49p"
    code = server.create_table(wall=stacked_wall(**ROB, W=west), seed=1)["code"]
    t = Table4(server, code)
    script = list(SCRIPT)
    try:
        t.clients[0].send({"type": "start"})

        def choose(seat: int, view: Msg) -> str | None:
            if script and script[0][0] == seat and script[0][1] in view["legal_actions"]:
                return script.pop(0)[1]
            if view["phase"] == "claim":
                return "pass"
            return None

        def saw_kong(seat: int) -> bool:
            return any(m.get("type") == "event" and m["event"]["kind"] == "kong" and m["event"]["seat"] == 1
                       for m in t.logs[seat])

        def completed() -> bool:  # East and North saw the kong complete and S's turn
            return all(saw_kong(s) and (v := t.latest[s]) is not None and v["turn"] == 1
                       and v["phase"] == "turn" for s in (0, 3))

        drive(t, choose, completed)
    finally:
        t.close()
    out = {}
    for seat in (0, 3):  # East and North are never asked about this kong
        log = t.logs[seat]
        start = next(i for i, m in enumerate(log)
                     if m.get("type") == "event" and m["event"]["kind"] == "window")
        v0 = log[start]["version"]
        end = next(i for i in range(start, len(log))
                   if log[i].get("type") == "view" and log[i]["view"]["phase"] == "turn")
        out[seat] = [shape(m, v0) for m in log[start - 1:end + 1]]
    return out


def test_an_added_kong_looks_the_same_to_the_unasked_with_or_without_a_possible_robber(
        live_server: LiveServer) -> None:
    with_robber = _added_kong(live_server, robber=True)
    without = _added_kong(live_server, robber=False)
    assert with_robber == without
    views = [s for s in with_robber[3] if s[0] == "view"]
    assert [(v[1], v[2]) for v in views] == [("claim", 0), ("turn", 1)]


# -- one human against three bots (RULES.md §3: the pause protects one human from another) -----------

def _bot_windows(log_text: str) -> dict[int, bool]:
    """For each discard's claim window of a hand (by its version): whether a bot (seats 1-3) was asked."""
    from sgmahjong.game import apply
    from sgmahjong.game.log import parse_log, start

    head, actions = parse_log(log_text)
    state, _ = start(head)
    out: dict[int, bool] = {}
    for a in actions:
        state, _ = apply(state, a)
        w = state.window
        if state.phase == "claim" and w is not None and w.kind == "discard" and state.version not in out:
            out[state.version] = any(s != 0 for s in w.asked)
    return out


def _lone_hand(server: LiveServer, seed: int) -> tuple[list[Msg], list[Msg], list[int], dict[int, bool]]:
    """A human at East plays a seeded hand against three bots at the default pace (passing every
    claim, discarding at random): its expanded messages, raw messages, their raw indexes, and which
    windows asked a bot."""
    options = {**FAST_OPTIONS, "claim_pause": 0.05}  # the lone pause: min(pace's, claim_pause)
    code = server.create_table(seed=seed, options=options)["code"]
    token = server.join(code, "Solo", 0)["token"]
    ws = server.ws(code)
    assert ws.hello(token)["seat"] == 0
    rng = random.Random(seed)
    logs: list[Msg] = []
    at: list[int] = []
    answered: set[int] = set()
    try:
        ws.send({"type": "start"})
        while True:
            msg = ws.recv(timeout=30)
            assert msg.get("type") != "error", msg
            logs.append(msg)
            at.append(len(ws.raw) - 1)
            if msg.get("type") != "view":
                continue
            view = msg["view"]
            if view["phase"] == "ended":
                break
            legal = view["legal_actions"]
            if not legal or view["version"] in answered:
                continue
            answered.add(view["version"])
            if "pass" in legal:
                text = "pass"
            elif "win" in legal:
                text = "win"
            else:
                text = rng.choice([a for a in legal if a.startswith("discard")] or legal)
            ws.send({"type": "action", "action": text, "version": view["version"]})
    finally:
        ws.close()
    r = server.get(f"/api/tables/{code}/hands/1/log")
    assert r.status_code == 200, r.text
    return logs, ws.raw, at, _bot_windows(r.text)


def test_against_bots_the_lone_human_sees_one_shape_whether_or_not_a_bot_could_claim(
        live_server: LiveServer) -> None:
    # What the human is sent after a discard, grouped by its situation (who discarded and what came just
    # before the discard: the human's own discard sends their changed options, a pong before it its own
    # event), then by whether a bot could have claimed it. In the same situation the two must look the
    # same; situations met only one way in these hands (random play) are not compared.
    shapes: dict[tuple[Any, ...], dict[bool, set[tuple[Any, ...]]]] = defaultdict(lambda: defaultdict(set))
    counts: dict[bool, int] = defaultdict(int)
    for seed in range(6):
        logs, raw, at, bot_asked = _lone_hand(live_server, 700 + seed)
        for i, m in enumerate(logs):
            if m.get("type") != "event" or m["event"]["kind"] != "discard":
                continue
            v0, source = m["version"], m["event"]["seat"]
            before = shape(logs[i - 1], v0)
            trace = [shape(m, v0)]
            asked, outcome, end = False, None, i
            for end, n in enumerate(logs[i + 1:], start=i + 1):  # noqa: B007
                trace.append(shape(n, v0))
                if n.get("type") == "view" and n["view"]["version"] == v0 and n["view"]["legal_actions"]:
                    asked = True
                if n.get("type") == "event" and n["event"]["kind"] in ("draw", "pong", "chow", "kong", "win",
                                                                       "drawn_game"):
                    outcome = n["event"]["kind"]
                    break
            if asked or outcome != "draw" or v0 not in bot_asked:
                continue  # the human's own options; a bot's claim is public anyway
            sent = [raw_shape(r, v0, source, last=k == at[end]) for k, r in enumerate(raw[at[i]:at[end] + 1],
                                                                                         start=at[i])]
            shapes[(source, before)][bot_asked[v0]].add((tuple(trace), tuple(sent)))
            counts[bot_asked[v0]] += 1
    assert counts[True] >= 3 and counts[False] >= 20, counts
    compared = 0
    for situation, by_asked in shapes.items():
        could, could_not = by_asked[True], by_asked[False]
        if could and could_not:
            assert could == could_not, (situation, could, could_not)
            compared += 1
    assert compared >= 1, {k: {a: len(v) for a, v in d.items()} for k, d in shapes.items()}
