"""Issue 12, second round: a day said relative to a today the question states ("the upcoming
Wednesday, today is Monday April 25th 2023") is counted from that today, from the weekday the
user says it is."""

from __future__ import annotations

import pytest

from playground.routing.base import Turn
from playground.routing.offline import OfflineRouter

FORECAST = {
    "name": "Weather_1_GetWeather",
    "description": "Retrieves the weather forecast for a specified city on a particular date.",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The name of the city."},
            "date": {
                "type": "string",
                "description": "The date for which to retrieve the forecast, in the format "
                "'YYYY-MM-DD'.",
            },
        },
        "required": ["city", "date"],
    },
}


@pytest.mark.parametrize(
    ("question", "want"),
    [
        (
            "What's the weather forecast for Berkeley on the upcoming Saturday? Today is "
            "Tuesday April 25th 2023",
            "2023-04-29",
        ),
        # the user says it is Monday: Wednesday is two days on
        (
            "Could you provide the forecast for Alameda on the upcoming Wednesday, today is "
            "Monday April 25th 2023?",
            "2023-04-27",
        ),
        ("The forecast for Alameda tomorrow, today is 20230929", "2023-09-30"),
        ("The forecast for Alameda the day after tomorrow, today is 2023-12-31", "2024-01-02"),
        # no today stated: the written date
        ("The forecast for Alameda on April 27th 2023", "2023-04-27"),
    ],
)
def test_a_relative_day_counts_from_the_today_the_question_states(question: str, want: str) -> None:
    mv = OfflineRouter().next_move([Turn(role="user", text=question)], [FORECAST])
    assert [c.name for c in mv.calls] == ["Weather_1_GetWeather"]
    assert mv.calls[0].args["date"] == want
    if "today is" in question.lower():
        ev = mv.explanation["tools"][0]["arg_evidence"]["date"]
        assert "counted from" in ev["detail"]


def test_a_date_with_an_iso_example_is_read_from_words() -> None:
    decl = {
        "name": "weather.forecast",
        "description": "Provides a weather forecast for a location over a period.",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city, such as 'Paris'."},
                "start_date": {
                    "type": "string",
                    "description": "The start date of the forecast period in the format of "
                    "'YYYY-MM-DD', such as '2023-04-01'.",
                },
                "end_date": {
                    "type": "string",
                    "description": "The end date of the forecast period in the format of "
                    "'YYYY-MM-DD', such as '2023-04-07'.",
                },
            },
            "required": ["location", "start_date", "end_date"],
        },
    }
    q = "What will the weather be like in Paris from April 3rd to April 5th 2023?"
    mv = OfflineRouter().next_move([Turn(role="user", text=q)], [decl])
    args = mv.calls[0].args
    assert (args["start_date"], args["end_date"]) == ("2023-04-03", "2023-04-05")
