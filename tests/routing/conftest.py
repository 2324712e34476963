"""The local provider test server (``provider_server.py``), one process per test session (per
xdist worker), started on a free port and stopped at the end."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SERVER = Path(__file__).with_name("provider_server.py")


@dataclass
class ProviderServer:
    """A running ``provider_server.py``: ``port``, ``log`` (its request log) and ``url``."""

    port: int
    log: Path
    process: subprocess.Popen[str]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def requests(self) -> list[dict[str, Any]]:
        """Every request body logged so far, in order (``{"path", "body"}``)."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]

    def clear(self) -> None:
        self.log.write_text("", encoding="utf-8")


def start_server(log: Path, *extra: str) -> ProviderServer:
    """Start the server and wait for its ``PORT n`` line (no sleep: a blocking read)."""
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--log", str(log), *extra],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("PORT "), line
    return ProviderServer(int(line.split()[1]), log, process)


def stop_server(server: ProviderServer) -> None:
    server.process.terminate()
    server.process.wait(timeout=10)
    if server.process.stdout is not None:
        server.process.stdout.close()  # the pipe start_server read the port from


@pytest.fixture(scope="session")
def provider_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderServer]:
    server = start_server(tmp_path_factory.mktemp("provider") / "requests.jsonl")
    yield server
    stop_server(server)


@pytest.fixture
def server(provider_server: ProviderServer, monkeypatch: pytest.MonkeyPatch) -> ProviderServer:
    """The session's server with an empty log, and test keys in the environment."""
    provider_server.clear()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "PLAYGROUND_COMPATIBLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return provider_server
