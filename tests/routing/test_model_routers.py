"""The openai, anthropic and openai-compatible routers, offline: against a real local HTTP server
process (``provider_server.py``) speaking each API with canned answers, and through the SDKs'
httpx2 mock transport. Assertions are on the requests the SDKs really sent and on the episode."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.errors import RouterError
from playground.routing.anthropic_api import AnthropicRouter, build_messages
from playground.routing.base import FunctionCall, Move, ToolResult, Turn
from playground.routing.declarations import provider_declaration
from playground.routing.openai_api import OpenAIRouter, chat_messages, responses_input
from playground.routing.openai_compatible import CompatibleRouter
from playground.workbench import open_playground
from tests.routing.provider_server import ENCRYPTED, SIGNATURE

REPO = Path(__file__).resolve().parents[2]
SHOP = str(REPO / "tools" / "shop.py")
QUESTION = "Where is my parcel right now? Order HR20260626"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@functools.cache
def _declarations() -> str:
    return json.dumps(open_playground([SHOP], in_process=True).registry.declarations())


def declarations() -> list[dict]:
    return json.loads(_declarations())


def ask_json(*args: str) -> dict:
    result = run("ask", *args, "--tools", SHOP, "--in-process", "--no-history", "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def no_sleep(waits: list[float]):
    return waits.append


# ------------------------------------------------------------------------------- must show


@pytest.mark.parametrize(
    ("router", "extra", "path"),
    [
        ("openai-compatible", ["--model", "llama3.2"], "/v1/chat/completions"),
        ("openai", [], "/v1/responses"),
        ("openai", ["--api", "chat"], "/v1/chat/completions"),
        ("anthropic", [], "/v1/messages"),
    ],
    ids=["compatible", "openai-responses", "openai-chat", "anthropic"],
)
def test_ask_through_each_router_shows_the_call_its_record_and_the_reply(
    server, router, extra, path
):
    base = f"{server.url}/v1" if router.startswith("openai") else server.url
    data = ask_json(QUESTION, "--router", router, "--base-url", base, *extra)
    first = data["moves"][0]
    assert [(c["name"], c["args"]) for c in first["calls"]] == [
        ("get_order_status", {"order_id": "HR20260626"})
    ]
    assert first["usage"]["output_tokens"] == 17 and first["usage"]["input_tokens"] > 20
    [record] = data["calls"]
    assert record["tool"] == "get_order_status" and record["kind"] == "ok"
    assert record["value"]["status"] == "배송중"
    assert data["end"] == "answered"
    assert data["reply"].startswith('Done: {"found":true,"order_id":"HR20260626"')
    requests = server.requests()
    assert [r["path"] for r in requests] == [path, path]
    sent = requests[0]["body"]
    decls = declarations()
    provider = {"openai-compatible": "openai-compatible", "anthropic": "anthropic"}.get(
        router, "openai-compatible" if extra == ["--api", "chat"] else "openai"
    )
    assert sent["tools"] == [provider_declaration(provider, d).body for d in decls]


def test_responses_reasoning_items_go_back_exactly(server):
    data = ask_json(QUESTION, "--router", "openai", "--base-url", f"{server.url}/v1")
    second = server.requests()[1]["body"]["input"]
    assert second[0] == {"role": "user", "content": QUESTION}
    assert second[1] == {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [],
        "encrypted_content": ENCRYPTED,
    }
    assert second[2]["type"] == "function_call" and second[2]["call_id"] == "call_1"
    assert second[3]["type"] == "function_call_output" and second[3]["call_id"] == "call_1"
    assert json.loads(second[3]["output"])["order_id"] == "HR20260626"
    assert data["moves"][0]["raw"][0]["encrypted_content"] == ENCRYPTED


def test_anthropic_thinking_block_and_signature_go_back_exactly(server):
    ask_json(QUESTION, "--router", "anthropic", "--base-url", server.url)
    messages = server.requests()[1]["body"]["messages"]
    assert messages[1]["role"] == "assistant"
    assert messages[1]["content"][0] == {
        "type": "thinking",
        "thinking": "The user wants a tool.",
        "signature": SIGNATURE,
    }
    assert messages[1]["content"][1]["type"] == "tool_use"
    [result] = messages[2]["content"]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_call_1"
    assert "is_error" not in result


@pytest.mark.parametrize("router", ["openai", "anthropic", "openai-compatible"])
def test_dry_run_prints_the_exact_request_with_the_tools_show_prints(monkeypatch, router):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-REAL-SECRET")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-REAL-SECRET")
    extra = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"] if "compat" in router else []
    result = run(
        "ask", "HR20260626 어디쯤이에요?", "--router", router, "--dry-run", *extra,
        "--tools", SHOP, "--in-process", "-f", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "REAL-SECRET" not in result.stdout
    request = json.loads(result.stdout)["dry_run"]
    assert request["method"] == "POST"
    assert request["headers"].get("authorization", request["headers"].get("x-api-key")) == (
        "[redacted]"
    )
    provider = router
    for decl, tool in zip(declarations(), request["body"]["tools"], strict=True):
        assert tool == provider_declaration(provider, decl).body
    show = run("show", "get_order_status", "--provider", provider, "--tools", SHOP, "-f", "json")
    assert json.loads(show.stdout) in request["body"]["tools"]
    text = json.dumps(request["body"], ensure_ascii=False)
    assert "HR20260626 어디쯤이에요?" in text


@pytest.mark.parametrize(
    ("router", "variable"), [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")]
)
def test_a_missing_key_is_exit_2_naming_the_variable(router, variable):
    env = {k: v for k, v in __import__("os").environ.items() if k != variable}
    done = subprocess.run(
        [sys.executable, "-m", "playground", "ask", "x", "--router", router, "--tools", SHOP],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: no ") and variable in line


def test_openai_compatible_without_a_base_url_or_model_is_a_usage_error(monkeypatch):
    monkeypatch.delenv("PLAYGROUND_COMPATIBLE_BASE_URL", raising=False)
    result = run("ask", "x", "--router", "openai-compatible", "--tools", SHOP)
    assert result.exit_code == 2
    assert "needs --base-url URL" in result.output


def test_openai_compatible_without_a_model_uses_the_servers_only_model(server):
    router = CompatibleRouter(model="", base_url=f"{server.url}/v1")
    move = router.next_move([Turn("user", QUESTION)], declarations())
    assert router.model == "canned-model" and move.calls[0].name == "get_order_status"
    assert server.requests()[0]["body"]["model"] == "canned-model"


# --------------------------------------------------------------- canned answers, one by one


def compatible(server, **kw) -> CompatibleRouter:
    return CompatibleRouter(model="m", base_url=f"{server.url}/v1", **kw)


def test_parallel_calls_are_answered_in_order(server):
    router = compatible(server)
    decls = declarations()
    move = router.next_move([Turn("user", f"{QUESTION} [parallel]")], decls)
    assert [c.id for c in move.calls] == ["call_1", "call_2"]
    results = [
        ToolResult(c.id, c.name, True, "ok", {"n": i}, "") for i, c in enumerate(move.calls)
    ][::-1]  # the loop may hand them back in any order
    conversation = [Turn("user", QUESTION), Turn("model", move=move), Turn("tool", results=results)]
    sent = chat_messages(conversation)
    assert [(m["role"], m.get("tool_call_id")) for m in sent[2:]] == [
        ("tool", "call_1"),
        ("tool", "call_2"),
    ]
    assert [json.loads(m["content"]) for m in sent[2:]] == [{"n": 0}, {"n": 1}]


def test_malformed_arguments_reach_the_gate_as_written_with_a_note(server):
    data = ask_json(
        f"{QUESTION} [malformed]", "--router", "openai-compatible", "--model", "m",
        "--base-url", f"{server.url}/v1", "--max-steps", "1",
    )  # fmt: skip
    first = data["moves"][0]
    assert first["calls"][0]["args"] == '{"order_id": "HR1'
    assert any("not valid JSON" in n for n in first["notes"])
    assert data["calls"][0]["kind"] != "ok"


def test_text_answer_has_no_call(server):
    move = compatible(server).next_move([Turn("user", "hello [text]")], declarations())
    assert move.calls == [] and move.text == "I can answer without a tool."
    assert move.notes == []


def test_ignored_tool_choice_is_reported_not_papered_over(server):
    router = compatible(server, mode="ANY")
    move = router.next_move([Turn("user", f"{QUESTION} [ignore-choice]")], declarations())
    assert move.calls == []
    assert move.notes == [
        'the server ignored tool_choice "required": it answered with text, not a call'
    ]
    assert server.requests()[0]["body"]["tool_choice"] == "required"


@pytest.mark.parametrize("router_class", [OpenAIRouter, AnthropicRouter])
def test_429_retry_after_is_honoured_then_the_call_comes(server, router_class):
    waits: list[float] = []
    base = f"{server.url}/v1" if router_class is OpenAIRouter else server.url
    router = router_class(model="m", api_key="k", base_url=base, sleep=no_sleep(waits))
    move = router.next_move(
        [Turn("user", f"{QUESTION} [429] {router_class.__name__}")], declarations()
    )
    assert waits == [1.0, 1.0]
    assert [c.name for c in move.calls] == ["get_order_status"]
    assert len(move.notes) == 2 and "429" in move.notes[0] and "1.00 s" in move.notes[0]


def test_500_gives_up_after_the_retries_with_one_line(server):
    waits: list[float] = []
    router = OpenAIRouter(
        model="m", api_key="k", base_url=f"{server.url}/v1", sleep=no_sleep(waits)
    )
    with pytest.raises(RouterError) as caught:
        router.next_move([Turn("user", "x [500]")], declarations())
    assert str(caught.value).startswith("OpenAI API error 500: internal server error")
    assert "gave up after 5 tries" in str(caught.value)
    assert len(waits) == 4 and all(0 < w <= 60 for w in waits)


# ---------------------------------------------------------------------- fork and replay


def test_a_forked_call_is_written_back_by_position_keeping_reasoning():
    raw = [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": ENCRYPTED},
        {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "a", "arguments": "{}"},
        {"type": "function_call", "id": "fc_2", "call_id": "c", "name": "b", "arguments": "{}"},
    ]
    move = Move(calls=[FunctionCall("a", {}, "c"), FunctionCall("b", {"x": 1}, "c")], raw=raw)
    items = responses_input([Turn("user", "q"), Turn("model", move=move)])
    assert items[1] == raw[0]
    assert items[3]["name"] == "b" and json.loads(items[3]["arguments"]) == {"x": 1}
    assert raw[2]["arguments"] == "{}"  # the stored raw is not edited

    blocks = [
        {"type": "thinking", "thinking": "t", "signature": SIGNATURE},
        {"type": "tool_use", "id": "toolu_1", "name": "a", "input": {}},
    ]
    move = Move(calls=[FunctionCall("a", {"y": 2}, "toolu_1")], raw=blocks)
    messages = build_messages([Turn("user", "q"), Turn("model", move=move)])
    assert messages[1]["content"][0] == blocks[0]
    assert messages[1]["content"][1]["input"] == {"y": 2}


def test_another_routers_move_is_rebuilt_from_its_calls():
    gemini_raw = {"role": "model", "parts": [{"function_call": {"name": "a", "args": {}}}]}
    move = Move(calls=[FunctionCall("a", {"k": "v"}, "")], raw=gemini_raw)
    conversation = [Turn("user", "q"), Turn("model", move=move)]
    assert responses_input(conversation)[1] == {
        "type": "function_call",
        "call_id": "call_local",
        "name": "a",
        "arguments": '{"k": "v"}',
    }
    assert chat_messages(conversation)[1]["tool_calls"][0]["function"]["name"] == "a"
    assert build_messages(conversation)[1]["content"][0]["input"] == {"k": "v"}


# ------------------------------------------------------------------- SDK mock transport


def test_responses_through_the_sdk_mock_transport():
    seen: list[dict] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.read()))
        return httpx2.Response(
            200,
            json={
                "id": "resp_1",
                "object": "response",
                "status": "completed",
                "output": [
                    {
                        "type": "function_call",
                        "id": "fc_1",
                        "call_id": "call_9",
                        "name": "get_order_status",
                        "arguments": '{"order_id":"HR1"}',
                    },
                    {
                        "type": "function_call",
                        "id": "fc_2",
                        "call_id": "call_10",
                        "name": "get_order_status",
                        "arguments": '{"order_id":"HR2"}',
                    },
                ],
                "usage": {"input_tokens": 50, "output_tokens": 9},
            },
        )

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    router = OpenAIRouter(model="gpt-x", mode="ANY", api_key="k", http_client=client)
    move = router.next_move([Turn("user", "두 주문 HR1, HR2")], declarations())
    assert [(c.id, c.args) for c in move.calls] == [
        ("call_9", {"order_id": "HR1"}),
        ("call_10", {"order_id": "HR2"}),
    ]
    assert move.usage == {"input_tokens": 50, "output_tokens": 9}
    assert (
        seen[0]["tool_choice"] == "required"
        and seen[0]["input"][0]["content"] == "두 주문 HR1, HR2"
    )


def test_ask_with_two_routers_shows_both_episodes(server):
    data = ask_json(
        QUESTION, "--router", "offline", "--router", "openai-compatible:llama3.2",
        "--base-url", f"{server.url}/v1",
    )  # fmt: skip
    offline, compatible = data["episodes"]
    assert (offline["router"], compatible["router"]) == ("offline", "openai-compatible")
    assert offline["calls"][0]["tool"] == "track_shipping"
    assert compatible["calls"][0]["tool"] == "get_order_status"
    assert compatible["calls"][0]["cache"] == "stored"  # its own run, not the offline one's
    assert server.requests()[0]["body"]["model"] == "llama3.2"
    assert run("ask", "x", "-r", "offline", "-r", "offline", "--save", "/tmp/x.json").exit_code == 2


def test_gemini_moves_carry_the_apis_token_counts_for_the_comparison():
    from playground.routing.gemini import GeminiRouter

    answer = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "안녕하세요"}]}}],
        "usageMetadata": {
            "promptTokenCount": 12,
            "candidatesTokenCount": 3,
            "thoughtsTokenCount": 5,
        },
    }
    client = httpx2.Client(
        transport=httpx2.MockTransport(lambda r: httpx2.Response(200, json=answer))
    )
    move = GeminiRouter(api_key="k", http_client=client).next_move([Turn("user", "안녕")], [])
    assert move.text == "안녕하세요" and move.usage == {"input_tokens": 12, "output_tokens": 8}


def test_a_refused_connection_is_one_line_at_once_not_retried():
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waits: list[float] = []
    router = CompatibleRouter(
        model="m", base_url=f"http://127.0.0.1:{port}/v1", sleep=no_sleep(waits)
    )
    with pytest.raises(RouterError) as caught:
        router.next_move([Turn("user", "x")], [])
    assert str(caught.value) == (
        "cannot reach OpenAI-compatible server: connection refused (is it running?)"
    )
    assert waits == []


def test_reasoning_and_the_models_own_arguments_go_back_through_a_repair(server):
    """The model wrote arguments that are not JSON: the gate refuses the call, and the next
    request carries the reasoning item and the call exactly as the model sent them, then the
    error it reads (the model repairs: repairs="model")."""
    data = ask_json(
        f"{QUESTION} [malformed]", "--router", "openai", "--base-url", f"{server.url}/v1",
        "--max-steps", "2",
    )  # fmt: skip
    assert data["calls"][0]["kind"] != "ok"
    second = server.requests()[1]["body"]["input"]
    assert second[1] == {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [],
        "encrypted_content": ENCRYPTED,
    }
    assert second[2]["arguments"] == '{"order_id": "HR1'  # as the model wrote it
    output = json.loads(second[3]["output"])
    assert second[3]["type"] == "function_call_output" and output["error"]


@pytest.mark.parametrize("content_type", ["text/html", "application/json"])
@pytest.mark.parametrize("router_class", [CompatibleRouter, OpenAIRouter, AnthropicRouter])
def test_an_answer_that_is_not_the_api_is_one_line_naming_the_base_url(router_class, content_type):
    """A base URL that answers every POST with a web page (a proxy, the wrong port): the
    episode said "The router could not answer: 'str' object has no attribute
    '_set_private_attributes'" (OpenAI-compatible), "... no attribute 'content'" (Anthropic)
    or "Expecting value: line 1 column 1" (a page labelled JSON)."""

    def handler(request: httpx2.Request) -> httpx2.Response:
        page = b"<html><body>It works!</body></html>"
        return httpx2.Response(200, content=page, headers={"content-type": content_type})

    kwargs = {"mode": "ANY"} if router_class is not CompatibleRouter else {}
    with httpx2.Client(transport=httpx2.MockTransport(handler)) as client:
        router = router_class(
            model="m", api_key="k", base_url="http://127.0.0.1:8801/v1", http_client=client,
            **kwargs,
        )  # fmt: skip
        with pytest.raises(RouterError) as info:
            router.next_move([Turn("user", QUESTION)], declarations())
    message = str(info.value)
    assert "is --base-url the API's address?" in message and "\n" not in message
    assert not message.startswith("'str' object")  # a bare exception text is not an answer
