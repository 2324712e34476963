"""Rule ``free_text``: which words of the question make a search text. A word the parameter's
own examples name is a value; the opening request verb and the words bounding another
argument's value ("under 40 minutes", "40분 이내") are not."""

from __future__ import annotations

from typing import Any

import pytest

from tests.routing.helpers import args_of, call

SEARCH = {
    "name": "search_recipes",
    "description": "Search recipes by title or tag.",
    "parameters": {
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "description": 'Words to look for, e.g. "spicy" or "김치".',
            },
            "max_minutes": {
                "type": "integer",
                "description": "Only recipes ready within this many minutes.",
            },
        },
        "required": ["query"],
    },
}


@pytest.mark.parametrize(
    ("question", "args"),
    [
        ("Find spicy recipes under 40 minutes", {"query": "spicy", "max_minutes": 40}),
        ("Search recipes with tofu in less than 20 minutes", {"query": "tofu", "max_minutes": 20}),
        ("Find recipes for pancakes", {"query": "pancakes"}),
    ],
)
def test_the_search_text_is_what_the_question_looks_for(
    question: str, args: dict[str, Any]
) -> None:
    assert args_of(question, SEARCH) == args


def test_the_explanation_says_why_each_word_was_left_out() -> None:
    _args, evidence = call("Find spicy recipes under 40 minutes", SEARCH)
    detail = evidence["query"]["detail"]
    why = {d["word"]: d["why"] for d in detail["dropped"]}
    assert detail["kept"] == ["spicy"]
    assert why["Find"] == "the request's verb"
    assert why["under"] == "bounds another argument's value"


SEARCH_KO = {
    "name": "search_recipes",
    "description": "레시피를 검색한다.",
    "parameters": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "검색어, 예: '김치'"},
            "max_minutes": {"type": "integer", "description": "최대 조리 시간(분)"},
        },
        "required": ["query"],
    },
}


def test_a_korean_bound_after_its_value_and_unit_is_not_search_text() -> None:
    assert args_of("매운 레시피 40분 이내로 검색해줘", SEARCH_KO) == {
        "max_minutes": 40,
        "query": "매운",
    }
