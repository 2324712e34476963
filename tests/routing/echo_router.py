"""A test-only router backend: one module (this) plus one ``registry.register(SPEC)`` line.

``echo`` calls the first declared tool whose name appears in the question, with the ``key=value``
words of the question as arguments; otherwise it answers ``no tool named``. After a tool result
it answers ``echo: <value as JSON>``. It needs no key, has no modes or models, and leaves repairs
to the model (``repairs="model"``), so the loop never applies its REPAIRS table to it.
"""

from __future__ import annotations

import json
from typing import Any

from playground.routing.base import FunctionCall, Move, RouterCapabilities, Turn
from playground.routing.registry import RouterSettings, RouterSpec


class EchoRouter:
    name = "echo"
    capabilities = RouterCapabilities(repairs="model")

    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        last = conversation[-1]
        if last.role == "tool":
            result = last.results[0]
            return Move(text=f"echo: {json.dumps(result.value, ensure_ascii=False)}")
        question = last.text or ""
        for declaration in declarations:
            if declaration["name"] in question.split():
                args = dict(w.split("=", 1) for w in question.split() if "=" in w)
                return Move(calls=[FunctionCall(declaration["name"], args, "echo_1")])
        return Move(text="no tool named")


def build(settings: RouterSettings) -> EchoRouter:
    return EchoRouter()


SPEC = RouterSpec(
    name="echo",
    summary="Test router: calls the tool named in the question",
    build=build,
    capabilities=EchoRouter.capabilities,
)
