"""The stdio server process started before the SDK (``sources/mcp_stdio.py``): it starts without
importing the SDK, gets the SDK's inherited environment, and never outlives its source — also
when the source is closed before it loaded, or when the server ignores its stdin closing."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time

from playground.sources.mcp_stdio import SDK_INHERITED_ENV, inherited_environment
from tests.mcp.servers import REPO, SHOP_SERVER, source_for, stdio_line


def test_the_inherited_environment_is_the_sdks() -> None:
    from mcp.client.stdio import DEFAULT_INHERITED_ENV_VARS

    assert list(SDK_INHERITED_ENV) == DEFAULT_INHERITED_ENV_VARS
    given = {"HOME": "/h", "PATH": "/bin", "SHELL": "() { evil; }", "GEMINI_API_KEY": "k"}
    assert inherited_environment(given) == {"HOME": "/h", "PATH": "/bin"}


EARLY = r"""
import json, sys, time
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource

source = McpSource(server_specs(commands=[sys.argv[1]])[0])
source.start_process()
deadline = time.monotonic() + 30
while source.server_pid is None and time.monotonic() < deadline:
    time.sleep(0.005)
pid = source.server_pid
sdk = sorted(m for m in sys.modules if m.split(".")[0] in ("mcp", "mcp_types"))
started = time.monotonic()
source.close()
took = time.monotonic() - started
try:
    import os
    os.kill(pid, 0)
    alive = True
except ProcessLookupError:
    alive = False
print(json.dumps({"pid": pid, "sdk": sdk, "alive": alive, "took": took}))
"""


def early(server: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", EARLY, server],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_server_starts_before_the_sdk_is_imported_and_close_ends_it() -> None:
    seen = early(stdio_line(SHOP_SERVER))
    assert isinstance(seen["pid"], int)
    assert seen["sdk"] == []  # started with anyio alone; the SDK was never imported
    assert seen["alive"] is False  # closed before any load: stopped and reaped, not orphaned


def test_a_server_that_ignores_its_stdin_closing_is_killed_on_close() -> None:
    stubborn = shlex.join(
        [sys.executable, "-c", "import signal, time; time.sleep(60)"]
    )  # never reads stdin
    seen = early(stubborn)
    assert seen["alive"] is False
    assert 1.5 < seen["took"] < 15.0  # the exit grace (2 s), then SIGTERM to its group


def test_load_connects_to_the_process_started_early_and_close_stops_it() -> None:
    source = source_for(stdio_line(SHOP_SERVER))
    try:
        source.start_process()
        deadline = time.monotonic() + 30
        while source.server_pid is None and time.monotonic() < deadline:
            time.sleep(0.005)
        pid = source.server_pid
        assert pid is not None
        result = source.load()
        assert result.problems == []
        assert [c.name for c in result.contracts][:2] == ["get_order_status", "track_shipping"]
        assert source.server_pid == pid  # the same process: load did not start another
    finally:
        source.close()
    assert source.server_pid is None
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert alive is False


DEFERRED = r"""
import json, sys
from playground.sources.mcp_imports import load_client_packages

load_client_packages()
import mcp.client.session
import mcp.shared.message
import mcp.types as types

seen = {"server_before": "mcp.server" in sys.modules}
from mcp import ClientSession, MCPError  # the package's own names: its __init__ runs now
from mcp.client import Client
import mcp
import mcp_types

seen["same_session_class"] = ClientSession is mcp.client.session.ClientSession
seen["same_types"] = mcp.types.Tool is mcp_types.Tool is types.Tool
seen["error_class"] = MCPError.__module__
seen["client"] = Client.__name__
seen["server_after"] = "mcp.server" in sys.modules
print(json.dumps(seen))
"""


def test_the_client_modules_load_without_the_server_and_the_packages_complete_on_use() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", DEFERRED], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "server_before": False,
        "same_session_class": True,
        "same_types": True,
        "error_class": "mcp.shared.exceptions",
        "client": "Client",
        "server_after": True,
    }


UNCLOSED = r"""
import sys, time
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource

source = McpSource(server_specs(commands=[sys.argv[1]])[0])
source.start_process()
deadline = time.monotonic() + 30
while source.server_pid is None and time.monotonic() < deadline:
    time.sleep(0.005)
print(source.server_pid, flush=True)
# exits without source.close(), as a command that fails midway
"""


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its reaper is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_an_unclosed_source_does_not_leave_its_server_running_after_exit() -> None:
    stubborn = shlex.join([sys.executable, "-c", "import time; time.sleep(60)"])
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", UNCLOSED, stubborn],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert running(pid) is False
