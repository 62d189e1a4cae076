"""A match: rounds of prevailing wind, dealer rotation, a ledger over the hands (RULES.md §3)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..rules import RuleSet
from ..tiles import Tile
from .actions import Action, IllegalActionError
from .engine import apply, new_hand
from .events import Event
from .state import HandState
from .view import SeatViews, player_view

_WINDS = "ESWN"


@dataclass(frozen=True, slots=True)
class MatchState:
    """``hand`` is the current hand; ``ledger`` sums the finished hands (and the current one's
    payments so far are in ``hand.ledger``). ``hand_number`` counts from 1. ``round`` is the
    prevailing wind 0-3. Without ``secret`` arguments the hands' seeds come from the match seed (self-play,
    tests: the match replays from it); the server gives each hand its own fresh secret instead
    (RULES.md §2: no hand's revealed secret may help predict another hand's wall)."""

    rules: RuleSet
    seed: int
    hand: HandState
    round: int = 0
    dealer: int = 0
    hand_number: int = 1
    ledger: tuple[int, ...] = (0, 0, 0, 0)
    finished: bool = False
    history: tuple[dict[str, Any], ...] = ()
    pause_windows: bool = False  # every hand in the no-tells mode (engine.py)

    @property
    def version(self) -> int:
        return self.hand.version

    @property
    def total_ledger(self) -> tuple[int, ...]:
        """Finished hands plus the current hand's payments so far."""
        if self.finished:
            return self.ledger
        return tuple(a + b for a, b in zip(self.ledger, self.hand.ledger, strict=True))


def hand_seed(match_seed: int, hand_number: int) -> int:
    """The seed of a match's ``hand_number``-th hand (derived, so the match replays exactly)."""
    return random.Random(f"{match_seed}:{hand_number}").getrandbits(64)


def new_match(rules: RuleSet, *, seed: int, secret: str | None = None, wall: list[Tile] | None = None,
              pause_windows: bool = False) -> tuple[MatchState, list[Event]]:
    """A match's first hand: shuffled from ``secret`` (a hand secret, 64 hex digits) if given, else
    from a seed derived from the match ``seed``; a stacked ``wall`` replaces the shuffle.
    ``pause_windows``: every hand in the no-tells mode (live tables)."""
    hand, events = new_hand(rules, seed=secret if secret is not None else hand_seed(seed, 1), dealer=0,
                            prevailing=0, wall=wall, pause_windows=pause_windows)
    return MatchState(rules=rules, seed=seed, hand=hand, pause_windows=pause_windows), events


def apply_match(match: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply an action to the current hand."""
    if match.finished:
        raise IllegalActionError("the match has ended")
    hand, events = apply(match.hand, action)
    return replace(match, hand=hand), events


def next_dealer(hand: HandState) -> tuple[int, bool]:
    """Who deals next and whether the deal passed: the dealer keeps it after his win or a drawn hand
    without kongs."""
    result = hand.result or {}
    if result.get("drawn_game"):
        keeps = not result.get("kong_made")
    else:
        keeps = result.get("winner") == hand.dealer
    if keeps:
        return hand.dealer, False
    return (hand.dealer + 1) % 4, True


def next_hand(match: MatchState, *, secret: str | None = None) -> tuple[MatchState, list[Event]]:
    """Settle the ended hand into the match ledger and deal the next hand (or finish the match),
    shuffled from ``secret`` if given, else from a seed derived from the match seed."""
    hand = match.hand
    if not hand.ended:
        raise IllegalActionError("the hand has not ended")
    if match.finished:
        raise IllegalActionError("the match has ended")
    ledger = tuple(a + b for a, b in zip(match.ledger, hand.ledger, strict=True))
    summary = {"hand": match.hand_number, "round": match.round, "dealer": match.dealer,
               "ledger": list(hand.ledger), "winner": (hand.result or {}).get("winner")}
    history = (*match.history, summary)
    dealer, passed = next_dealer(hand)
    if match.rules.rotate_every_hand:
        dealer, passed = (hand.dealer + 1) % 4, True
    rnd = match.round
    if passed and dealer == 0:
        rnd += 1
    hands = match.rules.match_hands
    if (hands and match.hand_number >= hands) or (not hands and rnd >= match.rules.rounds):
        done = replace(match, ledger=ledger, finished=True, history=history)
        return done, [Event("match_end", None, {"ledger": list(ledger), "standings": standings(ledger)})]
    number = match.hand_number + 1
    seed = secret if secret is not None else hand_seed(match.seed, number)
    rnd %= 4  # a match of match_hands may go round the winds again
    new, events = new_hand(match.rules, seed=seed, dealer=dealer, prevailing=rnd,
                           pause_windows=match.pause_windows)
    return replace(match, hand=new, round=rnd, dealer=dealer, hand_number=number, ledger=ledger,
                   history=history), events


#: the version of :func:`match_snapshot`'s layout (a snapshot of another version is not used)
SNAPSHOT_VERSION = 1


def match_snapshot(match: MatchState) -> dict[str, Any]:
    """What rebuilds ``match`` at the start of its current hand, besides the rules, the match seed
    and the hand's own secret (stored with the hand): round, dealer, hand number, the ledger of the
    finished hands and their history. JSON-ready; :func:`match_from_snapshot` is its inverse.
    Only a match whose current hand has just been dealt (no action yet) is rebuilt exactly."""
    return {
        "v": SNAPSHOT_VERSION,
        "round": match.round,
        "dealer": match.dealer,
        "hand_number": match.hand_number,
        "ledger": list(match.ledger),
        "history": [dict(h) for h in match.history],
        "pause_windows": match.pause_windows,
    }


def match_from_snapshot(rules: RuleSet, snapshot: dict[str, Any], *, seed: int, secret: str | None = None,
                        ) -> tuple[MatchState, list[Event]]:
    """The match at the start of the hand of ``snapshot`` (see :func:`match_snapshot`), its hand dealt
    again from ``secret`` (the hand's stored secret) or, without one, from the match ``seed``; and
    the hand's opening events. Raises ``ValueError`` for a snapshot of another layout."""
    if snapshot.get("v") != SNAPSHOT_VERSION:
        raise ValueError(f"a match snapshot of layout {snapshot.get('v')!r}, not {SNAPSHOT_VERSION}")
    number = int(snapshot["hand_number"])
    rnd, dealer = int(snapshot["round"]), int(snapshot["dealer"])
    pause = bool(snapshot["pause_windows"])
    hand, events = new_hand(rules, seed=secret if secret is not None else hand_seed(seed, number),
                            dealer=dealer, prevailing=rnd, pause_windows=pause)
    ledger = tuple(int(x) for x in snapshot["ledger"])
    history = tuple(dict(h) for h in snapshot["history"])
    return MatchState(rules=rules, seed=seed, hand=hand, round=rnd, dealer=dealer, hand_number=number,
                      ledger=ledger, history=history, pause_windows=pause), events


def standings(ledger: tuple[int, ...] | list[int]) -> list[dict[str, int]]:
    """Seats ranked by their money, best first (ties by seat)."""
    order = sorted(range(4), key=lambda s: (-ledger[s], s))
    return [{"seat": s, "amount": ledger[s], "rank": r + 1} for r, s in enumerate(order)]


def match_view(match: MatchState, seat: int | None, *, private_awaiting: bool = True,
               seat_views: SeatViews | None = None) -> dict[str, Any]:
    """``player_view`` plus the match: round, hand number, ledger, standings when finished."""
    view = player_view(match.hand, seat, private_awaiting=private_awaiting, seat_views=seat_views)
    shared = _match_fields(match) if seat_views is None else seat_views.match_fields.of(match, _match_fields)
    view.update(shared)
    return view


def _match_fields(match: MatchState) -> dict[str, Any]:
    """The fields a match adds to every viewer's view alike."""
    return {
        "round": match.round,
        "round_wind": _WINDS[match.round],
        "hand_number": match.hand_number,
        "match_ledger": list(match.total_ledger),
        "match_finished": match.finished,
        "standings": standings(match.ledger) if match.finished else None,
    }
