"""The rollout policies on a :class:`~.lean.Sim`: :func:`forward.quick_choice` in each style the
expert's reading tells apart (:data:`forward.STYLE_QUICK`, ``STYLE_CAUTIOUS``, ``STYLE_EAGER``), for
:func:`.lean.lean_playout`. Compiled with :mod:`.lean`."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.actions import Action
from .forward import STYLE_CAUTIOUS, STYLE_EAGER, STYLE_HONOURS, STYLE_QUICK, quick_choice
from .lean import LeanPolicy, Sim
from .lean_seat import DISCARD

__all__ = ["lean_cautious_policy", "lean_eager_policy", "lean_honours_policy", "lean_quick_policy",
           "lean_style_policy"]


def lean_quick_policy(sim: Sim, seat: int, legal: Sequence[Action]) -> Action:
    """:func:`forward.quick_policy` on a :class:`Sim` (the same choice in the same hand: a test
    checks; both are :func:`forward.quick_choice`): always win; discard to the lowest distance (ties by
    copies and neighbours), folding to tiles a shown threat discarded when far from winning; kong when
    it keeps the distance; pong or chow when it brings the hand closer."""
    return _lean_choice(sim, seat, legal, STYLE_QUICK)


def _lean_choice(sim: Sim, seat: int, legal: Sequence[Action], style: int) -> Action:
    """:func:`forward.quick_choice` in ``style`` for ``seat`` of ``sim``."""
    st = sim.seats[seat]
    w = sim.w_kind
    return quick_choice(st.c[:], len(st.melds), None if w is None else sim.w_tile, sim.seats,
                        sim.remaining, seat, sim.dealer, sim.prevailing, legal, DISCARD[seat], style)


def lean_cautious_policy(sim: Sim, seat: int, legal: Sequence[Action]) -> Action:
    """The cautious variant of the quick policy (:data:`forward.STYLE_CAUTIOUS`): folds unless ready
    against a seat showing two sets or against everyone late; claims nothing but a win."""
    return _lean_choice(sim, seat, legal, STYLE_CAUTIOUS)


def lean_eager_policy(sim: Sim, seat: int, legal: Sequence[Action]) -> Action:
    """The eager variant of the quick policy (:data:`forward.STYLE_EAGER`): claims and declares every
    set it may, never folds."""
    return _lean_choice(sim, seat, legal, STYLE_EAGER)


def lean_honours_policy(sim: Sim, seat: int, legal: Sequence[Action]) -> Action:
    """The quick policy with lone honours discarded first (:data:`forward.STYLE_HONOURS`)."""
    return _lean_choice(sim, seat, legal, STYLE_HONOURS)


def lean_style_policy(style: int) -> LeanPolicy:
    """The rollout policy of a style read by :mod:`.reading` (``forward.STYLE_*``)."""
    if style == STYLE_CAUTIOUS:
        return lean_cautious_policy
    if style == STYLE_EAGER:
        return lean_eager_policy
    if style == STYLE_HONOURS:
        return lean_honours_policy
    assert style == STYLE_QUICK, style
    return lean_quick_policy
