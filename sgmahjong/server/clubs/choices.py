"""A club table's choices (docs/clubs.md, "Opening a club table"): how long the match is (a number of
hands, or of prevailing-wind rounds: one round of at least four hands, up to a full match of four), the
turn timer, the pace and the bots' level. The owner keeps the club's defaults; whoever opens a table
may change them, within the limits here and the ``club_turn_seconds_max`` setting. Pure: the choices
become the table's rule overrides and :class:`~..options.TableOptions` fields."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..protocol import ProtocolError, validation_message

BotLevel = Literal["beginner", "greedy", "strong", "expert"]
Pace = Literal["relaxed", "normal", "fast"]
TURN_MIN = 5  # a turn timer, when there is one, gives at least this many seconds
HANDS_MAX = 16  # a match of a number of hands has at most this many (more: play rounds)


class ClubChoices(BaseModel):
    """The choices of a club table; each left out is the club's default (else the site's)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    rounds: Annotated[int, Field(ge=1, le=4)] | None = None  # prevailing-wind rounds: 4 = a full match
    hands: Annotated[int, Field(ge=0, le=HANDS_MAX)] | None = None  # hands in a match (0: rounds decide)
    turn_seconds: Annotated[int, Field(ge=0, le=3600)] | None = None  # 0: no timer
    pace: Pace | None = None
    bot_level: BotLevel | None = None


FULL = ClubChoices(rounds=4, hands=0, turn_seconds=30, pace="normal", bot_level="greedy")  # the site's


def parse_choices(data: Any, turn_max: int) -> ClubChoices:
    """Validate choices (a JSON object); ProtocolError ``invalid`` for an unknown field or value,
    ``club_turn_seconds`` for a timer outside 0 or TURN_MIN..``turn_max`` (``params``: min, most)."""
    try:
        got = ClubChoices.model_validate(data if data is not None else {})
    except ValidationError as exc:
        raise ProtocolError("invalid", validation_message(exc, whole="choices", most=1)) from None
    if got.turn_seconds is not None and got.turn_seconds and not TURN_MIN <= got.turn_seconds <= turn_max:
        raise ProtocolError("club_turn_seconds", f"a turn timer is {TURN_MIN}-{turn_max} seconds, or none"
                            " (0)", params={"min": TURN_MIN, "most": turn_max})
    return got


def merged(defaults: ClubChoices, chosen: ClubChoices) -> ClubChoices:
    """``chosen`` over the club's ``defaults`` over the site's."""
    fields = ClubChoices.model_fields
    pick = {k: next(v for v in (getattr(chosen, k), getattr(defaults, k), getattr(FULL, k)) if v is not None)
            for k in fields}
    return ClubChoices(**pick)


def table_setup(choices: ClubChoices) -> tuple[dict[str, Any], dict[str, Any]]:
    """A complete set of choices as (rule overrides, table options). A turn timer also sets the claim
    window to half of it (at least 5 s); no turn timer, no claim timer either."""
    turn = int(choices.turn_seconds or 0)
    claim = max(TURN_MIN, turn // 2) if turn else 0
    options = {"turn_seconds": turn, "claim_seconds": claim, "pace": choices.pace,
               "bot_level": choices.bot_level}
    return {"rounds": choices.rounds, "match_hands": choices.hands}, options
