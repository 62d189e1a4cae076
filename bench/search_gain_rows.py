"""Where two players of ``bench.bench_search_gain`` choose differently, and what it pays: its rows (one
per searched decision, as ``--out`` writes them) split by the kind of decision (a turn or a claim
window) and by which of the two overrules ``strong``, and by the candidate the second one picks (0:
``strong``'s choice, 1 and on: its next best discards, in the order the judge's candidates hold them).
Each line is the second player's real-judge result minus the first one's there, per hand over the
hands (a hand without such a decision counts 0), with its standard error paired over the hands; the
lines of a split add up to the whole difference.

    python -m bench.bench_search_gain --rows FILE --players expert,combined
"""

from __future__ import annotations

import functools
import gzip
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from bench.bench_deal_progress import STAGES
from sgmahjong.bots.evaluation import estimate

Row = dict[str, Any]


def read_rows(path: str) -> list[Row]:
    """The rows of a results file (JSON lines, gzipped if its name ends in ``.gz``); a line that is not
    a row is a clear error."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as packed:
            text = packed.read()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{n}: not a row of JSON ({e.msg})") from None
        if not isinstance(row, dict) or "hand" not in row or "kind" not in row:
            raise ValueError(f"{path}:{n}: not a decision row (no hand or kind)")
        rows.append(row)
    return rows


def players_of(rows: Sequence[Row]) -> list[str]:
    """The players the rows hold, in their order in the first row (a player's entry is the one that
    holds a pick; the others are the decision's context)."""
    return [k for k, v in rows[0].items() if isinstance(v, dict) and "pick" in v] if rows else []


def hands_of(rows: Sequence[Row]) -> int:
    """How many hands the rows span (hands are numbered from 0; one without a searched decision has
    no row, so the count is the highest number plus one)."""
    return 1 + max((int(r["hand"]) for r in rows), default=-1)


def per_hand(rows: Sequence[Row], hands: int, name: str) -> list[float]:
    """What the real judge says ``name``'s overrules among ``rows`` paid in each of ``hands`` hands (0 in
    a hand without any)."""
    per = [0.0] * hands
    for r in rows:
        per[r["hand"]] += r[name]["real"]
    return per


def paired(rows: Sequence[Row], hands: int, first: str, second: str,
           where: Callable[[Row], bool]) -> tuple[int, float, float]:
    """The decisions matching ``where``, and ``second``'s real-judge result minus ``first``'s there, per
    hand over ``hands`` hands, with its standard error over the hands."""
    per = [0.0] * hands
    n = 0
    for r in rows:
        if where(r):
            n += 1
            per[r["hand"]] += r[second]["real"] - r[first]["real"]
    mean, se, _ = estimate(per)
    return n, mean, se


def _who(r: Row, first: str, second: str) -> str:
    """Which of two players overrules ``strong`` at a decision where they choose differently: ``second``,
    ``first`` or ``both``."""
    if not r[first]["pick"]:
        return "second"
    return "first" if not r[second]["pick"] else "both"


def differences(rows: Sequence[Row], hands: int, first: str, second: str, out: TextIO | None = None) -> None:
    """Print (to ``out``, standard output if None) where ``second`` chooses differently from ``first``,
    split two ways (module docstring)."""
    out = sys.stdout if out is None else out
    differ = [r for r in rows if r[first]["pick"] != r[second]["pick"]]

    def line(label: str, where: Callable[[Row], bool]) -> None:
        n, mean, se = paired(differ, hands, first, second, where)
        if n:
            print(f"     {label:58s} {n:5d}  {mean:+.2f} ± {se:.2f} a hand", file=out)

    n, mean, se = paired(differ, hands, first, second, lambda r: True)
    print(f"   where {second} and {first} choose differently: {n} decisions, {second} - {first} "
          f"{mean:+.2f} ± {se:.2f} a hand", file=out)
    labels = {"second": f"{second} overrules strong, {first} does not",
              "first": f"{first} overrules strong, {second} does not",
              "both": "both overrule, to different choices"}
    for kind, at in (("turn", "at a turn"), ("claim", "in a claim window")):
        for who, label in labels.items():
            line(f"{at}: {label}", functools.partial(_split, kind=kind, who=who, first=first, second=second))
    for i in sorted({int(r[second]["pick"]) for r in differ}):
        line(f"{second} plays candidate {i}" + (" (strong's choice)" if i == 0 else ""),
             functools.partial(_picks, player=second, pick=i))


def _split(r: Row, *, kind: str, who: str, first: str, second: str) -> bool:
    return bool(r["kind"] == kind and _who(r, first, second) == who)


def _picks(r: Row, *, player: str, pick: int) -> bool:
    return bool(r[player]["pick"] == pick)


def _stage(r: Row) -> tuple[int, str]:
    """The stage of the hand at the decision, by the stages of :mod:`bench.bench_deal_progress`."""
    i = next(i for i, (_, above) in enumerate(STAGES) if int(r["wall"]) > above)
    name, above = STAGES[i]
    if i == 0:
        return i, f"{name} (more than {above} tiles left)"
    upper = STAGES[i - 1][1]
    return i, f"{name} ({above + 1} to {upper})" if above >= 0 else f"{name} ({upper} or fewer)"


def _ready(r: Row) -> tuple[int, str]:
    n = len(r["waits"])
    return n, f"{n or 'no'} other seat{'s' * (n > 1)} one tile from winning"


def _deals_in(r: Row, i: int) -> bool:
    """Whether candidate ``i``'s tile is among the waits of a seat one tile from winning (by shape)."""
    tile = r["tiles"][i] if i < len(r["tiles"]) else None
    return tile is not None and any(tile in w for w in r["waits"])


def _risk(r: Row, player: str) -> tuple[int, str]:
    pick = int(r[player]["pick"])
    if r["kind"] != "turn":
        return 5, "a claim window"
    if not pick:
        return 4, "a turn, strong's discard kept"
    mine, base = _deals_in(r, pick), _deals_in(r, 0)
    return {(False, False): (0, "an overrule, neither discard in a ready seat's waits"),
            (True, False): (1, "an overrule into a ready seat's waits, strong's discard not"),
            (False, True): (2, "an overrule out of them: strong's discard in, its own not")
            }.get((mine, base), (3, "an overrule, both discards in a ready seat's waits"))


def by_context(rows: Sequence[Row], hands: int, player: str, out: TextIO | None = None) -> None:
    """Print (to ``out``, standard output if None) what ``player``'s overrules pay (real judge, per hand
    over the hands, with its standard error) split three ways by the true hand at the decision: the
    stage of the hand, how many other seats were one tile from winning, and whether the discard it
    played instead of ``strong``'s was in a ready seat's waits; the lines of a split add up to the
    whole. Rows written before the context was recorded hold none."""
    out = sys.stdout if out is None else out
    rows = [r for r in rows if "wall" in r]
    if not rows:
        print("   no row holds the decision's context (written before it was recorded)", file=out)
        return
    print(f"   where {player}'s overrules pay, by the true hand at the decision:", file=out)
    for title, key in (("the stage", _stage), ("the other seats", _ready),
                       ("the decision", functools.partial(_risk, player=player))):
        print(f"     by {title}:", file=out)
        groups: dict[tuple[int, str], list[Row]] = {}
        for r in rows:
            groups.setdefault(key(r), []).append(r)
        for (_, label), match in sorted(groups.items()):
            mean, se, _ = estimate(per_hand(match, hands, player))
            overrules = sum(1 for r in match if r[player]["pick"])
            print(f"       {label:62s} {len(match):5d} decisions, {overrules:4d} overrules  "
                  f"{mean:+.2f} ± {se:.2f} a hand", file=out)
