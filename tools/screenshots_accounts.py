"""Screenshots of the account pages (/me signed in, with its history and rating; the leaderboard),
desktop 1366x768 and 360 px phone, English and 中文 (Debian's Chromium; a virtual authenticator holds
the passkey). Ann claims her account in the browser; 40 made-up players' ranked matches (with her in
some) are then rated straight into the database, with a fixed seed.

    .venv/bin/python tools/screenshots_accounts.py OUTDIR [--docs]

With --docs it saves {me,leaderboard}-{desktop,phone}-{en,zh}.png reduced to 256 colours (Pillow).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser

from tests.conftest import FAST_OPTIONS
from tools.screenshots import shooting

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 800}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}


def context(browser: Browser, size: dict[str, Any], lang: str, credential: dict[str, Any] | None) -> Any:
    ctx = browser.new_context(**size, locale="zh-CN" if lang == "zh" else "en-GB")
    ctx.add_init_script(f"localStorage.setItem('sgmahjong:lang', '{lang}')")
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    auth = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]
    if credential is not None:
        cdp.send("WebAuthn.addCredential", {"authenticatorId": auth, "credential": credential})
    return ctx, page, cdp, auth


def shoot(page: Any, path: Path, docs: bool) -> None:
    page.screenshot(path=str(path), full_page=not docs)
    if docs:
        from PIL import Image

        Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)


NAMES = ["Mei Ling", "Wei Jie", "Siti", "Raj", "Hui Min", "Kumar", "Xin Yi", "Darren", "Farah", "Jun Hao",
         "Priya", "Zhi Hao", "Aisha", "Ming", "Li Ting", "Hafiz", "Bee Lian", "Arjun", "Shu Fen", "Kenneth",
         "Nur", "Yong", "Rachel", "Ah Huat", "Joanne", "Ravi", "Pei Shan", "Irfan", "Cheng", "Lay Hoon",
         "Marcus", "Devi", "Boon", "Sharon", "Iskandar", "Wen", "Grace", "Ahmad", "Soo", "Vincent"]


def ranked_matches(database: str) -> None:
    """Rate 160 ranked matches of the made-up players (Ann, account 1, in 30 of them) into the store."""
    import random

    from sgmahjong.rules import RuleSet
    from sgmahjong.server.ranking.record import RankedPolicy
    from sgmahjong.server.store import open_store

    rng = random.Random(26)
    store = open_store(database)

    def account(pid: int) -> int:
        aid = store.player_account(pid)
        assert aid is not None  # every player here has claimed an account
        return aid

    try:
        ann = store.account_players(1)[0]
        players = [ann]
        for i, name in enumerate(NAMES):
            pid = store.new_guest(name)
            aid = store.create_account(name, name.lower(), f"shots-handle-{i}")
            assert aid is not None  # a fresh store: every name and handle free
            store.claim_player(pid, aid)
            players.append(pid)
        skill = {pid: rng.gauss(0, 1) for pid in players}
        skill[ann] = 1.2
        rules = RuleSet.preset("site").with_options(rounds=1).to_dict()
        when = time.time() - 160 * 3600
        for m in range(160):
            seated = ([ann] if m % 5 == 0 else []) + rng.sample(players[1:], 4)
            seated = seated[:4]
            table_id = store.create_table(f"Ranked {m}", f"shots{m:04d}", True, rules, {})
            for seat, pid in enumerate(seated):
                store.link_seat_player(table_id, seat, pid)
            store.mark_ranked(table_id, [account(pid) for pid in seated])  # as the queue does
            scores = [round(100 * (skill[pid] + rng.gauss(0, 1.5))) for pid in seated]
            store.rate_match(table_id, scores, [False] * 4, [False] * 4, when + m * 3600,
                             RankedPolicy.of().current_season(), 20)
            store.release(table_id)
    finally:
        store.close()


def main(outdir: Path, docs: bool) -> None:
    with shooting(outdir) as (server, browser):
        base = f"http://localhost:{server.port}"
        ctx, page, cdp, auth = context(browser, DESKTOP, "en", None)
        page.goto(base + "/me")
        for seed in (3, 4, 5, 6):
            page.evaluate("""async ([options, seed]) => {
                await fetch("/api/play", {method: "POST", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({name: "Ann", seed, options})});
            }""", [{**FAST_OPTIONS, "bot_level": "greedy"}, seed])
        time.sleep(3)
        page.goto(base + "/me")
        page.fill("#claim-name", "Ann")
        page.click("#claim-btn")
        page.wait_for_selector("#account-name")
        credential = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"][0]
        ctx.close()
        server.stop()
        ranked_matches(server.database)
        server.start()
        for lang in ("en", "zh"):
            for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                ctx, page, cdp, auth = context(browser, size, lang, credential)
                page.goto(base + "/me")
                page.click("#signin-btn")
                page.wait_for_selector("#account-name")
                # its signature count moved on (a copy left behind would look like a clone)
                credential = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"][0]
                page.wait_for_selector("#hands tbody tr")
                page.wait_for_selector("#rating-chart svg")
                page.mouse.move(0, 0)
                if docs:  # the picture shows the rank, rating and its chart
                    page.evaluate("document.getElementById('rating-card').scrollIntoView()")
                shoot(page, outdir / f"me-{label}-{lang}.png", docs)
                page.goto(base + "/leaderboard")
                page.wait_for_selector("#board tbody tr")
                shoot(page, outdir / f"leaderboard-{label}-{lang}.png", docs)
                ctx.close()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), "--docs" in sys.argv[2:])
