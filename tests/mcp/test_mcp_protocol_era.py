"""The two protocol eras (issue 21, item 4): the 2025 ``initialize`` handshake (default) and,
with ``PLAYGROUND_MCP_PROTOCOL=auto``, the 2026-07-28 stateless era through ``server/discover``
when the server speaks it — the negotiated version in ``list`` and in records. Real servers:
``fixtures/mcp_protocol_server.py`` (the ``mcp`` SDK serves both eras) and, for the fallback,
``server-everything`` (2025 only)."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess

import pytest

from playground.core.gate import Gate
from playground.core.registry import Registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import add_mcp_servers
from tests.in_process_cli import run_in_process
from tests.mcp.servers import PROTOCOL_SERVER, REPO
from tests.zygote import forked_line

EVERYTHING = REPO / ".ci" / "node" / "node_modules" / ".bin" / "mcp-server-everything"


def cli(*args: str, protocol: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (the MCP servers it starts are real processes)."""
    return run_in_process(*args, env={"PLAYGROUND_MCP_PROTOCOL": protocol})


def test_auto_speaks_2026_07_28_with_a_server_that_does(monkeypatch) -> None:
    monkeypatch.setenv("PLAYGROUND_MCP_PROTOCOL", "auto")
    registry = Registry()
    sources, _ = add_mcp_servers(registry, server_specs(commands=[forked_line(PROTOCOL_SERVER)]))
    try:
        assert registry.problems == []
        assert sources[0].protocol_version == "2026-07-28"
        assert sources[0].label == "mcp:protocol-lab"  # serverInfo from the discover result
        gate = Gate(registry)
        record = gate.call("sum", {"a": 1, "b": 2})
        assert record.ok and record.value == "The sum of 1 and 2 is 3."
        assert record.mcp["protocolVersion"] == "2026-07-28"
        ticking = gate.call("ticking", {"seconds": 0.3, "every": 0.1})
        assert ticking.ok and [p["progress"] for p in ticking.mcp["progress"]] == [1, 2, 3]
    finally:
        sources[0].close()


def test_list_names_the_negotiated_2026_version() -> None:
    line = forked_line(PROTOCOL_SERVER)
    modern = cli("list", "--mcp", line, protocol="auto")
    assert "mcp:protocol-lab: MCP protocol 2026-07-28 over stdio" in modern.stderr + modern.stdout


def test_a_bad_protocol_setting_is_one_line_and_exit_2() -> None:
    done = cli("list", "--mcp", forked_line(PROTOCOL_SERVER), protocol="2027")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: PLAYGROUND_MCP_PROTOCOL='2027': expected handshake or auto (the MCP protocol "
        "era: handshake (default) or auto (2026-07-28 when offered))"
    ]


@pytest.mark.skipif(
    not EVERYTHING.exists() or shutil.which("node") is None,
    reason="needs node and server-everything (.ci/run installs it with npm into .ci/node)",
)
def test_auto_falls_back_to_the_handshake_with_a_2025_server(monkeypatch) -> None:
    monkeypatch.setenv("PLAYGROUND_MCP_PROTOCOL", "auto")
    registry = Registry()
    specs = server_specs(commands=[f"node {EVERYTHING} stdio"])
    sources, _ = add_mcp_servers(registry, specs)
    try:
        assert registry.problems == []
        assert sources[0].protocol_version == "2025-11-25"
        record = Gate(registry).call("get-sum", {"a": 1, "b": 2})
        assert record.ok and record.mcp["protocolVersion"] == "2025-11-25"
    finally:
        sources[0].close()


def test_check_notes_a_tool_list_change_naming_the_server_and_the_tools(tmp_path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '{"tool": "add_tool", "args": {}, "expect": {"kind": "ok"}}\n'
        '{"tool": "extra", "args": {}, "expect": {"kind": "ok", "value": "extra ran"}}\n',
        encoding="utf-8",
    )
    done = cli("check", str(cases), "--mcp", forked_line(PROTOCOL_SERVER), protocol="handshake")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "note: mcp:protocol-lab sent notifications/tools/list_changed; its tools were listed "
        "again: added extra"
    ) in done.stderr.splitlines()


def test_the_mcp_protocol_option_and_a_config_entry_choose_the_era(tmp_path) -> None:
    line = forked_line(PROTOCOL_SERVER)
    # the option wins over the setting
    modern = cli("list", "--mcp", line, "--mcp-protocol", "auto", protocol="handshake")
    assert "mcp:protocol-lab: MCP protocol 2026-07-28 over stdio" in modern.stderr + modern.stdout
    legacy = cli("list", "--mcp", line, "--mcp-protocol", "HANDSHAKE", protocol="auto")
    assert "MCP protocol 2025-11-25 over stdio" in legacy.stderr + legacy.stdout
    # an mcpServers entry's "protocol"
    command, *args = shlex.split(line)
    config = tmp_path / "servers.json"
    config.write_text(
        json.dumps({"mcpServers": {"lab": {"command": command, "args": args, "protocol": "auto"}}}),
        encoding="utf-8",
    )
    by_config = cli("list", "--mcp-config", str(config), protocol="handshake")
    assert "mcp:lab: MCP protocol 2026-07-28 over stdio" in by_config.stderr + by_config.stdout


def test_a_bad_protocol_option_or_entry_is_one_line_and_exit_2(tmp_path) -> None:
    done = cli("list", "--mcp", forked_line(PROTOCOL_SERVER), "--mcp-protocol", "v3", protocol="")
    assert (done.returncode, done.stderr.strip()) == (
        2,
        "error: --mcp-protocol 'v3': expected handshake or auto",
    )
    config = tmp_path / "servers.json"
    config.write_text('{"mcpServers": {"lab": {"command": "x", "protocol": 7}}}', encoding="utf-8")
    entry = cli("list", "--mcp-config", str(config), protocol="")
    assert entry.returncode == 2 and "'protocol' 7: expected handshake or auto" in entry.stderr
