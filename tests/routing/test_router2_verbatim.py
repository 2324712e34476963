"""Issue 12, second round: text a question gives word for word without quotes ("with the
following words verbatim: go for shopping at 9 pm") is one value, kept whole, commas and all;
"the following data: 85, 90, 88" is not such text (its numbers are read by kind)."""

from __future__ import annotations

from typing import Any

from playground.routing import values
from playground.routing.base import Turn
from playground.routing.offline import OfflineRouter

TODO = {
    "name": "todo_add",
    "description": "Adds a new item to the todo list.",
    "parameters": {
        "type": "object",
        "properties": {"content": {"type": "string", "description": "The text of the todo."}},
        "required": ["content"],
    },
}
CHANGE_FOOD = {
    "name": "change_food",
    "description": "Modifies the food item based on the customer's request, such as changing "
    "ingredients or preparation methods.",
    "parameters": {
        "type": "object",
        "properties": {
            "food_item": {"type": "string", "description": "The name of the food item."},
            "modification_request": {
                "type": "string",
                "description": "Specific request on how to modify the food item, such as "
                "'no peanuts' or 'extra spicy'.",
            },
        },
        "required": ["food_item", "modification_request"],
    },
}


def args_of(question: str, decl: dict[str, Any]) -> dict[str, Any]:
    mv = OfflineRouter().next_move([Turn(role="user", text=question)], [decl])
    assert [c.name for c in mv.calls] == [decl["name"]]
    return mv.calls[0].args


def test_verbatim_text_is_one_value() -> None:
    args = args_of(
        "can you create todo with the following words verbatim: go for shopping at 9 pm", TODO
    )
    assert args == {"content": "go for shopping at 9 pm"}


def test_verbatim_text_keeps_its_commas_and_the_marker_is_no_value() -> None:
    args = args_of(
        "I would like to order a burger with the following modification verbatim: no onions, "
        "extra cheese",
        CHANGE_FOOD,
    )
    assert args == {"food_item": "burger", "modification_request": "no onions, extra cheese"}


def test_only_text_marked_verbatim_counts() -> None:
    [v] = values.verbatim("words verbatim: go for shopping at 9 pm.\nthanks")
    assert (v.value, v.kind) == ("go for shopping at 9 pm", "quoted")
    assert values.verbatim("Create a histogram with the following data: 85, 90, 88") == []
    assert values.verbatim("verbatim: 'quoted already'") == []
