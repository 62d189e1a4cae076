"""A club's evening, pure: the time the owner said in the club's zone as UTC seconds, what the page
shows of it (answers with names and counts), the calendar file (RFC 5545) and the notifications' words
in the subscriber's language."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..store.push_sql import ANSWERS, EveningRow

ZONE_MAX = 64
HOURS = 3  # an evening's length in the calendar file


class BadTime(ValueError):
    """A time or zone the server cannot read."""


def zone_of(name: str) -> ZoneInfo:
    if not name or len(name) > ZONE_MAX or ".." in name or name.startswith("/"):
        raise BadTime(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise BadTime(name) from exc


def utc_seconds(local: str, zone: str) -> float:
    """``"2026-12-04T20:00"`` (a wall-clock time) in ``zone`` as UTC seconds."""
    try:
        when = dt.datetime.fromisoformat(local)
    except ValueError as exc:
        raise BadTime(local) from exc
    if when.tzinfo is not None:
        raise BadTime(local)
    return when.replace(tzinfo=zone_of(zone)).timestamp()


def local_text(seconds: float, zone: str) -> str:
    """UTC seconds as the wall clock of ``zone``: ``"2026-12-04T20:00"``."""
    return dt.datetime.fromtimestamp(seconds, zone_of(zone)).strftime("%Y-%m-%dT%H:%M")


def session_json(s: EveningRow, me: set[int], ics: str) -> dict[str, Any]:
    """An evening as the club's page shows it: ``me`` the asker's player ids."""
    counts = {a: sum(1 for r in s.answers if r.answer == a) for a in ANSWERS}
    mine = next((r.answer for r in reversed(s.answers) if r.player_id in me), None)
    return {"id": s.id, "starts": s.starts, "zone": s.zone, "local": local_text(s.starts, s.zone),
            "needed": s.needed, "counts": counts, "mine": mine, "ready": counts["in"] >= s.needed,
            "table": None if s.table_code is None else f"/t/{s.table_code}", "ics": ics,
            "answers": [{"member": str(r.player_id), "name": r.name, "answer": r.answer} for r in s.answers]}


def ics_text(value: str) -> str:
    """A TEXT value escaped as RFC 5545 says (3.3.11): backslash, semicolon, comma, newline."""
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def _fold(line: str) -> list[str]:
    """A content line folded at 75 octets (RFC 5545 3.1), never inside a character."""
    parts, cur = [], ""
    for ch in line:
        if len((cur + ch).encode()) > 75:
            parts.append(cur)
            cur = " "  # a folded line goes on after one space
        cur += ch
    return [*parts, cur]


def ics(s: EveningRow, club: str, host: str, now: float) -> str:
    """The evening as an iCalendar file: DTSTART and DTEND in UTC, a UID of the site, the club's name
    in the SUMMARY (escaped)."""
    def stamp(seconds: float) -> str:
        return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y%m%dT%H%M%SZ")

    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//sgmahjong//club evening//EN", "CALSCALE:GREGORIAN",
             "BEGIN:VEVENT", f"UID:club-session-{s.id}@{host}", f"DTSTAMP:{stamp(now)}",
             f"DTSTART:{stamp(s.starts)}", f"DTEND:{stamp(s.starts + HOURS * 3600)}",
             f"SUMMARY:{ics_text(f'Mahjong: {club}')}",
             f"DESCRIPTION:{ics_text(f'{club} (sgmahjong), {local_text(s.starts, s.zone)} {s.zone}')}",
             "END:VEVENT", "END:VCALENDAR"]
    return "".join(f"{part}\r\n" for line in lines for part in _fold(line))


# the notifications' words: (title, body) by kind and language; the club's and players' names are text
WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "table": {"en": ("{club}: a table is open", "{who} opened “{table}”. Tap to sit down."),
              "zh": ("{club}：有一桌开了", "{who} 开了“{table}”。点这里入座。")},
    "session_table": {"en": ("{club}: the table for {time} is open", "You said you are in. Tap to sit down."),
                      "zh": ("{club}：{time} 的桌子开了", "你说了会来。点这里入座。")},
    "reminder": {"en": ("{club}: mahjong at {clock}", "{time} ({zone}). {n} in so far."),
                 "zh": ("{club}：{clock} 开打", "{time}（{zone}）。已有 {n} 人会来。")},
}


def words(kind: str, lang: str, **params: Any) -> tuple[str, str]:
    title, body = WORDS[kind]["zh" if lang == "zh" else "en"]
    return title.format(**params), body.format(**params)


def clock_text(seconds: float, zone: str) -> str:
    return dt.datetime.fromtimestamp(seconds, zone_of(zone)).strftime("%H:%M")


def when_text(seconds: float, zone: str, lang: str) -> str:
    """The evening's time as a notification says it: "Fri 4 Dec 20:00", 中文 "12月4日 周五 20:00"."""
    t = dt.datetime.fromtimestamp(seconds, zone_of(zone))
    if lang == "zh":
        return f"{t.month}月{t.day}日 周{'一二三四五六日'[t.weekday()]} {t:%H:%M}"
    return f"{t:%a} {t.day} {t:%b %H:%M}"
