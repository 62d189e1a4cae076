"""The server's narrow use of the game engine (``sgmahjong.game``) and the bots, in one place.

Actions cross this boundary as text (``discard 5p``) so the store, the protocol and replay share one
form; views and events are the engine's own (``match_view``, ``redact_event``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ... import game
from ...bots.base import Bot
from ...errors import SgMahjongError
from ...game import Event, HandState, MatchState
from ...game.match import match_from_snapshot, match_snapshot
from ...notation import parse_tiles
from ...rules import RuleSet
from ...tiles import Tile, full_set

Match = MatchState


def parse_wall(text: str) -> list[Tile]:
    """A stacked wall: 148 tiles in draw order (RULES.md notation, spaces allowed)."""
    tiles = parse_tiles(text.replace(" ", ""))
    if sorted(tiles) != full_set():
        raise SgMahjongError("a stacked wall must hold each of the 148 tiles exactly once")
    return tiles


def format_wall(tiles: list[Tile]) -> str:
    return " ".join(t.notation for t in tiles)


def fresh_secret() -> str:
    """A new hand's secret: 256 bits from the OS CSPRNG, as 64 hex digits (docs/wall.md)."""
    return secrets.token_hex(32)


def stored_secret(seed: str) -> str | None:
    """The hand secret a stored hand's ``seed`` holds, or ``None`` for an old hand whose integer seed
    derives from the match seed."""
    text = seed.strip().lower()
    if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
        return text
    return None


def start_match(rules: RuleSet, seed: int, wall: list[Tile] | None,
                secret: str | None = None, *, pause_windows: bool = False) -> tuple[Match, list[Event]]:
    """A new match; its first hand is shuffled from ``secret`` (a fresh one per hand in play) or, for
    test tables and old stored matches, from a seed derived from ``seed``; a stacked ``wall`` replaces
    the first hand's shuffle (test hook). ``pause_windows``: the engine's no-tells mode (live play)."""
    return game.new_match(rules, seed=seed, secret=secret, wall=wall, pause_windows=pause_windows)


def wall_hash_of(rules: RuleSet, secret: str, dealer: int, prevailing: int) -> str:
    """The commitment (docs/wall.md) of the wall a hand secret deals with this dealer and wind."""
    hand, _ = game.new_hand(rules, seed=secret, dealer=dealer, prevailing=prevailing)
    return str(hand.wall_hash)


def next_hand(match: Match, secret: str | None = None) -> tuple[Match, list[Event]]:
    """Settle the ended hand and deal the next (or finish the match: ``finished(match)``), shuffled
    from ``secret`` (or from the match seed: test tables, old stored matches)."""
    return game.next_hand(match, secret=secret)


def snapshot(match: Match) -> dict[str, Any]:
    """The match's state at the start of its current hand (stored with the hand; see ``resume_match``)."""
    result: dict[str, Any] = match_snapshot(match)
    return result


def resume_match(rules: RuleSet, snap: dict[str, Any], seed: int, secret: str | None,
                 ) -> tuple[Match, list[Event]]:
    """The match at the start of a stored hand: the hand's ``snap`` (from :func:`snapshot`), the match
    ``seed`` and the hand's own ``secret`` (None: the hand's seed derives from the match seed)."""
    return match_from_snapshot(rules, snap, seed=seed, secret=secret)


def hand_of(match: Match) -> HandState:
    return match.hand


def hand_seed(match: Match) -> int | str:
    """The current hand's seed as stored: its secret, or the integer seed derived from the match seed."""
    seed = match.hand.seed
    if seed is None:  # every hand of a match is dealt from a seed or a secret
        raise SgMahjongError("a match's hand without a seed")
    return seed


def finished(match: Match) -> bool:
    return bool(match.finished)


def apply(match: Match, seat: int, text: str) -> tuple[Match, list[Event]]:
    """Apply the action ``text`` for ``seat``; raises ``SgMahjongError`` with the reason if refused."""
    action = game.parse_action(text, seat)
    return game.apply_match(match, action)


def canonical(text: str, seat: int) -> str:
    return game.format_action(game.parse_action(text, seat))


def legal_texts(match: Match, seat: int) -> list[str]:
    return [game.format_action(a) for a in game.legal_actions(match.hand, seat)]


def closable(match: Match) -> bool:
    """A paused claim window that nobody is left to decide in: the table may close it."""
    return bool(game.closable(match.hand))


def window_source(match: Match) -> int:
    """The seat whose discard or kong opened the current claim window."""
    window = match.hand.window
    if window is None:
        raise SgMahjongError("no claim window is open")
    return int(window.source)


def is_close(text: str) -> bool:
    return text.strip().lower() == "close"


def awaiting(match: Match) -> list[int]:
    return list(game.awaiting(match.hand))


def phase(match: Match) -> str:
    return str(match.hand.phase)


def view(match: Match, seat: int | None, seat_views: game.SeatViews | None = None) -> dict[str, Any]:
    """The seat's view (``seat_views``: the table's cache of seat entries, see game.view.SeatViews)."""
    result: dict[str, Any] = game.match_view(match, seat, seat_views=seat_views)
    return result


def redact(event: Event, seat: int | None) -> dict[str, Any] | None:
    """What ``seat`` may see of ``event``; ``None``: nothing (another seat's private decision)."""
    result: dict[str, Any] | None = game.redact_event(event, seat)
    return result


def full_event(event: Event) -> dict[str, Any]:
    result: dict[str, Any] = event.to_json()
    return result


def make_bot(level: str, seed: int, rules: RuleSet, expert: ExpertLimits | None = None) -> Bot:
    """A bot of ``level`` that knows the table's rules (minimum tai, limit, 包); an expert searches
    within ``expert``'s limits (the server's settings ``expert_deals`` and ``expert_time_ms``)."""
    from ...bots import BUDGET_MS
    from ...bots import make_bot as make

    limits = expert if expert is not None else ExpertLimits(0, BUDGET_MS)
    return make(level, seed, rules, budget_ms=limits.time_ms or None, max_rounds=limits.deals or None)


@dataclass(frozen=True)
class ExpertLimits:
    """How far an expert bot at a table searches per decision: at most ``deals`` deals (0: no limit) and
    at most ``time_ms`` of the wall clock (0: no limit); at least one is set."""

    deals: int
    time_ms: float


def bot_choose(bot: Bot, match: Match, seat: int) -> str:
    """The bot's action for ``seat``, as text; it sees only the seat's view."""
    legal = game.legal_actions(match.hand, seat)
    choice = bot.choose(game.match_view(match, seat), legal)
    return game.format_action(choice)


def timeout_action(match: Match, seat: int) -> str:
    """What a seat does when its time runs out: pass; else discard the drawn tile, else the rightmost
    concealed tile; else its first legal action."""
    legal = legal_texts(match, seat)
    if "pass" in legal:
        return "pass"
    state = match.hand.seats[seat]
    candidates: list[Tile] = []
    if state.drawn is not None:
        candidates.append(state.drawn)
    candidates.extend(reversed(state.concealed))
    for tile in candidates:
        text = f"discard {tile.notation}"
        if text in legal:
            return text
    return legal[0]


def redact_stored(stored: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """A stored (full) event as ``seat`` may see it: the core's own redaction of the same event
    (``None``: nothing, another seat's private decision)."""
    data = {k: v for k, v in stored.items() if k not in ("kind", "seat")}
    return redact(game.Event(stored["kind"], stored.get("seat"), data), seat)
