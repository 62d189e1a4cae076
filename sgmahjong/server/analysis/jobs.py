"""The jobs the analysis pool runs, in its worker processes: thin calls of the pure
:mod:`sgmahjong.coach`, returning JSON-ready dicts (what is stored and served). Bad input raises
``SgMahjongError`` (a log that cannot be reviewed, a step with no choice for that seat)."""

from __future__ import annotations

import dataclasses
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


def _known(cls: Any, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def from_json(data: dict[str, Any]) -> coach.ExpertReview:
    """A stored review (``expert_review``'s dict) as the coach's :class:`~sgmahjong.coach.ExpertReview`."""
    decisions = []
    for d in data.get("decisions", []):
        fields = _known(coach.ExpertDecision, d)
        fields["options"] = [coach.OptionValue(**_known(coach.OptionValue, o)) for o in d.get("options", [])]
        decisions.append(coach.ExpertDecision(**fields))
    return coach.ExpertReview(seat=int(data.get("seat", 0)), decisions=decisions, result=data.get("result"))


def match_summary(reviews: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The coach's summary of a match's stored reviews of one seat (in hand order)."""
    return coach.match_summary([from_json(r) for r in reviews])
