"""Table options: how a table is run (timers, bots), as opposed to the rules of the game."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import SgMahjongError
from .protocol import validation_message


class TableOptionsError(SgMahjongError, ValueError):
    """A table option that does not exist or a value it does not accept."""


CHOICES = {"bot_level": ("beginner", "greedy", "strong", "expert"), "pace": ("relaxed", "normal", "fast")}


class TableOptions(BaseModel):
    """The options of one table (docs/protocol.md, "Table options")."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    turn_seconds: Annotated[
        float, Field(ge=0, le=3600, description="time to act on your turn; 0 = no limit")
    ] = 30
    claim_seconds: Annotated[
        float, Field(ge=0, le=3600, description="time to claim a discard; 0 = no limit")
    ] = 15
    bot_delay: Annotated[float, Field(ge=0, le=10, description="seconds a bot waits before acting")] = 0.8
    claim_pause: Annotated[
        float,
        Field(ge=0, le=10, description="every discard and kong waits this long for claims, whether or not "
                                       "anyone can claim (no tells); 0 with no human connected"),
    ] = 1.0
    next_hand_seconds: Annotated[
        float,
        Field(ge=0, le=3600, description="after a hand, start the next after this long; 0 = wait for all"),
    ] = 20
    takeover_seconds: Annotated[
        float,
        Field(ge=0, le=3600, description="a disconnected player's seat is played by a bot after this long"),
    ] = 5
    bot_think: Annotated[
        float,
        Field(ge=0, le=10, description="a bot's hardest decisions take this many times the bot delay longer"),
    ] = 1.5
    bot_level: Annotated[
        Literal["beginner", "greedy", "strong", "expert", "random"],
        Field(description="level of the bot playing a disconnected seat"),
    ] = "greedy"
    pace: Annotated[
        Literal["relaxed", "normal", "fast"],
        Field(description="how fast bots play; with one human seated, claim windows nobody human is "
                          "asked in close as soon as the bots have decided (server/table/bot_timing.py)"),
    ] = "normal"

    unattended: Annotated[
        bool, Field(description="the match goes on with nobody at the table: the next hand is dealt when the"
                                " results' delay ends and the idle sweep leaves it open (an event's tables,"
                                " and the ranked queue's)")
    ] = False

    chat: Annotated[bool, Field(description="players and spectators may chat at the table")] = True
    spectator_chat: Annotated[
        bool, Field(description="spectators may chat (the host can also turn it off during play)")
    ] = True

    @classmethod
    def parse(cls, data: Any) -> TableOptions:
        """Validate a JSON object of options (ints accepted for seconds)."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise TableOptionsError("table options must be a JSON object")
        fixed = {
            k: float(v) if isinstance(v, int) and not isinstance(v, bool) and k not in CHOICES else v
            for k, v in data.items()
        }
        try:
            return cls.model_validate(fixed)
        except ValidationError as exc:
            message = validation_message(exc, whole="options", most=1, what="table option")
            raise TableOptionsError(message) from None

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Each option: name, default, doc, type and range or choices."""
        out: list[dict[str, Any]] = []
        for name, f in cls.model_fields.items():
            entry: dict[str, Any] = {"name": name, "default": f.default, "doc": f.description or ""}
            if f.annotation is bool:
                entry["type"] = "bool"
            elif name in CHOICES:
                entry["type"] = "choice"
                entry["choices"] = list(CHOICES[name])
            else:
                entry["type"] = "number"
                for m in f.metadata:
                    if getattr(m, "ge", None) is not None:
                        entry["minimum"] = m.ge
                    if getattr(m, "le", None) is not None:
                        entry["maximum"] = m.le
            out.append(entry)
        return out
