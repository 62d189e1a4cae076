"""Screenshots of the account pages (/me signed in, with its history), desktop 1366x768 and 360 px
phone, English and 中文 (Debian's Chromium; a virtual authenticator holds the passkey).

    .venv/bin/python tools/screenshots_accounts.py OUTDIR [--docs]

With --docs it saves docs/me-{desktop,phone}-{en,zh}.png reduced to 256 colours (Pillow).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser, sync_playwright

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, FAST_OPTIONS, LiveServer, free_port

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


def main(outdir: Path, docs: bool) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = LiveServer(free_port(), str(Path(tmp) / "shots.sqlite3"))
        server.start()
        base = f"http://localhost:{server.port}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            ctx, page, cdp, auth = context(browser, DESKTOP, "en", None)
            page.goto(base + "/me")
            for seed in (3, 4, 5, 6):
                page.evaluate("""async ([options, seed]) => {
                    const me = JSON.parse(localStorage.getItem("sgmj-player"));
                    await fetch("/api/play", {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify({name: "Ann", player: me.secret, seed, options})});
                }""", [{**FAST_OPTIONS, "bot_level": "greedy"}, seed])
            time.sleep(3)
            page.goto(base + "/me")
            page.fill("#claim-name", "Ann")
            page.click("#claim-btn")
            page.wait_for_selector("#account-name")
            credential = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"][0]
            ctx.close()
            for lang in ("en", "zh"):
                for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                    ctx, page, cdp, auth = context(browser, size, lang, credential)
                    page.goto(base + "/me")
                    page.click("#signin-btn")
                    page.wait_for_selector("#account-name")
                    # its signature count moved on (a copy left behind would look like a clone)
                    credential = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"][0]
                    page.wait_for_selector("#hands tbody tr")
                    path = outdir / f"me-{label}-{lang}.png"
                    page.screenshot(path=str(path), full_page=not docs)
                    if docs:
                        from PIL import Image

                        Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)
                    ctx.close()
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), "--docs" in sys.argv[2:])
