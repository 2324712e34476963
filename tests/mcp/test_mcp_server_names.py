"""Server names are unique by the names in use once the servers answered: a server that fails
at start keeps the name of its script (no ``_2`` when nothing clashes), two that give the same
``serverInfo.name`` are ``NAME`` and ``NAME_2``, and a failing server's problem carries the name
it ends with. Real servers (``fixtures/mcp_faulty_server.py``), started together."""

from __future__ import annotations

from pathlib import Path

from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource, load_sources
from tests.mcp.servers import FAULTY_SERVER, stdio_line
from tests.zygote import forked_line


def loaded(*lines: str, config: Path | None = None) -> tuple[list[str], list[str]]:
    """The sources' labels after loading and the ``where`` of each problem."""
    specs = server_specs(commands=lines, configs=[config] if config else [])
    sources = [McpSource(spec, connect_timeout_s=5) for spec in specs]
    try:
        result = load_sources(sources)
    finally:
        for source in sources:
            source.close()
    return [s.label for s in sources], [p.where for p in result.problems]


def test_a_server_failing_at_start_keeps_its_scripts_name() -> None:
    """The tester's two servers: one answers as 'faulty', the other exits at start."""
    labels, problems = loaded(
        forked_line(FAULTY_SERVER, "serve"), stdio_line(FAULTY_SERVER, "exit")
    )
    assert labels == ["mcp:faulty", "mcp:mcp_faulty_server"]
    assert problems == ["mcp:mcp_faulty_server"]


def test_two_failing_servers_of_one_script_are_told_apart() -> None:
    labels, problems = loaded(stdio_line(FAULTY_SERVER, "exit"), stdio_line(FAULTY_SERVER, "exit"))
    assert labels == problems == ["mcp:mcp_faulty_server", "mcp:mcp_faulty_server_2"]


def test_a_config_key_is_kept_and_a_server_info_name_steps_aside(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        '{"mcpServers": {"faulty": {"command": "python", "args": ["-c", "import sys; sys.exit(3)"]}}}',
        encoding="utf-8",
    )
    labels, problems = loaded(forked_line(FAULTY_SERVER, "serve"), config=config)
    assert labels == ["mcp:faulty", "mcp:faulty_2"]
    assert problems == ["mcp:faulty"]
