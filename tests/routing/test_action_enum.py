"""Argument rule ``action_enum``: an enum of kinds of action takes the one the request asks for."""

from __future__ import annotations

from playground.routing.rule_switches import switched
from tests.routing.helpers import args_of, call, move

TODO = {
    "name": "todo",
    "description": "Manages a todo list allowing the user to add, delete, or update items.",
    "parameters": {
        "type": "object",
        "properties": {
            "type": {
                "type": "string",
                "description": "The action to be performed on the todo list.",
                "enum": ["add", "delete", "update"],
            },
            "content": {"type": "string", "description": "The details of the todo item."},
        },
        "required": ["type", "content"],
    },
}


def test_the_request_verb_picks_the_enum_value_of_its_kind() -> None:
    args, evidence = call("Remove the 'buy milk' item from my todo list", TODO)
    assert args == {"type": "delete", "content": "buy milk"}
    assert evidence["type"]["rule"] == "action_enum"
    assert evidence["type"]["text"] == "Remove"
    assert args_of("can you create todo for 'go for shopping at 9 pm'", TODO) == {
        "type": "add",
        "content": "go for shopping at 9 pm",
    }


def test_without_the_rule_the_kind_is_asked_for() -> None:
    with switched(without=["action_enum"]):
        mv = move("Remove the 'buy milk' item from my todo list", TODO)
    assert mv.calls == []
    assert mv.explanation["asks_for"] == {"tool": "todo", "missing": ["type"]}


def test_two_kinds_asked_one_clause_each() -> None:
    mv = move("Remove the 'buy milk' item and add 'buy tea' to my todo list", TODO)
    assert [c.args for c in mv.calls] == [
        {"type": "delete", "content": "buy milk"},
        {"type": "add", "content": "buy tea"},
    ]
