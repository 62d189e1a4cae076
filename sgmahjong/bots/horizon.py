"""A learned value of an imagined hand at a horizon, for rollouts cut short (the expert's ``cut`` option, off
by default).

A rollout of the expert's search plays an imagined hand (:class:`~.lean.Sim`) to its end with the
quick policy, and the seat's net payment at the end is the value of the candidate it started from.
Most of a rollout's time goes on the later turns, and most of the spread of its results too (who wins
in the end). :func:`cut_result` plays only the first ``steps`` decisions and adds, for the rest, what
a linear model expects the seat's net payment still to change by under the quick policy:
:func:`value`, over the inputs :data:`NAMES` of the hand as it stands (each seat's distance from a
complete hand, whether it is one tile from winning, the tai it already shows, the sets it has shown;
the other seats' as a group; the wall). Or (the expert's ``horizon="network"``) a small network over
those and the :data:`WIDE_NAMES` inputs: :func:`network_value`. The weights are in
:mod:`.horizon_weights` and :mod:`.horizon_network`, made by ``make train-horizon``
(``bench/train_horizon.py``: quick playouts from seeded decision points, a fixed seed). Compiled with
the hot path (:mod:`sgmahjong.native`).

Measured (docs/expert-levers.md, "Rollouts cut short"): the cut search is closer to what the table
pays candidate by candidate, but its overrules at the expert's rule pay less than those of rollouts
played to the end, with either value, so the option stays off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bao import bonus_tai, honour_value
from ..game.state import ENDED
from ..melds import MeldKind
from . import efficiency as ef
from .horizon_network import HIDDEN, MEAN, OUT, OUT_BIAS, SCALE
from .horizon_weights import WEIGHTS
from .lean import LeanPolicy, Sim
from .lean_seat import TILES

__all__ = ["NAMES", "VALUES", "WIDE_NAMES", "cut_result", "features", "horizon_values", "network_value",
           "play_on", "seat_facts", "value", "wide_features"]

NEAR = 6  # distances from a complete hand told apart: 0 to NEAR - 1, the last "or more"

NAMES: tuple[str, ...] = (
    "bias", "wall",
    *(f"{x}{d}" for d in range(NEAR) for x in ("dist", "dist_wall")),
    "ready", "ready_wall", "tai", "tai_ready", "tai_wall", "sets", "dealer",
    *(f"{x}{k}" for k in range(4) for x in ("others_ready", "others_ready_wall")),
    *(f"others_nearest{k}" for k in range(4)),
    "others_tai", "others_ready_tai", "others_ready_tai_wall", "to_move",
)
"""The model's inputs for a seat (:func:`features`), in the order of :data:`WEIGHTS`."""

Facts = tuple[int, int, int, int]  # distance, sets shown, tai shown, one tile from winning


def seat_facts(sim: Sim, s: int) -> Facts:
    """Seat ``s``'s (distance from a complete hand, sets shown, tai its sets and bonus tiles already
    score, 1 if it is one tile from winning)."""
    st = sim.seats[s]
    n = len(st.melds)
    wind = (s - sim.dealer) % 4
    shown = sum(honour_value(m.tile, wind, sim.prevailing) for m in st.melds if m.kind is not MeldKind.CHOW)
    tai = bonus_tai([TILES[t] for t in st.bonus], wind) + shown
    return ef.distance(st.c, n), n, tai, 1 if st.waits else 0


def features(sim: Sim, s: int, facts: Sequence[Facts]) -> list[float]:
    """Seat ``s``'s inputs (:data:`NAMES`) from every seat's :func:`seat_facts`."""
    d, n, tai, ready = facts[s]
    wall = sim.remaining / 100.0
    others = [facts[o] for o in range(4) if o != s]
    ready_others = sum(o[3] for o in others)
    nearest = min(o[0] for o in others)
    out = [1.0, wall]
    for k in range(NEAR):
        x = 1.0 if min(d, NEAR - 1) == k else 0.0
        out += [x, x * wall]
    out += [float(ready), ready * wall, float(tai), float(tai * ready), tai * wall, float(n),
            1.0 if s == sim.dealer else 0.0]
    for k in range(4):
        x = 1.0 if ready_others == k else 0.0
        out += [x, x * wall]
    out += [1.0 if min(nearest, 3) == k else 0.0 for k in range(4)]
    ready_tai = float(sum((o[2] + 1) * o[3] for o in others))
    out += [max(o[2] + 0.5 * o[1] for o in others), ready_tai, ready_tai * wall,
            1.0 if sim.awaiting() == s else 0.0]
    return out


WIDE_NAMES = (
    "live", "live2", "live_share", "waits", "others_live", "others_live_most", "others_live_share",
    "one_suit", "one_suit_ready", "suit_share", "suit_share_ready", "value_pairs", "value_pairs_ready",
    "better", "better_share", "better_kinds",
)
"""More inputs, for the network value (:func:`network_value`): the live copies of the seat's waits in
the undrawn wall (and squared, and as a share of it), how many faces it waits on, the other seats'
live waits (together, the most, as a share), whether its suit tiles are of one suit, the share of its
tiles in its longest suit, its pairs or more of value honours (each also when ready), and its
acceptance: the tiles in the undrawn wall that would bring it closer (and as a share, and their
kinds)."""


def wide_features(sim: Sim, s: int) -> list[float]:
    """Seat ``s``'s :data:`WIDE_NAMES` inputs."""
    wall = sim.wall
    undrawn = wall[sim.front:len(wall) - sim.back - 15]
    size = max(1, len(undrawn))
    live = [sum(1 for t in undrawn if t in w) if (w := sim.seats[o].waits) else 0 for o in range(4)]
    others = [live[o] for o in range(4) if o != s]
    st = sim.seats[s]
    wind = (s - sim.dealer) % 4
    suits = [0, 0, 0]
    honours = 0
    for t, n in enumerate(st.c):
        if t < 27:
            suits[t // 9] += n
        else:
            honours += n
    for m in st.melds:
        t = int(m.tile)
        if t < 27:
            suits[t // 9] += 3
        else:
            honours += 3
    one_suit = 1.0 if sum(1 for x in suits if x) <= 1 else 0.0
    share = max(suits) / max(1, sum(suits) + honours)
    pairs = sum(1 for t in {27 + wind, 27 + sim.prevailing, 31, 32, 33} if st.c[t] >= 2)
    ready = 1.0 if st.waits else 0.0
    n = len(st.melds)
    c = st.c
    now = ef.distance(c, n)
    better: set[int] = set()
    for t in range(34):
        if c[t] < 4:
            c[t] += 1
            if ef.distance(c, n) < now:
                better.add(t)
            c[t] -= 1
    accept = sum(1 for t in undrawn if t in better)
    mine = live[s]
    return [mine / 4.0, mine * mine / 16.0, 10.0 * mine / size, len(st.waits or ()) / 4.0,
            sum(others) / 4.0, max(others) / 4.0, 10.0 * sum(others) / size,
            one_suit, one_suit * ready, share, share * ready, float(pairs), pairs * ready,
            accept / 10.0, 10.0 * accept / size, len(better) / 10.0]


def network_value(sim: Sim, seat: int) -> float:
    """:func:`value` by the small network of :mod:`.horizon_network` over the value's inputs and the
    :data:`WIDE_NAMES` ones (0 at the end)."""
    if sim.phase == ENDED:
        return 0.0
    facts = [seat_facts(sim, s) for s in range(4)]
    x = features(sim, seat, facts) + wide_features(sim, seat)
    h = [(x[i] - MEAN[i]) / SCALE[i] for i in range(len(x))]
    for rows, bias in HIDDEN:
        h = _layer(rows, bias, h)
    out = OUT_BIAS
    for i in range(len(h)):
        out += OUT[i] * h[i]
    return out


def _layer(rows: tuple[tuple[float, ...], ...], bias: tuple[float, ...], h: list[float]) -> list[float]:
    """A hidden layer: each unit's weighted sum of ``h`` and its bias, rectified (plain loops: what
    the compiled module runs fastest)."""
    out: list[float] = []
    n = len(h)
    for j in range(len(rows)):
        row = rows[j]
        acc = bias[j]
        for i in range(n):
            acc += row[i] * h[i]
        out.append(acc if acc > 0.0 else 0.0)
    return out


def value(sim: Sim, seat: int) -> float:
    """What ``seat``'s net payment is expected still to change by, to the end of the hand (0 at the end)."""
    if sim.phase == ENDED:
        return 0.0
    facts = [seat_facts(sim, s) for s in range(4)]
    return sum(w * x for w, x in zip(WEIGHTS, features(sim, seat, facts), strict=True))


def play_on(sim: Sim, policies: Sequence[LeanPolicy], steps: int) -> None:
    """``sim`` played on in place for at most ``steps`` decisions (``policies[s]`` deciding for each
    seat, a lone option taken without asking), or to the end of the hand."""
    for _ in range(steps):
        if sim.phase == ENDED:
            return
        s = sim.awaiting()
        legal = sim.options(s)
        sim.step(legal[0] if len(legal) == 1 else policies[s](sim, s, legal))


def cut_result(sim: Sim, policies: Sequence[LeanPolicy], steps: int, seat: int,
               rest: Callable[[Sim, int], float] | None = None) -> float:
    """``seat``'s net payment after ``sim`` is played on for at most ``steps`` decisions in place
    (:func:`play_on`), plus ``rest`` (by default :func:`value`) of the rest: the whole playout's result
    when the hand ends within them."""
    play_on(sim, policies, steps)
    return sim.ledger[seat] + (value if rest is None else rest)(sim, seat)


VALUES: dict[str, Callable[[Sim, int], float]] = {"linear": value, "network": network_value}
"""The values a cut rollout may end on, by name (the expert's ``horizon`` option)."""


def horizon_values() -> dict[str, Callable[[Sim, int], float]]:
    """:data:`VALUES` (for modules that would otherwise hold a second name for the table)."""
    return VALUES
