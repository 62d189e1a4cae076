"""Review by the expert and the analysis board: every option of a decision priced by the expert's search.

Pure (no I/O, no asyncio; inputs and outputs are plain data, so a server can run it in a process pool).
At a decision of a seat in a finished hand the seat's ``player_view`` (exactly what it saw) is given
to the expert's search (:meth:`.bots.expert.ExpertBot.search`): the unseen tiles are dealt at random
consistently with the view, and the hand is played to its end once per option on every deal, all
options on the same deals with the same policy seeds (common random numbers). An option's value is
its mean net payment for the hand (the seat's ledger at the end, in payment units: win payments,
instant payments and 包) with a standard error; the cost of the player's choice is the best option's
mean less the chosen one's, with the standard error of that paired difference, which the common deals
make far smaller than either estimate's.

A cost is *costly* (shown) in two stages. A cost of more than ``COST_Z`` standard errors (the margin
at which the expert itself overrules ``strong``) is only a candidate: over the dozen or more decisions
of a hand some option is that far ahead by chance alone, and the costs so picked out are inflated by
the picking. A candidate is priced again on fresh deals (another seed stream, a fixed number of
deals: its pick and the player's choice only) and is costly only when that estimate alone is more
than ``COST_Z`` of its own standard errors; the cost reported is the fresh estimate, which the
selection did not touch (the first one is kept beside it).

The search of each decision stops early once its answer is clear (:func:`_settled`: the choice
clearly costly, or no option on course to show it costly by ``deals`` deals): ``deals`` is an upper
bound. Everything is seeded: the same log, seat, seed and deals give the same review.

The options priced: on a turn a win when legal, ``strong``'s choice and its next best discards and
every kong; in a claim window every legal answer; always the player's own choice. Flags and one-line
reasons come from the ``strong`` review (:mod:`.review`); the summary ranks mistakes by cost.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots.determinise import InconsistentViewError, knowledge, table
from .bots.evaluation import Evaluation, overrule
from .bots.expert import ExpertBot
from .errors import SgMahjongError
from .game import Action, HandState, apply, format_action, legal_actions, player_view
from .game.log import LogError, parse_log, start
from .review import SEATS, ReviewError, review_log
from .rules import RuleSet

DEFAULT_DEALS = 200  # deals per decision at most (the sequential stop usually ends sooner), and the
# deals of a flag's fresh check: bench/bench_review_expert.py times a hand
MIN_DEALS = 2  # a standard error needs two deals
MAX_DEALS = 5000  # a bound on one decision's work
COST_Z = 2.0  # a cost is a candidate when it is more than this many standard errors of the paired
# difference, and is shown (costly) only when the fresh deals' estimate alone is too
STOP_AFTER = 40  # the sequential stop (_settled): from this many deals on, every STOP_EVERY deals, a
STOP_EVERY = 8  # decision's search ends once its answer is clear
STOP_Z = 3.0  # the player's choice clearly costly: beyond this many standard errors (a candidate)
FUTILITY = 1.0  # no option on course to show the choice costly: each one's lead is below
# (COST_Z * sqrt(deals so far / budget) - FUTILITY) standard errors
NEGLIGIBLE = 0.25  # (no choice to judge: every option clearly behind the pick, or within this many
# units of it give or take STOP_Z standard errors)
FRESH = 1 << 40  # the fresh check's seeds: another stream than every decision's first deals
BIGGEST = 3  # the costliest decisions named in a summary
DIGITS = 4  # decimals of values in JSON


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option's value: the expert's mean net payment for the hand after it, from the seat's view."""

    action: str  # format_action's notation, e.g. "discard 7p"
    mean: float
    se: float
    deals: int
    gap: float = 0.0  # best.mean - mean: how far behind the expert's pick (below 0: ahead, but not clearly)
    gap_se: float = 0.0  # the standard error of that paired difference (on the same deals)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "mean": round(self.mean, DIGITS), "se": round(self.se, DIGITS),
                "deals": self.deals, "gap": round(self.gap, DIGITS), "gap_se": round(self.gap_se, DIGITS)}


@dataclass(slots=True)
class ExpertDecision:
    """One decision of the reviewed seat priced by the expert. ``number`` is the action's index in
    the log (1-based): the state before it is replay frame ``number - 1``."""

    number: int
    seat: int
    phase: str  # turn | claim
    chosen: str
    best: str
    options: list[OptionValue]  # best first; always includes the chosen one
    cost: float  # best.mean - chosen.mean (0.0 when the chosen is the best; never below 0); for a
    # rechecked decision, the fresh deals' estimate
    cost_se: float  # the standard error of that paired difference
    costly: bool  # cost > COST_Z * cost_se, on the fresh deals when rechecked
    reason: str | None = None  # the strong review's one-line reason for a flagged decision
    reason_code: str | None = None
    reason_params: dict[str, Any] = field(default_factory=dict)
    flagged: bool = False  # flagged by the strong review (see review.py)
    recheck_deals: int = 0  # the fresh deals of a candidate's check (0: not a candidate, not rechecked)
    first_cost: float = 0.0  # a rechecked decision's first estimate (inflated by the selection) ...
    first_cost_se: float = 0.0  # ... and its standard error

    @property
    def agree(self) -> bool:
        return self.chosen == self.best

    @property
    def separated(self) -> bool:
        """Whether the review's error bars set its pick apart: ahead of every other option by more than
        ``COST_Z`` standard errors of the paired difference (where the expert should have played it)."""
        return all(o.gap > COST_Z * o.gap_se for o in self.options[1:])

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seat": self.seat, "phase": self.phase, "chosen": self.chosen,
                "best": self.best, "options": [o.to_json() for o in self.options],
                "cost": round(self.cost, DIGITS), "cost_se": round(self.cost_se, DIGITS),
                "costly": self.costly, "agree": self.agree, "flagged": self.flagged, "reason": self.reason,
                "reason_code": self.reason_code, "reason_params": dict(self.reason_params),
                "recheck_deals": self.recheck_deals, "first_cost": round(self.first_cost, DIGITS),
                "first_cost_se": round(self.first_cost_se, DIGITS)}


def _biggest(decisions: Sequence[ExpertDecision]) -> list[ExpertDecision]:
    """The costliest costly decisions, costliest first (ties: earlier first), at most ``BIGGEST``."""
    return sorted((d for d in decisions if d.costly), key=lambda d: (-d.cost, d.number))[:BIGGEST]


@dataclass(slots=True)
class ExpertReview:
    """The expert's review of one seat of one hand."""

    seat: int
    decisions: list[ExpertDecision] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def ranked(self) -> list[ExpertDecision]:
        """The decisions by cost, costliest first (costly ones before the rest)."""
        return sorted(self.decisions, key=lambda d: (not d.costly, -d.cost, d.number))

    def summary(self) -> dict[str, Any]:
        n = len(self.decisions)
        agreed = sum(1 for d in self.decisions if d.agree)
        costly = [d for d in self.decisions if d.costly]
        return {"seat": self.seat, "decisions": n, "agreed": agreed,
                "agreement": round(agreed / n, DIGITS) if n else 1.0, "costly": len(costly),
                "expected_loss": round(sum(d.cost for d in costly), DIGITS),
                "biggest": [d.number for d in _biggest(self.decisions)]}

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "decisions": [d.to_json() for d in self.decisions],
                "result": self.result}

    @classmethod
    def from_json(cls, data: dict[str, Any], seat: int | None = None) -> ExpertReview:
        """The review :meth:`to_json` wrote (as stored); keys it does not know are ignored."""
        decisions = []
        for d in data.get("decisions", []):
            fields = _known(ExpertDecision, d)
            fields["options"] = [OptionValue(**_known(OptionValue, o)) for o in d.get("options", [])]
            decisions.append(ExpertDecision(**fields))
        if seat is None:
            seat = int(data.get("seat", data.get("summary", {}).get("seat", 0)))
        return cls(seat=seat, decisions=decisions, result=data.get("result"))


def _known(cls: Any, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in data.items() if k in names}


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the expert would do at one state of a hand, from one seat's view."""

    number: int  # the state after the first ``number`` actions (replay frame ``number``)
    seat: int
    played: str | None  # what the seat actually did next there, if the next action was its own
    best: str
    options: list[OptionValue]  # best first

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seat": self.seat, "played": self.played, "best": self.best,
                "options": [o.to_json() for o in self.options]}


@dataclass(frozen=True, slots=True)
class _Priced:
    options: list[OptionValue]  # best first
    best: str
    cost: float
    cost_se: float
    pick: Action | None  # the expert's pick as an action


def _check_deals(deals: int) -> None:
    if isinstance(deals, bool) or not isinstance(deals, int) or not MIN_DEALS <= deals <= MAX_DEALS:
        raise ReviewError(f"deals must be a whole number from {MIN_DEALS} to {MAX_DEALS}; got {deals!r}")


def _check_seat(seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise ReviewError(f"seat must be 0-3 (E S W N); got {seat!r}")


def _state_seed(seed: int, number: int) -> int:
    """The search's seed at the state after ``number`` actions: a review's decision and the analysis
    of the state before it deal the same hands."""
    return seed * 100_003 + number


def _price(state: HandState, number: int, seat: int, legal: Sequence[Action], chosen: Action | None,
           deals: int, seed: int) -> _Priced:
    """Price the options of ``seat`` at ``state`` (the state after ``number`` actions)."""
    rules: RuleSet = state.rules
    view = player_view(state, seat)
    bot = ExpertBot(_state_seed(seed, number), rules, budget_ms=None, max_rounds=deals)
    cands = bot.review_candidates(view, legal, chosen)
    # a win is always the expert's pick, as it plays (ExpertBot.decide wins at once): the playouts'
    # deals ignore what the opponents' discards say of their hands, so they overrate passing a win
    win = bool(cands) and cands[0].kind == "win"
    me = cands.index(chosen) if chosen is not None else -1
    try:
        ev = bot.search(table(knowledge(view), rules), cands, eliminate=False, styles=bot.styles(view),
                        enough=lambda e: _settled(e, win, bot.z, me, deals))
    except InconsistentViewError:  # pragma: no cover - a view from the engine always adds up
        ev = Evaluation.empty(len(cands))
    est = [ev.estimate(i) for i in range(len(cands))]
    best = 0 if win else _pick(ev, bot.z)
    if me >= 0 and me != best and ev.rounds and ev.results[me] == ev.results[best]:
        best = me  # the same result on every deal: as good as the pick
    order = [best, *sorted((i for i in range(len(cands)) if i != best), key=lambda i: (-est[i][0], i))]
    options: list[OptionValue] = []
    for i in order:
        gap, gap_se = (est[best][0] - est[i][0], ev.paired(best, i)[1]) if i != best else (0.0, 0.0)
        options.append(OptionValue(format_action(cands[i]), *est[i], gap, gap_se))
    cost = cost_se = 0.0
    if me >= 0 and me != best:
        mine = options[order.index(me)]
        cost, cost_se = max(0.0, mine.gap), mine.gap_se
    return _Priced(options, options[0].action, cost, cost_se, cands[best] if cands else None)


def _settled(ev: Evaluation, win: bool, z: float, me: int, budget: int) -> bool:
    """The sequential stop, from ``STOP_AFTER`` deals on, every ``STOP_EVERY`` deals: whether the
    decision's answer is clear. With a choice ``me`` to judge: it is clearly costly (the pick's lead
    over it beyond ``STOP_Z`` standard errors: a candidate, which fresh deals check anyway), or no
    option is on course to show it costly by ``budget`` deals (each one's lead over it below
    ``COST_Z * sqrt(n / budget) - FUTILITY`` of its standard errors: what it would need now, were its
    lead to hold, less a margin). Without one (the analysis board where the seat did not act next):
    every option clearly behind the pick or within ``NEGLIGIBLE`` units of it."""
    n = ev.rounds
    if n < STOP_AFTER or n % STOP_EVERY:
        return False
    best = 0 if win else _pick(ev, z)
    if me < 0:
        for i in range(len(ev.results)):
            gap, se, _ = ev.paired(best, i)
            if i != best and not (gap - STOP_Z * se > 0 or abs(gap) + STOP_Z * se < NEGLIGIBLE):
                return False
        return True
    if win and me == 0:
        return True  # a win taken: the pick, whatever the deals say
    if best != me:
        gap, se, _ = ev.paired(best, me)
        if gap > 0 and gap > STOP_Z * se:
            return True
    bar = COST_Z * math.sqrt(n / budget) - FUTILITY
    for i in range(len(ev.results)):
        lead, se, _ = ev.paired(i, me)
        if i != me and (lead > bar * se if se > 0 else lead > 0):
            return False
    return True


def _recheck(state: HandState, number: int, seat: int, pick: Action, chosen: Action, deals: int,
             seed: int) -> tuple[float, float, int]:
    """The cost of ``chosen`` against ``pick`` on ``deals`` fresh deals (seeds apart from every first
    pricing's): (mean of pick - chosen, its standard error, deals). Not stopped early: a fixed number
    of deals keeps the test's error rate what ``COST_Z`` says."""
    rules: RuleSet = state.rules
    view = player_view(state, seat)
    bot = ExpertBot(FRESH + _state_seed(seed, number), rules, budget_ms=None, max_rounds=deals)
    try:
        ev = bot.search(table(knowledge(view), rules), [pick, chosen], eliminate=False,
                        styles=bot.styles(view))
    except InconsistentViewError:  # pragma: no cover - a view from the engine always adds up
        return 0.0, 0.0, 0
    return ev.paired(0, 1)


def _pick(ev: Evaluation, z: float) -> int:
    """The expert's pick among the priced options (``strong``'s choice is option 0): option 0 unless
    another option's mean is ahead of it by more than ``z`` standard errors of their paired difference
    over at least ``MIN_ROUNDS`` deals, then the one furthest ahead (the expert's own rule:
    :func:`~.bots.evaluation.overrule`)."""
    return overrule(((i, *ev.paired(i, 0)[:2]) for i in range(1, len(ev.results))), ev.rounds, z)[0]


def _fold(text: str) -> tuple[list[tuple[HandState, Action]], HandState]:
    """Every (state before it, action) of the log, and the final state."""
    head, actions = parse_log(text)
    state, _ = start(head)
    steps: list[tuple[HandState, Action]] = []
    for number, action in enumerate(actions, start=1):
        steps.append((state, action))
        try:
            state, _ = apply(state, action)
        except SgMahjongError as exc:
            raise LogError(f"line {number + 1}: {format_action(action)!r} refused: {exc}") from None
    return steps, state


def review_by_expert(text: str, seat: int, *, deals: int = DEFAULT_DEALS, seed: int = 0,
                     progress: Callable[[int, int], None] | None = None) -> ExpertReview:
    """The expert's review of ``seat``'s decisions in the finished hand log ``text``: each decision
    (an action of the seat with more than one legal choice) with its options priced on at most
    ``deals`` deals, a candidate cost checked on ``deals`` fresh ones; ``progress(done, total)``
    after each. Raises :class:`ReviewError` / ``LogError`` for bad
    input."""
    _check_seat(seat)
    _check_deals(deals)
    strong = review_log(text, seat)  # checks the log and the hand's end; flags and reasons
    flags = {d.number: d for d in strong.decisions}
    steps, _ = _fold(text)
    review = ExpertReview(seat, result=strong.result)
    total = len(strong.decisions)
    for number, (state, action) in enumerate(steps, start=1):
        if action.seat != seat or number not in flags:
            continue
        legal = legal_actions(state, seat)
        chosen = next(a for a in legal if a == action)
        priced = _price(state, number - 1, seat, legal, chosen, deals, seed)
        f = flags[number]
        d = ExpertDecision(number, seat, f.phase, format_action(chosen), priced.best, priced.options,
                           priced.cost, priced.cost_se, False, f.reason, f.reason_code,
                           dict(f.reason_params), f.flagged)
        if priced.cost > COST_Z * priced.cost_se and priced.cost > 0 and priced.pick is not None:
            mean, se, n = _recheck(state, number - 1, seat, priced.pick, chosen, deals, seed)
            d.first_cost, d.first_cost_se, d.recheck_deals = d.cost, d.cost_se, n
            d.cost, d.cost_se = max(0.0, mean), se
            d.costly = mean > COST_Z * se and mean > 0
        review.decisions.append(d)
        if progress is not None:
            progress(len(review.decisions), total)
    return review


def match_summary(reviews: Sequence[ExpertReview]) -> dict[str, Any]:
    """Totals over the reviews of several hands (one seat each): decisions, agreement with the expert,
    the expected loss (sum of the costly decisions' costs), per hand, and the three costliest."""
    decisions = [d for r in reviews for d in r.decisions]
    agreed = sum(1 for d in decisions if d.agree)
    loss = sum(d.cost for d in decisions if d.costly)
    costly = [(-d.cost, h, d.number) for h, r in enumerate(reviews) for d in r.decisions if d.costly]
    costly.sort()
    return {"hands": len(reviews), "decisions": len(decisions), "agreed": agreed,
            "agreement": round(agreed / len(decisions), DIGITS) if decisions else 1.0,
            "costly": len(costly), "expected_loss": round(loss, DIGITS),
            "per_hand_loss": round(loss / len(reviews), DIGITS) if reviews else 0.0,
            "biggest": [{"hand": h, "number": n, "cost": round(-c, DIGITS)} for c, h, n in costly[:BIGGEST]]}


def analyse(text: str, number: int, seat: int, *, deals: int = DEFAULT_DEALS, seed: int = 0) -> Analysis:
    """What the expert would do at the state after the first ``number`` actions of the finished hand
    ``text``, from ``seat``'s view. Raises :class:`ReviewError` when the seat has no choice there
    (one legal action or none) or ``number`` is out of range, ``LogError`` for a bad log."""
    _check_seat(seat)
    _check_deals(deals)
    steps, final = _fold(text)
    if not final.ended:
        raise ReviewError("the hand has not ended; only finished hands are analysed")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= len(steps):
        raise ReviewError(f"no step {number!r} in this hand (0 to {len(steps)})")
    state = steps[number][0] if number < len(steps) else final
    legal = legal_actions(state, seat)
    if len(legal) <= 1:
        raise ReviewError("no choice for that seat there")
    played: Action | None = None
    if number < len(steps) and steps[number][1].seat == seat:
        played = next((a for a in legal if a == steps[number][1]), None)
    priced = _price(state, number, seat, legal, played, deals, seed)
    return Analysis(number, seat, None if played is None else format_action(played), priced.best,
                    priced.options)


def review_text(review: ExpertReview) -> list[str]:
    """Readable lines: per decision the choice, the expert's best and the cost ± its standard error
    (``!`` when costly, with the strong review's reason; a candidate's cost is its fresh check's, the
    first estimate beside it), then the summary and the biggest mistakes."""
    out: list[str] = []
    for d in review.decisions:
        mark = "! " if d.costly else ("  " if d.agree else "~ ")
        chosen = next(o for o in d.options if o.action == d.chosen)
        line = (f"{mark}#{d.number:<3} {d.phase:<5} you: {d.chosen:<14} {chosen.mean:+7.2f}"
                f"   expert: {d.best:<14} {d.options[0].mean:+7.2f}")
        if not d.agree:
            line += f"   cost {d.cost:.2f} ± {d.cost_se:.2f}"
            if d.recheck_deals:  # a candidate: the cost is the fresh deals' (the first beside it)
                line += (f" on {d.recheck_deals} fresh deals"
                         f" (first {d.first_cost:.2f} ± {d.first_cost_se:.2f})")
        out.append(line.rstrip())
        if d.reason is not None and (d.costly or d.flagged):
            out.append(f"      {d.reason}")
    s = review.summary()
    out.append(f"Seat {SEATS[review.seat]}: {s['decisions']} decisions, agreement with the expert "
               f"{100 * s['agreement']:.0f}% ({s['agreed']}/{s['decisions']}), {s['costly']} costly, "
               f"expected loss {s['expected_loss']:.2f} per hand")
    by_number = {d.number: d for d in review.decisions}
    if s["biggest"]:
        out.append("Biggest mistakes: " + "; ".join(
            f"#{n} {by_number[n].chosen} (expert: {by_number[n].best}) cost {by_number[n].cost:.2f}"
            f" ± {by_number[n].cost_se:.2f}" for n in s["biggest"]))
    return out


__all__ = ["DEFAULT_DEALS", "Analysis", "ExpertDecision", "ExpertReview", "OptionValue", "analyse",
           "match_summary", "review_by_expert", "review_text"]
