"""How far the search's model of the table is from the table, candidate by candidate.

The hands are those of ``bench_search_gain``: seeded deals, the expert (200 deals a decision, no time
budget) in one seat against three ``strong``. At every decision where the expert searched, each
candidate the review prices (``strong``'s choice first) gets two kinds of value, each as its result
minus that of ``strong``'s choice, paired:

- the **real** value: from the true hand (the real hidden tiles), the undrawn wall reordered
  ``--real-deals`` times, every seat then played by ``strong`` (the real judge of ``bench_search_gain``):
  what the table pays;
- each **model**'s value (``--models``, :data:`MODELS`): the expert's search on its own deals of the
  hidden tiles (uniform; told by the discards; ready, ``ready200``: the other seats dealt waiting hands
  as the learned reading says, ``bots/ready.py``; worked forward, with the barred and passed discards:
  ``worked200``; or both), every candidate on every deal, a fixed number of deals, its rollouts
  played by the quick policy (the expert's), by ``strong`` itself for every seat, or by ``strong`` for
  the seat's own play or the opponents' only; ``oracle200``, the quick rollouts from the true
  hands (``oracle-ready200``: only the hands one tile from winning true, the others dealt again;
  ``oracle-unready200``: the other way round); ``seats200`` and ``waits200``, the ready deals told
  the truth (:func:`known_ready`: the seats one tile from winning dealt a waiting hand every time, on a
  face the reading draws, or on their true waits); or ``learned``, no search: the learned advantage of
  a discard (``bots/advantage.py``) of each of ``strong``'s best three discards at a turn (0 for any
  other candidate; its rule never overrules).

Prints, per model: what its picks pay by the real value, a hand (the candidate its point estimate rates
best, 0 if none is above ``strong``'s choice; and the one the expert's rule would play, ahead by two
standard errors over at least 8 deals), with the paired difference to the first model over the hands,
and that of the union of the two rules (the first model's overrule where it makes one, else this one's);
the regression slope of the real value on the model's (through 0: 1 is calibrated, below 1 the model
exaggerates the differences) and their correlation, over every candidate and over those the first model
rates within ``CLOSE`` units of ``strong``'s choice (where decisions are made); the playouts a decision
and, for a search, its median CPU time a decision (the machine's, at its load).
The models share the decisions and the real values, so the differences between them are paired.

    python -m bench.model_error --hands 40 --seed 9600 --real-deals 100 --workers 2 \\
        --models quick200,quick50,strong50,strong-own50,strong-opponents50

With ``learned`` and a search among the models, ``--blend W:Z,...`` also prices rules that blend the
two (the search's mean plus ``W`` times the learned advantage, played where that is ahead of ``strong``'s
choice by ``Z`` of the search's standard errors) against the expert's rule, on the same decisions;
``--real-from FILE`` takes the real values from an earlier ``--out FILE`` of the same hands (checked
decision by decision) and plays only the models; ``--rows FILE`` reports the decisions an earlier
``--out FILE`` saved, in seconds:

    python -m bench.model_error --rows FILE --models quick200,learned --blend 1:1.5,2:1

Not part of ``make bench``: forty hands take about a quarter of an hour on two workers.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.bench_search_gain import (
    JUDGE_SEED,
    REAL_SEED,
    _StrongRollouts,
    real_values,
    reordered,
    run_hands,
    searched_points,
)
from bench.search_gain_rows import hands_of, read_rows
from sgmahjong.bots.advantage import advantages, read_turn
from sgmahjong.bots.base import View
from sgmahjong.bots.determinise import InconsistentViewError, knowledge, table
from sgmahjong.bots.evaluation import estimate, overrule
from sgmahjong.bots.expert import ExpertBot, Z
from sgmahjong.bots.lean import lean_playout, sim_of
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.bots.ready import wait_chances
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import Action, HandState, claims
from sgmahjong.game.builder import Builder, seat_waits
from sgmahjong.game.state import TURN
from sgmahjong.rules import RuleSet
from sgmahjong.tiles import NUM_PLAYING

SEED = 9600
HANDS = 40
DEALS = 200  # the expert's deals a decision in the played hands
REAL_DEALS = 100
CLOSE = 2.0  # a candidate is close to strong's choice when the first model rates it within this many units


class _StrongOwn(_StrongRollouts):
    """Rollouts: ``strong`` for the seat's own play, the quick policy for the opponents."""

    OTHERS = False


class _StrongOpponents(_StrongRollouts):
    """Rollouts: the quick policy for the seat's own play, ``strong`` for the opponents."""

    OWN = False


_FIXED: dict[str, Any] = {"eliminate": False, "extend": 1}
ORACLE = "oracle"  # MODELS' class for the model that sees the true hands (not a search: oracle_values)
LEARNED = "learned"  # MODELS' class for the learned advantage of a discard (not a search: learned_values)
MODELS: dict[str, tuple[type[ExpertBot] | str, int, dict[str, Any]]] = {  # name -> search, deals, options
    "quick200": (ExpertBot, 200, {}), "quick50": (ExpertBot, 50, {}), "quick25": (ExpertBot, 25, {}),
    "quick800": (ExpertBot, 800, {}), "quick3200": (ExpertBot, 3200, {}),
    "cut12x400": (ExpertBot, 400, {"cut": 12}), "cut12x800": (ExpertBot, 800, {"cut": 12}),
    "cut24x800": (ExpertBot, 800, {"cut": 24}),
    "netcut12x400": (ExpertBot, 400, {"cut": 12, "horizon": "network"}),
    "netcut24x400": (ExpertBot, 400, {"cut": 24, "horizon": "network"}),
    "told200": (ExpertBot, 200, {"tells": True}), "ready200": (ExpertBot, 200, {"ready": True}),
    "worked200": (ExpertBot, 200, {"progress": True, "barred": True, "passed": True}),
    "told-worked200": (ExpertBot, 200, {"tells": True, "progress": True, "barred": True, "passed": True}),
    "strong50": (_StrongRollouts, 50, {}), "strong25": (_StrongRollouts, 25, {}),
    "strong-own50": (_StrongOwn, 50, {}), "strong-opponents50": (_StrongOpponents, 50, {}),
    "oracle200": (ORACLE, 200, {}), "learned": (LEARNED, 0, {}),
    "oracle-ready200": (ORACLE, 200, {"keep": "ready"}),
    "oracle-unready200": (ORACLE, 200, {"keep": "unready"}),
    "seats200": (ExpertBot, 200, {"ready": True}), "waits200": (ExpertBot, 200, {"ready": True})}
KNOWN = {"seats200": "seats", "waits200": "waits"}  # ready deals told the truth: which seats; and their waits


def known_ready(state: HandState, seat: int, chances: Sequence[Sequence[float]],
                know: str) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """Ready deals' (chances, odds) told the truth: the seats one tile from winning (:func:`ready_seats`)
    dealt a waiting hand every time, the others uniformly; on faces drawn by the reading's ``chances``
    (``seats``) or on the seat's true waits by shape (``waits``): which of the two the ready deals'
    shortfall is."""
    ready = ready_seats(state, seat)
    out: list[tuple[float, ...]] = []
    for s in range(4):
        if s not in ready:
            out.append(())
        elif know == "seats":
            out.append(tuple(chances[s]))
        else:
            w = set(seat_waits(state.seats[s].concealed))
            out.append(tuple(1.0 if t in w else 0.0 for t in range(NUM_PLAYING)))
    return tuple(out), tuple(1.0 if s in ready else 0.0 for s in range(4))


def ready_seats(state: HandState, seat: int) -> frozenset[int]:
    """The other seats whose concealed tiles are one tile from winning by shape (13-tile hands)."""
    return frozenset(s for s, st in enumerate(state.seats) if s != seat and st.drawn is None
                     and len(st.concealed) % 3 == 1 and seat_waits(st.concealed))


def redealt(state: HandState, seat: int, keep: str, seed: int, r: int) -> HandState:
    """``state`` with its undrawn wall reordered (:func:`reordered`) and, unless ``keep`` is ``all``, the
    concealed tiles of the other seats it does not keep (``ready``: the seats one tile from winning
    keep theirs; ``unready``: the others do) dealt again, uniformly, from those tiles and the undrawn
    wall together (bonus tiles stay in the wall), and an open discard's claim window asked again of
    them: an oracle that knows some hands and not others."""
    dealt, rng = reordered(state, seed, r)
    if keep == "all" or (dealt.window is not None and dealt.window.kind != "discard"):
        return dealt  # (a kong-robbing or eighth-flower window: the true hands, as the full oracle)
    ready = ready_seats(state, seat)
    again = [s for s, st in enumerate(state.seats) if s != seat and st.drawn is None and st.concealed
             and (s in ready) == (keep == "unready")]
    if not again:
        return dealt
    lo, hi = dealt.front, len(dealt.wall) - dealt.back
    pool = [x for s in again for x in dealt.seats[s].concealed] + list(dealt.wall[lo:hi])
    playing = [x for x in pool if x < NUM_PLAYING]
    bonus = [x for x in pool if x >= NUM_PLAYING]
    rng.shuffle(playing)
    seats = list(dealt.seats)
    at = 0
    for s in again:
        hand = tuple(sorted(playing[at:at + len(seats[s].concealed)]))
        seats[s] = dataclasses.replace(seats[s], concealed=hand,
                                       waits=seat_waits(hand) if len(hand) % 3 == 1 else None)
        at += len(hand)
    rest = playing[at:] + bonus
    rng.shuffle(rest)
    wall = list(dealt.wall)
    wall[lo:hi] = rest
    new = dataclasses.replace(dealt, wall=tuple(wall), seats=tuple(seats))
    w = new.window
    if w is None:
        return new
    # a claim window's options came from the true hands: asked again of the hands as dealt now
    b = Builder(dataclasses.replace(new, phase=TURN, turn=w.source, window=None, window_wins=(None,) * 4))
    claims.open_discard_window(b, w.source, w.tile)
    again_asked = b.freeze(new.version)
    if again_asked.window is None or again_asked.window.options[seat] != w.options[seat]:
        raise ValueError("the seat's claim window changed when other hands were dealt again")
    return again_asked


def oracle_values(state: HandState, seat: int, cands: Sequence[Action], deals: int,
                  seed: int, keep: str = "all") -> list[tuple[float, float]]:
    """(mean, standard error) of each candidate's result minus ``cands[0]``'s for ``seat``, the search's
    quick rollouts played from the *true* hands (the undrawn wall reordered ``deals`` times): the
    model with nothing left to infer about the hidden hands; with ``keep`` (:func:`redealt`) only some
    of them true (ValueError: the lean model cannot play this state)."""
    diffs: list[list[float]] = [[] for _ in cands]
    policies = [lean_quick_policy] * 4
    for r in range(deals):
        start = sim_of(redealt(state, seat, keep, seed, r))
        mine = {(a.kind, a.tile): a for a in start.options(seat)}
        nets = []
        for a in cands:
            sim = start.copy()
            sim.step(mine[(a.kind, a.tile)])
            end = lean_playout(sim, policies, max_steps=4000)
            if end is None:
                raise ValueError("the lean model cannot play this hand to its end")
            nets.append(float(end.ledger[seat]))
        for i, net in enumerate(nets):
            diffs[i].append(net - nets[0])
    return [estimate(d)[:2] for d in diffs]


def learned_values(view: View, legal: Sequence[Action], cands: Sequence[Action], key: int,
                   rules: RuleSet) -> list[float]:
    """Each candidate's learned advantage of a discard over ``cands[0]`` (:mod:`sgmahjong.bots.advantage`;
    0 where the model has no value: a claim, a kong, a discard outside ``strong``'s best three)."""
    turn = read_turn(view, legal, rules, StrongBot(key, rules))
    if turn is None or cands[0].kind != "discard" or cands[0].tile != turn.tiles[0]:
        return [0.0] * len(cands)
    return advantages(turn, cands)


def one_hand(h: int, seed: int, real_deals: int, models: Sequence[str],
             known: Sequence[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Hand ``h``'s searched decisions, each candidate valued from the true hand and by each model (the
    real values taken from ``known``, the hand's rows of an earlier run on the same hands, if given)."""
    rules = RuleSet()
    seat, points = searched_points(h, seed, DEALS)
    rows: list[dict[str, Any]] = []
    for k, (true_state, view, legal) in enumerate(points):
        key = (seed + h) * 1000 + k
        judge = ExpertBot(JUDGE_SEED + key, rules, budget_ms=None, max_rounds=1)
        cands = judge.review_candidates(view, legal)
        try:
            seen = knowledge(view)
            plain = table(seen, rules)
        except InconsistentViewError:
            continue
        tables = {(*judge.dealing().values(), judge.ready): plain}  # by the searches' dealing options
        turn = any(a.kind == "discard" for a in legal)
        row: dict[str, Any] = {"hand": h, "kind": "turn" if turn else "claim"}
        if known is None:
            real = [estimate(d)[:2] for d in real_values(true_state, seat, cands, real_deals, REAL_SEED + key,
                                                         rules)]
            row |= {"real": [m for m, _ in real], "real_se": [se for _, se in real]}
        else:
            same = known[len(rows)] if len(rows) < len(known) else {}
            if same.get("kind") != row["kind"] or len(same.get("real", ())) != len(cands):
                raise ValueError(f"hand {h}: the decisions differ from those of the known rows")
            row |= {"real": same["real"], "real_se": same["real_se"]}
        for name in models:
            timing: dict[str, float] = {}
            cls, deals, options = MODELS[name]
            if cls == LEARNED:
                est = [(v, 0.0) for v in learned_values(view, legal, cands, key, rules)]
                rounds, playouts = 0, 0
            elif isinstance(cls, str):
                est = oracle_values(true_state, seat, cands, deals, JUDGE_SEED + key,
                                    options.get("keep", "all"))
                rounds, playouts = deals, deals * len(cands)
            else:
                cpu = time.process_time()
                bot = cls(key, rules, budget_ms=None, max_rounds=deals, **_FIXED, **options)
                dealing = bot.dealing()
                how = (*dealing.values(), bot.ready)
                if how not in tables:
                    tables[how] = table(seen, rules, **dealing, ready=wait_chances(view) if bot.ready else ())
                tb = tables[how]
                if name in KNOWN:
                    chances, odds = known_ready(true_state, seat, tb.ready, KNOWN[name])
                    tb = dataclasses.replace(table(seen, rules, **dealing, ready=chances), odds=odds)
                ev = bot.search(tb, cands, eliminate=False)
                est = [ev.paired(i, 0)[:2] if i else (0.0, 0.0) for i in range(len(cands))]
                rounds, playouts = ev.rounds, ev.playouts
                timing["cpu_ms"] = round(1000 * (time.process_time() - cpu), 1)
            row[name] = {"mean": [m for m, _ in est], "se": [se for _, se in est], "rounds": rounds,
                         "playouts": playouts, **timing}
        rows.append(row)
    return rows


def picks(row: dict[str, Any], name: str) -> tuple[int, int]:
    """(the candidate the model's point estimate rates best, the one the expert's rule would play)."""
    m, se = row[name]["mean"], row[name]["se"]
    best = max(range(len(m)), key=lambda i: (m[i], -i))
    rule, _ = overrule(((i, m[i], se[i]) for i in range(1, len(m))), row[name]["rounds"], Z)
    return (best if m[best] > 0 else 0), rule


def report(rows: list[dict[str, Any]], hands: int, models: Sequence[str], out: Any = None) -> None:
    out = sys.stdout if out is None else out
    print(f"   {len(rows)} searched decisions over {hands} hands "
          f"({sum(1 for r in rows if r['kind'] == 'turn')} on the turn)", file=out)
    per: dict[str, tuple[list[float], list[float]]] = {}
    first_rule = [picks(r, models[0])[1] for r in rows]
    for name in models:
        best, rule, either = [0.0] * hands, [0.0] * hands, [0.0] * hands
        over = over_either = 0
        for r, f in zip(rows, first_rule, strict=True):
            b, z = picks(r, name)
            best[r["hand"]] += r["real"][b]
            rule[r["hand"]] += r["real"][z]
            either[r["hand"]] += r["real"][f or z]
            over += z != 0
            over_either += (f or z) != 0
        per[name] = best, rule
        pairs = [(r[name]["mean"][i], r["real"][i]) for r in rows for i in range(1, len(r["real"]))]
        mm = sum(m * m for m, _ in pairs)
        slope = sum(m * x for m, x in pairs) / mm if mm else math.nan
        corr = _corr(pairs)
        close = _corr([(r[name]["mean"][i], r["real"][i]) for r in rows for i in range(1, len(r["real"]))
                       if abs(r[models[0]]["mean"][i]) < CLOSE])
        playouts = sum(r[name]["playouts"] for r in rows) / max(1, len(rows))
        cpu = sorted(r[name]["cpu_ms"] for r in rows if "cpu_ms" in r[name])
        bm, bse, _ = estimate(best)
        zm, zse, _ = estimate(rule)
        line = (f"   {name:18s} picks pay {bm:+.2f} ± {bse:.2f} a hand; at the rule "
                f"{zm:+.2f} ± {zse:.2f} ({over} overrules); slope {slope:.2f}, correlation {corr:.2f} "
                f"({close:.2f} where close); "
                f"playouts a decision {playouts:5.0f}"
                + (f", CPU a decision {cpu[len(cpu) // 2]:.0f} ms (median)" if cpu else ""))
        if name != models[0]:
            fb, fz = per[models[0]]
            db = estimate([a - b for a, b in zip(best, fb, strict=True)])
            dz = estimate([a - b for a, b in zip(rule, fz, strict=True)])
            de = estimate([a - b for a, b in zip(either, fz, strict=True)])
            line += (f"\n   {'':18s} - {models[0]}: picks {db[0]:+.2f} ± {db[1]:.2f}, "
                     f"at the rule {dz[0]:+.2f} ± {dz[1]:.2f}; "
                     f"{models[0]}'s overrules, else {name}'s ({over_either}): {de[0]:+.2f} ± {de[1]:.2f}")
        print(line, file=out)


def blend_pick(row: dict[str, Any], search: str, w: float, z: float) -> int:
    """The candidate a blend's rule plays: the one whose ``search`` mean plus ``w`` times its learned
    advantage is highest, if that is above ``z`` of the search's standard errors (over at least
    ``MIN_ROUNDS`` deals); else ``strong``'s choice (0)."""
    mean, se, adv = row[search]["mean"], row[search]["se"], row[LEARNED]["mean"]
    blended = ((i, mean[i] + w * adv[i], se[i]) for i in range(1, len(mean)))
    return overrule(blended, row[search]["rounds"], z)[0]


def blend_report(rows: list[dict[str, Any]], hands: int, search: str, blends: Sequence[tuple[float, float]],
                 out: Any = None) -> None:
    """How close the search, the learned advantage and their sum come to the real values (the turns'
    candidates), and what each blend's rule (``w``, ``z``) pays a hand against the expert's rule."""
    out = sys.stdout if out is None else out
    turns = [(r[search]["mean"][i], r[LEARNED]["mean"][i], r["real"][i]) for r in rows if r["kind"] == "turn"
             for i in range(1, len(r["real"]))]
    close = [t for t in turns if abs(t[0]) < CLOSE]
    print(f"   {len(turns)} candidates weighed at the turns; correlation with the real value "
          f"(every one / within {CLOSE:g} units of strong's choice by {search}):", file=out)
    for name, (a, b) in ((search, (1.0, 0.0)), (LEARNED, (0.0, 1.0)), (f"{search} + {LEARNED}", (1.0, 1.0))):
        print(f"   {name:28s} {_corr([(a * t[0] + b * t[1], t[2]) for t in turns]):.2f} / "
              f"{_corr([(a * t[0] + b * t[1], t[2]) for t in close]):.2f}", file=out)
    print(f"   {search} with {LEARNED}: {_corr([(t[0], t[1]) for t in turns]):.2f}", file=out)

    def pays(w: float, z: float) -> tuple[list[float], int]:
        per, n = [0.0] * hands, 0
        for r in rows:
            b = blend_pick(r, search, w, z)
            per[r["hand"]] += r["real"][b]
            n += b != 0
        return per, n

    base, n = pays(0.0, Z)
    m, se, _ = estimate(base)
    print(f"   the expert's rule (w 0, z {Z:g}) pays {m:+.2f} ± {se:.2f} a hand ({n} overrules)", file=out)
    for w, z in blends:
        per, n = pays(w, z)
        m, se, _ = estimate(per)
        d, dse, _ = estimate([a - b for a, b in zip(per, base, strict=True)])
        print(f"   blend w {w:g}, z {z:g}: pays {m:+.2f} ± {se:.2f} a hand ({n} overrules); "
              f"- the expert's rule {d:+.2f} ± {dse:.2f}", file=out)


def _corr(pairs: Sequence[tuple[float, float]]) -> float:
    n = len(pairs)
    if n < 2:
        return math.nan
    mx = sum(m for m, _ in pairs) / n
    my = sum(x for _, x in pairs) / n
    sxy = sum((m - mx) * (x - my) for m, x in pairs)
    sxx = sum((m - mx) ** 2 for m, _ in pairs)
    syy = sum((x - my) ** 2 for _, x in pairs)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.model_error", description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=HANDS)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--real-deals", type=int, default=REAL_DEALS,
                   help="the real values' wall reorderings per decision")
    p.add_argument("--models", default="quick200,quick50,strong50", help=f"of {', '.join(MODELS)}")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", metavar="FILE", help="write every valued decision to FILE (JSON lines)")
    p.add_argument("--rows", metavar="FILE", help="report the decisions an --out FILE holds (none played)")
    p.add_argument("--real-from", metavar="FILE",
                   help="take the real values from an --out FILE of the same hands (only the models played)")
    p.add_argument("--blend", metavar="W:Z,...", default="",
                   help="also price rules blending the first search with 'learned' (both in --models)")
    args = p.parse_args([] if argv is None else argv)
    models = [x.strip() for x in args.models.split(",") if x.strip()]
    unknown = [x for x in models if x not in MODELS]
    if unknown or not models:
        p.error(f"--models: unknown {', '.join(unknown) or '(none)'}; models: {', '.join(MODELS)}")
    if args.hands < 2 or args.real_deals < 2:
        p.error("--hands and --real-deals: at least 2")
    try:
        blends = [(float(w), float(z)) for w, z in (x.split(":") for x in args.blend.split(",") if x.strip())]
    except ValueError:
        p.error(f"--blend: pairs W:Z of numbers, got {args.blend!r}")
    searches = [m for m in models if m != LEARNED]
    if blends and (LEARNED not in models or not searches):
        p.error(f"--blend: --models needs {LEARNED!r} and a search")
    start = time.perf_counter()
    if args.rows:
        try:
            rows = read_rows(args.rows)
        except (OSError, ValueError) as e:
            p.error(f"--rows: {e}")
        missing = [m for m in models if any(m not in r for r in rows)]
        if not rows or missing:
            p.error(f"--rows: {args.rows} holds no decisions valued by {', '.join(missing or models)}")
        hands = hands_of(rows)
    else:
        print(f"model error: {args.hands} hands from seed {args.seed}, real values on {args.real_deals} "
              f"reorderings", flush=True)
        known: dict[int, list[dict[str, Any]]] = {}
        if args.real_from:
            try:
                for r in read_rows(args.real_from):
                    known.setdefault(r["hand"], []).append(r)
            except (OSError, ValueError, KeyError) as e:
                p.error(f"--real-from: {e}")
            if any(h not in known for h in range(args.hands)):
                p.error(f"--real-from: {args.real_from} holds no decisions of some of the {args.hands} hands")
        try:
            tasks = [(h, args.seed, args.real_deals, models, known.get(h) if known else None)
                     for h in range(args.hands)]
            rows = run_hands(one_hand, tasks, args.workers, args.out)
        except ValueError as e:  # the kept rows' decisions are not these hands'
            p.error(f"--real-from: {e}")
        hands = args.hands
    report(rows, hands, models)
    if blends:
        blend_report(rows, hands, searches[0], blends)
    print(f"   ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
