"""Browser tests of the pages around the table: lobby, how to play (tile art), scoring reference and
calculator. Each page is built from the server's data, so each test compares it with that data."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from sgmahjong.rules import RuleSet
from sgmahjong.tiles import ALL_TILES

expect.set_options(timeout=15_000)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    ctx.close()
    assert errors == []


def test_howto_shows_all_46_tile_faces_and_the_keys(live_server: Any, page: Page) -> None:
    page.goto(live_server.url + "/how-to-play")
    faces = page.locator("#gallery figure .tile")
    expect(faces).to_have_count(46)
    shown = page.eval_on_selector_all("#gallery .tile", "els => els.map(e => e.dataset.tile)")
    assert shown == [t.notation for t in ALL_TILES]
    # each face is its own drawing
    svgs = page.eval_on_selector_all(
        "#gallery .tile", "els => els.map(e => e.querySelector('svg').innerHTML)")
    assert len(set(svgs)) == 46
    # the keys of the rival site, and a pass key
    keys = page.locator("#keys-table kbd").all_text_contents()  # below the fold: not laid out yet
    for key in ["1", "9", "0", "Q", "W", "E", "R", "P", "G", "Z", "X", "C", "H", "Space"]:
        assert key in keys
    # the options table is generated from the rule set
    expect(page.locator("#options-table tbody tr")).to_have_count(len(RuleSet.describe()))


# the words of a caption that lie on more than one line and carry no soft hyphen to break at
MID_WORD_BREAKS = """els => els.flatMap(el => { const n = el.lastChild, s = n.textContent, out = [];
  for (const m of s.matchAll(/[^ ]+/g)) { if (m[0].includes("\\u00ad")) continue;
    const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
    if (new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 1) out.push(m[0]); }
  return out; })"""


@pytest.mark.parametrize("width", [1100, 360])
def test_howto_tile_names_break_between_words(live_server: Any, browser: Browser, width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(live_server.url + "/how-to-play")
        expect(page.locator("#gallery figure figcaption")).to_have_count(46)
        page.locator("#gallery").scroll_into_view_if_needed()  # laid out once near the screen
        assert page.eval_on_selector_all("#gallery figcaption", MID_WORD_BREAKS) == []  # not "Chrysanthemu|m"
    finally:
        ctx.close()


@pytest.mark.parametrize("path", ["/", "/how-to-play", "/scoring", "/calculator", "/me", "/leaderboard",
                                  "/clubs", "/events"])
def test_every_page_has_the_site_header(live_server: Any, page: Page, path: str) -> None:
    page.goto(live_server.url + path)
    links = page.locator("header.site-header nav a")
    expect(links).to_have_count(8)
    assert [links.nth(i).get_attribute("href") for i in range(8)] == ["/", "/how-to-play", "/scoring",
                                                                      "/calculator", "/me", "/leaderboard",
                                                                      "/clubs", "/events"]
    expect(page.locator('header.site-header nav a[aria-current="page"]')).to_have_attribute("href", path)
    page.locator("header.site-header .brand").click()
    expect(page).to_have_url(live_server.url + "/")


def test_lobby_names_and_describes_the_bot_levels(live_server: Any, page: Page) -> None:
    page.goto(f"{live_server.url}/?lang=en")
    levels = page.locator("#bot-levels .bot-level")
    expect(levels).to_have_count(4)
    assert page.locator("#bot-levels dt").all_inner_texts() == ["Beginner", "Casual", "Strong", "Expert"]
    assert all(len(t) > 20 for t in page.locator("#bot-levels dd").all_inner_texts())


def test_lobby_creates_a_table_with_house_rules(live_server: Any, page: Page) -> None:
    page.goto(live_server.url + "/")
    controls = page.locator("#rule-options [data-option]")
    expect(controls).to_have_count(len(RuleSet.describe()))
    page.fill("#table-name", "Browser table")
    page.locator("#rule-details summary").click()
    page.fill('#rule-options [data-option="limit"]', "10")
    page.locator("#create-btn").click()
    expect(page.locator("#created")).to_be_visible()
    link = page.locator("#created-link").inner_text()
    match = re.search(r"/t/([^/]+)$", link)
    assert match, link
    code = match.group(1)
    summary = live_server.get(f"/api/tables/{code}").json()
    assert summary["name"] == "Browser table"
    assert summary["changed_rules"] == {"limit": 10}
    expect(page.locator(f'#tables tr[data-code="{code}"]')).to_contain_text("Browser table")
    # the link leads to the seats, where the table's rules are summarised
    page.locator("#created-go").click()
    expect(page.locator("#seating")).to_be_visible()
    expect(page.locator("#seat-list .seat-card")).to_have_count(4)
    expect(page.locator("#rules-summary")).to_contain_text("House rules: a limit of 10 tai")


def test_scoring_reference_follows_the_rule_set(live_server: Any, page: Page) -> None:
    ref = live_server.get("/api/reference").json()
    page.goto(live_server.url + "/scoring")
    rows = page.locator("#reference tr[data-pattern]")
    expect(rows).to_have_count(len(ref["patterns"]))
    first = ref["patterns"][0]
    expect(page.locator(f'#reference tr[data-pattern="{first["id"]}"]')).to_contain_text(first["name"])
    expect(page.locator("#ref-title")).to_contain_text("limit 5 tai")
    # a house rule changes the reference
    page.locator("details summary", has_text="Change rule options").click()
    page.fill('#rule-options [data-option="limit"]', "10")
    page.locator("#apply").click()
    expect(page.locator("#ref-title")).to_contain_text("limit 10 tai")
    ref10 = live_server.get("/api/reference?rule=limit=10").json()
    limit_rows = [p for p in ref10["patterns"] if p["kind"] == "limit"]
    assert limit_rows
    cell = page.locator(f'#reference tr[data-pattern="{limit_rows[0]["id"]}"] td.tai')
    expect(cell).to_have_text(limit_rows[0]["tai_text"])


def test_calculator_uses_the_server_scorer(live_server: Any, page: Page) -> None:
    hand = "23s55p [123m] [456m] [789p] +4s /1f1a"
    body = {"hand": hand, "seat": "E", "wind": "E", "self_drawn": True}
    expected = live_server.post("/api/score", body).json()
    page.goto(live_server.url + "/calculator")
    expect(page.locator("#picked .tile")).to_have_count(16)  # the hand as tiles (the picker)
    page.fill("#hand", hand)
    page.check("#self_drawn")
    page.locator("#calc-btn").click()
    out = page.locator("#calc-result")
    expect(out.locator("h2")).to_have_text(f"{expected['tai']} tai")
    ids = out.locator("tr[data-pattern]")
    expect(ids).to_have_count(len(expected["patterns"]))
    for p in expected["patterns"]:
        expect(out.locator(f'tr[data-pattern="{p["name"]}"] td.num')).to_have_text(str(p["tai"]))
    for seat, amount in expected["payments"].items():
        expect(out.locator(f'.payments tr[data-seat="{seat}"] td.num')).to_have_text(
            f"+{amount}" if amount > 0 else str(amount))
    # a bad hand gets the scorer's one-line reason
    page.fill("#hand", "123m +")
    page.locator("#calc-btn").click()
    expect(page.locator("#calc-error")).to_be_visible()


def test_seats_bots_and_leaving(live_server: Any, page: Page) -> None:
    code = live_server.create_table("Seats")["code"]
    page.goto(f"{live_server.url}/t/{code}")
    expect(page.locator("#share-link")).to_have_text(f"{live_server.url}/t/{code}")
    expect(page.locator('#seat-list [data-action="join"]')).to_have_count(4)
    page.fill("#join-name", "Ann")
    page.locator('#seat-list [data-seat="2"] [data-action="join"]').click()
    expect(page.locator('#seat-list [data-seat="2"]')).to_have_class(re.compile(r"\bmine\b"))
    expect(page.locator('#seat-list [data-seat="2"]')).to_contain_text("Ann (you)")
    # a seated player adds and removes bots
    page.select_option("#bot-level", "beginner")  # levels by the names people understand
    page.locator('#seat-list [data-seat="0"] [data-action="add-bot"]').click()
    expect(page.locator('#seat-list [data-seat="0"]')).to_contain_text("Beginner")
    seats = live_server.get(f"/api/tables/{code}").json()["seats"]
    assert seats[0]["kind"] == "bot" and seats[0]["bot_level"] == "beginner"
    assert page.locator("#bot-level option").all_inner_texts() == ["Beginner", "Casual", "Strong", "Expert"]
    page.locator('#seat-list [data-seat="0"] [data-action="remove-bot"]').click()
    expect(page.locator('#seat-list [data-seat="0"] [data-action="add-bot"]')).to_be_visible()
    # leaving frees the seat and forgets the token
    page.locator("#leave-btn").click()
    expect(page.locator("#join-form")).to_be_visible()
    expect(page.locator('#seat-list [data-action="join"]')).to_have_count(4)
    assert page.evaluate(f"localStorage.getItem('sgmahjong:{code}')") is None
    assert live_server.get(f"/api/tables/{code}").json()["seats"][2]["kind"] == "empty"


def test_client_notation_matches_the_python_notation(live_server: Any, page: Page) -> None:
    """The page's hand-string reader (static/js/notation.js) against sgmahjong.notation."""
    from sgmahjong.notation import parse_hand

    page.goto(live_server.url + "/how-to-play")
    hands = ["23s55p [123m] [456m] [789p] +4s /1f1a", "1239m456p789sCCC +9m",
             "EEE SSS {5555p} [RdRdRd] 9s +9s", "19m19p19sESWNCFP +P /2a3a4a1f5f"]
    for text in hands:
        got = page.evaluate(
            "async (t) => { const m = await import('/static/js/notation.js'); return m.parseHand(t); }", text)
        hand = parse_hand(text)
        assert sorted(got["concealed"]) == sorted(t.notation for t in hand.concealed), text
        assert got["winning"] == (hand.winning_tile.notation if hand.winning_tile is not None else None)
        assert [m["tiles"] for m in got["melds"]] == [[t.notation for t in m.tiles] for m in hand.melds], text
        assert [m["concealed"] for m in got["melds"]] == [m.concealed for m in hand.melds], text
        assert sorted(got["bonus"]) == sorted(t.notation for t in hand.bonus), text
    order = page.evaluate("async () => { const m = await import('/static/js/tiles.js'); "
                          "return m.sortTiles(['1a', 'P', '5p', 'E', '1m', '3f']); }")
    assert order == ["1m", "5p", "E", "P", "3f", "1a"]


def _module_call(page: Page, module: str, script: str, arg: Any = None) -> Any:
    """Run ``script`` (a function body with ``m`` = the module and ``arg``) in the page."""
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/static/js/{module}'); {script} }}", arg)


def test_moves_from_a_view(live_server: Any, page: Page) -> None:
    """The hand order, the drawn tile apart, and the chow keys relative to the discard."""
    page.goto(live_server.url + "/how-to-play")
    seat = {"concealed": ["9s", "1m", "E", "5p"], "drawn": "3s", "melds": [{"tiles": ["1p", "2p", "3p"]}] * 3}
    assert _module_call(page, "moves.js", "return m.myHand(arg);", seat) == [
        {"tile": "1m", "drawn": False}, {"tile": "5p", "drawn": False}, {"tile": "9s", "drawn": False},
        {"tile": "E", "drawn": False}, {"tile": "3s", "drawn": True}]
    keys = _module_call(page, "moves.js", "return arg.map((a) => m.chowInfo(a, '5s').key);",
                        ["chow 345s", "chow 456s", "chow 567s"])
    assert keys == ["C", "X", "Z"]
    groups = _module_call(page, "moves.js", "const g = m.legalGroups({legal_actions: arg}); "
                          "return [[...g.discards], g.chows, g.pong, g.kongs, g.win, g.pass];",
                          ["discard 5p", "discard E", "kong 7m", "win"])
    assert groups == [["5p", "E"], [], False, ["kong 7m"], True, False]


def test_result_panel_paths(live_server: Any, page: Page) -> None:
    """Results the scripted games rarely reach: paying for all, a special win, a drawn hand with a kong."""
    page.goto(live_server.url + "/how-to-play")
    base = {"version": 9, "hand_ledger": [48, -48, 0, 0], "match_ledger": [48, -48, 0, 0], "wall_hash": None,
            "hand_number": 2, "standings": None}
    bao = {**base, "result": {
        "winner": 0, "shooter": 1, "self_drawn": False, "hand": "123m [CCC] [FFF] [PPP] 9m +9m", "tai": 5,
        "limit": True, "kind": "normal", "patterns": [{"name": "big_three_dragons", "tai": 5}],
        "payments": [48, -48, 0, 0], "liable": 1, "liable_reason": "bao_dragons", "drawn_game": False,
        "revealed": {}, "wall_reveal": None}}
    script = """
      const el = document.createElement('div');
      m.fillResult(el, arg, {seatName: (s) => ['Ann', 'Bo', 'Cy', 'Di'][s], patternName: (p) => p,
                             code: 'X', canGoNext: true, readySent: false, onNext: () => {},
                             matchOver: false});
      const how = el.querySelector('.result-how')?.textContent ?? '';
      return {h: el.querySelector('h2').textContent + ' / ' + how,
              liable: el.querySelector('.liable')?.textContent ?? null,
              kind: el.querySelector('.win-kind')?.textContent ?? null, text: el.textContent,
              melds: el.querySelectorAll('.winning-hand .meld').length,
              next: !!el.querySelector('[data-action=next]')};
    """
    out = _module_call(page, "result.js", script, bao)
    assert out["h"] == "Ann wins: 5 tai (limit) / On Bo's discard"
    assert out["liable"] == "Bo pays for all (包): fed the third dragon set"
    assert out["melds"] == 3 and out["next"] and out["kind"] is None
    flowers = {**base, "result": {**bao["result"], "hand": None, "kind": "eight_flowers", "liable": None,
                                  "patterns": [], "self_drawn": True, "shooter": None}}
    out = _module_call(page, "result.js", script, flowers)
    assert out["kind"] == "Special win: eight_flowers"
    assert out["h"] == "Ann wins: 5 tai (limit) / Self-drawn (自摸)"
    standings = [{"seat": 0, "amount": 48, "rank": 1}, {"seat": 2, "amount": 0, "rank": 2},
                 {"seat": 3, "amount": 0, "rank": 3}, {"seat": 1, "amount": -48, "rank": 4}]
    drawn = {**base, "standings": standings,
             "result": {"winner": None, "shooter": None, "self_drawn": False, "hand": None, "tai": 0,
                        "limit": False, "patterns": [], "payments": [0, 0, 0, 0], "liable": None,
                        "drawn_game": True, "kong_made": True, "revealed": {}, "wall_reveal": None}}
    out = _module_call(page, "result.js", script, drawn)
    assert out["h"] == "Drawn hand (荒牌) / "
    assert "the deal passes" in out["text"] and "Final standings" in out["text"]


def test_a_stale_token_falls_back_to_watching(live_server: Any, page: Page) -> None:
    code = live_server.create_table("Stale")["code"]
    page.goto(f"{live_server.url}/t/{code}")
    page.evaluate(f"localStorage.setItem('sgmahjong:{code}', 'not-a-token')")
    page.reload()
    expect(page.locator("#toast")).to_be_visible()
    expect(page.locator("#join-form")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-seat", "spectator")
    assert page.evaluate(f"localStorage.getItem('sgmahjong:{code}')") is None
