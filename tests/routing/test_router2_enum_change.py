"""Issue 12, second round: of a change from one listed value to another ("switch my order from
pizza to a BURGER"), an enum parameter takes the new value, unless it is named for the old one."""

from __future__ import annotations

from typing import Any

from tests.routing.helpers import args_of


def change(param: str) -> dict[str, Any]:
    return {
        "name": "ChaFod",
        "description": "Changes the selection of food based on the customer's request.",
        "parameters": {
            "type": "object",
            "properties": {
                param: {
                    "type": "string",
                    "description": "The name of the food, in uppercase letters.",
                    "enum": ["PIZZA", "BURGER", "SALAD", "SOUP", "STEAK"],
                }
            },
            "required": [param],
        },
    }


def test_the_new_value_of_a_change_is_taken() -> None:
    q = "I would like to switch my order from pizza to a BURGER."
    assert args_of(q, change("TheFod")) == {"TheFod": "BURGER"}


def test_a_parameter_named_for_the_old_value_takes_it() -> None:
    q = "I would like to switch my order from pizza to a BURGER."
    assert args_of(q, change("old_food")) == {"old_food": "PIZZA"}


def test_two_values_without_a_change_keep_the_first() -> None:
    q = "I would like a pizza and a burger"
    assert args_of(q, change("TheFod")) == {"TheFod": "PIZZA"}
