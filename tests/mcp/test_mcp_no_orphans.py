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
import uuid
from pathlib import Path

import pytest

from tests.mcp.servers import stdio_line
from tests.orphans import SPAWNER_SERVER, ours, sleepers, wait_until
from tests.signals import sigint_as_in_a_terminal

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

REPO = Path(__file__).resolve().parents[2]


def start(tmp_path: Path, marker: str, *call: str) -> subprocess.Popen[str]:
    script = tmp_path / "spawner_server.py"
    script.write_text(SPAWNER_SERVER, encoding="utf-8")
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
