"""No orphans of an MCP server (issue 28 item 2): the processes a stdio server's tools start
stay in the server's process group, which the playground ends on every exit path — a normal
exit, ctrl+c, SIGTERM, SIGHUP, and a SIGKILL of the playground (its watchdog, a ``/bin/sh``
holding a lifeline pipe, ends the group then). A real server written with the ``mcp`` SDK, over
stdio, run by a real ``playground`` process; processes are counted by a marker in their
command line or environment, read from ``/proc``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.mcp.servers import stdio_line
from tests.signals import sigint_as_in_a_terminal

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

REPO = Path(__file__).resolve().parents[2]

SERVER = '''
import os
import subprocess
import sys
import time

from mcp.server import MCPServer

MARK = sys.argv[1]
server = MCPServer("spawner")


def children(n: int) -> list[int]:
    env = {**os.environ, "ORPHAN_MARK": MARK}
    return [subprocess.Popen(["sleep", "60"], env=env).pid for _ in range(n)]


@server.tool()
def spawn(n: int) -> str:
    """Starts n sleeping child processes and returns."""
    return f"started {len(children(n))}"


@server.tool()
def slow(n: int) -> str:
    """Starts n sleeping child processes, then sleeps 30 s."""
    children(n)
    time.sleep(30)
    return "done"


server.run()
'''


def ours(marker: str) -> list[int]:
    """Live processes (zombies left out) whose command line or environment holds ``marker``:
    the playground, the server, its children and the watchdog."""
    found = []
    needle = marker.encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmdline = fh.read()
            with open(f"/proc/{name}/environ", "rb") as fh:
                environ = fh.read()
            with open(f"/proc/{name}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
        except OSError:
            continue
        if needle in cmdline or needle in environ:
            found.append(int(name))
    return found


def sleepers(marker: str) -> int:
    count = 0
    for pid in ours(marker):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                count += fh.read().startswith(b"sleep\0")
        except OSError:
            pass
    return count


def wait_until(predicate, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def start(tmp_path: Path, marker: str, *call: str) -> subprocess.Popen[str]:
    script = tmp_path / "spawner_server.py"
    script.write_text(SERVER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "ORPHAN_MARK": marker}
    return subprocess.Popen(
        [sys.executable, "-m", "playground", "call", *call, "--mcp", stdio_line(script, marker),
         "--no-history", "--format", "json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )  # fmt: skip


def test_a_normal_exit_ends_the_children_of_the_servers_tools(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    proc = start(tmp_path, marker, "spawn", "n:=3")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "started 3" in out
    assert wait_until(lambda: not ours(marker), 5.0), ours(marker)


@pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name
)
def test_every_exit_path_during_a_call_ends_the_server_and_its_children(
    tmp_path: Path, sig: signal.Signals
) -> None:
    marker = uuid.uuid4().hex
    proc = start(tmp_path, marker, "slow", "n:=3")
    assert wait_until(lambda: sleepers(marker) == 3, 60.0), ours(marker)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    expected = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
    if sig in expected:
        assert proc.returncode == expected[sig], err
    else:
        assert proc.returncode == -signal.SIGKILL
    assert wait_until(lambda: not ours(marker), 5.0), ours(marker)
