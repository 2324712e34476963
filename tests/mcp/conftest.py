"""Real MCP servers for the MCP tests (no protocol mocks): the stdio shop server, the same
server over Streamable HTTP on 127.0.0.1 with a free port, and the faulty servers.

Servers are started once per test module where the tests do not disturb them; the HTTP server
is a subprocess stopped after the module. Waiting is on state (the port accepting), never on
fixed sleeps."""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from playground.core.mcp_config import server_specs
from playground.core.mcp_source import McpSource

REPO = Path(__file__).resolve().parents[2]
SHOP_SERVER = REPO / "fixtures" / "mcp_shop_server.py"
FAULTY_SERVER = REPO / "fixtures" / "mcp_faulty_server.py"


def stdio_line(script: Path, *args: str) -> str:
    """The ``--mcp`` value that runs ``script`` with this Python."""
    return shlex.join([sys.executable, str(script), *args])


def read_log(path: Path) -> list[dict]:
    """The JSON lines a fixture server logged (``[]`` when it logged nothing)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def source_for(line: str, **kwargs: float) -> McpSource:
    return McpSource(server_specs(commands=[line])[0], **kwargs)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen, limit_s: float = 15.0) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the HTTP server exited with code {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the HTTP server did not listen on port {port} within {limit_s} s")


@pytest.fixture(scope="module")
def shop_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("shop") / "calls.jsonl"


@pytest.fixture(scope="module")
def shop_source(shop_log: Path) -> Iterator[McpSource]:
    """A loaded source on the stdio shop server (one server for the module)."""
    source = source_for(stdio_line(SHOP_SERVER, "--log", str(shop_log)))
    result = source.load()
    assert result.problems == []
    yield source
    source.close()


@contextmanager
def http_shop_server(log: Path) -> Iterator[str]:
    """Start the shop server over Streamable HTTP on a free port, logging to ``log``; yields its
    URL and stops the process on exit (terminate, then kill after 10 s)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(SHOP_SERVER), "--http", "--port", str(port), "--log", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture(scope="module")
def http_shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The shop server over Streamable HTTP: ``(url, log path)``; stopped after the module."""
    log = tmp_path_factory.mktemp("http") / "calls.jsonl"
    with http_shop_server(log) as url:
        yield url, log
