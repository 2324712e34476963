"""The launcher of a forked fixture server: the process the MCP client starts (see
:mod:`tests.zygote`). Standard library only, run with ``python -S``, so it starts in a few
milliseconds.

``launch.main()`` with ``sys.argv = [_, SOCKET, SCRIPT, ARG...]`` connects to the zygote
listening on ``SOCKET``, hands it this process's fds 0, 1 and 2 (``SCM_RIGHTS``) with the
script, its arguments, the working directory and the environment, then lets go of its own
stdin and stdout (so the server is the only process here reading the client's requests and
writing its replies). It forwards SIGTERM, SIGINT and SIGHUP to the server and ends as the
server ended: its exit code, or killed by the same signal.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys


def main() -> None:
    path, script, *args = sys.argv[1:]
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    payload = json.dumps(
        {"script": script, "args": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    ).encode()
    socket.send_fds(conn, [len(payload).to_bytes(4, "big") + payload], [0, 1, 2])
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    replies = conn.makefile("rb")
    pid = int(replies.readline())

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    line = replies.readline().split()
    code = int(line[1]) if len(line) == 2 and line[0] == b"exit" else -signal.SIGKILL
    if code >= 0:
        os._exit(code)
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
    os._exit(128 - code)
