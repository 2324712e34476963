"""Fixtures of the MCP tests: real servers (see :mod:`tests.mcp.servers`), started once per test
module where the tests do not disturb them; the HTTP server is a subprocess stopped after the
module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.sources.mcp_source import McpSource
from tests.mcp.servers import SHOP_SERVER, http_shop_server, source_for
from tests.zygote import forked_line


@pytest.fixture(scope="module")
def shop_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("shop") / "calls.jsonl"


@pytest.fixture(scope="module")
def shop_source(shop_log: Path) -> Iterator[McpSource]:
    """A loaded source on the stdio shop server (one server for the module)."""
    source = source_for(forked_line(SHOP_SERVER, "--log", str(shop_log)))
    result = source.load()
    assert result.problems == []
    yield source
    source.close()


@pytest.fixture(scope="module")
def http_shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The shop server over Streamable HTTP: ``(url, log path)``; stopped after the module."""
    log = tmp_path_factory.mktemp("http") / "calls.jsonl"
    with http_shop_server(log) as url:
        yield url, log
