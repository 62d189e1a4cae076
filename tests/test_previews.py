"""Link previews (server/http/previews.py): the HTML of an invite, a club, a table and a replay page
carries Open Graph and Twitter-card tags saying what the link is, with only what a visitor without a
session may see: a working invite names its club and who sent it, a revoked one nothing; a club's page
is generic; a private club table and its replays are generic until the owner makes the table public.
Player-typed names are escaped and clipped."""

from __future__ import annotations

import html.parser
from pathlib import Path
from typing import Any

import httpx

from sgmahjong.server.http.previews import NAME_CHARS, clip
from sgmahjong.server.settings import ServerSettings
from tests.conftest import LiveServer, serving
from tests.test_club_privacy import club_table_with_a_hand
from tests.test_clubs import call, new_club, player

EVIL = '"><script>alert(1)</script>'
TAGS = ("og:type", "og:title", "og:description", "og:image", "og:url", "twitter:card")


class _Meta(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        key = a.get("property") or a.get("name")
        if tag == "meta" and key and key not in self.meta:
            self.meta[key] = a.get("content") or ""
        self.scripts += tag == "script" and not a.get("src")


def preview(server: LiveServer, path: str, lang: str = "en", **headers: str) -> tuple[dict[str, str], str]:
    """The page at ``path`` asked with no session: its meta tags (unescaped) and its raw HTML."""
    r = httpx.get(server.url + path, headers={"Accept-Language": lang, **headers}, timeout=10)
    assert r.status_code == 200, r.text
    assert "set-cookie" not in r.headers  # the page makes no identity
    parser = _Meta()
    parser.feed(r.text)
    assert all(parser.meta.get(t) for t in TAGS), parser.meta
    assert parser.scripts == 0  # no inline script: names stay text, and the CSP holds
    assert parser.meta["og:image"].startswith(server.url + "/static/icons/card-")
    assert parser.meta["og:url"] == server.url + path.split("?")[0]
    image = httpx.get(parser.meta["og:image"], timeout=10)
    assert image.status_code == 200 and image.content[:8] == b"\x89PNG\r\n\x1a\n"
    return parser.meta, r.text


def test_an_invite_names_its_club_and_sender_until_revoked(live_server: LiveServer) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "Friday kaki")["code"]
    made = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {"label": "for Mei Ling"}).json()
    assert made["url"] == f"/invite/{made['invite']}"
    meta, _ = preview(live_server, made["url"])
    assert meta["og:title"] == "Join Friday kaki · a Singapore Mahjong club"
    assert "Ah Beng invites you to Friday kaki" in meta["og:description"]
    assert "Mei Ling" not in str(meta)  # the owner's label of the link is theirs
    zh, _ = preview(live_server, made["url"], "zh-CN,zh;q=0.9")
    assert zh["og:title"] == "加入 Friday kaki · 新加坡麻将牌友会"
    assert "Ah Beng 邀请你" in zh["og:description"]
    assert zh["og:locale"] == "zh_SG"
    call(live_server, "POST", f"/api/clubs/{club}/invites/{made['id']}/revoke", owner, {})
    dead, _ = preview(live_server, made["url"])
    unknown, _ = preview(live_server, "/invite/not-a-real-code-at-all")
    assert dead == {**unknown, "og:url": dead["og:url"]}  # revoked and unknown look alike
    assert "Friday" not in str(dead) and "Ah Beng" not in str(dead)


def test_a_clubs_page_is_generic_for_members_and_strangers(live_server: LiveServer) -> None:
    owner = player(live_server, "Ah Beng")
    club = new_club(live_server, owner, "Friday kaki")["code"]
    meta, page = preview(live_server, f"/club/{club}")
    other, _ = preview(live_server, "/club/nosuchclub")
    assert "Friday" not in page and "Ah Beng" not in page
    assert {**meta, "og:url": ""} == {**other, "og:url": ""}
    member, _ = preview(live_server, f"/club/{club}", Cookie=owner)  # the same, whoever asks
    assert member == meta


def test_names_are_escaped_and_clipped(live_server: LiveServer) -> None:
    owner = player(live_server, "Ann")
    long_name = "Kaki" + "x" * 36  # 40 characters, the most a club's name may have
    club = new_club(live_server, owner, EVIL[:20])["code"]
    made = call(live_server, "POST", f"/api/clubs/{club}/invites", owner, {}).json()
    meta, page = preview(live_server, made["url"])
    assert EVIL[:20] in meta["og:title"]  # the name, as typed, in the attribute's value
    assert "<script>alert" not in page and '"><' not in page.split("<body")[0].split("og:type")[1]
    assert "&quot;&gt;&lt;script&gt;" in page
    table = live_server.create_table(name=EVIL)["code"]
    live_server.join(table, EVIL[:24], seat=0)
    meta, page = preview(live_server, f"/t/{table}")
    assert "<script>alert" not in page
    assert meta["og:description"].startswith("At the table: " + EVIL[:24])
    club2 = new_club(live_server, owner, long_name)["code"]
    made = call(live_server, "POST", f"/api/clubs/{club2}/invites", owner, {}).json()
    assert long_name in preview(live_server, made["url"])[0]["og:title"]
    assert clip("a" * 100, NAME_CHARS) == "a" * (NAME_CHARS - 1) + "…" and clip(" a \n b ", 9) == "a b"


def test_a_table_names_who_sits_there(live_server: LiveServer) -> None:
    table = live_server.create_table(name="Friday night")["code"]
    live_server.join(table, "Siew Mei", seat=0)
    live_server.join(table, "Ah Beng", seat=1)
    meta, _ = preview(live_server, f"/t/{table}")
    assert meta["og:title"] == "Friday night · a Singapore Mahjong table"
    assert meta["og:description"] == ("At the table: Siew Mei, Ah Beng. 2 seats free. "
                                      "Open the link to sit down or watch.")
    zh, _ = preview(live_server, f"/t/{table}?lang=zh")
    assert zh["og:description"] == "在座：Siew Mei、Ah Beng。空位 2 个。打开链接入座或观战。"
    assert httpx.get(f"{live_server.url}/t/NOSUCH", timeout=10).status_code == 404


def _replay_result(server: LiveServer, table: str, who: str | None) -> dict[str, Any]:
    r = call(server, "GET", f"/api/tables/{table}/hands/1/replay", who)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_private_club_table_and_its_replay_stay_generic_until_public(live_server: LiveServer) -> None:
    owner, member, _, club, table = club_table_with_a_hand(live_server)
    generic_table, page = preview(live_server, f"/t/{table}")
    generic_replay, replay_page = preview(live_server, f"/replay/{table}/1")
    for text in (page, replay_page):
        assert "Thursday" not in text and "Ann" not in text and "Secret" not in text
    assert generic_table["og:title"] == "A Singapore Mahjong table"
    assert generic_replay["og:title"] == "A Singapore Mahjong replay"
    assert preview(live_server, f"/replay/{table}/1", Cookie=member)[0] == generic_replay  # whoever asks
    call(live_server, "POST", f"/api/clubs/{club}/tables/{table}/public", owner, {"public": True})
    data = _replay_result(live_server, table, None)
    result, seats = data["result"], {s["seat"]: s["name"] for s in data["seats"]}
    meta, _ = preview(live_server, f"/replay/{table}/1")
    if result.get("winner") is None:
        assert meta["og:title"] == "A drawn hand · hand 1 at Thursday"
    else:
        winner, tai = seats[result["winner"]], result["tai"]
        assert meta["og:title"] == f"{winner} won with {tai} tai · hand 1 at Thursday"
        zh, _ = preview(live_server, f"/replay/{table}/1", "zh")
        assert zh["og:title"] == f"{winner} {tai} 台胡牌 · Thursday 第 1 局"
    assert meta["og:description"].startswith("The replay of hand 1 at Thursday: Ann, Bot")
    assert preview(live_server, f"/t/{table}")[0]["og:title"] == "Thursday · a Singapore Mahjong table"
    # a hand not played (yet), or not a number: generic
    assert preview(live_server, f"/replay/{table}/99")[0] == {**generic_replay, "og:url": live_server.url
                                                              + f"/replay/{table}/99"}
    assert preview(live_server, f"/replay/{table}/x")[0]["og:title"] == "A Singapore Mahjong replay"
    # before, a digit int() cannot read ("²": str.isdigit says yes) was a 500
    odd = httpx.get(f"{live_server.url}/replay/{table}/%C2%B2", timeout=10)
    assert odd.status_code == 200 and "A Singapore Mahjong replay" in odd.text


def test_a_preview_page_revalidates_and_is_compressed(live_server: LiveServer) -> None:
    table = live_server.create_table(name="Friday night")["code"]
    r = httpx.get(f"{live_server.url}/t/{table}", headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert r.headers["cache-control"] == "no-cache" and r.headers["content-encoding"] == "gzip"
    held = {"If-None-Match": r.headers["etag"]}
    again = httpx.get(f"{live_server.url}/t/{table}", headers=held, timeout=10)
    assert again.status_code == 304
    live_server.join(table, "Mei", seat=0)  # someone sat down: a new page, a new ETag
    moved = httpx.get(f"{live_server.url}/t/{table}", headers=held, timeout=10)
    assert moved.status_code == 200 and "Mei" in moved.text


def test_behind_the_proxy_the_links_are_the_players_https_address(tmp_path: Path) -> None:
    """The preview's links are absolute, made from the request's host and, from a trusted proxy, the
    scheme it was asked in (X-Forwarded-Proto), as every address of the app."""
    settings = ServerSettings(trusted_proxies=("127.0.0.0/8",))
    with serving(tmp_path / "db.sqlite3", settings=settings) as server:
        table = server.create_table("Friday night")["code"]
        headers = {"Host": "mahjong.example", "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
        r = httpx.get(f"{server.url}/t/{table}", headers=headers, timeout=10)
        parser = _Meta()
        parser.feed(r.text)
        assert parser.meta["og:url"] == f"https://mahjong.example/t/{table}"
        assert parser.meta["og:image"] == "https://mahjong.example/static/icons/card-table.png"
