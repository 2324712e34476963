"""Sampling (issue 21, item 6): a server's ``sampling/createMessage`` answered by the selected
router, kept in the record as an exchange, or refused with a message saying why. The MCP server
is ``fixtures/mcp_protocol_server.py`` (its ``sample`` tool calls ``ctx.session.create_message``)
and the model is ``tests/routing/provider_server.py``, a local HTTP process speaking the
providers' APIs — real processes, never the network."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.core.gate import Gate
from playground.core.registry import Registry
from playground.routing.anthropic_api import AnthropicRouter
from playground.routing.offline import OfflineRouter
from playground.routing.sampling import answer_sampling_with
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource, add_mcp_servers
from tests.mcp.servers import PROTOCOL_SERVER
from tests.routing.conftest import ProviderServer, start_server, stop_server
from tests.zygote import forked_line

ASKED = "영수증을 한 줄로 요약해 줘"
CANNED = "I can answer without a tool."


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderServer]:
    server = start_server(tmp_path_factory.mktemp("sampling") / "requests.jsonl")
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def lab() -> Iterator[tuple[Gate, McpSource]]:
    registry = Registry()
    # a generous limit: a router's SDK is imported during the first sampling request, which takes
    # seconds on a loaded machine; these tests are about what is answered, not how fast
    specs = server_specs(commands=[forked_line(PROTOCOL_SERVER)], timeout_ms=60_000)
    sources, _ = add_mcp_servers(registry, specs)
    assert registry.problems == []
    yield Gate(registry), sources[0]
    sources[0].close()


def test_ask_with_a_model_router_answers_the_servers_sampling_as_a_step(
    provider: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider.clear()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = CliRunner().invoke(
        app,
        ["ask", "please take a sample", "--router", "openai", "--base-url",
         f"{provider.url}/v1", "--mcp", forked_line(PROTOCOL_SERVER), "--no-history", "-f", "json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (record,) = data["calls"]
    assert record["tool"] == "sample" and record["kind"] == "ok"
    assert record["value"] == f"sampled by gpt-5-mini: {CANNED}"
    (exchange,) = record["mcp"]["sampling"]
    assert exchange["method"] == "sampling/createMessage"
    assert exchange["by"] == "router openai (model gpt-5-mini)"
    assert exchange["request"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": ASKED}}
    ]
    assert exchange["request"]["systemPrompt"] == "Answer in one line."
    assert exchange["answer"] == {
        "role": "assistant",
        "content": {"type": "text", "text": CANNED},
        "model": "gpt-5-mini",
        "stopReason": "endTurn",
        "_meta": {"playground/notSent": ["systemPrompt", "maxTokens"]},
    }
    assert any(f"answered by router openai (model gpt-5-mini): {CANNED!r}" in w
               for w in record["warnings"])  # fmt: skip
    # the router's own request for the sample: the server's message, no tools
    sampled = [r["body"] for r in provider.requests() if "tools" not in r["body"]]
    assert [b["input"] for b in sampled] == [[{"role": "user", "content": ASKED}]]


def test_the_anthropic_router_answers_through_its_sdk(
    lab: tuple[Gate, McpSource], provider: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import anthropic  # noqa: F401  (see below)

    # The router imports its SDK on first use: done here, not inside the sampling request,
    # where the import (~1.5 s of CPU) counted against the tool's 10 s limit and timed the
    # call out on a loaded machine (load average 12-17 on two cores).
    gate, source = lab
    gate.cache.clear()  # a read-only tool's result is cached: each test asks the server again
    provider.clear()
    router = AnthropicRouter(model="claude-test", api_key="sk-ant-test", base_url=provider.url)
    answer_sampling_with([source], lambda: router)
    try:
        record = gate.call("sample", {})
    finally:
        source.sampler = None
    assert record.ok and record.value == f"sampled by claude-test: {CANNED}"
    (request,) = provider.requests()
    assert request["path"] == "/v1/messages"
    assert request["body"]["messages"] == [{"role": "user", "content": ASKED}]


def test_the_offline_router_refuses_naming_why_and_what_to_pick(lab) -> None:
    gate, source = lab
    gate.cache.clear()  # a read-only tool's result is cached: each test asks the server again
    answer_sampling_with([source], OfflineRouter)
    try:
        record = gate.call("sample", {})
    finally:
        source.sampler = None
    assert record.kind == "raised"
    assert "the offline router cannot write free text" in record.message
    assert "pick a model router (openai, anthropic, gemini or openai-compatible)" in record.message
    (exchange,) = record.mcp["sampling"]
    assert exchange["refused"].startswith("sampling/createMessage refused: the offline router")
    assert "answer" not in exchange


def test_a_command_without_a_router_refuses_and_says_where_sampling_works(lab) -> None:
    gate, _ = lab
    gate.cache.clear()
    record = gate.call("sample", {})
    assert record.kind == "raised"
    assert "no model router answers for this command" in record.message
    assert "use ask or eval with --router openai" in record.message


def test_sampling_refusals_are_one_line_in_the_mcp_log(lab) -> None:
    _, source = lab
    assert all("\n" not in n for n in source.notices)
    assert any("sampling/createMessage refused" in n for n in source.notices)
