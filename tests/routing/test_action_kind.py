"""Rule ``action_kind``: the kinds of action a word and a tool's name say, in English and
Korean, and what the rule does to the rows (the routing cases are in cases/action_kind.json)."""

from __future__ import annotations

from typing import Any

import pytest

from playground.routing import korean
from playground.routing.action_kind import name_kind, read_request, word_kind
from playground.routing.rule_switches import switched
from playground.routing.scoring import ScoreRow, Weights, build_index, score_question
from tests.routing.helpers import move


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("create", "create"),
        ("creating", "create"),
        ("added", "create"),
        ("deleted", "delete"),
        ("removes", "delete"),
        ("renaming", "update"),
        ("search", "read"),
        ("alice", ""),
        ("만들어줘", "create"),
        ("삭제해줘", "delete"),
        ("바꿔줘", "update"),
        ("검색해", "read"),
        ("엔티티", ""),
    ],
)
def test_a_word_says_its_kind_of_action(word: str, kind: str) -> None:
    assert word_kind(korean.stem(word)) == kind


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("create_entities", "create"),
        ("deleteRelations", "delete"),
        ("entities_update", "update"),
        ("get_order_status", "read"),
        ("calculate_area", ""),
        ("entropy_change_calculate", ""),
        ("user_delete", "delete"),
        ("open_nodes", ""),
    ],
)
def test_a_name_says_the_kind_of_its_first_action_part(name: str, kind: str) -> None:
    assert name_kind(name) == kind


def test_the_question_kinds_leave_out_words_of_no_weight() -> None:
    text = "Create the entity, then search it"
    tokens = korean.tokenize(text)
    assert read_request(text, tokens, [1.0] * len(tokens)).kinds == {"create", "read"}
    assert read_request(text, tokens, [0.0] + [1.0] * (len(tokens) - 1)).kinds == {"read"}


TOOLS = [
    {
        "name": "create_note",
        "description": "Create a note with a title.",
        "parameters": {
            "type": "object",
            "properties": {"title": {"type": "string", "description": "The note's title."}},
            "required": ["title"],
        },
    },
    {
        "name": "delete_note",
        "description": "Delete a note by its title.",
        "parameters": {
            "type": "object",
            "properties": {"title": {"type": "string", "description": "The note's title."}},
            "required": ["title"],
        },
    },
]


def _rows(question: str) -> dict[str, ScoreRow]:
    idx = build_index(TOOLS, Weights())
    rows, _words = score_question(idx, question, Weights())
    return {r.name: r for r in rows}


def test_a_create_request_costs_the_delete_tool_and_counts_for_the_create_tool() -> None:
    rows = _rows('Create a note titled "groceries"')
    create, delete = rows["create_note"], rows["delete_note"]
    assert delete.action_penalty == 1.0 and delete.other_action.startswith("delete")
    assert "does delete, the question asks to create -1.0" in delete.because()
    assert create.action_penalty == 0.0
    assert any(m["where"] == "shape:action" and m["term"] == "create" for m in create.matched)
    assert create.score - delete.score >= 2.0


def test_the_router_calls_the_tool_of_the_kind_asked_for_and_not_without_the_rule() -> None:
    question = 'Delete the note titled "groceries"'
    mv = move(question, *TOOLS)
    assert [(c.name, c.args) for c in mv.calls] == [("delete_note", {"title": "groceries"})]
    with switched(without=["action_kind"]):
        rows = _rows(question)
    assert rows["create_note"].action_penalty == 0.0


def test_a_reading_question_against_reading_tools_is_left_alone() -> None:
    tools = [dict(t, name=n) for t, n in zip(TOOLS, ("get_note", "find_notes"), strict=True)]
    idx = build_index(tools, Weights())
    rows, _words = score_question(idx, "Find the note groceries", Weights())
    assert all(r.action_penalty == 0.0 for r in rows)
    assert all(m["where"] != "shape:action" for r in rows for m in r.matched)


NOTES = [
    dict(TOOLS[0]),
    dict(TOOLS[1], name="get_note", description="Get a note by its title."),
    dict(TOOLS[1], name="update_note", description="Update a note's text by its title."),
]


def test_a_write_request_no_tool_does_calls_nothing_and_says_why() -> None:
    mv = move('Delete the note titled "groceries"', *NOTES)
    assert mv.calls == [] and not (mv.explanation or {}).get("asks_for")
    reason = (mv.explanation or {})["reason"]
    assert "does create, the question asks to delete; no tool does delete" in reason


def test_a_verb_that_weighs_nothing_still_says_its_kind() -> None:
    # "Get" is a stop word for relevance; the three tools tied and create_note came first
    mv = move('Get the note "groceries"', *NOTES)
    assert [(c.name, c.args) for c in mv.calls] == [("get_note", {"title": "groceries"})]


def test_a_question_word_without_a_verb_asks_to_read() -> None:
    mv = move('What does the note "groceries" say?', *NOTES)
    assert [(c.name, c.args) for c in mv.calls] == [("get_note", {"title": "groceries"})]
    assert read_request("어디 있어?", korean.tokenize("어디 있어?"), [1.0, 1.0]).kinds == {"read"}


def test_a_past_participle_describes_and_asks_nothing() -> None:
    text = "The image has a registered trademark and the deleted files"
    tokens = korean.tokenize(text)
    assert read_request(text, tokens, [1.0] * len(tokens)).kinds == frozenset()


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("What is the climate change outlook for Busan?", {"read"}),
        ("Show the latest update of the note", {"read"}),
        ("Can you update the note, and remove the old one?", {"update", "delete"}),
        ("I want to delete it, then search again", {"delete", "read"}),
        ("Make sure to give me the temperature", frozenset()),
    ],
)
def test_only_a_word_in_request_position_asks(text: str, kinds: set[str]) -> None:
    tokens = korean.tokenize(text)
    assert read_request(text, tokens, [1.0] * len(tokens)).kinds == kinds


def _event_tool(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {"event_id": {"type": "string", "description": "The id, e.g. ev-1."}},
            "required": ["event_id"],
        },
    }


@pytest.mark.parametrize("question", ["show event ev-12", "What is event ev-12?"])
def test_a_reading_question_never_calls_a_delete_tool_even_with_its_id(question: str) -> None:
    mv = move(question, _event_tool("delete_event", "Delete an event by its id."))
    assert mv.calls == []
    assert "delete_event does delete" in (mv.explanation or {})["reason"]


@pytest.mark.parametrize("question", ["cancel event ev-12", "archive event ev-12"])
def test_a_write_request_never_calls_a_reading_tool_with_its_id(question: str) -> None:
    mv = move(question, _event_tool("get_event", "Get an event by its id."))
    assert mv.calls == []
    assert "get_event does read" in (mv.explanation or {})["reason"]
    mv = move("show event ev-12", _event_tool("get_event", "Get an event by its id."))
    assert [(c.name, c.args) for c in mv.calls] == [("get_event", {"event_id": "ev-12"})]
