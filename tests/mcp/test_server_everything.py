"""Issue 21 against the reference server, ``@modelcontextprotocol/server-everything`` at the
version ``.ci/run`` installs with npm into ``.ci/node`` (stdio, Streamable HTTP and SSE)."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from playground.core.gate import Gate
from playground.core.registry import Registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource, add_mcp_servers
from tests.mcp.servers import REPO, free_port, wait_for_port

EVERYTHING = REPO / ".ci" / "node" / "node_modules" / ".bin" / "mcp-server-everything"

pytestmark = pytest.mark.skipif(
    not EVERYTHING.exists() or shutil.which("node") is None,
    reason="needs node and server-everything (.ci/run installs it with npm into .ci/node)",
)


def served(specs: list) -> tuple[Registry, Gate, list[McpSource]]:
    registry = Registry()
    sources, _ = add_mcp_servers(registry, specs)
    assert registry.problems == []
    return registry, Gate(registry), sources


@pytest.fixture(scope="module")
def everything() -> Iterator[tuple[Registry, Gate, McpSource]]:
    specs = server_specs(commands=[f"node {EVERYTHING} stdio"], timeout_ms=1000)
    registry, gate, sources = served(specs)
    yield registry, gate, sources[0]
    sources[0].close()


def test_the_tiny_image_reaches_every_providers_wire(everything) -> None:
    _, gate, _ = everything
    record = gate.call("get-tiny-image", {})
    assert record.ok
    sent = record.mcp["result"]["content"]
    (image,) = [b for b in sent if b["type"] == "image"]
    anthropic = [b for b in record.wire["anthropic"]["content"] if b["type"] == "image"]
    assert anthropic == [
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": image["data"]},
        }
    ]
    (part,) = record.wire["gemini"]["function_response"]["parts"]
    assert base64.urlsafe_b64decode(part["inline_data"]["data"]) == base64.b64decode(image["data"])
    output = record.wire["openai"]["output"]
    assert {"type": "input_image", "image_url": f"data:image/png;base64,{image['data']}"} in output
    # the image is counted by each provider's rule, not as base64 text (4 kB is ~1,400 tokens)
    assert 0 < record.wire["tokens"]["anthropic"] < 400
    assert record.wire["tokens"]["gemini"] >= 258


def test_a_cached_image_result_puts_the_same_blocks_on_the_wire(everything) -> None:
    registry, _, source = everything
    gate = Gate(registry, wire=True)  # a cache of its own
    calls = source.server_calls
    first, again = gate.call("get-tiny-image", {}), gate.call("get-tiny-image", {})
    assert (first.cache, again.cache, source.server_calls - calls) == ("stored", "hit", 1)
    ids = {"tool_use_id": "", "call_id": ""}  # each call has its own id
    for provider in ("anthropic", "openai"):
        assert again.wire[provider] | ids == first.wire[provider] | ids
    parts = [r.wire["gemini"]["function_response"]["parts"] for r in (first, again)]
    assert parts[0] == parts[1]
    assert again.wire["tokens"] == first.wire["tokens"]


def test_get_sum_gives_the_servers_answer_as_plain_text(everything) -> None:
    _, gate, _ = everything
    record = gate.call("get-sum", {"a": 2, "b": 3})
    assert record.value == "The sum of 2 and 3 is 5."
    assert record.wire["anthropic"]["content"] == "The sum of 2 and 3 is 5."


def test_a_long_operation_with_progress_outlives_its_limit(everything) -> None:
    _, gate, _ = everything
    record = gate.call("trigger-long-running-operation", {"duration": 1.6, "steps": 8})
    assert record.ok, record.message
    assert [p["progress"] for p in record.mcp["progress"]] == [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize(("mode", "path"), [("sse", "/sse"), ("streamableHttp", "/mcp")])
def test_the_http_modes(mode: str, path: str) -> None:
    port = free_port()
    proc = subprocess.Popen(
        ["node", str(EVERYTHING), mode],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, proc)
        specs = server_specs(urls=[f"http://127.0.0.1:{port}{path}"])
        assert specs[0].transport == ("sse" if mode == "sse" else "http")
        _, gate, sources = served(specs)
        try:
            record = gate.call("get-sum", {"a": 1, "b": 2})
            assert record.value == "The sum of 1 and 2 is 3."
            assert record.mcp["protocolVersion"]
        finally:
            sources[0].close()
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_task_only_tool_runs_as_a_task_polled_to_its_end() -> None:
    # each stage of the research takes 1 s; a new status starts the 3 s limit again
    specs = server_specs(commands=[f"node {EVERYTHING} stdio"], timeout_ms=3000)
    _, gate, sources = served(specs)
    try:
        record = gate.call("simulate-research-query", {"topic": "배송"})
    finally:
        sources[0].close()
    assert record.ok, record.message
    assert record.value.startswith("# Research Report: 배송")
    statuses = record.mcp["task"]["statuses"]
    assert statuses[-1]["status"] == "completed"
    assert "Gathering sources..." in [s["statusMessage"] for s in statuses]
