"""The real MCP servers of the tests (no protocol mocks) and how to start them: the stdio shop
server, the same server over Streamable HTTP on 127.0.0.1 with a free port, and the faulty
servers. Imported as ``tests.mcp.servers`` (by the MCP tests, their conftest and the history
tests), never as ``conftest``. Waiting is on state (the port accepting), never on fixed sleeps."""

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

from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource
from tests.zygote import forked_command

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


def wait_for_port(port: int, proc: subprocess.Popen, limit_s: float = 60.0) -> None:
    """Wait until the server accepts on ``port`` (state, polled every 50 ms); fail after
    ``limit_s``: 15 s was too short for a server importing the SDK, starlette and uvicorn at
    a load average of 15 on two cores."""
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


@contextmanager
def http_server(script: Path, *args: str) -> Iterator[int]:
    """Start ``SCRIPT ARGS…`` on a free port (``{port}`` in ``args`` is replaced by it), forked
    from the zygote (:mod:`tests.zygote`; the launcher passes the SIGTERM on: the tests using
    these servers are about HTTP, not the server's process), and wait until it listens; yields
    the port and stops the process on exit (terminate, then kill after 10 s)."""
    port = free_port()
    proc = subprocess.Popen(
        forked_command(script, *(a.replace("{port}", str(port)) for a in args)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, proc)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@contextmanager
def http_shop_server(log: Path) -> Iterator[str]:
    """Start the shop server over Streamable HTTP on a free port, logging to ``log``; yields its
    URL and stops the process on exit."""
    with http_server(SHOP_SERVER, "--http", "--port", "{port}", "--log", str(log)) as port:
        yield f"http://127.0.0.1:{port}/mcp"


PROTOCOL_SERVER = REPO / "fixtures" / "mcp_protocol_server.py"


@contextmanager
def http_protocol_server(flag: str, log: Path | None = None) -> Iterator[int]:
    """Start the protocol server with ``flag`` (``--http`` or ``--sse``) on a free port;
    yields the port and stops the process on exit."""
    extra = ["--log", str(log)] if log is not None else []
    with http_server(PROTOCOL_SERVER, flag, "{port}", *extra) as port:
        yield port
