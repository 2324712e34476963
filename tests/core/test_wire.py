"""Wire JSON: what each provider's model reads back for one call (core/wire.py)."""

from __future__ import annotations

import json

import pytest

from playground.core.outcome import Outcome
from playground.core.wire import (
    anthropic_block,
    approx_tokens,
    gemini_part,
    gemini_response_payload,
    group_for_provider,
    openai_message,
    provider_views,
)

OK = Outcome(True, {"found": True, "status": "배송중", "courier": None}, "", "ok")
EMPTY_OBJ = Outcome(
    True, {"keyword": "우산", "rows": []}, "", "empty", "Nothing matched in search_products."
)
EMPTY_LIST = Outcome(True, [], "", "empty", "Nothing matched in search.")
FAIL = Outcome(
    False,
    None,
    "args:pattern:order_id",
    "invalid_args",
    "주문번호는 'HR'로 시작합니다. 예: HR20260601",
)
TRANSIENT = Outcome(False, None, "transient:http_503", "transient", "temporarily unavailable")


def test_gemini_part_on_success():
    assert gemini_part("track_shipping", "c1", OK) == {
        "function_response": {
            "id": "c1",
            "name": "track_shipping",
            "response": {"result": {"found": True, "status": "배송중", "courier": None}},
        }
    }


def test_gemini_part_on_failure():
    assert gemini_part("get_order_status", "c2", FAIL) == {
        "function_response": {
            "id": "c2",
            "name": "get_order_status",
            "response": {"error": "주문번호는 'HR'로 시작합니다. 예: HR20260601"},
        }
    }


def test_gemini_part_without_an_id():
    assert gemini_part("t", None, OK)["function_response"].keys() == {"name", "response"}


def test_empty_carries_a_note_and_is_not_an_error():
    assert gemini_response_payload(EMPTY_OBJ) == {
        "result": {"keyword": "우산", "rows": [], "note": "Nothing matched in search_products."}
    }
    assert gemini_response_payload(EMPTY_LIST) == {
        "result": [],
        "note": "Nothing matched in search.",
    }
    block = anthropic_block("toolu_1", EMPTY_LIST)
    assert "is_error" not in block
    assert json.loads(block["content"]) == {"result": [], "note": "Nothing matched in search."}


@pytest.mark.parametrize("outcome", [OK, EMPTY_OBJ, EMPTY_LIST, FAIL, TRANSIENT])
@pytest.mark.parametrize("call_id", ["c1", None])
def test_gemini_part_equals_what_google_genai_builds(outcome, call_id):
    types = pytest.importorskip("google.genai.types")
    sdk = types.Part(
        function_response=types.FunctionResponse(
            id=call_id, name="tool", response=gemini_response_payload(outcome)
        )
    ).model_dump(mode="json", exclude_none=True)
    assert gemini_part("tool", call_id, outcome) == sdk


def test_hangul_is_kept_when_dumped():
    views = provider_views("track_shipping", "c1", OK)
    text = json.dumps(views, ensure_ascii=False)
    assert "배송중" in text and "\\u" not in text
    assert "배송중" in views["anthropic"]["content"] and "배송중" in views["openai"]["content"]


def test_anthropic_is_error_only_on_failures():
    assert anthropic_block("toolu_1", OK) == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": '{"found":true,"status":"배송중","courier":null}',
    }
    assert anthropic_block("toolu_1", EMPTY_OBJ).get("is_error") is None
    failed = anthropic_block("toolu_2", FAIL)
    assert failed["is_error"] is True and failed["content"] == FAIL.message
    assert anthropic_block("toolu_3", TRANSIENT)["is_error"] is True
    assert anthropic_block(None, OK)["tool_use_id"] == "toolu_local"


def test_openai_tool_message():
    assert openai_message("call_9", OK) == {
        "role": "tool",
        "tool_call_id": "call_9",
        "content": '{"found":true,"status":"배송중","courier":null}',
    }
    failed = openai_message("call_9", FAIL)
    assert json.loads(failed["content"]) == {
        "error": "args:pattern:order_id",
        "message": FAIL.message,
    }


def test_provider_views_and_tokens():
    views = provider_views("t", "c1", OK)
    assert set(views) == {"gemini", "anthropic", "openai", "tokens"}
    assert views["tokens"] == {
        k: approx_tokens(views[k]) for k in ("gemini", "anthropic", "openai")
    }
    assert approx_tokens("abcd") == 1 and approx_tokens("abcde") == 2
    assert approx_tokens("배송중") == 3


def test_group_for_provider():
    views = [provider_views("a", "c1", OK), provider_views("b", "c2", FAIL)]
    gemini = group_for_provider("gemini", views)
    assert gemini["role"] == "user"
    assert [p["function_response"]["name"] for p in gemini["parts"]] == ["a", "b"]
    anthropic = group_for_provider("anthropic", views)
    assert anthropic["role"] == "user"
    assert [b["tool_use_id"] for b in anthropic["content"]] == ["c1", "c2"]
    assert [b.get("is_error", False) for b in anthropic["content"]] == [False, True]
    openai = group_for_provider("openai", views)
    assert [m["tool_call_id"] for m in openai] == ["c1", "c2"]
    with pytest.raises(ValueError, match="unknown provider 'mistral'"):
        group_for_provider("mistral", views)
