"""The jobs the analysis pool runs, in its worker processes: thin calls of the pure
:mod:`sgmahjong.coach`, returning JSON-ready dicts (what is stored and served). Bad input raises
``SgMahjongError`` (a log that cannot be reviewed, a step with no choice for that seat)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ... import coach


def expert_review(text: str, seat: int, deals: int, *,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """A finished hand's decisions of ``seat`` priced by the expert (``ExpertReview.to_json``)."""
    review = coach.review_by_expert(text, seat, deals=deals, progress=progress)
    data = review.to_json()
    data.setdefault("seat", seat)
    data.setdefault("result", review.result)
    return data


def expert_analysis(text: str, number: int, seat: int, deals: int) -> dict[str, Any]:
    """What the expert would do for ``seat`` at the state after ``number`` actions."""
    return coach.analyse(text, number, seat, deals=deals).to_json()


def match_summary(reviews: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The coach's summary of a match's stored reviews of one seat (in hand order)."""
    return coach.match_summary([coach.ExpertReview.from_json(r) for r in reviews])
