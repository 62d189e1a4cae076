"""Link previews: the pages a player pastes into a chat (an invite, a club, a table, a replay, an event)
are sent with Open Graph and Twitter-card tags naming what the link is, so a messenger shows the club
or the table rather than a bare address.

A preview says only what a visitor without a session may see (a messenger's crawler has none), and
it is the same whoever asks: a working invite link names its club and who sent it (the link is the
invitation); a revoked, expired or unknown one, and every club page (a club is its members' alone),
gets a generic preview; a table or a replay is named only when anyone may see it
(:func:`.clubs.may_see` with no player: a table of no club, or a club table its owner made public); an
event is named unless it is a club's (its members' alone).
Names are players' text: clipped to :data:`NAME_CHARS` and escaped for the attribute.

The tags are put into the built page (the static build's copy in the reader's language) as it is
sent: one store read or two per page, no cache; the answer is ``no-cache`` with an ETag of its body,
as the other pages are, and the GZip middleware compresses it.
"""

from __future__ import annotations

import hashlib
import html
import time
from collections.abc import Sequence
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..store import SeatRow
from ..tables import TableServer
from .clubs import invite_hash, may_see
from .common import row_id
from .replay import CODE_RE
from .static_http import current_build, page_language

NAME_CHARS = 40  # characters of one player-typed name in a preview (club, table, player)
TITLE_CHARS = 120  # characters of a preview's title
DESCRIPTION_CHARS = 300  # characters of a preview's description
INVITE_CHARS = 100  # characters of an invite code looked up (longer: not a code)
CARD = {"width": 1200, "height": 630}  # the preview cards' size (tools/make_cards.py)

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "site": "sgmahjong: Singapore Mahjong online",
        "generic": "Singapore Mahjong online: play with friends or bots, in English and 中文.",
        "invite": "Join {club} · a Singapore Mahjong club",
        "invite_desc": "{inviter} invites you to {club}, a Singapore Mahjong club. Open the link to join.",
        "invite_none": "A Singapore Mahjong club invite",
        "invite_none_desc": "An invitation to a club on sgmahjong: open the link to see if it still works.",
        "club": "A Singapore Mahjong club",
        "club_desc": "A club's private tables, its ledger and settle-up, for its members.",
        "table": "{table} · a Singapore Mahjong table",
        "table_desc": "At the table: {players}. {free} Open the link to sit down or watch.",
        "table_none": "A Singapore Mahjong table",
        "table_none_desc": "A table on sgmahjong: open the link to sit down or watch.",
        "free_0": "No seat free.",
        "free_1": "1 seat free.",
        "free_n": "{n} seats free.",
        "nobody": "nobody yet",
        "sep": ", ",
        "won": "{winner} won with {tai} tai · hand {n} at {table}",
        "drawn": "A drawn hand · hand {n} at {table}",
        "replay_desc": "The replay of hand {n} at {table}: {players}.",
        "replay_none": "A Singapore Mahjong replay",
        "replay_none_desc": "A hand replayed move by move on sgmahjong.",
        "event": "{event} · a Singapore Mahjong event",
        "event_desc": "{format}, {rounds} rounds of {hands}, organised by {organiser} · {entrants}. {status}",
        "hands_n": "{n} hands", "hands_1": "1 hand", "hands_0": "a full match each",
        "event_none": "A Singapore Mahjong event",
        "event_none_desc": "A tournament on sgmahjong: entrants, tables and standings after every round.",
        "swiss": "Swiss", "round_robin": "Round robin", "duplicate": "Duplicate",
        "entrants_1": "1 entrant", "entrants_n": "{n} entrants",
        "open": "Open the link to enter.", "running": "Round {round} is being played.",
        "finished": "The event is over: see the standings.",
    },
    "zh": {
        "site": "sgmahjong：新加坡麻将在线",
        "generic": "新加坡麻将在线：和朋友或电脑一起玩，中英双语。",
        "invite": "加入 {club} · 新加坡麻将牌友会",
        "invite_desc": "{inviter} 邀请你加入新加坡麻将牌友会 {club}。打开链接即可加入。",
        "invite_none": "新加坡麻将牌友会邀请",
        "invite_none_desc": "sgmahjong 上一个牌友会的邀请：打开链接看看它是否仍然有效。",
        "club": "新加坡麻将牌友会",
        "club_desc": "牌友会的私人牌桌、账本和结算，仅限会员。",
        "table": "{table} · 新加坡麻将牌桌",
        "table_desc": "在座：{players}。{free}打开链接入座或观战。",
        "table_none": "新加坡麻将牌桌",
        "table_none_desc": "sgmahjong 上的一张牌桌：打开链接入座或观战。",
        "free_0": "没有空位。",
        "free_1": "空位 1 个。",
        "free_n": "空位 {n} 个。",
        "nobody": "还没有人",
        "sep": "、",
        "won": "{winner} {tai} 台胡牌 · {table} 第 {n} 局",
        "drawn": "流局 · {table} 第 {n} 局",
        "replay_desc": "{table} 第 {n} 局的回放：{players}。",
        "replay_none": "新加坡麻将回放",
        "replay_none_desc": "在 sgmahjong 上一步一步重看一局牌。",
        "event": "{event} · 新加坡麻将比赛",
        "event_desc": "{format}，{rounds} 轮，{hands}，由 {organiser} 发起 · {entrants}。{status}",
        "hands_n": "每轮 {n} 局", "hands_1": "每轮 1 局", "hands_0": "每轮打完整一场",
        "event_none": "新加坡麻将比赛",
        "event_none_desc": "sgmahjong 上的比赛：报名、牌桌和每轮之后的排名。",
        "swiss": "按积分配对", "round_robin": "轮换对手", "duplicate": "复式赛",
        "entrants_1": "1 人参加", "entrants_n": "{n} 人参加",
        "open": "打开链接即可报名。", "running": "正在进行第 {round} 轮。",
        "finished": "比赛已结束：看看排名。",
    },
}


@dataclass(frozen=True)
class Preview:
    """What a pasted link shows: a title, a description and the card of its kind (``invite``,
    ``club``, ``table``, ``replay``)."""

    title: str
    description: str
    card: str


def clip(text: str | None, most: int) -> str:
    """``text`` on one line, at most ``most`` characters (an ellipsis marks a cut)."""
    one = " ".join((text or "").split())
    return one if len(one) <= most else one[: most - 1].rstrip() + "…"


def _say(lang: str, key: str, **params: object) -> str:
    return TEXTS[lang][key].format(**params)


def _players(lang: str, seats: Sequence[SeatRow]) -> str:
    names = [clip(s.name, NAME_CHARS) for s in seats if s.kind != "empty" and s.name]
    return TEXTS[lang]["sep"].join(names) or TEXTS[lang]["nobody"]


def invite_preview(server: TableServer, code: str, lang: str, now: float) -> Preview:
    """A working invite names its club and who sent it; any other link gets the generic invite."""
    found = server.store.invite_by_hash(invite_hash(code)) if 0 < len(code) <= INVITE_CHARS else None
    if found is None or found[1].revoked is not None or (found[1].expires or now + 1) <= now:
        return Preview(_say(lang, "invite_none"), _say(lang, "invite_none_desc"), "invite")
    club, link = found
    inviter = link.maker or server.store.club_members(club.id)[0].name
    name, sender = clip(club.name, NAME_CHARS), clip(inviter, NAME_CHARS)
    return Preview(_say(lang, "invite", club=name), _say(lang, "invite_desc", club=name, inviter=sender),
                   "invite")


def club_preview(lang: str) -> Preview:
    """Every club's page (and every code, a club's or not) gets the same generic preview."""
    return Preview(_say(lang, "club"), _say(lang, "club_desc"), "club")


def table_preview(server: TableServer, code: str, lang: str) -> Preview:
    """A table anyone may see is named with who sits there; any other gets the generic table."""
    row = server.store.table_by_code(code) if CODE_RE.match(code) else None
    if row is None or not may_see(server, [], row):
        return Preview(_say(lang, "table_none"), _say(lang, "table_none_desc"), "table")
    seats = server.store.seats(row.id)
    free = sum(1 for s in seats if s.kind == "empty")
    free_text = _say(lang, "free_0" if free == 0 else "free_1" if free == 1 else "free_n", n=free)
    name = clip(row.name, NAME_CHARS)
    return Preview(_say(lang, "table", table=name),
                   _say(lang, "table_desc", players=_players(lang, seats), free=free_text), "table")


def replay_preview(server: TableServer, code: str, number_text: str, lang: str) -> Preview:
    """An ended hand of a table anyone may see: who won with how many tai (or a drawn hand)."""
    none = Preview(_say(lang, "replay_none"), _say(lang, "replay_none_desc"), "replay")
    row = server.store.table_by_code(code) if CODE_RE.match(code) else None
    number = row_id(number_text) if len(number_text) <= 6 else None
    if row is None or number is None or not may_see(server, [], row):
        return none
    hand = next((h for h in server.store.hands(row.id) if h.number == number), None)
    if hand is None or hand.ended is None:  # nothing of a hand is told before it ends
        return none
    seats = server.store.seats(row.id)
    win = next((e for e in reversed(server.store.events(row.id, number)) if e.get("kind") == "win"), None)
    name = clip(row.name, NAME_CHARS)
    if win is None:
        title = _say(lang, "drawn", n=number, table=name)
    else:
        winner = next((clip(s.name, NAME_CHARS) for s in seats if s.seat == win.get("seat")), "?")
        title = _say(lang, "won", winner=winner, tai=int(win.get("tai") or 0), n=number, table=name)
    return Preview(title, _say(lang, "replay_desc", n=number, table=name, players=_players(lang, seats)),
                   "replay")


def event_preview(server: TableServer, code: str, lang: str) -> Preview:
    """An event anyone with the link may read, with its format, organiser, entrants and state; a
    club's event (its members' alone) and an unknown code get the generic event."""
    event = server.store.event(code) if 0 < len(code) <= INVITE_CHARS else None
    if event is None or event.club_id is not None:
        return Preview(_say(lang, "event_none"), _say(lang, "event_none_desc"), "event")
    n = len(server.store.event_entrants(event.id))
    entrants = _say(lang, "entrants_1" if n == 1 else "entrants_n", n=n)
    status = _say(lang, event.status if event.status in ("open", "running", "finished") else "open",
                  round=event.round)
    organiser = clip(server.store.player_name(event.owner) or "?", NAME_CHARS)
    return Preview(_say(lang, "event", event=clip(event.name, NAME_CHARS)),
                   _say(lang, "event_desc", format=_say(lang, event.format), rounds=event.rounds,
                        hands=_say(lang, {0: "hands_0", 1: "hands_1"}.get(event.hands, "hands_n"),
                                   n=event.hands),
                        organiser=organiser, entrants=entrants, status=status), "event")


def meta_tags(preview: Preview, lang: str, url: str, base: str) -> str:
    """The Open Graph and Twitter-card tags of ``preview`` (every value escaped for an attribute)."""
    image = f"{base}/static/icons/card-{preview.card}.png"
    tags = [
        ("property", "og:type", "website"),
        ("property", "og:site_name", TEXTS[lang]["site"]),
        ("property", "og:title", clip(preview.title, TITLE_CHARS)),
        ("property", "og:description", clip(preview.description, DESCRIPTION_CHARS)),
        ("property", "og:url", url),
        ("property", "og:image", image),
        ("property", "og:image:type", "image/png"),
        ("property", "og:image:width", str(CARD["width"])),
        ("property", "og:image:height", str(CARD["height"])),
        ("property", "og:locale", "zh_SG" if lang == "zh" else "en_SG"),
        ("name", "twitter:card", "summary_large_image"),
        ("name", "twitter:title", clip(preview.title, TITLE_CHARS)),
        ("name", "twitter:description", clip(preview.description, DESCRIPTION_CHARS)),
        ("name", "twitter:image", image),
    ]
    return "".join(f'<meta {attr}="{key}" content="{html.escape(value, quote=True)}">\n'
                   for attr, key, value in tags)


async def preview_page(request: Request, filename: str, preview: Preview) -> Response:
    """The built page ``filename`` in the reader's language with ``preview``'s tags in its head."""
    build = await current_build(request.app.state.assets)
    lang = page_language(request)
    asset = build.file(f"{filename}#{lang}") or build.file(filename)
    if asset is None:
        return PlainTextResponse(f"{filename} is not among the server's static files", 404)
    base = str(request.base_url).rstrip("/")
    url = base + request.url.path
    page = asset.bodies[""].decode("utf-8")
    head = page.find("</head>")
    tags = meta_tags(preview, lang, url, base)
    body = (page[:head] + tags + page[head:] if head >= 0 else tags + page).encode("utf-8")
    etag = f'"p-{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"Cache-Control": asset.cache, "ETag": etag, "Vary": "Accept-Encoding, Accept-Language, Cookie"}
    match = request.headers.get("if-none-match")
    if match is not None and etag in (t.strip() for t in match.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=asset.ctype, headers=headers)


def routes(server: TableServer) -> list[BaseRoute]:
    """The pages with a link preview: a table, a replay, a club, an invite, an event."""

    async def table_page(request: Request) -> Response:
        code = request.path_params["code"]
        table = await server.find(code)
        if table is None:
            return PlainTextResponse("No table with this link. Create one at /", 404)
        if table.status == "closed":
            return PlainTextResponse(
                "This table was closed (all its players left). Create a new one at /", 410
            )
        return await preview_page(request, "table.html", table_preview(server, code, page_language(request)))

    async def replay_page(request: Request) -> Response:
        p = request.path_params
        preview = replay_preview(server, p["code"], p["number"], page_language(request))
        return await preview_page(request, "replay.html", preview)

    async def club_page(request: Request) -> Response:
        return await preview_page(request, "club.html", club_preview(page_language(request)))

    async def invite_page(request: Request) -> Response:
        preview = invite_preview(server, request.path_params["code"], page_language(request), time.time())
        return await preview_page(request, "clubs.html", preview)

    async def event_page(request: Request) -> Response:
        preview = event_preview(server, request.path_params["code"], page_language(request))
        return await preview_page(request, "event.html", preview)

    return [
        Route("/event/{code}", event_page),
        Route("/t/{code}", table_page),
        Route("/replay/{code}/{number}", replay_page),
        Route("/club/{code}", club_page),  # the same page for any code: it asks the API
        Route("/invite/{code}", invite_page),
    ]
