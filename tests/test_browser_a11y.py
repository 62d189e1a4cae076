"""The table without sight (docs/accessibility.md), in Debian's Chromium through Playwright.

* A player who reads nothing but the accessibility tree and the live region's announcements (no CSS
  selector, no coordinate, no screenshot: role locators, ARIA snapshots and the text the region adds,
  which is what a screen reader is given) plays a full hand against bots with keys only: from the lobby
  (Tab, typing, Enter) in English, from the table's link in 中文. It discards the tile the table names as
  isolated (key S), passes every claim (Space), reaches the result, reads every payment as a sentence
  and checks them against the server's record of the hand.
* A recorded hand, as one seat and as a spectator received it, fed to the announcer (js/announce.js):
  each game event said exactly once at the default verbosity, no tile named that the viewer could not
  see, and the seat told nothing about the other seats that the spectator was not told.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from tests.conftest import WsClient, give_seat_session

expect.set_options(timeout=15_000)

DISCARD_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "q", "w", "e", "r"]
#: the fixed deal: hand 1 of seed 5 (a win with payments, checked below)
SEED = 5
IN_PLAY = {"bot_delay": 0, "turn_seconds": 0, "claim_seconds": 0, "claim_pause": 0, "takeover_seconds": 3600,
           "next_hand_seconds": 0}

#: what the player listens for, in each language
EAR = {
    "en": {"region": "Announcements", "hand": "Your hand", "your_turn": "Your turn: discard a tile.",
           "or_discard": "or discard", "pass": "Pass: space", "next": "Next hand: N.",
           "isolated": re.compile(r"Isolated: ([^.]+)\."), "sep": ", ", "label_sep": ",",
           "payments": "Payments, in words", "drawn": "Drawn game",
           "pays": re.compile(r"^(?P<payer>.+?) pays? (?P<payee>.+) (?P<n>\d+)\.$"),
           "winds": {"East": "E", "South": "S", "West": "W", "North": "N"}, "you": ("You", "you")},
    "zh": {"region": "播报", "hand": "你的手牌", "your_turn": "轮到你：打出一张牌。",
           "or_discard": "或打出一张牌", "pass": "过：空格", "next": "下一局：N。",
           "isolated": re.compile(r"孤张：([^。]+)。"), "sep": "、", "label_sep": "，",
           "payments": "付款明细", "drawn": "流局",
           "pays": re.compile(r"^(?P<payer>.+?) ?付给 (?P<payee>.+) (?P<n>\d+)。$"),
           "winds": {"东家": "E", "南家": "S", "西家": "W", "北家": "N"}, "you": ("你", "你")},
}

#: JavaScript run on the live region found by its role: every text the region is given, in order
LISTEN = """region => {
  window.__heard = [];
  const heard = (ms) => ms.forEach((m) => m.addedNodes.forEach((n) => window.__heard.push(n.textContent)));
  new MutationObserver(heard).observe(region, { childList: true });
}"""


class Ear:
    """The announcements as a screen reader receives them: the text each addition to the live region
    carries, in order."""

    def __init__(self, page: Page, lang: str) -> None:
        self.page = page
        self.words = EAR[lang]
        self.region = page.get_by_role("log", name=self.words["region"])
        expect(self.region).to_be_attached()
        self.region.evaluate(LISTEN)
        self.read = 0

    def heard(self) -> list[str]:
        return self.page.evaluate("window.__heard")  # type: ignore[no-any-return]

    def next(self, timeout: float = 20) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            heard = self.heard()
            if len(heard) > self.read:
                self.read += 1
                return heard[self.read - 1]
            self.page.wait_for_timeout(30)
        raise TimeoutError(f"nothing announced in {timeout} s; heard so far: {self.heard()[-5:]}")

    def ask(self, key: str) -> str:
        """Press a key that asks the table; the answer is the next announcement."""
        self.drain()
        self.page.keyboard.press(key)
        return self.next()

    def drain(self) -> list[str]:
        heard = self.heard()
        new = heard[self.read:]
        self.read = len(heard)
        return new


def hand_buttons(page: Page, words: dict[str, Any]) -> list[str]:
    """The names of the hand's tiles, in order, from the accessibility tree."""
    snapshot = page.get_by_role("group", name=words["hand"]).aria_snapshot()
    return re.findall(r'- button "([^"]+)"', snapshot)


def discard_isolated(ear: Ear) -> str:
    """Ask for the isolated tiles (S), then discard the first one named with its key (else the last
    tile of the hand, the one just drawn)."""
    words = ear.words
    answer = ear.ask("s")
    found = words["isolated"].search(answer)
    tiles = hand_buttons(ear.page, words)
    index = len(tiles) - 1
    if found:
        name = found.group(1).split(words["sep"])[0]
        index = next(i for i, label in enumerate(tiles) if label.startswith(name + words["label_sep"]))
    ear.page.keyboard.press(DISCARD_KEYS[index])
    return tiles[index]


def play_by_ear(ear: Ear) -> list[str]:
    """Play until the hand's result is announced; returns every announcement heard."""
    words = ear.words
    log: list[str] = []
    end = time.monotonic() + 240
    pending = ear.drain()
    if not pending:
        pending = [ear.ask("o")]  # what may I do now?
    while time.monotonic() < end:
        for text in pending:
            log.append(text)
        last = pending[-1] if pending else ""
        if words["next"] in last:
            return log
        if words["pass"] in last:
            ear.page.keyboard.press("Space")
        elif words["your_turn"] in last or words["or_discard"] in last:
            log.append(discard_isolated(ear))
        pending = [ear.next(timeout=60)]
        pending += ear.drain()
    raise AssertionError(f"the hand did not end: {log[-10:]}")


def payments_read(page: Page, words: dict[str, Any], me: int) -> dict[int, int]:
    """Each seat's net from the result's payment sentences (the accessibility tree's list under the
    "Payments, in words" heading)."""
    snapshot = page.get_by_role("main").aria_snapshot()
    lines = snapshot.splitlines()
    start = next(i for i, line in enumerate(lines) if words["payments"] in line and "heading" in line)
    sentences = []
    for line in lines[start + 1:]:
        item = re.match(r'\s*- listitem: "?(.*?)"?$', line)
        if not item:
            if sentences:
                break
            continue
        sentences.append(item.group(1))
    totals = {s: 0 for s in range(4)}

    def seat_of(phrase: str) -> int:
        if phrase in words["you"]:
            return me
        wind = next(w for w in words["winds"] if phrase.startswith(w))
        return "ESWN".index(words["winds"][wind])  # the first hand: seat 0 is East

    for sentence in sentences:
        m = words["pays"].match(sentence.split(": ")[-1].split("：")[-1])
        assert m, sentences
        payer = m.group("payer") if m.group("payer") else words["you"][0]
        totals[seat_of(payer)] -= int(m.group("n"))
        totals[seat_of(m.group("payee"))] += int(m.group("n"))
    return totals


def check_result(page: Page, live_server: Any, code: str, lang: str, log: list[str]) -> None:
    words = EAR[lang]
    hands = live_server.get(f"/api/tables/{code}/results").json()["hands"]
    assert len(hands) == 1
    amounts = hands[0]["amounts"]
    if hands[0]["drawn_game"] and not any(amounts):
        assert any(words["drawn"] in text for text in log)
        return
    read = payments_read(page, words, 0)
    assert read == dict(enumerate(amounts)), (read, amounts, page.get_by_role("main").aria_snapshot())


def test_a_blind_player_plays_a_hand_from_the_lobby(live_server: Any, open_page: Any) -> None:
    page = open_page({"viewport": {"width": 1280, "height": 900}}, lang="en")
    # the lobby's own form, with the test server's fixed deal added to what it sends
    page.route("**/api/play", lambda route: route.continue_(
        post_data=json.dumps({**json.loads(route.request.post_data or "{}"), "seed": SEED})))
    page.goto(live_server.url + "/")
    name = page.get_by_role("textbox", name="Your display name")
    for _ in range(40):
        page.keyboard.press("Tab")
        if name.evaluate("el => el === document.activeElement"):
            break
    expect(name).to_be_focused()
    page.keyboard.type("Ann")
    page.keyboard.press("Tab")
    expect(page.get_by_role("combobox", name="Pace")).to_be_focused()
    page.keyboard.press("ArrowDown")  # Normal -> Fast
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Play vs bots")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    ear = Ear(page, "en")
    log = play_by_ear(ear)
    check_result(page, live_server, code, "en", log)
    # the next hand, by its key
    page.keyboard.press("n")
    assert "Hand 2" in ear.next(timeout=30) or any("Hand 2" in x for x in ear.drain())


def test_a_blind_player_plays_a_hand_in_chinese(live_server: Any, open_page: Any) -> None:
    r = live_server.post("/api/play", {"name": "Ann", "seed": SEED, "options": IN_PLAY}).json()
    page = open_page({"viewport": {"width": 1280, "height": 900}}, lang="zh")
    give_seat_session(page.context, live_server.url, r["token"])  # the seat's player's session
    page.goto(live_server.url + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"sgmahjong:{r['code']}", r["token"]])
    page.goto(live_server.url + r["url"])
    ear = Ear(page, "zh")
    log = play_by_ear(ear)
    check_result(page, live_server, r["code"], "zh", log)


# -- the announcer on a recorded hand -----------------------------------------------------------------

def record_hand(live_server: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """One hand against bots from before the deal: what seat 0 (passing every claim, discarding its
    drawn tile) and a spectator received, expanded as the page does it; and the table summary."""
    code = live_server.create_table("Recorded", seed=SEED, options=IN_PLAY)["code"]
    token = live_server.join(code, "Ann", 0)["token"]
    me, spectator = live_server.ws(code), live_server.ws(code)
    me.hello(token)
    spectator.hello(None)
    me.send({"type": "start"})
    done: set[int] = set()
    end = time.monotonic() + 60
    while time.monotonic() < end:
        msg = me.recv(timeout=20)
        if msg["type"] != "view":
            continue
        v = msg["view"]
        if v.get("result"):
            break
        legal = v["legal_actions"]
        if legal and v["version"] not in done:
            done.add(v["version"])
            drawn = v["seats"][0]["drawn"]
            action = "pass" if "pass" in legal else f"discard {drawn}" if f"discard {drawn}" in legal \
                else next(a for a in legal if a.startswith("discard"))
            me.send({"type": "action", "action": action, "version": v["version"]})
    watched: list[dict[str, Any]] = []
    until_result(spectator, watched)
    summary = live_server.get(f"/api/tables/{code}").json()
    mine = me.seen
    me.close()
    spectator.close()
    return mine, watched, summary


def until_result(ws: WsClient, out: list[dict[str, Any]]) -> None:
    while True:
        msg = ws.recv(timeout=20)
        out.append(msg)
        if msg["type"] == "view" and msg["view"].get("result"):
            return


#: feeds the messages to explain() as the table page does (events held until their view); returns the
#: events, the announcements (with the event each says) and the tile kinds each announcement names
#: that the viewer had not seen by then
HARNESS = """async ([messages, me, seats, verbosity]) => {
  const { explain } = await import("/static/js/announce.js");
  const { sayTile } = await import("/static/js/speech.js");
  const { playerName } = await import("/static/js/names.js");
  const { KINDS } = await import("/static/js/tracker.js");
  const bonus = ["1f","2f","3f","4f","5f","6f","7f","8f","1a","2a","3a","4a"];
  const names = [...KINDS, ...bonus].map((tile) => [tile, sayTile(tile)])
    .sort((a, b) => b[1].length - a[1].length);
  const known = new Set();
  const see = (v) => {
    for (const sv of v.seats || []) {
      for (const k of ["concealed", "discards", "bonus"]) (sv[k] || []).forEach((x) => known.add(x));
      if (sv.drawn) known.add(sv.drawn);
      (sv.melds || []).forEach((m) => (m.tiles || []).forEach((x) => known.add(x)));
      (sv.taken || []).forEach((x) => known.add(x[1]));
    }
    if (v.result) {
      Object.values(v.result.revealed || {}).forEach((ts) => ts.forEach((x) => known.add(x)));
    }
  };
  const events = [], items = [];
  let pending = [], lastPrompt = null, windOf = (s) => "ESWN"[s];
  for (const m of messages) {
    if (m.type === "event") { pending.push([events.length, m.event]); events.push(m.event); continue; }
    if (m.type !== "view") continue;
    const v = m.view;
    windOf = (s) => (v.seats[s] && v.seats[s].wind) || "ESWN"[s];
    see(v);
    const seatName = (s) => playerName(seats, s);
    const r = explain(pending.map((p) => p[1]), v, { me, seatName, windOf, verbosity,
      canGoNext: Boolean(v.result) && me !== null, lastPrompt });
    lastPrompt = r.promptKey;
    for (const it of r.items) {
      let rest = it.text;
      const unseen = [];
      for (const [tile, name] of names) {
        if (rest.includes(name)) {
          if (!known.has(tile)) unseen.push(tile);
          rest = rest.split(name).join("#");
        }
      }
      items.push({ text: it.text, event: it.event === null ? null : pending[it.event][0], unseen });
    }
    pending = [];
  }
  return { events, items };
}"""

ALWAYS = {"hand_start", "discard", "bonus", "chow", "pong", "kong", "win", "payment", "drawn_game",
          "match_end"}
OWN = {"deal", "draw", "decision"}  # said to the seat itself, about its own tiles and choices
SILENT = {"action", "window", "pass", "hand_end"}  # echoes of another event (or the hand's record)


def test_each_event_is_announced_once_and_nothing_hidden_is_said(live_server: Any, open_page: Any) -> None:
    mine, watched, summary = record_hand(live_server)
    page = open_page({"viewport": {"width": 800, "height": 600}}, lang="en")
    page.goto(live_server.url + "/keys")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    seats = summary["seats"]
    runs = {}
    for who, me, messages in (("seat", 0, mine), ("spectator", None, watched)):
        runs[who] = page.evaluate(HARNESS, [messages, me, seats, "all"])
        events, items = runs[who]["events"], runs[who]["items"]
        kinds = {e["kind"] for e in events}
        assert kinds <= ALWAYS | OWN | SILENT, kinds - (ALWAYS | OWN | SILENT)
        assert {"hand_start", "discard", "win"} <= kinds
        for i, e in enumerate(events):
            said = [it for it in items if it["event"] == i]
            own = me is not None and e.get("seat") == me \
                and bool(e.get("tile") or e.get("tiles") or e["kind"] == "decision")
            expected = 1 if e["kind"] in ALWAYS or (e["kind"] in OWN and own) else 0
            assert len(said) == expected, (who, i, e, said)
        # no tile named that this viewer had not seen (its own tiles, the discards, sets, bonus tiles)
        assert [it for it in items if it["unseen"]] == [], who
    # the spectator is offered nothing and told nothing of anyone's concealed tiles
    spectator = runs["spectator"]["items"]
    assert all(it["event"] is not None for it in spectator)
    assert not any("You" in it["text"] or "Pass: space" in it["text"] for it in spectator)
    # what the seat hears of the other seats' moves is exactly what the spectator hears
    def others(run: dict[str, Any]) -> list[str]:
        events = run["events"]
        return sorted(it["text"].split(". ")[0].rstrip(".") for it in run["items"] if it["event"] is not None
                      and events[it["event"]]["kind"] in {"discard", "chow", "pong", "kong", "bonus"}
                      and events[it["event"]].get("seat") != 0 and events[it["event"]].get("source") != 0)
    assert others(runs["seat"]) == others(runs["spectator"])
    # "only what concerns me": fewer announcements, none of them another seat's unclaimed move
    quiet = page.evaluate(HARNESS, [mine, 0, seats, "mine"])
    assert 0 < len(quiet["items"]) < len(runs["seat"]["items"])
    for it in quiet["items"]:
        e = quiet["events"][it["event"]] if it["event"] is not None else {}
        if e.get("kind") in {"chow", "pong", "kong", "bonus"}:
            assert 0 in (e.get("seat"), e.get("source")), it
