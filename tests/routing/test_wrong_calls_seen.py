"""Wrong calls a user saw on real tools (issue 23, held-out kind), each now a regression: the
declarations are written as a server declares them, the expected call or no call asserted."""

from __future__ import annotations

from typing import Any

from tests.routing.helpers import move


def _tool(name: str, description: str, **params: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {p: {"type": "string", "description": d} for p, d in params.items()},
            "required": list(params),
        },
    }


DELETE_EVENT = _tool("delete_event", "Delete a calendar event.", event_id="The event's id.")


def test_a_bare_id_deletes_nothing() -> None:
    mv = move("event ev-12", DELETE_EVENT)
    assert mv.calls == []
    assert "delete, the question asks for no action" in mv.explanation["reason"]
    assert [c.name for c in move("delete event ev-12", DELETE_EVENT).calls] == ["delete_event"]
