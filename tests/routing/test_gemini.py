"""The Gemini router, offline: every request goes to an httpx2.MockTransport.

Canned responses are real Gemini API JSON (candidates / content / parts / functionCall with id
and args, thoughtSignature); assertions are on the request bodies the SDK really sent.
"""

from __future__ import annotations

import base64
import json

import httpx2
import pytest

from playground.errors import RouterError, UsageError
from playground.routing.base import FunctionCall, Move, Router, ToolResult, Turn
from playground.routing.gemini import (
    NO_KEY_MESSAGE,
    GeminiRouter,
    build_contents,
    gemini_key_from_env,
)

SIGNATURE = base64.urlsafe_b64encode(b"\xfa\xfb\xfc-thought-signature-\xff").decode()

DECLARATIONS = [
    {
        "name": "search_products",
        "description": "상품을 키워드로 검색한다. 최대 5개.",
        "parameters": {
            "type": "object",
            "properties": {
                "keyword": {"type": "string", "description": "상품명 일부. 예: 운동화"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 5, "default": 5},
            },
            "required": ["keyword"],
        },
    },
    {
        "name": "check_stock",
        "description": "상품 ID로 재고를 확인한다.",
        "parameters": {
            "type": "object",
            "properties": {
                "product_id": {
                    "type": "string",
                    "pattern": "^P[0-9]{3}$",
                    "description": "'P'로 시작한다. 예: P008",
                }
            },
            "required": ["product_id"],
        },
    },
]


def call_part(name, args, call_id=None, signature=None):
    call = {"name": name, "args": args}
    if call_id is not None:
        call["id"] = call_id
    part = {"functionCall": call}
    if signature:
        part["thoughtSignature"] = signature
    return part


def response(*parts, finish="STOP"):
    return {
        "candidates": [
            {"content": {"role": "model", "parts": list(parts)}, "finishReason": finish, "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 120,
            "candidatesTokenCount": 12,
            "totalTokenCount": 132,
        },
        "modelVersion": "gemini-3.6-flash",
    }


class FakeGemini:
    """A MockTransport handler: records request bodies, answers the queued (status, json)."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests: list[httpx2.Request] = []
        self.bodies: list[dict] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        self.bodies.append(json.loads(request.content))
        status, payload = self.answers.pop(0)
        return httpx2.Response(status, json=payload)

    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))


def router_with(*answers, **kwargs):
    fake = FakeGemini(*answers)
    kwargs.setdefault("api_key", "test-key")
    return GeminiRouter(http_client=fake.client(), **kwargs), fake


def declarations_in(body):
    (tool,) = body["tools"]
    decls = tool["functionDeclarations"]
    # The SDK sends the field under its Python name; the API accepts either spelling.
    return {
        d["name"]: d.get("parameters_json_schema", d.get("parametersJsonSchema")) for d in decls
    }


def question(text="P008 재고 있어요?"):
    return [Turn(role="user", text=text)]


# -- protocol ----------------------------------------------------------------------------------


def test_router_satisfies_the_protocol_and_flags():
    router = GeminiRouter(api_key="k")
    assert isinstance(router, Router)
    assert router.name == "gemini"
    caps = router.capabilities
    assert (caps.repairs, caps.explains, caps.parallel_calls, caps.dry_run) == (
        "model",
        False,
        True,
        True,
    )
    assert caps.modes == ("AUTO", "ANY", "NONE", "VALIDATED")
    assert router.model == "gemini-3.6-flash"


def test_bad_mode_and_names_without_any_are_usage_errors():
    with pytest.raises(
        UsageError,
        match="unknown Gemini function-calling mode 'sometimes'; use one of AUTO, ANY, NONE, VALIDATED",
    ):
        GeminiRouter(mode="sometimes")
    with pytest.raises(UsageError, match="ANY or VALIDATED"):
        GeminiRouter(mode="AUTO", allowed_function_names=["check_stock"])
    assert GeminiRouter(mode="any", allowed_function_names=["check_stock"]).mode == "ANY"


# -- request bodies --------------------------------------------------------------------------


def test_one_call_request_and_move():
    router, fake = router_with(
        (200, response(call_part("check_stock", {"product_id": "P008"}, "fc-1")))
    )
    move = router.next_move(question(), DECLARATIONS)

    assert [(c.name, c.args, c.id) for c in move.calls] == [
        ("check_stock", {"product_id": "P008"}, "fc-1")
    ]
    assert move.text is None
    assert move.raw == {
        "role": "model",
        "parts": [
            {"function_call": {"id": "fc-1", "name": "check_stock", "args": {"product_id": "P008"}}}
        ],
    }

    (request,) = fake.requests
    assert request.method == "POST"
    assert request.url.path.endswith("/models/gemini-3.6-flash:generateContent")
    assert request.headers["x-goog-api-key"] == "test-key"
    body = fake.bodies[0]
    assert body["contents"] == [{"role": "user", "parts": [{"text": "P008 재고 있어요?"}]}]
    params = declarations_in(body)
    assert set(params) == {"search_products", "check_stock"}
    assert params["check_stock"]["properties"]["product_id"]["pattern"] == "^P[0-9]{3}$"
    assert params["check_stock"]["required"] == ["product_id"]
    # default is dropped from the Gemini copy (Developer API) and said in the description
    assert "default" not in params["search_products"]["properties"]["limit"]
    assert params["search_products"]["properties"]["limit"]["description"] == "(default: 5)"
    descriptions = {d["name"]: d["description"] for d in body["tools"][0]["functionDeclarations"]}
    assert descriptions["check_stock"] == "상품 ID로 재고를 확인한다."
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
    assert "automaticFunctionCalling" not in json.dumps(body)
    assert "automatic_function_calling" not in json.dumps(body)


def test_mode_and_allowed_names_are_sent():
    router, fake = router_with(
        (200, response(call_part("check_stock", {"product_id": "P001"}, "a"))),
        mode="ANY",
        allowed_function_names=["check_stock"],
    )
    router.next_move(question(), DECLARATIONS)
    assert fake.bodies[0]["toolConfig"] == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["check_stock"]}
    }


@pytest.mark.parametrize("mode", ["NONE", "VALIDATED"])
def test_other_modes_are_sent(mode):
    router, fake = router_with((200, response({"text": "네"})), mode=mode)
    router.next_move(question(), DECLARATIONS)
    assert fake.bodies[0]["toolConfig"]["functionCallingConfig"]["mode"] == mode


def test_two_parallel_calls_then_one_content_with_two_function_responses():
    first = response(
        call_part("check_stock", {"product_id": "P008"}, "fc-a", signature=SIGNATURE),
        call_part("check_stock", {"product_id": "P009"}, "fc-b"),
    )
    final = response({"text": "P008은 3개, P009는 품절입니다."})
    router, fake = router_with((200, first), (200, final))

    conversation = question("P008이랑 P009 재고 알려줘")
    move = router.next_move(conversation, DECLARATIONS)
    assert [(c.name, c.args["product_id"], c.id) for c in move.calls] == [
        ("check_stock", "P008", "fc-a"),
        ("check_stock", "P009", "fc-b"),
    ]
    conversation.append(Turn(role="model", move=move))
    # results arrive out of order: they are sent in call order, matched by id
    conversation.append(
        Turn(
            role="tool",
            results=[
                ToolResult(
                    "fc-b",
                    "check_stock",
                    True,
                    "ok",
                    {"in_stock": False, "message": "품절"},
                    "",
                ),
                ToolResult(
                    "fc-a",
                    "check_stock",
                    True,
                    "ok",
                    {"in_stock": True, "qty": 3},
                    "",
                ),
            ],
        )
    )
    answer = router.next_move(conversation, DECLARATIONS)
    assert answer.calls == []
    assert answer.text == "P008은 3개, P009는 품절입니다."

    contents = fake.bodies[1]["contents"]
    assert len(contents) == 3
    # the model's content echoed unchanged, thought signature included
    assert contents[1] == first["candidates"][0]["content"]
    assert contents[1]["parts"][0]["thoughtSignature"] == SIGNATURE
    # ONE content holding both function responses, in call order, with ids
    assert contents[2] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "id": "fc-a",
                    "name": "check_stock",
                    "response": {"result": {"in_stock": True, "qty": 3}},
                }
            },
            {
                "functionResponse": {
                    "id": "fc-b",
                    "name": "check_stock",
                    "response": {"result": {"in_stock": False, "message": "품절"}},
                }
            },
        ],
    }


def test_error_response_is_sent_as_the_function_response():
    router, fake = router_with((200, response({"text": "상품 ID 형식이 틀렸어요."})))
    conversation = question()
    move = Move(
        calls=[],
        raw=response(call_part("check_stock", {"product_id": "8"}, "x1"))["candidates"][0][
            "content"
        ],
    )
    move.calls.append(FunctionCall("check_stock", {"product_id": "8"}, "x1"))
    conversation += [
        Turn(role="model", move=move),
        Turn(
            role="tool",
            results=[
                ToolResult(
                    "x1",
                    "check_stock",
                    False,
                    "invalid_args",
                    None,
                    "args:pattern:product_id",
                    "product_id는 'P'로 시작해야 합니다. 예: P008",
                )
            ],
        ),
    ]
    router.next_move(conversation, DECLARATIONS)
    assert fake.bodies[0]["contents"][2]["parts"] == [
        {
            "functionResponse": {
                "id": "x1",
                "name": "check_stock",
                "response": {"error": "product_id는 'P'로 시작해야 합니다. 예: P008"},
            }
        }
    ]


def test_calls_without_ids_stay_without_ids_and_are_answered_in_order():
    """The model's ids are kept as it wrote them ("" for none; the loop gives each call its own
    id and flags it, playground.loop.call_ids): nothing is written into the raw turn, and the
    answers go back without an id, in the order of the calls."""
    router, fake = router_with(
        (200, response(call_part("search_products", {"keyword": "운동화"}))),
        (
            200,
            response(
                call_part("check_stock", {"product_id": "P008"}),
                call_part("check_stock", {"product_id": "P009"}),
            ),
        ),
    )
    conversation = question("운동화 재고")
    move = router.next_move(conversation, DECLARATIONS)
    assert [c.id for c in move.calls] == [""]
    assert "id" not in move.raw["parts"][0]["function_call"]
    conversation += [
        Turn(role="model", move=move),
        Turn(
            role="tool",
            results=[
                ToolResult(
                    "", "search_products", True, "ok", {"products": [{"product_id": "P008"}]}, ""
                )
            ],
        ),
    ]
    second = router.next_move(conversation, DECLARATIONS)
    assert [c.id for c in second.calls] == ["", ""]
    sent = fake.bodies[1]["contents"]
    assert sent[1]["parts"][0]["functionCall"] == {
        "name": "search_products",
        "args": {"keyword": "운동화"},
    }
    assert sent[2]["parts"] == [
        {
            "functionResponse": {
                "name": "search_products",
                "response": {"result": {"products": [{"product_id": "P008"}]}},
            }
        }
    ]


def test_text_answer_joins_text_parts_and_skips_thoughts():
    router, _ = router_with(
        (
            200,
            response(
                {"text": "생각 중", "thought": True}, {"text": "어떤 상품"}, {"text": "인가요?"}
            ),
        )
    )
    move = router.next_move(question("재고"), DECLARATIONS)
    assert move.calls == []
    assert move.text == "어떤 상품인가요?"
    assert move.raw["role"] == "model"


# -- errors ------------------------------------------------------------------------------------


def test_429_is_a_router_error_with_status_and_message():
    error = {
        "error": {
            "code": 429,
            "message": "Resource has been exhausted (e.g. check quota).",
            "status": "RESOURCE_EXHAUSTED",
        }
    }
    router, fake = router_with((429, error))
    with pytest.raises(RouterError) as info:
        router.next_move(question(), DECLARATIONS)
    message = str(info.value)
    assert message == (
        "Gemini API error 429 RESOURCE_EXHAUSTED: Resource has been exhausted "
        "(e.g. check quota). (rate limit or quota: wait and try again)"
    )
    assert "\n" not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__
    assert len(fake.requests) == 1  # no hidden retries


def test_500_is_a_router_error():
    router, _ = router_with(
        (
            500,
            {
                "error": {
                    "code": 500,
                    "message": "An internal error has occurred.",
                    "status": "INTERNAL",
                }
            },
        )
    )
    with pytest.raises(
        RouterError,
        match=r"^Gemini API error 500 INTERNAL: An internal error has occurred\. \(server error",
    ):
        router.next_move(question(), DECLARATIONS)


def test_invalid_key_400_mentions_the_key():
    router, _ = router_with(
        (
            400,
            {
                "error": {
                    "code": 400,
                    "message": "API key not valid. Please pass a valid API key.",
                    "status": "INVALID_ARGUMENT",
                }
            },
        )
    )
    with pytest.raises(RouterError, match=r"API key not valid.*check GEMINI_API_KEY"):
        router.next_move(question(), DECLARATIONS)


def test_network_error_is_a_router_error():
    def refuse(request):
        raise httpx2.ConnectError("connection refused", request=request)

    router = GeminiRouter(
        api_key="k", http_client=httpx2.Client(transport=httpx2.MockTransport(refuse))
    )
    with pytest.raises(
        RouterError, match=r"^cannot reach Gemini: ConnectError: connection refused$"
    ):
        router.next_move(question(), DECLARATIONS)


def test_blocked_prompt_and_empty_candidates():
    blocked = {"promptFeedback": {"blockReason": "SAFETY"}}
    router, _ = router_with(
        (200, blocked),
        (200, {"candidates": []}),
        (200, {"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]}),
    )
    with pytest.raises(RouterError, match=r"^Gemini blocked the prompt \(SAFETY\)$"):
        router.next_move(question(), DECLARATIONS)
    with pytest.raises(RouterError, match="no candidates"):
        router.next_move(question(), DECLARATIONS)
    with pytest.raises(RouterError, match=r"no content \(finish reason MALFORMED_FUNCTION_CALL\)"):
        router.next_move(question(), DECLARATIONS)


def test_bad_raw_in_conversation_is_a_router_error():
    router, fake = router_with()
    conversation = question() + [
        Turn(role="model", move=Move(raw={"parts": [{"no_such_field": 1}]}))
    ]
    with pytest.raises(RouterError, match="turn 1: model raw is not a Gemini Content"):
        router.next_move(conversation, DECLARATIONS)
    assert fake.requests == []


# -- keys and dry run ------------------------------------------------------------------------


def test_key_from_env_follows_the_sdk_precedence():
    assert gemini_key_from_env({}) is None
    assert gemini_key_from_env({"GEMINI_API_KEY": "  "}) is None
    assert gemini_key_from_env({"GEMINI_API_KEY": " g "}) == "g"
    assert gemini_key_from_env({"GOOGLE_API_KEY": "o"}) == "o"
    assert gemini_key_from_env({"GEMINI_API_KEY": "g", "GOOGLE_API_KEY": "o"}) == "o"


def test_no_key_raises_the_how_to_message_without_any_request(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    fake = FakeGemini()
    router = GeminiRouter(http_client=fake.client())
    with pytest.raises(RouterError) as info:
        router.next_move(question(), DECLARATIONS)
    assert str(info.value) == NO_KEY_MESSAGE
    assert "GEMINI_API_KEY" in NO_KEY_MESSAGE
    assert fake.requests == []


def test_key_is_read_from_env(monkeypatch):
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv("GEMINI_API_KEY", "env-key")
    fake = FakeGemini((200, response({"text": "네"})))
    GeminiRouter(http_client=fake.client()).next_move(question(), DECLARATIONS)
    assert fake.requests[0].headers["x-goog-api-key"] == "env-key"


def test_dry_run_without_a_key_equals_the_real_request(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    conversation = question("P008 재고 있어요?")
    dry = GeminiRouter(mode="ANY").dry_run(conversation, DECLARATIONS)
    assert dry["method"] == "POST"
    assert dry["url"].endswith("/models/gemini-3.6-flash:generateContent")
    assert dry["headers"]["x-goog-api-key"] == "[redacted]"
    assert "DRY-RUN" not in json.dumps(dry)
    assert dry["body"]["contents"][0]["parts"][0]["text"] == "P008 재고 있어요?"
    assert "재고 있어요" in json.dumps(dry["body"], ensure_ascii=False)
    assert dry["body"]["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}

    router, fake = router_with((200, response({"text": "네"})), mode="ANY")
    router.next_move(conversation, DECLARATIONS)
    assert dry["body"] == fake.bodies[0]
    assert dry["url"] == str(fake.requests[0].url)


def test_a_dry_run_loads_no_trust_roots(monkeypatch):
    """A dry run opens no socket: the SDK's three default TLS contexts (each loading the CA
    bundle, ~60 ms of CPU) are not built for it, and the request is the same."""
    import ssl

    expected = GeminiRouter(mode="ANY").dry_run(question("P008 재고?"), DECLARATIONS)

    def refused(*args, **kwargs):
        raise AssertionError("a dry run built a default TLS context")

    monkeypatch.setattr(ssl, "create_default_context", refused)
    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", refused)
    dry = GeminiRouter(mode="ANY").dry_run(question("P008 재고?"), DECLARATIONS)
    assert dry == expected
    assert dry["body"]["contents"][0]["parts"][0]["text"] == "P008 재고?"


def test_dry_run_with_a_key_never_sends_and_shows_the_echoed_signature():
    fake = FakeGemini()
    router = GeminiRouter(api_key="secret-key", http_client=fake.client())
    raw = response(call_part("check_stock", {"product_id": "P008"}, "fc-1", signature=SIGNATURE))[
        "candidates"
    ][0]["content"]
    move = Move(raw=raw)
    move.calls.append(FunctionCall("check_stock", {"product_id": "P008"}, "fc-1"))
    conversation = question() + [
        Turn(role="model", move=move),
        Turn(
            role="tool",
            results=[ToolResult("fc-1", "check_stock", True, "ok", {"qty": 3}, "")],
        ),
    ]
    dry = router.dry_run(conversation, DECLARATIONS)
    assert fake.requests == []
    assert "secret-key" not in json.dumps(dry)
    assert dry["body"]["contents"][1] == raw
    assert dry["body"]["contents"][2]["parts"][0]["functionResponse"]["id"] == "fc-1"


def test_build_contents_from_a_move_without_raw():
    conversation = question() + [
        Turn(
            role="model",
            move=Move(calls=[FunctionCall("check_stock", {"product_id": "P008"}, "off-1")]),
        ),
    ]
    contents = build_contents(conversation)
    assert contents[1].model_dump(mode="json", exclude_none=True) == {
        "role": "model",
        "parts": [
            {
                "function_call": {
                    "id": "off-1",
                    "name": "check_stock",
                    "args": {"product_id": "P008"},
                }
            }
        ],
    }


def test_capture_redacts_keys_in_url_and_headers():
    from playground.core.redaction import redact_url
    from playground.routing.capture import redact_headers

    assert redact_url("https://h/v1/models/m:generateContent?key=abc&alt=sse") == (
        "https://h/v1/models/m:generateContent?key=[redacted]&alt=sse"
    )
    assert redact_url("https://h/v1/x") == "https://h/v1/x"
    assert redact_headers({"X-Goog-Api-Key": "abc", "Content-Type": "application/json"}) == {
        "x-goog-api-key": "[redacted]",
        "content-type": "application/json",
    }


@pytest.mark.parametrize(
    ("code", "status", "message"),
    [
        (404, "NOT_FOUND", "models/gemini-2.5-flash is not found for API version v1beta."),
        (400, "INVALID_ARGUMENT", "The model gemini-2.5-flash has been shut down."),
    ],
)
def test_a_model_not_found_or_shut_down_names_the_model_and_how_to_choose(code, status, message):
    router, fake = router_with(
        (code, {"error": {"code": code, "message": message, "status": status}}),
        model="gemini-2.5-flash",
    )
    with pytest.raises(RouterError) as info:
        router.next_move(question(), DECLARATIONS)
    assert str(info.value) == (
        f"Gemini API error {code} {status}: {message} (model 'gemini-2.5-flash' is not "
        "available: choose another with --model NAME, PLAYGROUND_GEMINI_MODEL=NAME, or 'model "
        "NAME' in the TUI command palette (ctrl+p); models: "
        "https://ai.google.dev/gemini-api/docs/models)"
    )
    assert fake.requests[0].url.path.endswith("/models/gemini-2.5-flash:generateContent")


def test_a_forked_call_is_written_back_into_the_raw_turn_with_its_signature():
    fake = FakeGemini()
    router = GeminiRouter(api_key="k", http_client=fake.client())
    raw = response(call_part("check_stock", {"product_id": "8"}, "fc-1", signature=SIGNATURE))[
        "candidates"
    ][0]["content"]
    edited = Move(raw=raw, calls=[FunctionCall("check_stock", {"product_id": "P008"}, "fc-1")])
    dry = router.dry_run(question() + [Turn(role="model", move=edited)], DECLARATIONS)
    part = dry["body"]["contents"][1]["parts"][0]
    assert part["functionCall"] == {
        "id": "fc-1",
        "name": "check_stock",
        "args": {"product_id": "P008"},
    }
    assert part["thoughtSignature"] == SIGNATURE
    assert raw["parts"][0]["functionCall"]["args"] == {"product_id": "8"}  # the move is unchanged
