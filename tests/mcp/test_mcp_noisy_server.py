"""A server that writes one non-protocol line to stdout and then works: the commands that use it
succeed (exit 0) with one ``warning:`` line on stderr quoting the line, bounded. (Noise from a
server that then fails to start stays in its error: ``tests/mcp/test_mcp_faults.py``.)"""

from __future__ import annotations

import json

from tests.in_process_cli import run_in_process
from tests.mcp.servers import FAULTY_SERVER
from tests.zygote import forked_line


def noisy() -> str:
    """The noisy server's ``--mcp`` line (the zygote starts at the first test, not at
    collection)."""
    return forked_line(FAULTY_SERVER, "noisy")


WARNING = (
    "warning: mcp:faulty: wrote non-protocol text to stdout: 'faulty server starting (this line "
    "should have gone to stderr)' (stdout is for JSON-RPC messages only; a server should log to "
    "stderr)\n"
)


def test_list_prints_the_tools_warns_once_and_exits_0() -> None:
    result = run_in_process("list", "--mcp", noisy(), "--format", "json")
    assert (result.returncode, result.stderr) == (0, WARNING)
    assert len(json.loads(result.stdout)) == 17


def test_a_call_that_succeeds_exits_0() -> None:
    result = run_in_process("call", "shout", "--mcp", noisy(), "--no-history", "--format", "json")
    assert (result.returncode, result.stderr) == (0, WARNING)
    record = json.loads(result.stdout)
    assert (record["kind"], record["value"]) == ("ok", "ok")
