"""Leaderboard and rating routes (docs/accounts.md, "Ratings and ranks").

``GET /api/leaderboard?season=current|all|YYYY-MM`` the top of a season's board (``leaderboard_size``)
with the signed-in player's own place, and the ladder's rules; ``GET /api/me/rating?season=...`` the
signed-in player's standing, place and rating over their last matches; ``GET /api/tables/CODE/ranked``
whether the ranked queue opened the table and, once its match is rated, each seat's rating and rank
before and after, from the stored record; ``/leaderboard`` the page.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ranking.ladder import PROVISIONAL, RANKS, Standing, placings
from ..ranking.record import RankedPolicy
from ..store.ratings import ALL_TIME, RankedOutcome
from . import clubs, identity, sessions
from .common import error
from .pages import static_page

SEASON_RE = re.compile(r"^\d{4}-\d{2}$")
HISTORY_POINTS = 200  # matches on the chart of rating over time


def ladder_json(policy: RankedPolicy) -> dict[str, Any]:
    return {
        "provisional": PROVISIONAL, "rating": "1500 + 40 × (μ − 3σ)",
        "ranks": [{"key": r.key, "zh": r.zh, "en": r.en, "target": r.target, "points": list(r.points)}
                  for r in RANKS],
        "rounds": policy.rules.get("rounds"),
    }


def outcome_json(out: RankedOutcome | None, leave_points: int) -> dict[str, Any]:
    """The match end of a ranked table: ``state`` is ``playing`` (not rated yet), ``rated``,
    ``unrated`` (a seat never played: only that player lost points) or ``voided``; each seat's
    standing ``before`` and ``after``, its rating change and rank points gained (``rank_change``:
    promoted +1, demoted -1)."""
    if out is None:
        return {"ranked": False}
    rec = out.record
    if not out.rated or rec is None:
        return {"ranked": True, "state": "voided" if out.voided else "playing", "leave_points": leave_points,
                "seats": []}
    unrated = any(rec.absent)
    places = [0] * 4 if unrated else placings(list(rec.scores), [i for i, g in enumerate(rec.left) if g])
    seats = []
    for seat in range(len(rec.accounts)):
        b, a = out.before[seat], out.after[seat]
        row: dict[str, Any] = {"seat": seat, "left": rec.left[seat], "absent": rec.absent[seat],
                               "place": places[seat], "score": rec.scores[seat],
                               "before": None, "after": None}
        if b is not None and a is not None:
            row.update(before=b.to_json(), after=a.to_json(), rating_change=a.rating - b.rating,
                       rank_change=a.rank - b.rank, points_change=a.points - b.points)
        seats.append(row)
    state = "voided" if out.voided else "unrated" if unrated else "rated"
    return {"ranked": True, "state": state, "leave_points": leave_points, "seats": seats}


def routes(server: Any) -> list[Route]:
    """The ranking routes, for ``server`` (the app's TableServer)."""
    policy: RankedPolicy = server.ranked

    def season_of(request: Request) -> str | None:
        text = request.query_params.get("season", "current")
        if text == "current":
            return policy.current_season()
        if text == ALL_TIME or SEASON_RE.match(text):
            return text
        return None

    def standing_json(s: Standing, position: int | None) -> dict[str, Any]:
        return {**s.to_json(), "position": position}

    async def leaderboard(request: Request) -> Response:
        season = season_of(request)
        if season is None:
            return JSONResponse({"error": "season is current, all or YYYY-MM"}, status_code=400)
        store = server.store
        rows = store.leaderboard(season, server.settings.leaderboard_size)
        signed = sessions.current(server, request)
        mine = None
        if signed is not None:
            standing = store.standing(signed.account.id, season)
            if standing is not None:
                mine = {"name": signed.account.name,
                        **standing_json(standing, store.board_position(signed.account.id, season))}
        return JSONResponse({
            "season": season, "current": policy.current_season(), "months": policy.season_months,
            "rows": [{"name": r.name, **standing_json(r.standing, i)} for i, r in enumerate(rows, start=1)],
            "me": mine, "signed_in": signed is not None, "ladder": ladder_json(policy),
        })

    async def my_rating(request: Request) -> Response:
        season = season_of(request)
        if season is None:
            return JSONResponse({"error": "season is current, all or YYYY-MM"}, status_code=400)
        store = server.store
        signed = sessions.current(server, request)
        if signed is None:
            return JSONResponse({"signed_in": False})
        aid = signed.account.id
        standing = store.standing(aid, season)
        history = store.rating_history(aid, season, HISTORY_POINTS)
        return JSONResponse({
            "signed_in": True, "season": season,
            "standing": None if standing is None else standing_json(standing,
                                                                    store.board_position(aid, season)),
            "history": [{"at": p.at, "place": p.place, "rating": p.standing.rating,
                         "rank": RANKS[p.standing.rank].key} for p in history],
        })

    async def table_outcome(request: Request) -> Response:
        table = await server.find(request.path_params["code"])
        if table is None:
            return error(404, "no such table")
        if not clubs.may_see(server, identity.player_ids_of(server, request), table):
            return error(403, clubs.CLUB_ONLY, "club_only")
        return JSONResponse(outcome_json(server.store.ranked_outcome(table.id), policy.leave_points))

    return [
        Route("/api/tables/{code}/ranked", table_outcome, methods=["GET"]),
        Route("/api/leaderboard", leaderboard, methods=["GET"]),
        Route("/api/me/rating", my_rating, methods=["GET"]),
        Route("/leaderboard", static_page("leaderboard.html")),
    ]
