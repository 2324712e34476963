"""Korean dates in a question are date values: "2026년 12월 3일", "12월 3일" (the year as an
English date without one gets it), never a day that does not exist."""

from __future__ import annotations

import pytest

from tests.routing.helpers import args_of, move

RESERVATIONS = {
    "name": "list_reservations",
    "description": "해당 날짜의 예약 목록을 조회한다.",
    "parameters": {
        "type": "object",
        "properties": {"day": {"type": "string", "format": "date", "description": "날짜"}},
        "required": ["day"],
    },
}


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("2026년 12월 3일 예약 조회", "2026-12-03"),
        ("2025년 1월 5일 예약 목록", "2025-01-05"),
        ("2024년 3월 1일부터 3월 9일까지 중 3월 9일 예약", "2024-03-01"),
    ],
)
def test_a_korean_date_is_a_date_value(question: str, day: str) -> None:
    assert args_of(question, RESERVATIONS) == {"day": day}


def test_a_korean_date_without_a_year_is_this_year_and_a_day_that_is_not_is_asked_for() -> None:
    import datetime as dt

    assert args_of("12월 3일 예약 목록", RESERVATIONS) == {"day": f"{dt.date.today().year}-12-03"}
    mv = move("2월 30일 예약 조회", RESERVATIONS)
    assert mv.calls == [] and (mv.explanation or {}).get("asks_for", {}).get("tool")
