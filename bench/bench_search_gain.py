"""What the expert's search expects to gain over ``strong``, and what dropping candidates early costs.

Each hand is a seeded deal played by the expert (200 deals per decision at most, no time budget, as in
the strength runs) in one seat (the seats rotate over the hands) against three ``strong`` bots. At
every decision where the expert searched (two candidates or more), two players choose from the same
view: the expert as it plays (candidates dropped early) and a thorough one (every candidate on every
deal); a judge then prices the candidates on ``--judge-deals`` deals of its own seeds, none dropped.
The judged gain of a choice is its mean result minus that of ``strong``'s choice on the judge's deals
(0 where the player kept ``strong``'s choice), so, with the judge's deals apart from the players',
the sum over the decisions is what the search's own model (its rollouts and its random deals)
expects the player to gain over ``strong``, per hand. Compared with the duplicate runs'
expert - strong (docs/strength.md), it says how much of what the model expects the table pays.

With ``--real-deals N`` a second judge prices, at every decision where a player overruled ``strong``,
that player's choice against ``strong``'s from the *true* hand (the real hidden tiles: what the table
pays, not what the model expects): both played out on ``N`` reorderings of the undrawn wall (the tiles
no seat has seen), every seat then played by ``strong`` (as the opponents are; the seat itself by
``strong`` too, which the expert is outside its overrules), the same reordering and bot seeds for
both (paired). Its sum over the decisions is what the overrules pay against the true hands, per hand.

The players (``--players``, :data:`PLAYERS`): ``expert`` as it plays (its defaults: candidates
dropped early, and a search still unsure after its deals goes on up to four times as many);
``unextended`` (the expert without that: ``extend=1``); ``thorough`` (every candidate on every deal,
``extend=1``); ``extended`` (``extend=4``); ``thorough-extended`` (both); ``patient`` and
``patient8`` (``extend=4``; a candidate dropped only once its result has differed from ``strong``'s
choice's on 4 or 8 deals); ``wide`` and ``wide3`` (``extend=4``; dropped only once 2 or 3 standard
errors behind); ``narrow`` (dropped at 1 standard error, the default before); ``wide-patient``
(``wide`` and ``patient``); ``extended2`` and ``extended8``; ``z3`` (overrules
only at three standard errors); ``weighed`` (deals weighed by the other seats' latest discards);
``cautious`` (the opponents' rollouts by the cautious quick policy); two mixtures of these; and
``candidates4`` and ``candidates5`` (the expert searching four or five of ``strong``'s best discards
on its turn, not three); ``honours`` and ``honours-opponents`` (the rollouts of every seat, or of the
opponents only, throwing lone honours first, as ``strong`` does: ``forward.STYLE_HONOURS``);
``own-cautious`` and ``own-eager`` (its own seat's rollouts by the cautious or the eager quick policy,
the opponents' by the quick one); ``confirmed`` and ``confirmed800`` (an overrule played only if
it is ahead of ``strong``'s choice again on 200 or 800 fresh deals); ``z1.5`` and ``z1`` (overrules
at 1.5 or 1 standard error); ``barred`` (every seat's barred tiles in the deals, as the engine holds
them) and ``passed`` (that, and no other seat dealt a hand that wins on a discard it let pass);
``worked`` (each other seat's dealt hand played forward for the turns it has played) and
``worked-passed`` (all three); ``danger`` (an overrule weighs each discard's risk of dealing in,
priced by the learned reading of the discards: ``bots/danger.py``); ``ready`` (each other
seat dealt a waiting hand as likely as that reading says: ``bots/ready.py``); ``wary`` (the search starts
from ``strong`` reading the discards by that model, with a narrower safety tie-break); ``guarded`` and
``guarded-risk`` (at a turn where ``strong`` defends against a threat, its discard kept, or kept over
any discard it rates riskier: ``guard``); ``advised``
(the search starts from ``strong`` overruled by the learned advantage of a discard:
``bots/advantage.py``); ``vetoed0``, ``vetoed0.5`` and ``vetoed1`` (an overrule of ``strong``'s discard
not played where that advantage puts it more than 0, 0.5 or 1 unit behind); ``blended`` (that
advantage added to the search's means, overruling at 1.5 standard errors: ``expert+blended``); ``quick50``
and ``strong50`` (every candidate on every one of 50 deals, the rollouts by the quick policy, or by
``strong`` itself for every seat: ``bench/model_error.py``).

Prints, for each player: the decisions where it overruled ``strong``, its judged gain per hand with
the judge's standard error (and the real judge's), and its playouts per decision; and the gain by kind
of decision.

    python -m bench.bench_search_gain --hands 40 --workers 2
    python -m bench.bench_search_gain --hands 100 --judge-deals 0 --real-deals 200 --players expert,extended

With ``--rows FILE`` nothing is played: the report is printed again from a file ``--out`` wrote, with,
for each player after the first, where it chooses differently from the first and what that pays, and
where the first player's overrules pay by the true hand at the decision (:mod:`bench.search_gain_rows`).
With ``--resume`` a run stopped part way continues: the hands its ``--out`` file holds are kept, the
rest played (the same command again, with ``--resume``). Each row of ``--out`` also holds what the
true hand was at the decision (:func:`context`: the tiles left in the wall, the other seats' exposed
sets, the waits of those one tile from winning) and the tile of each candidate.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.bench_false_flags import PLAYERS as REVIEWED_PLAYERS
from bench.search_gain_rows import by_context, differences, hands_of, paired, per_hand, players_of, read_rows
from sgmahjong.analysis.waits import waits
from sgmahjong.bots import EXPERT_VARIANTS, Bot, make_bot
from sgmahjong.bots import efficiency as ef
from sgmahjong.bots.base import View
from sgmahjong.bots.determinise import knowledge, table
from sgmahjong.bots.evaluation import estimate
from sgmahjong.bots.expert import CANDIDATES, ExpertBot
from sgmahjong.bots.forward import STYLE_EAGER, STYLE_HONOURS, Policy, playout, quick_policy
from sgmahjong.bots.forward import perceive_state as perceive
from sgmahjong.bots.reading import CAUTIOUS, QUICK
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import Action, HandState, apply, player_view
from sgmahjong.review import bot_hand_log
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import counts34

SEED = 9000
HANDS = 40
DEALS = 200  # the players' deals per decision at most
JUDGE_DEALS = 400
JUDGE_SEED = 1 << 42  # the judge's seeds: apart from the players'
REAL_SEED = 1 << 43  # the real judge's reorderings and bot seeds


class _Styled(ExpertBot):
    """The expert, its own seat's rollouts in style ``OWN`` and every opponent's in ``OTHERS`` (each a
    ``forward.STYLE_*``; the quick policy unless a subclass says otherwise)."""

    OWN = QUICK
    OTHERS = QUICK

    def styles(self, view: View) -> tuple[int, ...]:
        me = int(view["seat"])
        return tuple(self.OWN if s == me else self.OTHERS for s in range(4))


class _Cautious(_Styled):
    """Every opponent by the cautious quick policy (folds sooner)."""

    OTHERS = CAUTIOUS


class _Honours(_Styled):
    """Every seat, its own too, by the quick policy with lone honours discarded first
    (:data:`forward.STYLE_HONOURS`, closer to ``strong``)."""

    OWN = OTHERS = STYLE_HONOURS


class _HonoursOpponents(_Styled):
    """Every opponent (not its own seat) by the quick policy with lone honours discarded first."""

    OTHERS = STYLE_HONOURS


class _OwnCautious(_Styled):
    """Its own seat by the cautious quick policy (folds sooner, claims nothing but a win)."""

    OWN = CAUTIOUS


class _OwnEager(_Styled):
    """Its own seat by the eager quick policy (claims every set, never folds)."""

    OWN = STYLE_EAGER


class _StrongRollouts(ExpertBot):
    """The expert, its rollouts played by ``strong`` itself (through the engine: about ten times the
    cost of the lean quick rollouts) for its own seat if ``OWN`` and for the opponents if ``OTHERS``,
    the quick policy otherwise: how much of the model's error is the rollout policy."""

    OWN = True
    OTHERS = True

    def __init__(self, seed: int = 0, rules: RuleSet | None = None, **options: Any) -> None:
        super().__init__(seed, rules, rollout="greedy", **options)

    def _policies(self, me: int) -> list[Policy]:
        return [_strong_policy(StrongBot(s, self.rules), self.rules)
                if (self.OWN if s == me else self.OTHERS) else quick_policy for s in range(4)]


PLAYERS: dict[str, tuple[type[ExpertBot], dict[str, Any]]] = {  # name -> the bot and its options
    **{name: (ExpertBot, options) for name, options in REVIEWED_PLAYERS.items()},  # as bench_false_flags
    "z3": (ExpertBot, {"z": 3.0}), "cautious": (_Cautious, {}), "honours": (_Honours, {}),
    "honours-opponents": (_HonoursOpponents, {}), "own-cautious": (_OwnCautious, {}),
    "own-eager": (_OwnEager, {}),
    "deals100": (ExpertBot, {"max_rounds": 100}), "deals400": (ExpertBot, {"max_rounds": 400}),
    "deals800": (ExpertBot, {"max_rounds": 800}),
    "weighed": (ExpertBot, {"weigh": True}), "told": (ExpertBot, {"tells": True}),
    "extended2": (ExpertBot, {"extend": 2}),
    "extended8": (ExpertBot, {"extend": 8}), "extended-weighed": (ExpertBot, {"extend": 4, "weigh": True}),
    "extended-z2.5": (ExpertBot, {"extend": 4, "z": 2.5}),
    "candidates4": (ExpertBot, {"candidates": 4}), "candidates5": (ExpertBot, {"candidates": 5}),
    "confirmed": (ExpertBot, {"confirm": 200}), "confirmed800": (ExpertBot, {"confirm": 800}),
    "z1.5": (ExpertBot, {"z": 1.5}), "z1": (ExpertBot, {"z": 1.0}),
    "barred": (ExpertBot, {"barred": True}), "passed": (ExpertBot, {"barred": True, "passed": True}),
    "worked": (ExpertBot, {"progress": True}), "danger": (ExpertBot, {"danger": True}),
    "ready": (ExpertBot, {"ready": True}),
    "guarded": (ExpertBot, {"guard": "all"}), "guarded-risk": (ExpertBot, {"guard": "risk"}),
    "wary": (ExpertBot, {"base": "wary"}), "advised": (ExpertBot, {"base": "advised"}),
    "vetoed0": (ExpertBot, {"veto": 0.0}), "vetoed0.5": (ExpertBot, {"veto": 0.5}),
    "vetoed1": (ExpertBot, {"veto": 1.0}), "blended": (ExpertBot, {"blend": 1.0, "z": 1.5}),
    "unclaimed": (ExpertBot, {"claims": False}), "combined": (ExpertBot, {**EXPERT_VARIANTS["combined"]}),
    "worked-passed": (ExpertBot, {"progress": True, "barred": True, "passed": True}),
    "quick50": (ExpertBot, {"max_rounds": 50, "eliminate": False, "extend": 1}),
    "strong50": (_StrongRollouts, {"max_rounds": 50, "eliminate": False, "extend": 1})}


class _Recorder(ExpertBot):
    """The expert, telling whether its last decision was searched."""

    def searched(self) -> bool:
        return self.stats.candidates >= 2


def _strong_policy(bot: StrongBot, rules: RuleSet) -> Policy:
    def policy(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
        return bot.decide_perceived(perceive(state, seat), legal, rules)
    return policy


def reordered(state: HandState, seed: int, r: int) -> tuple[HandState, random.Random]:
    """``state`` with its undrawn wall (the tiles no seat has seen) in the ``r``-th order of ``seed``,
    and the random numbers that ordered it (for the seeds of whatever then plays it)."""
    rng = random.Random(seed * 100_003 + r)
    lo, hi = state.front, len(state.wall) - state.back
    wall = list(state.wall)
    rest = wall[lo:hi]
    rng.shuffle(rest)
    wall[lo:hi] = rest
    return dataclasses.replace(state, wall=tuple(wall)), rng


def real_values(state: HandState, seat: int, cands: Sequence[Action], deals: int, seed: int,
                rules: RuleSet) -> list[list[float]]:
    """Each candidate's result minus ``cands[0]``'s for ``seat`` from the true ``state``, on each of
    ``deals`` reorderings of the undrawn wall (the same for every candidate), every seat then played
    by ``strong``: one list of paired differences per candidate (all 0 for ``cands[0]``)."""
    diffs: list[list[float]] = [[] for _ in cands]
    for r in range(deals):
        dealt, rng = reordered(state, seed, r)
        bot_seed = rng.getrandbits(32)
        nets = []
        for a in cands:
            policies = [_strong_policy(StrongBot(bot_seed * 4 + s, rules), rules) for s in range(4)]
            end = playout(apply(dealt, a)[0], policies, max_steps=4000)
            assert end is not None
            nets.append(float(end.ledger[seat]))
        for i, net in enumerate(nets):
            diffs[i].append(net - nets[0])
    return diffs


def real_gain(state: HandState, seat: int, cand: Action, base: Action, deals: int, seed: int,
              rules: RuleSet) -> tuple[float, float]:
    """(mean, standard error) of ``cand``'s result minus ``base``'s for ``seat`` from the true
    ``state``, paired over ``deals`` reorderings of the undrawn wall, every seat then played by
    ``strong`` (:func:`real_values`)."""
    mean, se, _ = estimate(real_values(state, seat, [base, cand], deals, seed, rules)[1])
    return mean, se


def context(state: HandState, seat: int) -> dict[str, Any]:
    """What a searched decision's row records of the true hand, for splitting the gains afterwards: the
    tiles left in the wall, the other seats' exposed sets (the most any has) and the faces each other
    seat one tile from winning waits on (by the hand's shape, tai not checked)."""
    waiting: list[list[int]] = []
    for s, st in enumerate(state.seats):
        if s == seat or len(st.concealed) % 3 != 1:
            continue
        counts = counts34(st.concealed)
        if ef.distance(counts, len(st.melds)) == 1:
            waiting.append(waits(counts, len(st.melds)))
    return {"wall": state.wall_remaining, "sets": max(len(st.melds) for s, st in enumerate(state.seats)
                                                       if s != seat), "waits": waiting}


Point = tuple[HandState, View, list[Action]]  # a searched decision: the true state, the seat's view, legal


def searched_points(h: int, seed: int, deals: int) -> tuple[int, list[Point]]:
    """Hand ``h`` (seed ``seed + h``) played by the expert (``deals`` deals a decision, no time budget)
    in seat ``h % 4`` against three ``strong``: the seat and the decisions at which the expert searched."""
    rules = RuleSet()
    seat = h % 4
    recorder = _Recorder((seed + h) * 4 + seat, rules, budget_ms=None, max_rounds=deals)
    bots: list[Bot] = [recorder if s == seat else make_bot("strong", (seed + h) * 4 + s, rules)
                       for s in range(4)]
    points: list[Point] = []

    def record(state: HandState, who: int, legal: Sequence[Action], choice: Action) -> Action:
        if who == seat and recorder.searched():
            points.append((state, player_view(state, who), list(legal)))
        return choice

    bot_hand_log(rules, bots, seed=seed + h, dealer=(h // 4) % 4, tamper=record)
    return seat, points


def one_hand(h: int, seed: int, deals: int, judge_deals: int, real_deals: int = 0,
             players: Sequence[str] = ("expert", "thorough")) -> list[dict[str, Any]]:
    """Hand ``h``: played, then each of the expert's searched decisions chosen by every player and
    judged (by the search's model on ``judge_deals`` deals, and from the true hand on ``real_deals``
    reorderings of the wall where a player overruled ``strong``)."""
    rules = RuleSet()
    seat, points = searched_points(h, seed, deals)
    # the judge's candidates hold every player's: as many discards as the widest player searches
    width = max(PLAYERS[name][1].get("candidates", CANDIDATES) for name in players)
    rows = []
    for k, (true_state, view, legal) in enumerate(points):
        judge = ExpertBot(JUDGE_SEED + (seed + h) * 1000 + k, rules, budget_ms=None,
                          max_rounds=max(1, judge_deals), candidates=width)
        cands = judge.review_candidates(view, legal)
        chosen = {}
        for name in players:
            cls, options = PLAYERS[name]
            player = cls((seed + h) * 1000 + k, rules, budget_ms=None, **{"max_rounds": deals, **options})
            pick = player.choose(view, legal)
            if pick not in cands:  # a pick the review would not price (once, the expert's at a kong)
                cands.append(pick)
            chosen[name] = (cands.index(pick), player.stats.playouts)
        gains, errors = [0.0] * len(cands), [0.0] * len(cands)
        if judge_deals:
            ev = judge.search(table(knowledge(view), rules), cands, eliminate=False)
            for i in range(1, len(cands)):
                gains[i], errors[i] = ev.paired(i, 0)[:2]
        turn = any(a.kind == "discard" for a in legal)
        row: dict[str, Any] = {"hand": h, "kind": "turn" if turn else "claim", **context(true_state, seat),
                               "tiles": [None if a.tile is None else int(a.tile) for a in cands]}
        real: dict[int, tuple[float, float]] = {0: (0.0, 0.0)}
        for name, (i, playouts) in chosen.items():
            if real_deals and i not in real:
                real[i] = real_gain(true_state, seat, cands[i], cands[0], real_deals,
                                    REAL_SEED + (seed + h) * 1000 + k, rules)
            mean, se = real.get(i, (0.0, 0.0))
            row[name] = {"pick": i, "gain": gains[i], "se": errors[i], "playouts": playouts,
                         "real": mean, "real_se": se}
        rows.append(row)
    return rows


def report(rows: list[dict[str, Any]], hands: int, players: Sequence[str], out: Any = sys.stdout) -> None:
    print(f"   {len(rows)} searched decisions over {hands} hands "
          f"({sum(1 for r in rows if r['kind'] == 'turn')} on the turn, "
          f"{sum(1 for r in rows if r['kind'] == 'claim')} at claims)", file=out)
    for name in players:
        gain = sum(r[name]["gain"] for r in rows) / hands
        se = math.sqrt(sum(r[name]["se"] ** 2 for r in rows)) / hands
        over = sum(1 for r in rows if r[name]["pick"])
        turn = sum(r[name]["gain"] for r in rows if r["kind"] == "turn") / hands
        playouts = sum(r[name]["playouts"] for r in rows) / max(1, len(rows))
        real = sum(r[name]["real"] for r in rows) / hands
        real_turn = sum(r[name]["real"] for r in rows if r["kind"] == "turn") / hands
        real_se = math.sqrt(sum(r[name]["real_se"] ** 2 for r in rows)) / hands
        print(f"   {name:8s}  overrules {over:4d}  judged gain over strong {gain:+.2f} ± {se:.2f} a hand "
              f"(on the turn {turn:+.2f}, at claims {gain - turn:+.2f})  real {real:+.2f} ± {real_se:.2f} "
              f"(on the turn {real_turn:+.2f})  "
              f"playouts a decision {playouts:5.0f}", file=out)
    first = players[0]
    for name in players[1:]:
        same = sum(1 for r in rows if r[first]["pick"] == r[name]["pick"])
        print(f"   {first} and {name} choose alike at {same} of {len(rows)} decisions", file=out)
    if any(r[name]["real_se"] for r in rows for name in players):  # the real judge ran: spread over the hands
        for name in players:
            mean, se, _ = estimate(per_hand(rows, hands, name))
            line = f"   {name:8s}  real {mean:+.2f} ± {se:.2f} a hand over the hands"
            if name != first:
                _, diff, diff_se = paired(rows, hands, first, name, lambda r: True)
                line += f"; - {first}: {diff:+.2f} ± {diff_se:.2f} (paired over the hands)"
            print(line, file=out)


def run_hands(one: Callable[..., list[dict[str, Any]]], tasks: Sequence[tuple[Any, ...]], workers: int,
              out_path: str | None = None, resume: bool = False) -> list[dict[str, Any]]:
    """``one(*task)`` for every hand's task (its first item the hand's number) on ``workers`` processes,
    with progress on stderr: the rows of every hand, in order, also written to ``out_path`` (JSON lines)
    as each hand ends if given. With ``resume`` the hands ``out_path`` already holds are kept and not
    played again (but the last of them, which a stop may have cut short: it is played again)."""
    rows, first = _kept_rows(out_path) if resume and out_path else ([], 0)  # the hands before first: done
    todo = [task for task in tasks if int(task[0]) >= first]
    if first:
        print(f"   {len(tasks) - len(todo)} hands kept from {out_path}", file=sys.stderr, flush=True)
    out = open(out_path, "a" if first else "w", encoding="utf-8") if out_path else None  # noqa: SIM115
    try:
        with ProcessPoolExecutor(max(1, workers)) as pool:
            futures = [pool.submit(one, *task) for task in todo]
            for n, fut in enumerate(futures, start=len(tasks) - len(todo) + 1):
                done = fut.result()
                rows.extend(done)
                if out is not None:
                    out.writelines(json.dumps(r) + "\n" for r in done)
                    out.flush()
                print(f"\r   {n}/{len(tasks)} hands", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    finally:
        if out is not None:
            out.close()
    return rows


def _kept_rows(path: str) -> tuple[list[dict[str, Any]], int]:
    """The rows of an earlier run's results file (plain JSON lines) up to the last hand it holds, which
    is left out (it may have been cut short), the file rewritten to hold only them; and that hand's
    number (the hands are written in order, so every hand before it is done). None and 0 if there is
    no file."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return [], 0
    rows = []
    for line in lines:
        try:
            rows.append(json.loads(line))
        except ValueError:
            break  # a line cut short by the stop: it and anything after it are played again
    last = max((int(r["hand"]) for r in rows), default=0)
    rows = [r for r in rows if int(r["hand"]) < last]
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    return rows, last


def _report_rows(p: argparse.ArgumentParser, path: str, names: str | None) -> None:
    """``--rows``: the report of a results file, and where each player differs from the first."""
    try:
        rows = read_rows(path)
    except (OSError, ValueError) as e:
        p.error(f"--rows: {e}")
    held = players_of(rows)
    players = held if names is None else [x.strip() for x in names.split(",") if x.strip()]
    missing = [x for x in players if x not in held]
    if missing or not players:
        p.error(f"--rows: {path} holds no decisions of {', '.join(missing) or 'any player'}; "
                f"it holds {', '.join(held) or 'none'}")
    hands = hands_of(rows)
    report(rows, hands, players, sys.stdout)
    for name in players[1:]:
        differences(rows, hands, players[0], name, sys.stdout)
    by_context(rows, hands, players[0], sys.stdout)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_search_gain", description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=HANDS)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--deals", type=int, default=DEALS, help="the players' deals per decision at most")
    p.add_argument("--judge-deals", type=int, default=JUDGE_DEALS,
                   help="the model judge's deals per decision (0: no model judge)")
    p.add_argument("--real-deals", type=int, default=0,
                   help="the real judge's wall reorderings per overruled decision (0: no real judge)")
    p.add_argument("--players", help=f"of {', '.join(PLAYERS)} (default: expert,thorough)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", metavar="FILE",
                   help="write every judged decision to FILE (JSON lines, hand by hand)")
    p.add_argument("--resume", action="store_true",
                   help="keep the hands --out FILE already holds and play only the rest")
    p.add_argument("--rows", metavar="FILE",
                   help="play nothing: report again from FILE (as --out wrote it), with where the players "
                        "choose differently; --players picks and orders them (default: all in the file)")
    args = p.parse_args([] if argv is None else argv)
    if args.rows:
        _report_rows(p, args.rows, args.players)
        return
    if args.resume and not args.out:
        p.error("--resume needs --out FILE")
    players = [x.strip() for x in (args.players or "expert,thorough").split(",") if x.strip()]
    unknown = [x for x in players if x not in PLAYERS]
    if unknown or not players:
        p.error(f"--players: unknown {', '.join(unknown) or '(none)'}; players: {', '.join(PLAYERS)}")
    print(f"search gain: the expert ({args.deals} deals) against 3 strong, {args.hands} hands from seed "
          f"{args.seed}, judged on {args.judge_deals} deals", flush=True)
    start = time.perf_counter()
    rows = run_hands(one_hand, [(h, args.seed, args.deals, args.judge_deals, args.real_deals, players)
                                for h in range(args.hands)], args.workers, args.out, args.resume)
    report(rows, args.hands, players)
    print(f"   ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
