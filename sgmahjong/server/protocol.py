"""The WebSocket messages a client may send (docs/protocol.md), validated with pydantic.

Every message is a JSON object with a ``type``; each type has exactly its listed fields, in strict
types (no coercion of ``"12"`` to ``12``). :func:`parse_message` turns one text frame into a model or a
:class:`ProtocolError` carrying the error code and a human reason; it never raises anything else.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 2
MAX_FRAME = 4096  # bytes of one inbound text frame
# the levels offered to people, easiest first (``random`` is kept for tests and old tables)
BOT_LEVELS: tuple[str, ...] = ("beginner", "greedy", "strong", "expert", "random")
OFFERED_BOT_LEVELS: tuple[str, ...] = ("beginner", "greedy", "strong", "expert")
# the name a player understands and one line about each level (the client shows translations)
BOT_LEVEL_INFO: dict[str, tuple[str, str]] = {
    "beginner": ("Beginner",
                 "Plays slowly towards a win, misses claims and never defends: good for learning."),
    "greedy": ("Casual", "Chases the quickest win by tile efficiency; no defence, no plan for value."),
    "strong": ("Strong", "Plans for tai and folds against big hands late in the hand."),
    "expert": ("Expert", "Strong play checked by looking ahead: imagines the hidden tiles and plays on."),
    "random": ("Random", "Plays any legal move (for tests)."),
}

BotLevel = Literal["beginner", "greedy", "strong", "expert", "random"]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Hello(_Message):
    """Authenticate as the seat owning ``token`` (null: watch as a spectator)."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=200)] | None


class ActionMsg(_Message):
    """Play one of the seat's legal actions, against the view of ``version``."""

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    version: Annotated[int, Field(ge=0)]


class AddBot(_Message):
    type: Literal["add_bot"]
    seat: Annotated[int, Field(ge=0, le=3)] | None
    level: BotLevel


class RemoveBot(_Message):
    type: Literal["remove_bot"]
    seat: Annotated[int, Field(ge=0, le=3)]


class Leave(_Message):
    type: Literal["leave"]


class Start(_Message):
    type: Literal["start"]


class Next(_Message):
    type: Literal["next"]


class Rematch(_Message):
    """After the match: ask for a new match with the same seats, rules and options."""

    type: Literal["rematch"]


class Chat(_Message):
    """Say something at the table: ``text`` (at most 200 characters), or a quick ``phrase`` or an
    ``emote`` by its id (table/chat.py lists them)."""

    type: Literal["chat"]
    kind: Literal["text", "phrase", "emote"]
    body: Annotated[str, Field(max_length=1000)]


class ChatMute(_Message):
    """The host mutes (``muted``) or unmutes a seat's chat for everyone; ``seat`` null: the spectators."""

    type: Literal["chat_mute"]
    seat: Annotated[int, Field(ge=0, le=3)] | None
    muted: bool


class Ping(_Message):
    type: Literal["ping"]


Message = Hello | ActionMsg | AddBot | RemoveBot | Leave | Start | Next | Rematch | Ping | Chat | ChatMute

MESSAGE_TYPES: tuple[str, ...] = (
    "hello", "action", "add_bot", "remove_bot", "leave", "start", "next", "rematch", "ping", "chat",
    "chat_mute",
)

_ADAPTER: TypeAdapter[Message] = TypeAdapter(
    Annotated[Message, Field(discriminator="type")]
)


class ProtocolError(Exception):
    """A refused message: ``code`` (see docs/protocol.md), a reason for humans, and the ``params`` the
    client's own text for the code takes (if any)."""

    def __init__(self, code: str, message: str, ref: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref
        self.params = params

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"type": "error", "code": self.code, "message": self.message,
                                  "ref": self.ref}
        if self.params:
            out["params"] = self.params
        return out


def parse_message(text: str | bytes | None) -> Message:
    """Validate one inbound frame; raise :class:`ProtocolError` if it is not a valid message."""
    if text is None or isinstance(text, bytes):
        raise ProtocolError("bad_json", "binary frames are not accepted; send JSON text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise ProtocolError("too_large", f"message larger than {MAX_FRAME} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("invalid", "a message is a JSON object with a 'type'")
    mtype = data.get("type")
    ref = mtype if isinstance(mtype, str) else None
    if mtype is None:
        raise ProtocolError("invalid", "message has no 'type'")
    if not isinstance(mtype, str) or mtype not in MESSAGE_TYPES:
        shown = str(mtype)[:30]
        raise ProtocolError(
            "unknown_type", f"unknown message type {shown!r}; types: {', '.join(MESSAGE_TYPES)}", None
        )
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError("invalid", validation_message(exc), ref) from None


def validation_message(exc: ValidationError, *, whole: str = "message", most: int = 3,
                       what: str = "field") -> str:
    """A pydantic error as one line for a person: "unknown field 'x'", "missing field 'y'",
    "field 'z': <why>" (``what`` names the fields, ``whole`` the object when no field is at fault),
    at most ``most`` of them, "; "-separated."""
    parts: list[str] = []
    for err in exc.errors(include_url=False)[:most]:
        loc = [str(p) for p in err["loc"]]
        # the discriminated union puts the tag first; drop it so 'version' reads as 'version'
        if len(loc) > 1 and loc[0] in MESSAGE_TYPES:
            loc = loc[1:]
        field = ".".join(loc) or whole
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown {what} {field!r}")
        elif err["type"] == "missing":
            parts.append(f"missing {what} {field!r}")
        else:
            parts.append(f"{what} {field!r}: {err['msg']}")
    return "; ".join(parts)
