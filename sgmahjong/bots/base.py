"""What every bot shares: the :class:`Bot` interface and the shape of an action it chooses from.

A bot sees exactly what a human player sees: the engine's ``player_view(state, seat)`` dict and the
list of ``legal_actions(state, seat)``. It returns one of those legal actions, unchanged. It never
holds a reference to the game state (the view is a plain JSON-able dict).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ..errors import SgMahjongError
from ..rules import RuleSet
from ..tiles import Tile


class ActionLike(Protocol):
    """The engine's ``Action`` as a bot reads it (seat, kind, tile); bots never build actions."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def tile(self) -> Tile | None: ...


A = TypeVar("A", bound=ActionLike)

View = dict[str, Any]


class Bot:
    """A computer player. ``choose`` picks one action of ``legal`` given the seat's ``view``.

    Subclasses override :meth:`decide`; :meth:`choose` checks the inputs and guarantees the answer is
    one of the legal actions. Randomness comes only from ``self.rng`` (seeded). ``rules`` is the
    table's rule set: public knowledge (every player knows the house rules), not part of the view.
    """

    level = "base"

    def __init__(self, seed: int = 0, rules: RuleSet | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.rules = rules if rules is not None else RuleSet()
        self._rules_key: tuple[tuple[str, str], ...] | None = None
        self._view_rules = self.rules

    def table_rules(self, view: View) -> RuleSet:
        """The table's rules: the view's ``rules`` dict when it carries one, else ``self.rules``."""
        data = view.get("rules")
        if not isinstance(data, dict):
            return self.rules
        key = tuple(sorted((str(k), repr(v)) for k, v in data.items()))
        if key != self._rules_key:
            try:
                self._view_rules = RuleSet.from_dict(dict(data))
            except (SgMahjongError, TypeError):
                self._view_rules = self.rules
            self._rules_key = key
        return self._view_rules

    def choose(self, view: View, legal: Sequence[A]) -> A:
        """One of ``legal`` (the very object); raises ``ValueError`` if there is nothing to choose."""
        if not legal:
            raise ValueError("the bot has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        choice = self.decide(view, legal)
        for a in legal:
            if a is choice:
                return a
        # A subclass returned an equal but different object: hand back the legal one.
        for a in legal:
            if a == choice:
                return a
        return legal[0]

    def decide(self, view: View, legal: Sequence[A]) -> A:  # pragma: no cover - overridden
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
