"""The offline router replies in the language the question is written in: a question holding
a Korean name in English words gets an English reply, a Korean question a Korean one."""

from __future__ import annotations

import pytest

from playground.routing.base import Turn
from playground.routing.korean import written_in_korean
from playground.routing.offline import OfflineRouter

NO_TOOL = {
    "name": "get_weather",
    "description": "Get the weather forecast for a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city."}},
        "required": ["city"],
    },
}


@pytest.mark.parametrize(
    ("text", "korean"),
    [
        ("Search the knowledge graph for 김민지", False),
        ("Book 김민지 on 2026-12-03 at 10:30", False),
        ("HR20260604 택배 어디쯤인가요?", True),
        ("채식주의자 있어요?", True),
        ("김민지 님 예약 취소해 주세요 A-0001", True),
        ("What time is it?", False),
        ("", False),
    ],
)
def test_written_in_korean_counts_hangul_against_latin_letters(text: str, korean: bool) -> None:
    assert written_in_korean(text) is korean


def test_an_english_question_with_a_korean_name_gets_an_english_reply() -> None:
    move = OfflineRouter().next_move(
        [Turn(role="user", text="Tell me a joke about 김민지")], [NO_TOOL]
    )
    assert move.calls == [] and move.text is not None
    assert not any("가" <= ch <= "힣" for ch in move.text.replace("김민지", ""))


def test_a_korean_question_gets_a_korean_reply() -> None:
    move = OfflineRouter().next_move(
        [Turn(role="user", text="김민지 님 농담 하나 해 주세요")], [NO_TOOL]
    )
    assert move.calls == [] and move.text is not None
    assert move.text.startswith("죄송합니다")
