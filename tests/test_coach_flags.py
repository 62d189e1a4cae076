"""The review's two-stage flags (issue 38: a review players can trust) and its sequential stop.

A cost beyond ``COST_Z`` standard errors on a decision's first deals is only a candidate: it is priced
again on fresh deals (another seed stream) and shown only when that estimate alone is beyond
``COST_Z`` of its own standard errors, and the cost shown is the fresh estimate (the first, picked out
of a hand's many decisions for being large, is inflated by the picking)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from sgmahjong import coach
from sgmahjong.bots import make_bot
from sgmahjong.bots.evaluation import Evaluation
from sgmahjong.bots.expert import ExpertBot
from sgmahjong.coach import COST_Z, FRESH, ExpertReview, analyse, review_by_expert
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from tests.broken_hand import broken_ready_hand

RULES = RuleSet()


def _log() -> str:
    bots = [make_bot("strong", 30 + s, RULES) for s in range(4)]
    return bot_hand_log(RULES, bots, seed=3)


def _patched(monkeypatch: pytest.MonkeyPatch, fresh_gap: float) -> list[dict[str, Any]]:
    """Stand in for the expert's search. First pricings: every option ends each deal alike except the
    player's choice, 4 units worse (a candidate wherever the choice is not the pick). Fresh checks
    (pick, choice): the pick's lead is ``fresh_gap``. Returns the fresh checks seen, with their seeds."""
    calls: list[dict[str, Any]] = []
    chosen: list[Any] = [None]
    real_price = coach._price

    def price(state: Any, number: int, seat: int, legal: Any, choice: Any, deals: int, seed: int) -> Any:
        chosen[0] = choice
        return real_price(state, number, seat, legal, choice, deals, seed)

    def search(self: ExpertBot, tb: Any, cands: Sequence[Any], **kw: Any) -> Evaluation:
        return _results(cands, [-4.0 if c == chosen[0] else 0.0 for c in cands])

    def recheck(state: Any, number: int, seat: int, pick: Any, choice: Any, deals: int,
                seed: int) -> tuple[float, float, int]:
        first = coach._state_seed(seed, number)
        calls.append({"seed": FRESH + first, "first": first})
        return _results([pick, choice], [fresh_gap, 0.0], n=deals).paired(0, 1)

    monkeypatch.setattr(coach, "_price", price)
    monkeypatch.setattr(ExpertBot, "search", search)
    monkeypatch.setattr(coach, "_recheck", recheck)
    return calls


def _results(cands: Sequence[Any], offsets: Sequence[float], n: int = 60) -> Evaluation:
    """An evaluation of ``n`` deals: candidate i ends deal k at ``offsets[i]`` plus a noise of +-1
    shared by none (so every paired difference has a standard error of about 1.4 / sqrt(n))."""
    ev = Evaluation.empty(len(cands))
    for k in range(n):
        for i, off in enumerate(offsets):
            ev.results[i].append(off + (1.0 if (k + i) % 2 else -1.0))
    ev.rounds = n
    return ev



def test_a_candidate_the_fresh_deals_do_not_confirm_is_not_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every choice looks 4 units worse on its first deals (a candidate); the fresh deals find no
    difference: nothing is flagged, and the cost shown is the fresh one (0). The one-stage rule would
    have flagged every decision where the choice was not the pick."""
    calls = _patched(monkeypatch, fresh_gap=0.0)
    review = review_by_expert(_log(), 0, deals=60)
    checked = [d for d in review.decisions if d.recheck_deals]
    assert checked, "the fake makes candidates"
    for d in checked:
        assert d.first_cost > COST_Z * d.first_cost_se and d.first_cost == pytest.approx(4.0)
        assert not d.costly and d.cost == 0.0 and d.recheck_deals == 60
    assert review.summary()["costly"] == 0 and review.summary()["expected_loss"] == 0.0
    assert len(calls) == len(checked) and all(c["seed"] != c["first"] for c in calls)


def test_a_blunder_the_fresh_deals_confirm_is_flagged_at_its_fresh_cost(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same candidates, confirmed by the fresh deals at 3 units (the first deals said 4): each is
    flagged, priced at the fresh 3 units with the fresh error, the first estimate kept beside it."""
    _patched(monkeypatch, fresh_gap=3.0)
    review = review_by_expert(_log(), 0, deals=60)
    checked = [d for d in review.decisions if d.recheck_deals]
    assert checked
    for d in checked:
        assert d.costly and d.cost == pytest.approx(3.0) and d.cost > COST_Z * d.cost_se
        assert d.first_cost == pytest.approx(4.0)
    s = review.summary()
    assert s["costly"] == len(checked) and s["expected_loss"] == pytest.approx(3.0 * len(checked), abs=1e-3)
    data = json.loads(json.dumps(review.to_json(), allow_nan=False))
    assert ExpertReview.from_json(data).to_json() == data
    assert all(d["recheck_deals"] == 60 for d in data["decisions"] if d["costly"])


def test_the_real_search_drops_an_inflated_candidate_and_keeps_the_blunder() -> None:
    """The seeded hand where seat E breaks its ready hand, reviewed at 100 deals: an earlier decision
    whose first cost is beyond two standard errors is not confirmed by the fresh deals (its fresh
    estimate within its error: not flagged), while the broken ready hand is confirmed, at its fresh
    cost. Deterministic: the same seeds give the same review."""
    log, number = broken_ready_hand(RULES)
    review = review_by_expert(log, 0, deals=100)
    by_number = {d.number: d for d in review.decisions}
    blunder = by_number[number]
    assert blunder.recheck_deals == 100 and blunder.costly and blunder.cost > COST_Z * blunder.cost_se
    assert blunder.first_cost > COST_Z * blunder.first_cost_se
    dropped = [d for d in review.decisions if d.recheck_deals and not d.costly]
    assert dropped, "a first-stage candidate the fresh deals do not confirm"
    for d in dropped:
        assert d.first_cost > COST_Z * d.first_cost_se and d.cost <= COST_Z * d.cost_se
    assert [d.number for d in review.decisions if d.costly] == [number]
    again = review_by_expert(log, 0, deals=100)
    assert again.to_json() == review.to_json()


def test_the_sequential_stop_spends_fewer_deals_and_the_board_stops_alike() -> None:
    """Most decisions stop before the budget (their answer clear), none goes past it; the analysis
    board at the state before a reviewed decision stops where the review did (the same numbers)."""
    log, _ = broken_ready_hand(RULES)
    review = review_by_expert(log, 0, deals=160)
    deals = [d.options[0].deals for d in review.decisions]
    assert all(coach.STOP_AFTER <= n <= 160 for n in deals if n)
    assert sum(deals) < 0.75 * 160 * len(deals)
    d = review.decisions[len(review.decisions) // 2]
    a = analyse(log, d.number - 1, 0, deals=160)
    assert a.options == d.options and a.best == d.best
