"""An ISO 8601 date and time in a question is one value (its offset kept), never a date and a
separate clock read from inside it; and a word a rule takes from the question is never given to
an enum parameter that does not list it (both found by a newcomer's home-energy tools)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.routing.helpers import args_of, move

APPLIANCE = {"type": "string", "enum": ["dishwasher", "washer", "heat_pump"]}


def schedule(start: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "schedule_appliance",
        "description": "Schedule an appliance run at a start time in a mode.",
        "parameters": {
            "type": "object",
            "properties": {
                "appliance": {**APPLIANCE, "description": "the appliance"},
                "start": start,
                "mode": {
                    "type": "string",
                    "enum": ["eco", "normal"],
                    "description": "the program mode",
                },
            },
            "required": ["appliance", "start"],
        },
    }


DATE_TIME = {"type": "string", "format": "date-time", "description": "when to start"}


@pytest.mark.parametrize(
    ("question", "start"),
    [
        # was "<today>T00:00:00Z": "00:00" read from inside the timestamp
        (
            "Schedule the dishwasher at 2024-06-03T07:00:00+02:00 in eco mode",
            "2024-06-03T07:00:00+02:00",
        ),
        ("Schedule the dishwasher at 2024-06-03T07:00:00.5+0200", "2024-06-03T07:00:00+02:00"),
        ("Schedule the dishwasher at 2024-06-03T07:00Z", "2024-06-03T07:00:00Z"),
        ("Schedule the dishwasher at 2024-06-03T23:30:00-05:00", "2024-06-03T23:30:00-05:00"),
    ],
)
def test_an_iso_date_and_time_is_taken_whole_with_its_offset(question, start):
    args = args_of(question, schedule(DATE_TIME))
    assert args["start"] == start and args["appliance"] == "dishwasher"


def test_an_iso_date_and_time_without_an_offset_gets_the_local_zones():
    import datetime as dt

    args = args_of("Schedule the washer at 2024-06-03 07:00 in normal mode", schedule(DATE_TIME))
    local = dt.datetime(2024, 6, 3, 7, 0).astimezone().isoformat(timespec="seconds")
    assert args["start"] == (local[:-6] + "Z" if local.endswith("+00:00") else local)
    assert args["mode"] == "normal"


@pytest.mark.parametrize(
    ("start", "want"),
    [
        ({"type": "string", "format": "date", "description": "the day"}, "2024-06-03"),
        ({"type": "string", "format": "time", "description": "the time"}, "07:00:00+02:00"),
    ],
)
def test_a_date_or_time_parameter_takes_its_part_of_the_iso_value(start, want):
    args = args_of("Schedule the dishwasher at 2024-06-03T07:00:00+02:00", schedule(start))
    assert args["start"] == want


def test_a_plain_time_parameter_takes_the_clock_of_the_iso_value():
    # was "00:00", read from the seconds and the offset of the timestamp
    decl = {
        "name": "schedule_run",
        "description": "Schedule an appliance run at a start time.",
        "parameters": {
            "type": "object",
            "properties": {"start_time": {"type": "string", "description": "when to start"}},
            "required": ["start_time"],
        },
    }
    assert args_of("Schedule a run at 2024-06-03T07:00:00+02:00", decl) == {"start_time": "07:00"}
    assert args_of("Schedule a run from 10:30-11:00", decl) == {"start_time": "10:30"}


def test_a_date_and_a_time_parameter_share_one_iso_value_offset_kept():
    # was at="11:00:00Z": the date rule took the date part, then the clock lost the +09:00
    decl = {
        "name": "free_at",
        "description": "Rooms free on a day at a time.",
        "parameters": {
            "type": "object",
            "properties": {
                "day": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "time"},
            },
            "required": ["day", "at"],
        },
    }
    assert args_of("회의실 빈 곳 2026-12-03T11:00:00+09:00", decl) == {
        "day": "2026-12-03",
        "at": "11:00:00+09:00",
    }


LIST_SCHEDULES = {
    "name": "list_schedules",
    "description": "List the scheduled appliance runs.",
    "parameters": {
        "type": "object",
        "properties": {"appliance": {**APPLIANCE, "description": "only this appliance"}},
    },
}


def test_a_word_after_the_parameters_name_is_no_value_of_an_enum_that_does_not_list_it():
    # was {"appliance": "scheduled"} (the word after "appliance"), refused as allowed:appliance
    mv = move("Which appliance runs are scheduled?", LIST_SCHEDULES)
    assert [(c.name, c.args) for c in mv.calls] == [("list_schedules", {})]
    assert args_of("Which runs are scheduled for the washer?", LIST_SCHEDULES) == {
        "appliance": "washer"
    }
