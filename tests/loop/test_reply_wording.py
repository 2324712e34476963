"""Reply wording: values in words (never Python reprs) and repairs said in the reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.loop.episode import run_manual_episode, run_question_episode
from playground.loop.reply import repair_note
from playground.routing.base import FunctionCall, Move
from playground.routing.offline import OfflineRouter
from playground.routing.replies import say
from playground.workbench import open_playground

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg():
    return open_playground([ROOT / "tools" / "inventory.py"], wire=False)


class OneCall:
    """Calls ``stock_lookup`` once with the given args, then lets the offline router reply."""

    name = "scripted"

    def __init__(self, args):
        self.args, self.offline = args, OfflineRouter()
        from playground.routing.base import RouterCapabilities

        self.capabilities = RouterCapabilities(explains=False, parallel_calls=False, dry_run=False)

    def next_move(self, conversation, declarations):
        if len(conversation) == 1:
            return Move(calls=[FunctionCall("stock_lookup", dict(self.args), "call_1")])
        return self.offline.next_move(conversation, declarations)


def test_say_renders_words_and_json():
    assert [say(True, True), say(False, True), say(None, True)] == ["예", "아니오", "없음"]
    assert [say(True, False), say(False, False), say(None, False)] == ["yes", "no", "none"]
    assert say({"a": [1, "맑음"]}, True) == '{"a":[1,"맑음"]}'
    assert say("x" * 200, False, 10) == "x" * 9 + "…"


def test_manual_repairs_are_said_in_the_reply(pg):
    ep = run_manual_episode(pg, "stock_lookup", {"sku": "KB-101", "region": "jeju", "limit": 2})
    assert "jeju" in ep.reply and "seoul" in ep.reply and "not an allowed region" in ep.reply
    legacy = run_manual_episode(pg, "legacy_stock", {"sku": "KB-101", "region": "seoul"})
    assert legacy.reply.endswith("(the full result was too big; showed at most 5 rows).")
    clamped = run_manual_episode(
        pg, "stock_lookup", {"sku": "KB-101", "region": "busan", "limit": 40}
    )
    assert "(limit 40 is above the maximum; used 5 instead)" in clamped.reply
    typo = run_manual_episode(pg, "stock_lokup", {"sku": "KB-101", "region": "busan", "limit": 1})
    assert typo.changes[0]["kind"] == "tool_name" and typo.reply.endswith(
        "count=6."
    )  # same question: no note


def test_question_episode_says_the_substitution_in_korean(pg):
    ep = run_question_episode(
        pg, "제주 매장 KB-101 재고 알려줘", OneCall({"sku": "KB-101", "region": "jeju", "limit": 2})
    )
    assert ep.end == "answered" and ep.fixes
    assert "jeju는 허용되지 않는 region 값이라 seoul 기준으로 대신 안내해 드립니다" in ep.reply
    assert ep.to_json()["changes"][0]["old"] == "jeju"


def test_nothing_found_after_a_substitution_says_where_it_looked():
    note = repair_note(
        [{"kind": "substituted", "arg": "region", "old": "jeju", "new": "seoul"}],
        False,
        answered=False,
    )
    assert note == " (jeju is not an allowed region; looked up seoul instead)"
    assert repair_note([], True) == ""


def test_router_summary_uses_words_not_reprs():
    router = OfflineRouter()
    decls = [
        {
            "name": "track",
            "description": "주문 배송을 조회한다.",
            "parameters": {"type": "object", "properties": {}},
        }
    ]
    from playground.routing.base import ToolResult, Turn

    call = FunctionCall("track", {}, "call_1")
    value = {"shipped": True, "delivered_at": None, "returned": False, "steps": ["a", "b"]}
    conv = [
        Turn(role="user", text="배송 조회"),
        Turn(role="model", move=Move(calls=[call])),
        Turn(
            role="tool",
            results=[ToolResult("call_1", "track", True, "ok", value, "")],
        ),
    ]
    text = router.next_move(conv, decls).text
    assert "shipped: 예" in text and "delivered_at: 없음" in text and "returned: 아니오" in text
    assert 'steps: ["a","b"]' in text
    assert "True" not in text and "None" not in text and "False" not in text
    conv[0] = Turn(role="user", text="track my delivery")
    english = router.next_move(conv, decls).text
    assert "shipped: yes" in english and "delivered_at: none" in english
