"""Issue 12 (wave 4): a value the offline router fills for a ``format: time``/``date``/
``date-time`` parameter passes that parameter's schema including its format, as the gate checks
it (Draft 2020-12's format checker: RFC 3339 times carry seconds and an offset)."""

from __future__ import annotations

import time

import pytest

from playground.core.optional_schema import nullable_branch
from playground.core.validators import validator_for
from playground.routing.base import Turn
from playground.routing.fill.formats import drop_nonconforming
from playground.routing.fill.specs import Fill, param_specs
from playground.routing.offline import OfflineRouter


@pytest.fixture()
def seoul(monkeypatch):
    """The machine's local zone is Asia/Seoul (+09:00, no daylight saving)."""
    monkeypatch.setenv("TZ", "Asia/Seoul")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _room(fmt: str, doc: str = "When the booking starts.") -> dict:
    return {
        "name": "book_room",
        "description": "Book a meeting room. 회의실을 예약한다.",
        "parameters": {
            "type": "object",
            "properties": {
                "start": {"type": "string", "format": fmt, "description": doc},
                "room": {"type": "string", "description": "The room name, e.g. Alpha"},
            },
            "required": ["start", "room"],
        },
    }


def _args(question: str, fmt: str) -> dict:
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [_room(fmt)])
    assert move.calls, move.text
    return move.calls[0].args


@pytest.mark.parametrize(
    ("fmt", "question", "want"),
    [
        ("time", "Book room Alpha at 1pm", "13:00:00+09:00"),
        ("time", "Book room Alpha at 13:00", "13:00:00+09:00"),
        ("time", "Book room Alpha at 9:30 am UTC", "09:30:00Z"),
        ("time", "회의실 Alpha 오후 1시 반 예약", "13:30:00+09:00"),
        ("date-time", "Book room Alpha on March 3, 2026 at 1pm", "2026-03-03T13:00:00+09:00"),
        ("date-time", "Book room Alpha on 2026-03-03 at 13:00 UTC", "2026-03-03T13:00:00Z"),
        ("date", "Book room Alpha on March 3, 2026 at 1pm", "2026-03-03"),
    ],
)
def test_a_filled_time_or_date_passes_the_parameters_format(seoul, fmt, question, want):
    args = _args(question, fmt)
    assert args == {"room": "Alpha", "start": want}
    assert validator_for({"type": "string", "format": fmt}).is_valid(args["start"])


def test_a_date_time_with_only_a_time_of_day_is_today_at_that_time(seoul):
    args = _args("Book room Alpha at 1pm", "date-time")
    today = time.strftime("%Y-%m-%d")
    assert args == {"room": "Alpha", "start": f"{today}T13:00:00+09:00"}


def test_a_value_that_fails_the_format_is_not_used_the_router_asks(seoul):
    # "Alpha" and "Beta" fit a string by type; neither is a time: the gate would refuse them
    move = OfflineRouter().next_move(
        [Turn(role="user", text="Book room Alpha for the Beta team")], [_room("time")]
    )
    assert move.calls == []
    assert move.explanation["asks_for"] == {"tool": "book_room", "missing": ["start"]}


def test_drop_nonconforming_removes_only_values_that_fail_their_format():
    specs = param_specs(
        {
            "type": "object",
            "properties": {
                "at": {"type": "string", "format": "time"},
                "on": {"type": "string", "format": "date"},
                "note": {"type": "string"},
            },
        },
        {},
    )
    fill = Fill(
        args={"at": "13:00", "on": "2026-03-03", "note": "13:00"},
        evidence={k: {"rule": "position"} for k in ("at", "on", "note")},
    )
    assert drop_nonconforming(specs, fill) == ["at"]
    assert fill.args == {"on": "2026-03-03", "note": "13:00"}
    assert set(fill.evidence) == {"on", "note"}


def test_an_optional_parameters_format_pattern_and_enum_are_read_from_its_non_null_branch(seoul):
    """pydantic declares ``after: Optional[time] = None`` as ``anyOf: [{type: string, format:
    time}, {type: null}]``: the router read no format there and sent ``"1pm"``, which the gate
    refused (``args:format:after``)."""
    tool = {
        "name": "find_slots",
        "description": "Find free appointment slots in a department on one day.",
        "parameters": {
            "type": "object",
            "properties": {
                "dept": {"type": "string", "enum": ["dermatology", "pediatrics"]},
                "day": {"type": "string", "format": "date"},
                "after": {
                    "anyOf": [{"type": "string", "format": "time"}, {"type": "null"}],
                    "default": None,
                    "description": "Only slots starting after this time of day.",
                },
            },
            "required": ["dept", "day"],
        },
    }
    question = "Find a dermatology slot on 2026-12-03 after 1pm"
    move = OfflineRouter().next_move([Turn(role="user", text=question)], [tool])
    assert move.calls[0].args == {
        "dept": "dermatology",
        "day": "2026-12-03",
        "after": "13:00:00+09:00",
    }
    assert not list(validator_for(tool["parameters"]).iter_errors(move.calls[0].args))
    branch = nullable_branch(tool["parameters"]["properties"]["after"])
    assert (branch["type"], branch["format"], branch["default"]) == ("string", "time", None)


def test_an_enum_behind_a_ref_is_filled_from_its_choices():
    """``genre: Genre | None`` (pydantic: a ``$ref`` into ``$defs`` inside ``anyOf``): the router
    read no choices and called nothing for "poetry books about the sea"."""
    tool = {
        "name": "search_catalog",
        "description": "Search the catalog.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "genre": {"anyOf": [{"$ref": "#/$defs/Genre"}, {"type": "null"}], "default": None},
            },
            "$defs": {"Genre": {"enum": ["fiction", "poetry"], "type": "string"}},
            "required": ["query"],
        },
    }
    [_query, genre] = param_specs(tool["parameters"], {})
    assert genre.enum == ("fiction", "poetry") and genre.types == ("string",)
    move = OfflineRouter().next_move([Turn(role="user", text="poetry books about the sea")], [tool])
    assert [c.name for c in move.calls] == ["search_catalog"]
    assert move.calls[0].args["genre"] == "poetry"
