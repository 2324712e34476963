"""The zygote process: imports the ``mcp`` SDK and the fixture servers once, then forks one real
server process per connection (see :mod:`tests.zygote`).

Run as ``python zygote_main.py SOCKET SCRIPT...`` by :func:`tests.zygote.forked_line`'s first
call in a test process, with the SDK's minimal environment, stdin a pipe from the test process
(its end of file ends the zygote) and stdout a pipe on which it writes ``ready`` once it
listens on the Unix socket ``SOCKET``. Each connection (from ``launch.py``) carries one
length-prefixed JSON message ``{"script", "args", "cwd", "env"}`` and, as ``SCM_RIGHTS``, the
launcher's fds 0, 1 and 2. The forked child takes those fds as its own 0, 1, 2, the launcher's
working directory and environment, ``sys.argv = [script, *args]``, default signal handling and
a session of its own, and runs the script as ``__main__`` (``runpy.run_path``): the same
module code a plain ``python script args`` runs, with its imports already done. The zygote
writes the child's pid on the connection, reaps it and writes ``exit N`` (``N`` negative: the
signal that ended it), which the launcher exits with.

The child also watches the connection: when the launcher is gone (killed by the playground's
watchdog or by a test) it ends itself with SIGKILL, as the launcher's process group would have.
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import select
import signal
import socket
import sys
import threading
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
#: The SDK modules the fixture servers import inside ``main`` (not at the top).
LATE_IMPORTS = ("mcp.server.stdio", "mcp.shared.exceptions", "anyio", "mcp_types.methods")


def _warm(scripts: list[str]) -> None:
    """Import what the servers import: the SDK packages deferred as a server does
    (``fixtures/sdk_packages.py``), then each script's module code under a name that is not
    ``__main__`` (its ``main()`` does not run), then :data:`LATE_IMPORTS`."""
    sys.path.insert(0, str(FIXTURES))
    from sdk_packages import defer_package_inits

    defer_package_inits()
    for script in scripts:
        runpy.run_path(script, run_name="__zygote__")
    for name in LATE_IMPORTS:
        __import__(name)


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    """The launcher's message and its three fds."""
    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    while len(data) < 4 or len(data) < 4 + int.from_bytes(data[:4], "big"):
        more = conn.recv(1 << 16)
        if not more:
            raise EOFError("the launcher closed the connection mid-message")
        data += more
    return json.loads(data[4 : 4 + int.from_bytes(data[:4], "big")]), fds


def _child(
    conn: socket.socket, message: dict, fds: list[int], closing: list[socket.socket | int]
) -> None:
    """In the forked child: become the server process and run its script; never returns.
    ``closing``: the zygote's listener, its other children's connections and its wakeup pipe."""
    code = 1
    try:
        for item in closing:
            if isinstance(item, int):
                os.close(item)
            else:
                item.close()
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(message["cwd"])
        os.environ.clear()
        os.environ.update(message["env"])
        script = message["script"]
        sys.argv = [script, *message["args"]]
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        threading.Thread(target=_die_with_the_launcher, args=(conn,), daemon=True).start()
        try:
            runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as exc:
            if exc.code is None:
                code = 0
            elif isinstance(exc.code, int):
                code = exc.code
            else:
                print(exc.code, file=sys.stderr)
                code = 1
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    finally:
        os._exit(code)


def _die_with_the_launcher(conn: socket.socket) -> None:
    """Block on the connection; when the launcher has gone, end this process."""
    try:
        while conn.recv(64):
            pass
    except OSError:
        pass
    os.kill(os.getpid(), signal.SIGKILL)


def _reap(children: dict[int, socket.socket]) -> None:
    """Report each ended child's status on its connection: ``exit N``, or ``exit -SIG``."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is None:
            continue
        code = os.waitstatus_to_exitcode(status)
        try:
            conn.sendall(f"exit {code}\n".encode())
        except OSError:
            pass
        conn.close()


def main() -> None:
    path, scripts = sys.argv[1], sys.argv[2:]
    _warm(scripts)
    gc.collect()
    gc.freeze()  # the children share these pages; their collections do not walk them
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    print("ready", flush=True)
    children: dict[int, socket.socket] = {}
    while True:
        readable, _, _ = select.select([listener, sys.stdin, wake_r], [], [])
        if wake_r in readable:
            os.read(wake_r, 4096)
            _reap(children)
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 4096):
            return  # the test process is gone or done
        if listener in readable:
            conn, _ = listener.accept()
            try:
                message, fds = _receive(conn)
            except (OSError, EOFError, ValueError):
                conn.close()
                continue
            pid = os.fork()
            if pid == 0:
                _child(conn, message, fds, [listener, *children.values(), wake_r, wake_w])
            for fd in fds:
                os.close(fd)
            try:
                conn.sendall(f"{pid}\n".encode())
            except OSError:
                pass
            children[pid] = conn
            _reap(children)


if __name__ == "__main__":
    main()
