"""Parallel calls of one router move are answered together on the wire, grouped as each provider
requires: Gemini one Content with a function_response part per call, Anthropic one user message
with every tool_result block (is_error on the failed one), OpenAI one tool message per call."""

from __future__ import annotations

from pathlib import Path

from playground.loop.episode import run_question_episode
from playground.routing.base import FunctionCall, Move, RouterCapabilities
from playground.workbench import open_playground

REPO = Path(__file__).resolve().parents[2]


class TwoCallsThenText:
    name = "scripted"
    capabilities = RouterCapabilities(repairs="model", parallel_calls=True)

    def __init__(self) -> None:
        self.turn = 0

    def next_move(self, conversation, declarations):
        self.turn += 1
        if self.turn == 1:
            return Move(
                calls=[
                    FunctionCall("track_shipping", {"order_id": "HR20260604"}, "call_a"),
                    FunctionCall(
                        "check_stock", {"product_id": 8}, "call_b"
                    ),  # wrong type: invalid_args
                ]
            )
        return Move(text="배송중이에요.")


def test_parallel_calls_are_grouped_per_provider():
    pg = open_playground([REPO / "tools" / "shop.py"], wire=False)
    ep = run_question_episode(
        pg, "HR20260604 어디쯤이에요? 그리고 P008 재고는요?", TwoCallsThenText()
    )
    turns = ep.to_json()["tool_turns"]
    assert (
        len(turns) == 1 and turns[0]["move"] == 1 and turns[0]["call_ids"] == ["call_a", "call_b"]
    )
    wire = turns[0]["wire"]

    gemini = wire["gemini"]
    assert gemini["role"] == "user" and len(gemini["parts"]) == 2
    first, second = (p["function_response"] for p in gemini["parts"])
    assert (first["id"], first["name"]) == ("call_a", "track_shipping")
    assert first["response"]["result"]["status"] == "배송중"
    assert (second["id"], second["name"]) == ("call_b", "check_stock")
    assert "type:product_id" in second["response"]["error"]

    anthropic = wire["anthropic"]
    assert anthropic["role"] == "user" and [b["tool_use_id"] for b in anthropic["content"]] == [
        "call_a",
        "call_b",
    ]
    assert "is_error" not in anthropic["content"][0] and anthropic["content"][1]["is_error"] is True

    openai = wire["openai"]
    assert [m["tool_call_id"] for m in openai] == ["call_a", "call_b"] and all(
        m["role"] == "tool" for m in openai
    )
    assert '"error":"args:type:product_id"' in openai[1]["content"]
