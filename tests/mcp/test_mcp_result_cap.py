"""An MCP result is bounded like a Python result (issue 28 item 7): over
``PLAYGROUND_RESULT_CAP_MB`` it is ``result:too_big`` with its size, and its data is not
copied into the record. A real server written with the ``mcp`` SDK, over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.core.gate import Gate
from playground.core.registry import Registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import add_mcp_servers
from tests.zygote import forked_line

SERVER = '''
from mcp.server import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("bulky")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def bulk(n: int) -> str:
    """n characters of text."""
    return "y" * n


server.run()
'''


def test_a_result_over_the_cap_is_too_big_and_a_small_one_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "bulky_server.py"
    script.write_text(SERVER, encoding="utf-8")
    monkeypatch.setenv("PLAYGROUND_RESULT_CAP_MB", "1")
    registry = Registry()
    (source,), _ = add_mcp_servers(registry, server_specs(commands=[forked_line(script)]))
    try:
        assert registry.problems == []
        gate = Gate(registry, wire=True)
        big = gate.call("bulk", {"n": 3_000_000})
        assert (big.kind, big.error) == ("bad_result", "result:too_big")
        assert big.value is None and big.body_ran
        # the result as the server sent it: the text content and its structuredContent copy
        assert big.message.startswith("bulk returned 6,000,")
        assert "refuses results over 1,048,576 bytes" in big.message
        assert "y" * 1000 not in str(big.to_json())
        small = gate.call("bulk", {"n": 5})
        assert small.kind == "ok" and "yyyyy" in str(small.value)
    finally:
        source.close()
