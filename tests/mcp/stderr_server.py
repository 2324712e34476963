"""An MCP server (the ``mcp`` SDK's ``MCPServer``) that floods its stderr and writes text that is
not JSON-RPC onto its stdout in the middle of a call (the tester's
/tmp/try26-files/mcp/bad_server.py): ``flood(n)`` writes ``log line I`` n times to stderr;
``quiet()`` writes nothing; ``wire_noise()`` writes a line straight onto the JSON-RPC stream
(the SDK sends what ``print`` writes to stderr, so only a file descriptor saved before it
started reaches the wire, as a C library's own writes would); ``printed()`` prints a line (the
SDK diverts it to stderr)."""

from __future__ import annotations

import os
import sys

from mcp.server.mcpserver import MCPServer

WIRE = os.dup(1)  # the real stdout, before the SDK diverts file descriptor 1 to stderr
server = MCPServer("stderr-lab")


@server.tool()
def flood(n: int) -> str:
    """Writes n log lines to stderr."""
    for i in range(n):
        sys.stderr.write(f"log line {i}\n")
    sys.stderr.flush()
    return "flooded"


@server.tool()
def quiet() -> str:
    """Writes nothing."""
    return "quiet"


@server.tool()
def wire_noise() -> str:
    """Writes a non-protocol line onto the JSON-RPC stream, then answers."""
    os.write(WIRE, b"this is not json \x1b]52;c;Z2FyYmFnZQ==\x07\n")
    return "after noise"


@server.tool()
def printed() -> str:
    """Prints a line to stdout (the SDK sends it to stderr), then answers."""
    print("this is not json either", flush=True)
    return "after print"


if __name__ == "__main__":
    server.run()
