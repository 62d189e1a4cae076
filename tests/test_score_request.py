"""``sgmahjong.calculator.score_request`` (the pure answer to a calculator request, which the server's
``POST /api/score`` and the page's offline scorer both run) answers exactly what the route answered
when it checked the body with a pydantic model: the model is kept here as the reference, and random
bodies get the same first problem from both; a few bodies get the same answer from the live route."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sgmahjong.calculator import ScoreRequestError, score_answer, score_request
from sgmahjong.server.protocol import validation_message
from tests.conftest import LiveServer

SeatName = Literal["E", "S", "W", "N"]
Seat = SeatName | Annotated[int, Field(ge=0, le=3)]
HAND = "23s55p [123m] [456m] [789p] +4s /1f1a"


class ScoreRequest(BaseModel):
    """The body of ``POST /api/score`` as the route checked it before the check moved to the core."""

    model_config = ConfigDict(extra="forbid", strict=True)

    hand: Annotated[str, Field(min_length=1, max_length=200)]
    seat: Seat = "E"
    wind: Seat = "E"
    self_drawn: bool = False
    shooter: Seat | None = None
    replacement: Literal["flower", "kong", "kong-on-kong"] | None = None
    robbed_kong: bool = False
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False
    humanly: bool = False
    bao: Seat | None = None
    preset: Annotated[str, Field(max_length=40)] = "default"
    rules: dict[str, bool | int | str] = Field(default_factory=dict)


def reference_problem(body: dict[str, Any]) -> str | None:
    try:
        req = ScoreRequest.model_validate(body)
    except ValidationError as exc:
        return validation_message(exc, whole="body", most=1)
    if sum((req.heavenly, req.earthly, req.humanly)) > 1:
        return "heavenly, earthly and humanly exclude each other"
    return None


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 5), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["E", "S", "W", "N", "e", "X", "", "flower", "kong", "kong-on-kong", "default",
                     "hk", HAND, "x" * 41, "x" * 201, "it's"]),
)
rule_names = st.sampled_from(["limit", "a.b", "x"])
values = st.one_of(scalars, st.lists(scalars, max_size=2), st.dictionaries(rule_names, scalars, max_size=3))
names = st.sampled_from([*ScoreRequest.model_fields, "colour", "zz", "aa"])


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(names, values, max_size=5), st.booleans())
def test_the_first_problem_is_the_models(body: dict[str, Any], with_hand: bool) -> None:
    if with_hand:
        body = {"hand": HAND, **body}
    expected = reference_problem(body)
    try:
        score_request(body)
        got = None
    except ScoreRequestError as exc:
        got = str(exc) if exc.reason_code is None else None
    except ValueError:  # the hand or a rule refused by the scorer, after the check
        got = None
    if got is not None or expected is not None:
        assert got == expected, body


def test_the_route_answers_what_the_function_gives(live_server: LiveServer) -> None:
    bodies: list[Any] = [
        {"hand": HAND, "self_drawn": True},
        {"hand": HAND, "shooter": 1, "rules": {"limit": 10}, "preset": "default"},
        {"hand": HAND, "seat": "S", "wind": "W", "replacement": "kong", "bao": "N"},
        {"hand": "23s55p [123m] [456m] [789p] +1s"},  # not a win: valid false and a reason
        {"hand": "xx"},  # notation: code and params
        {"hand": HAND, "shooter": "E"},  # a code from the scorer
        {"hand": HAND, "heavenly": True, "earthly": True},
        {"hand": HAND, "colour": "red"},
        {"hand": HAND, "seat": 7},
        {"hand": HAND, "rules": {"nope": 1}},
        {"hand": HAND, "rules": {"limit": 1.5}},
        {"hand": "x" * 201},
        {"seat": "E"},
        [HAND],
    ]
    for body in bodies:
        r = live_server.post("/api/score", body)
        status, answer = score_answer(body)
        assert (r.status_code, r.json()) == (status, answer), body
    assert score_answer({"hand": HAND, "self_drawn": True})[1]["tai"] > 0
    # the messages the route gave when pydantic checked the body
    assert score_answer({"hand": HAND, "seat": 7}) == (400, {
        "error": "field \"seat.literal['E','S','W','N']\": Input should be 'E', 'S', 'W' or 'N'"})
    assert score_answer({"hand": HAND, "rules": {"limit": 1.5}}) == (400, {
        "error": "field 'rules.limit.bool': Input should be a valid boolean"})
    assert score_answer({"seat": "E", "colour": 1}) == (400, {"error": "missing field 'hand'"})
    assert score_answer({"hand": "xx"})[1] == {
        "error": "unknown tile 'x' at column 1", "code": "notation.unknown_tile",
        "params": {"tile": "x", "column": 1}}
