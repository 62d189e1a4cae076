"""Review of a finished hand: each decision of one seat beside what the ``strong`` bot would do.

Pure (no I/O): :func:`review_log` folds the engine over a hand log (:mod:`sgmahjong.game.log`). At
every action the seat took with more than one legal choice it builds the seat's ``player_view`` at
that moment (exactly what the seat, or a bot in its place, saw) and asks the ``strong`` bot. For
discards it also measures, from the same view, the shanten and the live useful tiles after the
player's discard and after the bot's, the bot's value estimate of each and its defence's risk of
each. A decision is *flagged* when the player's choice is clearly worse: a higher shanten, clearly
fewer useful tiles at the same shanten, a discard that dealt in while the defence rated it riskier
than the bot's choice, or a win passed up. Each flag carries a one-line reason in plain language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .bots import make_bot
from .bots.base import Bot
from .bots.defence import discard_cost, read_threats
from .bots.perception import Perception, perceive
from .bots.tactics import hand_acceptance
from .bots.value import offence, seat_context
from .errors import SgMahjongError
from .game import Action, HandState, apply, awaiting, format_action, legal_actions, new_hand, player_view
from .game.log import LogError, parse_log, start, to_log
from .rules import RuleSet
from .tiles import Tile

SEATS = "ESWN"
USEFUL_MARGIN = 4  # at least this many fewer live useful tiles at the same shanten ...
USEFUL_SHARE = 0.2  # ... and at least this share of the bot's: "clearly" fewer
RISK_RATIO = 1.5  # a deal-in tile rated this much riskier than the bot's choice is flagged

REASON_CODES: dict[str, tuple[str, ...]] = {
    # code: the names of its params (``tile`` the player's, ``bot_tile`` the bot's choice)
    "broke_ready": ("tile", "bot_tile", "shanten", "bot_useful"),
    "further_from_ready": ("tile", "bot_tile", "shanten", "bot_shanten"),
    "fewer_useful": ("tile", "bot_tile", "shanten", "useful", "bot_useful"),
    "dealt_in": ("tile", "bot_tile", "winner", "risk", "bot_risk"),
    "passed_up_win": (),
    "undeclared_self_drawn": (),
}


class ReviewError(SgMahjongError):
    """A log that cannot be reviewed (unreadable, or the hand has not ended)."""


@dataclass(slots=True)
class Decision:
    """One decision of the reviewed seat. ``number`` is the action's line in the log less one (its
    version: the state before it has version ``number - 1``). Discard measures are ``None`` for
    other decisions; shanten 0 = ready, -1 = complete."""

    number: int
    seat: int
    phase: str  # turn | claim
    legal: list[str]
    player: str
    bot: str
    agree: bool
    player_shanten: int | None = None
    player_useful: int | None = None
    bot_shanten: int | None = None
    bot_useful: int | None = None
    player_value: float | None = None
    bot_value: float | None = None
    player_risk: float | None = None
    bot_risk: float | None = None
    dealt_in: bool = False
    flagged: bool = False
    reason: str | None = None
    # the reason for a program (the pages say it in their language): one of REASON_CODES, with the
    # values it names in reason_params (tiles in notation, seats 0-3, shanten as above)
    reason_code: str | None = None
    reason_params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class Review:
    """The review of one seat of one hand."""

    seat: int
    decisions: list[Decision] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @property
    def agreed(self) -> int:
        return sum(1 for d in self.decisions if d.agree)

    @property
    def flagged(self) -> int:
        return sum(1 for d in self.decisions if d.flagged)

    @property
    def agreement(self) -> float:
        return self.agreed / len(self.decisions) if self.decisions else 1.0

    def summary(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": len(self.decisions), "agreed": self.agreed,
                "agreement": round(self.agreement, 4), "flagged": self.flagged}

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "decisions": [d.to_json() for d in self.decisions]}


def _after(p: Perception, live: list[int], tile: int) -> tuple[int, int]:
    """(shanten, live useful tiles) of the seat's hand after discarding ``tile``."""
    counts = p.hand
    counts[tile] -= 1
    try:
        dist, useful = hand_acceptance(counts, p.n_melds, live)
    finally:
        counts[tile] += 1
    return dist - 1, useful


def _away(shanten: int) -> str:
    if shanten <= 0:
        return "ready" if shanten == 0 else "complete"
    return f"{shanten} tile{'s' if shanten > 1 else ''} from ready"


def _code(d: Decision, code: str, **params: Any) -> None:
    assert set(params) == set(REASON_CODES[code]), code
    d.reason_code, d.reason_params = code, params


def _measure(d: Decision, p: Perception, rules: RuleSet, player_tile: int, bot_tile: int) -> None:
    live = [p.live(t) for t in range(34)]
    d.player_shanten, d.player_useful = _after(p, live, player_tile)
    d.bot_shanten, d.bot_useful = _after(p, live, bot_tile)
    ctx = seat_context(p, rules)
    cands = sorted({player_tile, bot_tile})
    off = offence(p.hand, ctx, p.live, p.wall_remaining, cands)
    d.player_value = round(off[player_tile].value, 4)
    d.bot_value = round(off[bot_tile].value, 4)
    threats = read_threats(p, rules)
    d.player_risk = round(discard_cost(p, threats, player_tile, rules), 4)
    d.bot_risk = round(discard_cost(p, threats, bot_tile, rules), 4)


def _judge_discard(d: Decision, tile: str, bot_tile: str) -> None:
    ps, bs = d.player_shanten, d.bot_shanten
    pu, bu = d.player_useful, d.bot_useful
    if ps is None or bs is None or pu is None or bu is None:
        return
    if ps > bs:
        d.flagged = True
        if bs == 0:
            d.reason = (f"Discarding {tile} broke a ready hand (now {_away(ps)}); "
                        f"discarding {bot_tile} kept it ready with {bu} live winning tiles.")
            _code(d, "broke_ready", tile=tile, bot_tile=bot_tile, shanten=ps, bot_useful=bu)
        else:
            d.reason = (f"Discarding {tile} leaves the hand {_away(ps)}; "
                        f"discarding {bot_tile} would leave it {_away(bs)}.")
            _code(d, "further_from_ready", tile=tile, bot_tile=bot_tile, shanten=ps, bot_shanten=bs)
    elif ps == bs and bu - pu >= max(USEFUL_MARGIN, USEFUL_SHARE * bu):
        d.flagged = True
        d.reason = (f"{tile} and {bot_tile} both leave the hand {_away(ps)}, but after {bot_tile} "
                    f"{bu} live tiles improve it, after {tile} only {pu}.")
        _code(d, "fewer_useful", tile=tile, bot_tile=bot_tile, shanten=ps, useful=pu, bot_useful=bu)


def _judge_deal_in(d: Decision, tile: str, bot_tile: str, winner: int) -> None:
    pr, br = d.player_risk or 0.0, d.bot_risk or 0.0
    if d.flagged or d.agree or pr <= 0 or pr < RISK_RATIO * br:
        return
    d.flagged = True
    d.reason = (f"{tile} dealt in to {SEATS[winner]}; the defence rated it riskier "
                f"(expected loss {pr:.2f}) than {bot_tile} ({br:.2f}).")
    _code(d, "dealt_in", tile=tile, bot_tile=bot_tile, winner=winner, risk=pr, bot_risk=br)


def _decide(bot: Bot, state: HandState, action: Action, number: int, legal: Sequence[Action],
            rules: RuleSet) -> tuple[Decision, Perception | None]:
    seat = action.seat
    view = player_view(state, seat)
    choice = bot.choose(view, legal)
    player, best = format_action(action), format_action(choice)
    phase = "claim" if view["phase"] == "claim" else "turn"
    d = Decision(number, seat, phase, [format_action(a) for a in legal], player, best, player == best)
    if not d.agree and any(a.kind == "win" for a in legal) and action.kind != "win":
        d.flagged = True
        d.reason = "You passed up a win." if phase == "claim" else "You did not declare your self-drawn win."
        _code(d, "passed_up_win" if phase == "claim" else "undeclared_self_drawn")
        return d, None
    if action.kind == "discard" and choice.kind == "discard" and action.tile is not None \
            and choice.tile is not None:
        p = perceive(view)
        _measure(d, p, rules, int(action.tile), int(choice.tile))
        if not d.agree:
            _judge_discard(d, Tile(action.tile).notation, Tile(choice.tile).notation)
        return d, p
    return d, None


def review_log(text: str, seat: int, *, bot: Bot | None = None) -> Review:
    """Review ``seat``'s decisions in the hand log ``text`` (a finished hand)."""
    if not 0 <= seat < 4:
        raise ReviewError(f"seat must be 0-3 (E S W N); got {seat}")
    head, actions = parse_log(text)
    state, _ = start(head)
    rules = state.rules
    if bot is None:
        bot = make_bot("strong", 0, rules)
    review = Review(seat)
    last_discard: Decision | None = None
    for number, action in enumerate(actions, start=1):
        if action.seat == seat:
            legal = legal_actions(state, seat)
            if len(legal) > 1:
                d, _ = _decide(bot, state, action, number, legal, rules)
                review.decisions.append(d)
                if action.kind in ("discard", "kong"):
                    last_discard = d
        try:
            state, _ = apply(state, action)
        except SgMahjongError as exc:
            raise LogError(f"line {number + 1}: {format_action(action)!r} refused: {exc}") from None
    if not state.ended:
        raise ReviewError("the hand has not ended; only finished hands are reviewed")
    result = state.result or {}
    review.result = result
    winner = result.get("winner")
    if winner is not None and result.get("shooter") == seat and not result.get("self_drawn") \
            and last_discard is not None:
        last_discard.dealt_in = True
        words = last_discard.player.split()
        bot_words = last_discard.bot.split()
        if len(words) == 2 and len(bot_words) == 2:
            _judge_deal_in(last_discard, words[1], bot_words[1], int(winner))
    return review


def review_text(review: Review) -> list[str]:
    """Readable lines: one per decision (flags with their reason), then the summary."""
    out: list[str] = []
    for d in review.decisions:
        mark = "  " if d.agree else "≠ "
        line = f"{mark}#{d.number:<3} {d.phase:<5} you: {d.player:<14} bot: {d.bot:<14}"
        if d.player_shanten is not None:
            line += (f" shanten {d.player_shanten}/{d.bot_shanten}"
                     f" useful {d.player_useful}/{d.bot_useful}")
        out.append(line.rstrip())
        if d.flagged:
            out.append(f"      ! {d.reason}")
    s = review.summary()
    out.append(f"Seat {SEATS[review.seat]}: {s['decisions']} decisions, agreement with the strong bot "
               f"{100 * review.agreement:.0f}% ({s['agreed']}/{s['decisions']}), {s['flagged']} flagged")
    return out


Tamper = Callable[[HandState, int, Sequence[Action], Action], Action]


def bot_hand_log(rules: RuleSet, bots: Sequence[Bot], *, seed: int, dealer: int = 0,
                 tamper: Tamper | None = None, max_steps: int = 2000) -> str:
    """The log of one hand played to its end by ``bots`` (seat by seat), for tests, the bench and
    demos. ``tamper(state, seat, legal, choice)`` may replace a bot's choice (a deliberate mistake)."""
    state, _ = new_hand(rules, seed=seed, dealer=dealer)
    for _ in range(max_steps):
        if state.ended:
            return to_log(state)
        seat = awaiting(state)[0]
        legal = legal_actions(state, seat)
        choice = bots[seat].choose(player_view(state, seat), legal)
        if tamper is not None:
            choice = tamper(state, seat, legal, choice)
        state, _ = apply(state, choice)
    raise ReviewError(f"the hand of seed {seed} did not end after {max_steps} decisions")
