"""Counting the processes a test's playground left (issue 28 item 2): every process of a test's
run carries a marker in its command line or environment (``ORPHAN_MARK=<uuid>``), read from
``/proc``; and a real MCP server (the ``mcp`` SDK) whose tools start such processes. Imported
as ``tests.orphans``."""

from __future__ import annotations

import os
import time

#: An MCP server (run as ``python server.py MARKER``) whose tools start ``sleep 60`` children
#: carrying ``ORPHAN_MARK=MARKER``: ``spawn(n)`` returns at once, ``slow(n)`` then sleeps 30 s.
SPAWNER_SERVER = '''
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
