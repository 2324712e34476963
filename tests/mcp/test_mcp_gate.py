"""MCP contracts through the gate: outcome kinds, retries counted as server calls, the cache
from annotations, the output schema, and stderr in the record's printed output."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.core.gate import Gate, RetryPolicy
from playground.core.registry import Registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource, add_mcp_servers
from tests.mcp.servers import FAULTY_SERVER, read_log
from tests.zygote import forked_line


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gate") / "calls.jsonl"


@pytest.fixture(scope="module")
def served(log: Path) -> Iterator[tuple[Registry, McpSource]]:
    registry = Registry()
    specs = server_specs(commands=[forked_line(FAULTY_SERVER, "serve", "--log", str(log))])
    sources, choices = add_mcp_servers(registry, specs)
    assert choices == [] and registry.problems == []
    yield registry, sources[0]
    sources[0].close()


def gate(registry: Registry) -> Gate:
    return Gate(registry, retry=RetryPolicy(max_attempts=3), sleep=lambda s: None)


def test_is_error_saying_429_is_the_tools_own_error_sent_once(
    served: tuple[Registry, McpSource], log: Path
) -> None:
    # issue 21 item 3: an isError text is never read for words ("rate limited", "try again")
    registry, source = served
    before = source.server_calls
    record = gate(registry).call("rate_limited", {})
    assert record.kind == "raised" and record.error == "raised:isError"
    assert record.body_runs == 1 and record.retries == []
    assert source.server_calls - before == 1
    assert sum(1 for e in read_log(log) if e.get("tool") == "rate_limited") == 1
    # what the model reads is the server's text as it sent it: no exception name nobody
    # raised, no advice the server did not give
    text = "429 Too Many Requests: rate limited, try again later"
    assert record.message == text
    assert record.wire["anthropic"]["content"] == text
    assert record.wire["anthropic"]["is_error"] is True
    assert record.wire["gemini"]["function_response"]["response"] == {"error": text}


def test_is_error_saying_unauthorized_is_not_permission(
    served: tuple[Registry, McpSource],
) -> None:
    record = gate(served[0]).call("unauthorized", {})
    assert record.kind == "raised" and record.body_runs == 1
    assert record.wire["anthropic"]["is_error"] is True


def test_jsonrpc_invalid_params_is_invalid_args_with_the_servers_message(
    served: tuple[Registry, McpSource],
) -> None:
    record = gate(served[0]).call("strict", {"quantity": 0})
    assert (record.kind, record.error, record.body_ran) == ("invalid_args", "args:server", True)
    assert "quantity must be at least 1" in record.message


def test_bad_structured_content_is_bad_result(served: tuple[Registry, McpSource]) -> None:
    record = gate(served[0]).call("bad_shape", {})
    assert (record.kind, record.error) == ("bad_result", "result:shape")


def test_empty_result_is_empty_not_an_error(served: tuple[Registry, McpSource]) -> None:
    record = gate(served[0]).call("nothing", {})
    assert (record.kind, record.ok) == ("empty", True)


def test_read_only_tool_is_cached_and_destructive_one_is_not(
    served: tuple[Registry, McpSource],
) -> None:
    g = gate(served[0])
    first, second = g.call("pid", {}), g.call("pid", {})
    assert (first.cache, second.cache, second.body_runs) == ("stored", "hit", 1)
    wipe1, wipe2 = g.call("wipe", {}), g.call("wipe", {})
    assert (wipe1.cache, wipe2.cache, wipe2.body_runs) == ("skip", "skip", 2)


def test_server_stderr_is_in_the_records_printed_output(
    served: tuple[Registry, McpSource],
) -> None:
    record = gate(served[0]).call("shout", {})
    assert record.kind == "ok" and "shouting on stderr" in record.printed
    assert record.source == "mcp:faulty"
