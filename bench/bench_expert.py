"""The expert bot (issue 15): forward-model playouts per second — the expert's own (the lean model,
:mod:`sgmahjong.bots.lean`, with the quick policy) and each rollout policy through the engine — where
a playout's time goes (sampling a hand from a view, the model or the engine's ``apply``, perceiving
the state, the policies), a deal alone (uniform, and by the tells), the expert's decision time
(median, p99, max) at its default 100 ms budget in hands against three ``strong`` bots, the budget by
the wall clock and by the thread's CPU time, and how often its overrules of ``strong`` hold up under a
much longer search. Figures are by the wall clock and by this process's CPU time (which the other
processes of a shared machine disturb less)."""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from sgmahjong import native
from sgmahjong.bots.determinise import Table, deal_hidden, knowledge, sample_state, table
from sgmahjong.bots.expert import CLOCKS, ELIMINATE_Z, ELIMINATE_Z_TIMED, ExpertBot
from sgmahjong.bots.forward import Policy, fast_policy, perceive_state, perceiving, quick_policy
from sgmahjong.bots.greedy import GreedyBot
from sgmahjong.bots.lean import LeanPolicy, Sim, sim_of
from sgmahjong.bots.lean_policy import lean_quick_policy
from sgmahjong.bots.strong import StrongBot
from sgmahjong.game import apply, awaiting, legal_actions, new_hand, player_view
from sgmahjong.game.actions import Action
from sgmahjong.game.state import ENDED, HandState
from sgmahjong.rules import RuleSet

PLAYOUT_S = 4.0  # per rollout policy
DEALS_S = 1.0  # per way of dealing
EXPERT_S = 20.0  # per clock


def _tables(rules: RuleSet, n: int) -> list[Table]:
    """Decision points to sample from: the dealer's first turn and points a few turns in."""
    out: list[Table] = []
    bots = [StrongBot(i, rules) for i in range(4)]
    for seed in range(n):
        state, _ = new_hand(rules, seed=seed, dealer=seed % 4)
        stop = seed % 3 * 12
        for _ in range(stop):
            if state.ended:
                break
            seat = awaiting(state)[0]
            state, _ = apply(state, bots[seat].choose(player_view(state, seat), legal_actions(state, seat)))
        if state.ended:
            continue
        seat = awaiting(state)[0]
        out.append(table(knowledge(player_view(state, seat)), rules))
    return out


def _timed_playout(state: HandState, policies: Sequence[Policy], parts: dict[str, float]) -> int:
    """A playout as :func:`forward.playout`, timing the engine, the perception and the policies."""
    clock = time.perf_counter
    steps = 0
    while state.phase != ENDED:
        t0 = clock()
        seat = awaiting(state)[0]
        legal = legal_actions(state, seat)
        t1 = clock()
        if len(legal) == 1:
            action: Action = legal[0]
            t2 = t3 = t1
        else:
            pol = policies[seat]
            if pol is fast_policy or pol is quick_policy:  # no perception
                t2 = t1
                action = pol(state, seat, legal)
            else:
                perceive_state(state, seat)
                t2 = clock()
                action = pol(state, seat, legal)  # perceives again: subtract below
            t3 = clock()
        state, _ = apply(state, action)
        t4 = clock()
        parts["engine"] += (t1 - t0) + (t4 - t3)
        parts["perceive"] += t2 - t1
        parts["policy"] += (t3 - t2) - (t2 - t1)
        steps += 1
    return steps


def _timed_lean(sim: Sim, policies: Sequence[LeanPolicy], parts: dict[str, float]) -> int:
    """A playout as :func:`lean.lean_playout`, timing the model and the policies."""
    clock = time.perf_counter
    steps = 0
    while sim.phase != ENDED:
        t0 = clock()
        seat = sim.awaiting()
        legal = sim.options(seat)
        t1 = clock()
        action = legal[0] if len(legal) == 1 else policies[seat](sim, seat, legal)
        t2 = clock()
        sim.step(action)
        t3 = clock()
        parts["engine"] += (t1 - t0) + (t3 - t2)
        parts["policy"] += t2 - t1
        steps += 1
    return steps


def _lean_playouts(tables: list[Table]) -> None:
    """The expert's rollouts as it plays them: the lean model (:mod:`.lean`) with the quick policy,
    the sampled state copied into a Sim (``sample`` includes the copy)."""
    def play(state: HandState, parts: dict[str, float]) -> int:
        t0 = time.perf_counter()
        sim = sim_of(state)
        parts["sample"] += time.perf_counter() - t0
        return _timed_lean(sim, [lean_quick_policy] * 4, parts)

    _measure(tables, "lean quick", play)


def _deals(rules: RuleSet, tables: list[Table]) -> None:
    """A deal of the hidden tiles (``deal_hidden``): uniform, and by the tells (the ``tells`` option)."""
    for told in (False, True):
        tbs = [table(tb.k, rules, tells=told) for tb in tables]
        rng = random.Random(1)
        n = 0
        start, cpu0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < DEALS_S:
            deal_hidden(tbs[n % len(tbs)], rng)
            n += 1
        cpu = time.process_time() - cpu0
        print(f"   a deal, {'told' if told else 'uniform'}: {1e6 * cpu / n:.1f} us of CPU")


def _playouts(rules: RuleSet, tables: list[Table], name: str, policies: list[Policy]) -> None:
    _measure(tables, name, lambda state, parts: _timed_playout(state, policies, parts))


def _measure(tables: list[Table], name: str, play: Callable[[HandState, dict[str, float]], int]) -> None:
    """Playouts from sampled hands for ``PLAYOUT_S`` seconds, ``play`` playing each; prints their rate
    and where the time went."""
    rng = random.Random(1)
    parts = {"sample": 0.0, "engine": 0.0, "perceive": 0.0, "policy": 0.0}
    n = steps = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < PLAYOUT_S:
        tb = tables[n % len(tables)]
        t0 = time.perf_counter()
        state = sample_state(tb, rng)
        parts["sample"] += time.perf_counter() - t0
        n += 1
        if state is not None:
            steps += play(state, parts)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    total = sum(parts.values()) or 1.0
    share = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in parts.items() if v)
    print(f"   playouts, {name:<6}: {n / wall:6.1f} hands/s ({n / cpu:.1f}/s of CPU), "
          f"{steps / n:.0f} decisions per playout, {1e6 * cpu / steps:.0f} us of CPU per decision point; "
          f"time: {share}")


def _expert(rules: RuleSet, clock: str, drop_z: float | None = None, tells: bool = False) -> None:
    bot = ExpertBot(1, rules, clock=CLOCKS[clock], drop_z=drop_z, tells=tells)
    others = [StrongBot(10 + i, rules) for i in range(3)]
    times: list[float] = []
    rounds: list[int] = []
    full: list[int] = []  # deals of the searches that ran to the end of the budget (none ended early)
    over = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    seed = 0
    while time.perf_counter() - start < EXPERT_S:
        state, _ = new_hand(rules, seed=1000 + seed, dealer=seed % 4)
        seed += 1
        bots = [bot, *others]
        while not state.ended and time.perf_counter() - start < EXPERT_S:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            view = player_view(state, seat)
            if seat == 0 and len(legal) > 1:
                t0 = time.perf_counter()
                action = bot.choose(view, legal)
                dt = time.perf_counter() - t0
                if bot.stats.candidates >= 2:
                    times.append(dt)
                    rounds.append(bot.stats.rounds)
                    if bot.stats.seconds >= 0.98 * (bot.budget or 0):
                        full.append(bot.stats.rounds)
                    over += bot.stats.overruled
            else:
                action = bots[seat].choose(view, legal)
            state, _ = apply(state, action)
    cpu = time.process_time() - cpu0
    if not times:
        print("   expert: no searched decision")
        return
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    name = "expert (told deals)" if tells else "expert"
    print(f"   {name} ({1000 * (bot.budget or 0):.0f} ms, {clock} clock) vs 3 strong, {seed} hands: "
          f"{len(times)} searched decisions, time median {1000 * statistics.median(times):.1f} ms, "
          f"p99 {1000 * p99:.1f} ms, max "
          f"{1000 * times[-1]:.1f} ms; {sum(t > 0.11 for t in times)} over 110 ms; deals per decision median "
          f"{statistics.median(rounds):.0f} (max {max(rounds)}), in the {len(full)} that used the whole "
          f"budget median {statistics.median(full) if full else 0:.0f}; strong overruled {over} times; "
          f"CPU {100 * cpu / (time.perf_counter() - start):.0f}% of the wall clock")


CHECK_S = 40.0  # hands of the overrule check
CHECK_ROUNDS = 300  # deals of the confirming search


def _overrule_check(rules: RuleSet, drop_z: float | None = None, tells: bool = False) -> None:
    """How often the 100 ms search's overrules of ``strong`` hold up: each decision at which the
    expert (100 ms of CPU) chose otherwise than ``strong`` is searched again with ``CHECK_ROUNDS``
    deals and no budget (another seed); confirmed when that search picks the same action."""
    bot = ExpertBot(1, rules, clock=CLOCKS["cpu"], drop_z=drop_z, tells=tells)
    others = [StrongBot(10 + i, rules) for i in range(3)]
    searched = over = confirmed = kept = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < CHECK_S:
        state, _ = new_hand(rules, seed=3000 + seed, dealer=seed % 4)
        seed += 1
        bots = [bot, *others]
        while not state.ended:
            seat = awaiting(state)[0]
            legal = legal_actions(state, seat)
            view = player_view(state, seat)
            if seat == 0 and len(legal) > 1:
                action = bot.choose(view, legal)
                searched += bot.stats.candidates >= 2
                if bot.stats.overruled:
                    over += 1
                    big = ExpertBot(99, rules, budget_ms=None, max_rounds=CHECK_ROUNDS, drop_z=drop_z,
                                    tells=tells)
                    again = big.choose(view, legal)
                    confirmed += again == action
                    kept += not big.stats.overruled
            else:
                action = bots[seat].choose(view, legal)
            state, _ = apply(state, action)
    print(f"   overrule check, {seed} hands: {searched} searched decisions, strong overruled {over} times "
          f"at 100 ms of CPU; a {CHECK_ROUNDS}-deal search confirms {confirmed} of them and keeps "
          f"strong's choice at {kept}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_expert", description=__doc__.split("\n")[0])
    p.add_argument("--drop-z", type=float, default=None,
                   help="the expert's drop margin in standard errors (default: its own, "
                   f"{ELIMINATE_Z_TIMED:g} on a time budget; {ELIMINATE_Z:g} for the long search)")
    p.add_argument("--tells", action="store_true",
                   help="the expert deals by what the discards tell (its tells option, expert+told)")
    p.add_argument("--decisions-only", action="store_true",
                   help="only the expert's decision time and the overrule check, not the playouts")
    args = p.parse_args([] if argv is None else argv)
    compiled = [n.removeprefix("sgmahjong.") for n in native.COMPILED
                if native.is_compiled(importlib.import_module(n))]
    print(f"   compiled with mypyc (make compile): {', '.join(compiled) or 'none, pure Python'}")
    rules = RuleSet()
    tables = _tables(rules, 12)
    greedy = [perceiving(GreedyBot(i, rules).decide_perceived) for i in range(4)]
    if not args.decisions_only:
        _deals(rules, tables)
        _lean_playouts(tables)  # the expert's rollouts
        _playouts(rules, tables, "quick", [quick_policy] * 4)  # the same through the engine
        _playouts(rules, tables, "fast", [fast_policy] * 4)
        _playouts(rules, tables, "mixed", [greedy[0], fast_policy, fast_policy, fast_policy])
        _playouts(rules, tables, "greedy", greedy)
    _expert(rules, "wall", args.drop_z, args.tells)
    _expert(rules, "cpu", args.drop_z, args.tells)
    _overrule_check(rules, args.drop_z, args.tells)


if __name__ == "__main__":
    main(sys.argv[1:])
