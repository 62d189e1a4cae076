"""Any CJK text draws with the site's own font on a device with no CJK font (static/fonts/README.md):
players' and clubs' names of random ideographs, the device link code sentence and dates with 年.

Chromium runs with a fontconfig that sees only DejaVu (this machine has fonts-noto-cjk installed), and
every CJK character on the page is asked, through the DevTools protocol's
``CSS.getPlatformFontsForNode``, which font drew it: it must be the served "SGMJ CJK Sans" (Noto Sans
CJK SC, a web font), never a system font nor nothing (tofu).
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Error, Page, expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer
from tests.test_clubs import call, invited, new_club, player, record

expect.set_options(timeout=20_000)
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
SERVED = "Noto Sans CJK SC"  # the family name inside the served files (SGMJ CJK Sans)
SERIF = "Noto Serif CJK TC"  # ... and inside the tile faces' files (SGMJ CJK, SVG text)
#: CJK Unified Ideographs as far as Noto CJK draws them (U+9FF0-9FFF came in Unicode 14 and 15)
IDEOGRAPHS = range(0x4E00, 0x9FF0)

# Wrap every CJK character of the visible text in its own <span class="cjk-probe">, so the DevTools
# protocol names the font of each one; then wait for the fonts the layout asked for. SVG text (tile
# faces, avatars: the serif "SGMJ CJK", tests/test_font_coverage.py) is left out: the protocol names no
# font for it.
PROBE = """async () => {
  const cjk = /[\\u3000-\\u30ff\\u4e00-\\u9fff\\uff00-\\uffef]/u;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (cjk.test(n.data) && parent && !parent.closest("script, style, template, svg")
        && parent.checkVisibility()) texts.push(n);
  }
  const chars = [];
  for (const n of texts) {
    if (n.parentElement.classList.contains("cjk-probe")) {  // wrapped when the page was asked before
      chars.push(n.data);
      continue;
    }
    const bits = [...n.data].map((ch) => {
      if (!cjk.test(ch)) return document.createTextNode(ch);
      const s = document.createElement("span");
      s.className = "cjk-probe";
      s.textContent = ch;
      chars.push(ch);
      return s;
    });
    n.replaceWith(...bits);
  }
  void document.body.offsetHeight;
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return chars;
}"""


def names(seed: int = 2026, count: int = 30) -> list[str]:
    """``count`` random ideographs (seeded), cut into four names."""
    rng = random.Random(seed)
    chars = "".join(chr(rng.choice(IDEOGRAPHS)) for _ in range(count))
    return [chars[0:8], chars[8:16], chars[16:23], chars[23:30]]


@pytest.fixture(scope="module")
def fontless(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """A second Chromium whose fontconfig sees only DejaVu: no CJK font at all."""
    folder = tmp_path_factory.mktemp("fontconfig")
    conf = folder / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                    f"  <dir>{DEJAVU}</dir>\n  <cachedir>{folder / 'cache'}</cachedir>\n</fontconfig>\n",
                    encoding="utf-8")
    env = {"FONTCONFIG_FILE": str(conf), "HOME": str(folder), "PATH": "/usr/bin:/bin"}
    listed = subprocess.run(["fc-list", ":lang=zh", "family"], env=env, capture_output=True, text=True,
                            check=True).stdout
    assert listed.strip() == ""  # no font that draws Chinese...
    assert "DejaVu" in subprocess.run(["fc-list"], env=env, capture_output=True, text=True).stdout
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
    try:
        yield b
    finally:
        b.close()


def fonts_of_cjk(page: Page) -> tuple[int, dict[str, list[str]]]:
    """(CJK characters on the page, font name -> the characters it drew). A page may draw a part anew
    while it is asked (the link code's countdown, every second): then it is asked again."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    for _attempt in range(5):
        chars = page.evaluate(PROBE)
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "span.cjk-probe"})["nodeIds"]
        if len(ids) != len(chars):
            continue
        drawn: dict[str, list[str]] = {}
        try:
            for node, ch in zip(ids, chars, strict=True):
                fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
                key = " + ".join(sorted(f"{f['familyName']}{' (web)' if f['isCustomFont'] else ''}"
                                        for f in fonts))
                drawn.setdefault(key or "(none)", []).append(ch)
        except Error as gone:  # the node was replaced meanwhile
            assert "node with given id" in str(gone), gone
            continue
        cdp.detach()
        return len(chars), drawn
    raise AssertionError("the page kept changing while its fonts were asked")


def assert_no_tofu(page: Page, must_show: str) -> None:
    """Every CJK character on the page drawn by the served font. A character laid out while its file
    was on the way (a name in a slice no page text loaded before) can be drawn by a fallback for a
    while, so the page is asked again, after its fonts are ready, until it settles; a character the
    served font lacks never settles. (Text the page set before its fonts arrived, which could keep the
    fallback's glyphs for good, is checked as first laid out below.)"""
    for _attempt in range(5):
        count, drawn = fonts_of_cjk(page)
        if list(drawn) == [f"{SERVED} (web)"]:
            break
    shown = "".join(ch for chars in drawn.values() for ch in chars)
    assert set(must_show) <= set(shown), set(must_show) - set(shown)
    assert count == len(shown)
    assert list(drawn) == [f"{SERVED} (web)"], {k: "".join(v)[:40] for k, v in drawn.items()}


def test_the_control_draws_tofu_without_the_site_s_font(fontless: Browser) -> None:
    """Without the site's fonts, this Chromium has nothing to draw an ideograph with."""
    page = fontless.new_page()
    page.set_content("<p>" + "".join(names()) + "</p>")  # no @font-face
    _count, drawn = fonts_of_cjk(page)
    assert not any(SERVED in key for key in drawn), drawn
    page.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_club_page_of_random_ideograph_names_has_no_tofu(fontless: Browser, live_server: LiveServer,
                                                           lang: str) -> None:
    four = names()
    people = [player(live_server, n) for n in four]
    club = new_club(live_server, people[0], "".join(names(7, 12)))
    for who in people[1:]:
        invited(live_server, people[0], club["code"], who)
    record(live_server, club["code"], list(people), [(0, 2, 1), (2, 1, None)], time.time())
    context = fontless.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.add_init_script(f"localStorage.setItem('sgmahjong:lang', '{lang}')")
    context.add_cookies([{"name": "sg_session", "value": people[0].split("=", 1)[1],
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/club/{club['code']}")
    for n in four:
        expect(page.locator("#members")).to_contain_text(n)
    expect(page.locator("#ledger tbody tr")).to_have_count(4)
    if lang == "zh":
        expect(page.locator("main")).to_contain_text("年")  # the club's dates
    assert_no_tofu(page, "".join(four) + ("年" if lang == "zh" else ""))
    assert call(live_server, "GET", f"/api/clubs/{club['code']}", people[0]).status_code == 200
    context.close()


def test_me_with_a_random_name_and_the_link_code_sentence_has_no_tofu(fontless: Browser,
                                                                     live_server: LiveServer) -> None:
    name = names(11)[0]
    base = f"http://localhost:{live_server.port}"  # passkeys need a domain
    context = fontless.new_context(viewport={"width": 1100, "height": 900}, locale="zh-CN")
    context.add_init_script("localStorage.setItem('sgmahjong:lang', 'zh')")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}})
    page.goto(base + "/me")
    page.fill("#claim-name", name)
    page.click("#claim-btn")
    expect(page.locator("#account-name")).to_contain_text(name)
    page.click("#code-btn")
    expect(page.locator("#link-shown")).to_contain_text("在新设备上输入")
    expect(page.locator("#devices")).to_contain_text("（本设备）")
    # the code's countdown redraws the sentence every second: stop the page's timers while it is asked
    page.evaluate("() => { const last = setTimeout(() => {}, 0);"
                  " for (let i = 0; i <= last; i++) { clearTimeout(i); clearInterval(i); } }")
    assert_no_tofu(page, name + "在新设备上输入（）")
    context.close()


PAGES = ["/", "/learn", "/how-to-play", "/scoring", "/calculator", "/leaderboard", "/clubs", "/events", "/me",
         "/keys"]


def stale_cjk(page: Page) -> list[tuple[str, str, str]]:
    """The elements whose own CJK text the page's layout drew with fewer of the served fonts' glyphs
    than it has CJK characters, as laid out by the page itself (nothing wrapped or drawn anew): (tag,
    text, fonts). A text laid out while its font file was on the way can keep the fallback's glyphs
    after the file arrives, which no later check by a probe (which lays the text out again) would see."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    stale = []
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "body *"})["nodeIds"]:
        desc = cdp.send("DOM.describeNode", {"nodeId": node, "depth": 1})["node"]
        own = "".join(c.get("nodeValue", "") for c in desc.get("children", []) if c.get("nodeType") == 3)
        cjk = sum(1 for ch in own if "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")
        if not cjk or desc["localName"] in ("script", "style", "template"):
            continue
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        served = sum(f["glyphCount"] for f in fonts
                     if f["isCustomFont"] and f["familyName"] in (SERVED, SERIF))
        if fonts and served < cjk:  # no fonts: not laid out (hidden)
            stale.append((desc["localName"], own.strip()[:30],
                          ", ".join(f"{f['familyName']} {f['glyphCount']}" for f in fonts)))
    cdp.detach()
    return stale


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_draws_its_cjk_text_with_the_site_font_as_first_laid_out(fontless: Browser,
                                                                            live_server: LiveServer,
                                                                            lang: str) -> None:
    """The pages load the bundled faces before they set any text (js/i18n.js): without that, Chromium
    kept the fallback's boxes in about ten headings and buttons of the 中文 pages (the menu button on
    every one) and in the brand on the English events page, on a device with no CJK font."""
    context = fontless.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    found = {}
    for path in PAGES:
        page.goto(f"{live_server.url}{path}?lang={lang}", wait_until="networkidle")
        page.evaluate("document.fonts.ready.then(() => true)")
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hans" if lang == "zh" else "en")
        found[path] = stale_cjk(page)
    context.close()
    assert not any(found.values()), {p: s[:3] for p, s in found.items() if s}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_players_text_of_slice_ideographs_draws_with_the_site_font_as_first_laid_out(
        fontless: Browser, live_server: LiveServer, lang: str) -> None:
    """Names of random ideographs on a club page (the members, the ledger, the club's name in bold), as
    the page laid them out: a run laid out while its slices were on the way kept the system's fallback
    after they arrived (boxes on a device with no CJK font), on a 中文 page as on an English one, even
    set again; js/langruns.js keeps such a run out of the layout until its slices have loaded."""
    four = names(31)
    title = "".join(names(37, 12))
    people = [player(live_server, n) for n in four]
    club = new_club(live_server, people[0], title)
    for who in people[1:]:
        invited(live_server, people[0], club["code"], who)
    record(live_server, club["code"], list(people), [(0, 2, 1), (2, 1, None)], time.time())
    context = fontless.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "sg_session", "value": people[0].split("=", 1)[1],
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/club/{club['code']}?lang={lang}", wait_until="networkidle")
    for n in four:  # shown, so laid out: stale_cjk passes over what is not
        expect(page.locator("#members").get_by_text(n).first).to_be_visible()
    expect(page.locator("#club-title")).to_have_text(title)
    expect(page.locator("#club-title")).to_be_visible()
    expect(page.locator("#ledger tbody tr")).to_have_count(4)
    # on an English page the names are marked as Chinese, for a screen reader's voice
    marked = page.locator("#club-title span[lang='zh-Hans'], #members span[lang='zh-Hans']")
    expect(marked).to_have_count(5 if lang == "en" else 0)
    page.evaluate("document.fonts.ready.then(() => true)")
    stale = stale_cjk(page)
    context.close()
    assert not stale, stale[:5]
