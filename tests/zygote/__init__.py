"""Fixture MCP servers started cheaply: a per-test-process "zygote" that has imported the ``mcp``
SDK and the fixture servers once forks a real server process for each connection.

Starting a fixture server (``fixtures/mcp_*_server.py``) costs ~0.5 s of CPU, nearly all of it
importing the SDK (its pydantic models); the suite started about 90. :func:`forked_line` gives
the ``--mcp`` command line of a server that is forked from the zygote instead::

    python -S -c "<import launch; launch.main()>" tests/zygote SOCKET fixtures/mcp_shop_server.py --log F

The client (the playground's MCP source, a ``playground`` subprocess) starts that command as
any stdio server: ``launch.py`` (standard library only, a few milliseconds) hands its stdin,
stdout and stderr, working directory and environment to the zygote (``zygote_main.py``), whose
forked child runs the script as ``__main__`` on those pipes — a real server process speaking
real stdio, built from the same code. The server's name is still the script's (the first
``.py`` argument of the line).

What differs from a plain start, and so what these servers are not for: the server process is
the zygote's child, not the launcher itself; it is in a session of its own, not in the
launcher's process group. The launcher forwards SIGTERM, SIGINT and SIGHUP and exits as the
server did, and the server ends when the launcher is gone, but a test about a server's process
— its group, its children, being killed, orphans, its start — starts the server plainly
(:func:`tests.mcp.servers.stdio_line`).

One zygote per test process, started on the first :func:`forked_line` (~0.7 s of CPU) and ended
by :func:`stop` (the root ``conftest.py``, at the end of the session) or when the test process
goes (its stdin is a pipe from here).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playground.sources.mcp_stdio import inherited_environment

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
#: The scripts the zygote imports up front (any other script still runs, importing its own).
WARMED = tuple(
    str(REPO / "fixtures" / name)
    for name in (
        "mcp_shop_server.py",
        "mcp_protocol_server.py",
        "mcp_faulty_server.py",
        "mcp_task_server.py",
        "mcp_odd_schema_server.py",
        "mcp_triage_server.py",
    )
)
#: The launcher's code for ``python -S -c``: the folder of ``launch.py`` is its first argument
#: (not a ``.py`` path, so the line is still named after the server's script).
LAUNCH = "import sys; sys.path.insert(0, sys.argv.pop(1)); import launch; launch.main()"

_zygote: list[tuple[subprocess.Popen[bytes], str]] = []


def forked_line(script: Path | str, *args: str) -> str:
    """The ``--mcp`` value that runs ``script args`` as a server forked from this process's
    zygote (started now if it is not running)."""
    return shlex.join(forked_command(script, *args))


def forked_entry(script: Path | str, *args: str) -> dict[str, object]:
    """The same server as an ``mcpServers`` entry of a config file: ``{"command", "args"}``."""
    command, *rest = forked_command(script, *args)
    return {"command": command, "args": rest}


def forked_command(script: Path | str, *args: str) -> list[str]:
    """The command (``[python, -S, -c, …, script, *args]``) of :func:`forked_line`."""
    return [sys.executable, "-S", "-c", LAUNCH, str(HERE), _socket(), str(script), *args]


def _socket() -> str:
    if _zygote and _zygote[0][0].poll() is None:
        return _zygote[0][1]
    stop()
    folder = tempfile.mkdtemp(prefix="zygote")  # short: a socket path holds at most 107 bytes
    path = f"{folder}/s"
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "zygote_main.py"), path, *WARMED],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=inherited_environment(),
        cwd=REPO,
    )
    assert proc.stdout is not None
    ready = proc.stdout.readline()
    if ready.strip() != b"ready":
        proc.kill()
        proc.wait(10)
        raise RuntimeError(f"the server zygote did not start (exit code {proc.returncode})")
    _zygote.append((proc, path))
    return path


def stop() -> None:
    """End this process's zygote (its stdin closes; killed after 10 s), if one runs. The
    servers it forked go when their launchers do."""
    while _zygote:
        proc, path = _zygote.pop()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        shutil.rmtree(Path(path).parent, ignore_errors=True)
