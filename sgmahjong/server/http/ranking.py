"""Leaderboard and rating routes (docs/accounts.md, "Ratings and ranks").

``GET /api/leaderboard?season=current|all|YYYY-MM`` the top of a season's board (``leaderboard_size``)
with the signed-in player's own place, and the ladder's rules; ``GET /api/me/rating?season=...`` the
signed-in player's standing, place and rating over their last matches; ``/leaderboard`` the page.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ranking.ladder import PROVISIONAL, RANKS, Standing
from ..ranking.record import RankedPolicy
from ..store.ratings import ALL_TIME
from . import sessions
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

    return [
        Route("/api/leaderboard", leaderboard, methods=["GET"]),
        Route("/api/me/rating", my_rating, methods=["GET"]),
        Route("/leaderboard", static_page("leaderboard.html")),
    ]
