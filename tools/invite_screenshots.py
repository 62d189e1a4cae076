"""Screenshots of a club's invite page and of the owner's invite links (docs/clubs.md).

    .venv/bin/python tools/invite_screenshots.py OUTDIR

Starts a server on a free port with a temporary database; Ah Beng starts "Thursday kaki" (20c/40c)
with two members and makes three invite links ("for Mei Ling", "for Ah Huat", one without a label).
Saves invite-{desktop,phone}-{en,zh}.png (a new friend opening "for Mei Ling": the club, the sender
and the name asked on the same screen), invite-revoked-phone-{en,zh}.png (a revoked link, on opening)
and invites-{desktop,phone}-{en,zh}.png (the owner's list of links), 1366x768 and 360 px, 256 colours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_clubs import call, invited, new_club, player
from tools.screenshots import DESKTOP, PHONE, page_for, shooting, shrink


def main() -> None:
    out = Path(sys.argv[1])
    with shooting(out) as (server, browser):
        owner = player(server, "Ah Beng")
        code = new_club(server, owner, "Thursday kaki", stake=20)["code"]
        invited(server, owner, code, player(server, "Siew Mei"))
        links = {label: call(server, "POST", f"/api/clubs/{code}/invites", owner, {"label": label}).json()
                 for label in ("for Mei Ling", "for Ah Huat", "")}
        revoked = links["for Ah Huat"]
        call(server, "POST", f"/api/clubs/{code}/invites/{revoked['id']}/revoke", owner, {})
        links["for Ah Huat"] = call(server, "POST", f"/api/clubs/{code}/invites", owner,
                                    {"label": "for Ah Huat"}).json()
        for lang in ("en", "zh"):
            for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                shots = [("invite", f"/clubs?lang={lang}#invite={links['for Mei Ling']['invite']}", None,
                          "#join-name"),
                         ("invites", f"/club/{code}?lang={lang}", owner, "#invites li")]
                if label == "phone":
                    shots.append(("invite-revoked", f"/clubs?lang={lang}#invite={revoked['invite']}", None,
                                  "#invite-status.bad"))
                for name, path, cookie, ready in shots:
                    page = page_for(browser, size, lang)
                    if cookie:
                        page.context.add_cookies([{"name": "sg_session", "value": cookie.split("=", 1)[1],
                                                   "url": server.url}])
                    page.goto(server.url + path)
                    page.wait_for_selector(ready)
                    if name == "invites":
                        page.locator("#members").scroll_into_view_if_needed()
                    shot = out / f"{name}-{label}-{lang}.png"
                    page.screenshot(path=str(shot), full_page=name != "invites")
                    shrink(shot)
                    page.context.close()


if __name__ == "__main__":
    main()
