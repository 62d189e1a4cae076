"""The ``expert`` level (issue 15): ``strong``'s judgement checked by search.

At each decision with a real choice the bot

1. asks ``strong`` for its choice and, on its turn, for the next best discards (the candidates: at
   most ``candidates`` discards, every kong; in a claim window every legal answer, unless ``claims``
   is off (it is on by default): then ``strong``'s answer is played unsearched); with ``base``
   ``"wary"``, off by default, ``strong`` reading the discards by a learned model (:mod:`.danger`),
   with ``"advised"`` ``strong`` overruled by a learned advantage of a discard (:mod:`.advantage`);
2. repeatedly deals the tiles it cannot see at random, consistently with its view
   (:mod:`.determinise`; with ``weigh``, off by default, weighed by each other seat's latest discard;
   with ``tells``, off by default, each seat's tiles drawn by what all its discards tell, :mod:`.tells`;
   with ``progress``, off by default, each other seat's hand played forward for the turns it has played,
   :mod:`.progress`; with ``barred`` and ``passed``, off by default, every seat's barred tiles as the
   engine holds them and no seat dealt a hand that wins on a discard it let pass, :mod:`.passing`),
   and plays the imagined hand to its end once per candidate with fast
   policies (:mod:`.forward`; ``rollout``: ``quick`` (default) = :func:`~.forward.quick_policy` for all
   four seats, a cheap policy that wins about as often as ``greedy`` and folds to tiles a shown threat
   discarded, so the risk of dealing in shows in the playouts; ``mixed`` = ``greedy`` for itself and
   the very cheap ``fast_policy`` (which rarely wins) for the others; ``fast`` or ``greedy`` for all
   four), every candidate on the same deal and with the same policy seeds (common random numbers: the
   paired differences are far less noisy); with ``read`` (off by default) each opponent plays in the
   quick rollouts the variant of the quick policy its play so far reads as (:mod:`.reading`);
3. drops a candidate, from ``ELIMINATE_AFTER`` deals on, once its mean paired difference to
   ``strong``'s choice plus ``drop_z`` standard errors (default ``ELIMINATE_Z``, 2, on a deal budget;
   ``ELIMINATE_Z_TIMED``, 1, with only a time budget, so most searches end early) is not above 0
   and its result has differed from that choice's on at least ``evidence`` deals (default
   ``EVIDENCE``) (the remaining deals go to the candidates still in doubt; with none left the search
   ends and ``strong``'s choice stands);
4. keeps ``strong``'s choice unless another candidate's mean result in payment units (the hand
   ledger: win payments, instant payments and 包) is ahead of it by more than ``z`` (default 2)
   standard errors of the paired difference, over at least ``MIN_ROUNDS`` deals: where the search
   is unsure the bot plays exactly as ``strong``;
5. with ``veto`` (off by default), keeps ``strong``'s discard where the learned advantage of a discard
   (:mod:`.advantage`, fitted to outcomes from the true hands) puts the search's pick more than
   ``veto`` payment units behind it;
6. with ``blend`` (off by default), adds ``blend`` times the learned advantage of each of ``strong``'s
   best discards (:mod:`.advantage`) to the search's mean paired difference, both in step 3 (a
   candidate the model favours is not dropped for it) and in step 4 (the rule then weighs the blend);
7. with ``confirm`` (off by default), before it overrules, plays the chosen candidate and ``strong``'s
   choice on ``confirm`` fresh deals, and overrules only if the choice is ahead on them too: a
   candidate picked as the best of several carries its lucky deals with it, and fresh deals do not.

The search stops when the time budget (``budget_ms``, checked with ``clock`` after every
``CHECK_EVERY``-th decision of a lean playout, every decision of an engine one) is spent or after
``max_rounds`` deals; a deal cut short by the budget is dropped. A search still unsure after
``max_rounds`` deals (some candidate ahead of ``strong``'s choice on average, none by ``z`` standard
errors) goes on, while it stays unsure and the budget lasts, up to ``extend`` (default ``EXTEND``, 4)
times ``max_rounds`` deals; ``extend=1``: never.
With ``danger`` (off by default) an overrule also weighs each discard's expected loss to dealing in, by
the learned model, over that of ``strong``'s choice.
With ``guard`` (off by default) a turn at which ``strong`` defends keeps its discard (``"all"``) or
keeps it over any discard it rates riskier (``"risk"``).
With ``cut`` (off by default) a lean rollout plays only that many decisions after the candidate and
adds the learned value of the rest (:mod:`.horizon`: ``horizon``, linear by default, or a network).
With no budget and a fixed ``max_rounds`` the bot is deterministic for its seed.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..game import Action, HandState, apply, legal_actions
from ..rules import RuleSet
from . import danger
from .advantage import AdvisedStrong, advantage, advantages, turn_of
from .base import A, Bot, View
from .determinise import DealOptions, InconsistentViewError, Table, knowledge, sample_state, table
from .evaluation import MIN_ROUNDS, Evaluation, ahead, mean_se, overrule
from .forward import Policy, fast_policy, perceiving, playout, quick_policy
from .greedy import GreedyBot
from .horizon import cut_result, horizon_values
from .lean import LeanPolicy, Sim, lean_playout, sample_sim
from .lean_policy import lean_style_policy
from .perception import Perception, perceive
from .reading import QUICK, read_styles
from .ready import wait_chances
from .strong import StrongBot, StrongParams

BUDGET_MS = 100.0  # default time budget per decision
BASES: dict[str, Callable[[int, RuleSet | None], StrongBot]] = {
    "strong": StrongBot,
    # strong reading the discards by the learned model, and a narrower safety tie-break
    # (docs/expert-levers.md)
    "wary": lambda seed, rules: danger.StrongReader(seed, rules, StrongParams(safety=0.02)),
    # strong overruled where the learned advantage of a discard puts another clearly ahead
    # (docs/expert-levers.md)
    "advised": AdvisedStrong,
}
GUARDS = (None, "all", "risk")  # where strong defends, what its discard is kept over (None: nothing)
CANDIDATES = 3  # discards searched on the bot's turn (strong's best ones)
Z = 2.0  # standard errors of the paired difference to overrule strong (1.5: worse; docs/expert-levers.md)
ELIMINATE_AFTER = 4  # from this many deals on, a candidate is dropped (strong's choice kept) ...
ELIMINATE_Z = 2.0  # ... once its mean is not ahead of strong's by this many standard errors, on a deal
# budget (1 before: with a look after every deal it dropped good candidates; 2 agreed with the review far
# more often and its overrules paid more by the real judge, for about twice the playouts: docs/bots.md)
ELIMINATE_Z_TIMED = 1.0  # ... and with only a time budget (the tables' default), where the early drops
# are what ends most searches well before the budget (a median 27 ms a decision; 100 ms at 2)
EVIDENCE = 0  # ... and once its result has differed from strong's choice's on this many deals
ROLLOUTS = ("quick", "mixed", "fast", "greedy")  # quick for all / greedy for the bot, fast for the
# others / fast for all / greedy for all
ROLLOUT = "quick"
EXTEND = 4  # an unsure search's deals at most, in multiples of max_rounds (1: never extended); by the
# real judge of bench_search_gain, ahead of extend=1 on two sets of 120 hands (docs/bots.md)
CHECK_EVERY = 4  # a lean playout reads the clock after every 4th decision (a read of the thread's
# CPU clock is a system call of about 1 us, a decision about 15 us: the overrun stays below 0.1 ms)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


@dataclass(slots=True)
class SearchStats:
    """What the last decision's search did (for the bench and tests)."""

    rounds: int = 0  # complete deals (every candidate played out)
    playouts: int = 0  # playouts started
    candidates: int = 0
    seconds: float = 0.0
    overruled: bool = False
    advantage: float = 0.0  # the chosen candidate's mean paired difference to strong's (0 if kept)
    confirmed: bool | None = None  # with confirm: whether fresh deals upheld the overrule (None: not asked)


def _never() -> bool:
    return False


class ExpertBot(Bot):
    """Determinised search over ``strong``'s candidates (see the module docstring)."""

    level = "expert"

    def __init__(self, seed: int = 0, rules: RuleSet | None = None, *, budget_ms: float | None = BUDGET_MS,
                 max_rounds: int | None = None, candidates: int | None = None, z: float | None = None,
                 rollout: str | None = None, clock: Callable[[], float] = time.perf_counter,
                 lean: bool = True, read: bool = False, eliminate: bool = True,
                 extend: int | None = None, weigh: bool = False, evidence: int | None = None,
                 drop_z: float | None = None, tells: bool = False, confirm: int = 0,
                 barred: bool = False, passed: bool = False, progress: bool = False,
                 danger: bool = False, base: str = "strong", veto: float | None = None,
                 blend: float = 0.0, claims: bool = True, ready: bool = False, cut: int = 0,
                 horizon: str = "linear", guard: str | None = None) -> None:
        super().__init__(seed, rules)
        if budget_ms is None and max_rounds is None:
            raise ValueError("the expert needs a time budget or a number of rounds")
        self.budget = None if budget_ms is None else budget_ms / 1000.0
        self.max_rounds = max_rounds
        self.candidates = CANDIDATES if candidates is None else candidates
        self.z = Z if z is None else z
        self.clock = clock
        if base not in BASES:
            raise ValueError(f"unknown base {base!r}; bases: {', '.join(BASES)}")
        # the player whose choice the search checks and keeps where unsure (off the default: measuring)
        self.strong: StrongBot = BASES[base](seed, rules)
        self._greedy = [GreedyBot(seed * 4 + s, rules) for s in range(4)]
        rollout = ROLLOUT if rollout is None else rollout
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r}; rollouts: {', '.join(ROLLOUTS)}")
        self.rollout = rollout
        self.lean = lean and rollout == "quick"  # quick rollouts through the lean model (lean.py)
        # play each opponent by the style it is read as (reading.py; lean rollouts only): off by default,
        # its duplicate runs showed no gain (docs/bots.md, reading the opponents)
        self.read = read
        # drop candidates early (step 3 of the module docstring); off: every candidate on every deal, as
        # the review searches (the review's false-flag bench plays this way too)
        self.eliminate = eliminate
        # a candidate may be dropped only once its result has differed from strong's choice's on this
        # many deals (0: from ELIMINATE_AFTER deals on, even if every difference so far was 0)
        self.evidence = EVIDENCE if evidence is None else evidence
        if self.evidence < 0:
            raise ValueError(f"evidence must be at least 0, got {self.evidence}")
        # ... and once it is not ahead of strong's choice by this many standard errors (by default the
        # wider margin on a deal budget, the narrower with only a time budget)
        if drop_z is None:
            drop_z = ELIMINATE_Z if max_rounds is not None else ELIMINATE_Z_TIMED
        if drop_z < 0:
            raise ValueError(f"drop_z must be at least 0, got {drop_z}")
        self.drop_z = drop_z
        # how the other hands are dealt (all off by default; step 2 of the module docstring): weighed by
        # their latest discards, by what all their discards tell, with the barred tiles, played forward
        self.weigh, self.tells, self.barred, self.passed = weigh, tells, barred, passed
        self.progress = progress
        # ... or each other seat dealt a waiting hand as likely as the learned reading says (ready.py)
        self.ready = ready
        # an overrule weighs each discard's risk of dealing in, as the learned reading of the discards
        # prices it (danger.py): the deals seldom give another seat a waiting hand. Off by default
        self.danger = danger
        # an overrule the learned advantage puts this far behind strong's discard is not played: off
        if veto is not None and not math.isfinite(veto):
            raise ValueError(f"veto must be a finite number of payment units, got {veto}")
        self.veto = veto
        # the learned advantage's weight beside the search's mean (0: the search alone, the default)
        if not math.isfinite(blend) or blend < 0:
            raise ValueError(f"blend must be a finite weight of at least 0, got {blend}")
        self.blend = blend
        # search the claim windows (False: answer a discard as strong does, and search only the turns)
        self.claims = claims
        # lean rollouts cut after this many decisions, the rest valued by horizon.value (0: to the end)
        if cut < 0:
            raise ValueError(f"cut must be at least 0 decisions, got {cut}")
        self.cut = cut
        values = horizon_values()
        if horizon not in values:
            raise ValueError(f"unknown horizon value {horizon!r}; values: {', '.join(values)}")
        self.horizon = values[horizon]  # what a cut rollout adds for the rest of the hand
        self.extend = EXTEND if extend is None else extend
        if self.extend < 1:
            raise ValueError(f"extend must be at least 1, got {self.extend}")
        # fresh deals on which an overrule must be ahead again before it is played (0: none)
        if confirm < 0:
            raise ValueError(f"confirm must be at least 0, got {confirm}")
        self.confirm = confirm
        # where strong defends against a threat, keep its discard ("all") or any discard it rates no
        # safer ("risk"). Off by default: no gain measured (docs/expert-levers.md)
        if guard not in GUARDS:
            raise ValueError(f"unknown guard {guard!r}; guards: {', '.join(map(str, GUARDS))}")
        self.guard = guard
        self.stats = SearchStats()

    # -- the policies of a playout ----------------------------------------------------------------
    def _policies(self, me: int) -> list[Policy]:
        greedy = [perceiving(g.decide_perceived) for g in self._greedy]
        if self.rollout == "greedy":
            return greedy
        if self.rollout == "quick":
            return [quick_policy] * 4
        out: list[Policy] = [fast_policy] * 4
        if self.rollout == "mixed":
            out[me] = greedy[me]
        return out

    def _strong_choice(self, p: Perception, legal: Sequence[A], rules: RuleSet) -> A:
        """``strong``'s choice, its scores of the discards kept to rank them (after a kong, asked again)."""
        base = self.strong.decide_perceived(p, legal, rules)
        discards = [a for a in legal if a.kind == "discard"]
        if base.kind != "discard" and discards:
            self.strong.decide_perceived(p, discards, rules)
        return base

    def _candidates(self, base: A, legal: Sequence[A]) -> list[A]:
        if any(a.kind == "discard" for a in legal):
            scores = self.strong.last_scores
            ranked = sorted((a for a in legal if a.kind == "discard" and a.tile is not None),
                            key=lambda a: -scores.get(int(a.tile), -1e9))  # type: ignore[arg-type]
            out = [base]
            for a in ranked:
                if len(out) >= self.candidates:
                    break
                if a is not base:
                    out.append(a)
            out.extend(a for a in legal if a.kind == "kong" and a is not base)
            return out
        return [base, *(a for a in legal if a is not base)]

    def review_candidates(self, view: View, legal: Sequence[A], chosen: A | None = None) -> list[A]:
        """The options a review prices at a decision, ``strong``'s choice first: a win when one is
        legal, then the search's own candidates (``strong``'s choice and next best discards and every
        kong on a turn; every legal answer in a claim window), then ``chosen`` if not among them."""
        rules = self.table_rules(view)
        p = perceive(view)
        out = [a for a in legal if a.kind == "win"]
        rest = [a for a in legal if a.kind != "win"]
        if rest:
            self.strong.look(view)
            base = self._strong_choice(p, rest, rules)
            out.extend(self._candidates(base, rest))
        if chosen is not None and chosen not in out:
            out.append(chosen)
        return out

    def decide(self, view: View, legal: Sequence[A]) -> A:
        clock = self.clock
        start = clock()
        self.stats = stats = SearchStats()
        for a in legal:
            if a.kind == "win":
                return a
        rules = self.table_rules(view)
        self.strong.look(view)
        p = perceive(view)
        base = self._strong_choice(p, legal, rules)
        cands = self._candidates(base, legal)
        stats.candidates = len(cands)
        if len(cands) < 2 or not (self.claims or any(a.kind == "discard" for a in legal)):
            return base
        try:
            chances = wait_chances(view) if self.ready else ()
            tb = table(knowledge(view), rules, **self.dealing(), ready=chances)
        except InconsistentViewError:
            return base
        deadline = math.inf if self.budget is None else start + self.budget
        last = [start]  # the clock's last reading (read once per check, never again after the end)

        def spent() -> bool:
            last[0] = now = clock()
            return now >= deadline

        extend_to = None if self.max_rounds is None else self.max_rounds * self.extend
        styles = self.styles(view)
        lift = self._learned_lift(view, p, base, cands, rules)
        ev = self.search(tb, cands, spent=spent, eliminate=self.eliminate, styles=styles,
                         extend_to=extend_to, unsure=functools.partial(self._unsure, lift=lift),
                         evidence=self.evidence, drop_z=self.drop_z, lift=lift)
        rounds = ev.rounds
        stats.rounds = rounds
        stats.playouts = ev.playouts
        stats.seconds = last[0] - start
        shift = self._risk_over_base(view, p, cands) if self.danger else [0.0] * len(cands)
        best, best_mean = overrule(((i, mean + lift[i] - shift[i], se) for i in ev.alive[1:]
                                    for mean, se in (mean_se(ev.sums[i], ev.squares[i], rounds),)),
                                   rounds, self.z)
        if best and self.veto is not None and self._vetoed(view, p, cands[0], cands[best], rules):
            best, best_mean = 0, 0.0
        if best and self._guarded(cands[0], cands[best]):
            best, best_mean = 0, 0.0
        if best and self.confirm:
            fresh = self.search(tb, [cands[0], cands[best]], spent=spent, eliminate=False,
                                styles=styles, deals=self.confirm)
            stats.playouts += fresh.playouts
            stats.seconds = last[0] - start
            stats.confirmed = fresh.rounds >= MIN_ROUNDS and fresh.sums[1] > 0
            if not stats.confirmed:
                best, best_mean = 0, 0.0
        stats.overruled = best != 0
        stats.advantage = best_mean
        return cands[best]

    def _vetoed(self, view: View, p: Perception, base: A, pick: A, rules: RuleSet) -> bool:
        """Whether the learned advantage puts discard ``pick`` over ``veto`` units behind ``base``."""
        if base.kind != "discard" or pick.kind != "discard" or pick.tile is None:
            return False
        turn = turn_of(view, p, base, self.strong.last_scores, rules, self.candidates)
        if turn is None or int(pick.tile) not in turn.tiles:
            return False
        assert self.veto is not None
        return advantage(turn, int(pick.tile)) < -self.veto

    def _guarded(self, base: A, pick: A) -> bool:
        """Whether ``guard`` keeps ``strong``'s discard ``base`` over ``pick``: ``strong`` defended at this
        turn, and (``"risk"``) ``pick`` costs more in its expected loss to the threats."""
        risk = self.strong.last_risk
        if self.guard is None or base.kind != "discard" or not risk or base.tile is None:
            return False
        if self.guard == "all" or pick.tile is None:
            return True
        return risk.get(int(pick.tile), 0.0) > risk.get(int(base.tile), 0.0) + 1e-9

    def _learned_lift(self, view: View, p: Perception, base: A, cands: Sequence[A],
                      rules: RuleSet) -> list[float]:
        """``blend`` times each candidate's learned advantage over ``strong``'s choice ``base`` (0 for
        one that is not among ``strong``'s best discards, and for every candidate without ``blend``)."""
        turn = turn_of(view, p, base, self.strong.last_scores, rules, self.candidates) if self.blend else None
        if turn is None:
            return [0.0] * len(cands)
        return [self.blend * x for x in advantages(turn, cands)]

    def _risk_over_base(self, view: View, p: Perception, cands: Sequence[A]) -> list[float]:
        """Each candidate's expected loss to dealing in less that of ``strong``'s choice (candidate 0),
        by the learned reading (0 for a candidate that is not a discard); ``p``: the view perceived."""
        tiles = [int(a.tile) if a.kind == "discard" and a.tile is not None else -1 for a in cands]
        cost = danger.deal_in_cost(p, danger.read(view), [t for t in tiles if t >= 0], self.table_rules(view))
        base = cost.get(tiles[0], 0.0)
        return [cost.get(t, base) - base if t >= 0 else 0.0 for t in tiles]

    def dealing(self) -> DealOptions:
        """The options of :func:`.determinise.table` the bot deals by (all off by default)."""
        return {"weigh": self.weigh, "tells": self.tells, "barred": self.barred, "passed": self.passed,
                "progress": self.progress}

    def _unsure(self, ev: Evaluation, lift: Sequence[float]) -> bool:
        """Whether a search's choice is still open: no candidate ahead of ``strong``'s choice by ``z``
        standard errors, and some candidate ahead on average (each mean plus its ``lift``)."""
        unsure = False
        for i in ev.alive[1:]:
            mean, se = mean_se(ev.sums[i], ev.squares[i], ev.rounds)
            mean += lift[i]
            if mean > self.z * se:
                return False
            unsure = unsure or mean > 0
        return unsure

    def styles(self, view: View) -> tuple[int, ...]:
        """The rollout style of each seat: as read from ``view`` (:func:`.reading.read_styles`), or
        all quick when the bot does not read."""
        return read_styles(view) if self.read else (QUICK,) * 4

    def search(self, tb: Table, cands: Sequence[A], *, spent: Callable[[], bool] = _never,
               eliminate: bool = True, styles: Sequence[int] = (QUICK,) * 4,
               enough: Callable[[Evaluation], bool] | None = None, extend_to: int | None = None,
               unsure: Callable[[Evaluation], bool] | None = None, evidence: int = 0,
               drop_z: float = ELIMINATE_Z, deals: int | None = None,
               lift: Sequence[float] | None = None) -> Evaluation:
        """Play every candidate out on the same sampled deals (common random numbers: the same deal,
        the same policy seeds) from the seat's knowledge ``tb``, until ``max_rounds`` complete deals or
        ``spent()``; candidate 0 is the reference. With ``eliminate`` a candidate is dropped from
        ``ELIMINATE_AFTER`` deals on once it is not ahead of candidate 0 by ``drop_z`` standard errors
        and its result has differed from candidate 0's on ``evidence`` deals (and the search ends
        with none left); without it every candidate is played out on
        every deal (the review). ``styles``: the style each seat is played by in lean rollouts (its
        own too; :meth:`styles` gives it the quick policy). ``enough(ev)``, asked after every complete
        deal, ends the search early when it says so (the review's sequential stop). After ``max_rounds`` deals
        the search goes on up to ``extend_to`` deals while ``unsure(ev)`` says so. The deals come
        from ``self.rng``. ``deals`` replaces ``max_rounds`` as the number of deals. ``lift``: what
        is added to each candidate's mean before it is dropped (the ``blend``; none by default)."""
        me = tb.k.seat
        lifts = [0.0] * len(cands) if lift is None else lift
        policies = self._policies(me)
        lean = self.lean
        lean_policies: list[LeanPolicy] = [lean_style_policy(styles[s]) for s in range(4)]
        ev = Evaluation.empty(len(cands))
        sums, squares, alive, moved = ev.sums, ev.squares, ev.alive, ev.moved
        cap = most = self.max_rounds if deals is None else deals
        rounds = tries = 0
        if cap is not None and extend_to is not None and unsure is not None:
            most = max(cap, extend_to)
        limit = math.inf if most is None else 2 * most + 8
        while tries < limit and not spent():
            if cap is not None and most is not None and rounds >= cap and (
                    rounds >= most or unsure is None or not unsure(ev)):
                break
            tries += 1
            deal_seed = self.rng.getrandbits(48)
            state: HandState | None = None
            start_sim: Sim | None = None
            offered: Sequence[Action]
            if lean:
                start_sim = sample_sim(tb, random.Random(deal_seed))
                if start_sim is None:
                    break
                offered = start_sim.options(me)
            else:
                state = sample_state(tb, random.Random(deal_seed))
                if state is None:
                    break
                offered = legal_actions(state, me)
            mine = {(a.kind, a.tile): a for a in offered}
            results: dict[int, float] = {}
            cut = False
            for i in alive:
                a = cands[i]
                act = mine.get((a.kind, a.tile))
                if act is None:
                    break
                ev.playouts += 1
                ledger: Sequence[int]
                if start_sim is not None and self.cut:
                    sim = start_sim.copy()
                    sim.step(act)
                    results[i] = cut_result(sim, lean_policies, self.cut, me, self.horizon)
                    continue
                if start_sim is not None:
                    sim = start_sim.copy()
                    sim.step(act)
                    end_sim = lean_playout(sim, lean_policies, stop=spent, check_every=CHECK_EVERY)
                    if end_sim is None:
                        cut = True
                        break
                    ledger = end_sim.ledger
                else:
                    assert state is not None
                    for s, g in enumerate(self._greedy):
                        g.rng.seed(deal_seed * 4 + s)
                    end = playout(apply(state, act)[0], policies, stop=spent)
                    if end is None:
                        cut = True
                        break
                    ledger = end.ledger
                results[i] = float(ledger[me])
            else:
                rounds += 1
                ev.rounds = rounds
                for i in alive:
                    ev.results[i].append(results[i])
                for i in alive[1:]:
                    d = results[i] - results[0]
                    sums[i] += d
                    squares[i] += d * d
                    if d:
                        moved[i] += 1
                if eliminate and rounds >= ELIMINATE_AFTER:
                    alive[1:] = [i for i in alive[1:] if moved[i] < evidence
                                 or ahead(sums[i], squares[i], rounds, drop_z, lifts[i])]
                    if len(alive) == 1:
                        break
                if enough is not None and enough(ev):
                    break
                continue
            if cut:
                break
        return ev
