"""``playground serve``: the TUI in a browser (textual-serve; the server is
:mod:`playground.tui.web`).

Every browser tab is its own TUI session, each started with the same tool options as the
command (``--tools``, ``--mcp*``, ``--in-process``, ``--history``/``--no-history``). Bound to
127.0.0.1 by default; ``--host`` another address requires the token printed in the URL.
Exit codes: 0 stopped with ctrl+c or SIGTERM; 2 a bad option or an address that cannot be
bound.
"""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from playground.cli.common import (
    ExitCode,
    HistoryOption,
    NoHistoryOption,
    boundary,
    fail,
)
from playground.cli.source_options import (
    MCP_SERVER_OPTIONS,
    NO_SOURCES,
    ToolSourceOptions,
    tool_source_options,
)


def tui_command(sources: ToolSourceOptions, history: Path | None, no_history: bool) -> str:
    """The shell command line that opens one TUI session with these options (paths made
    absolute, every word quoted; ``exec`` so the session's process is the TUI itself)."""
    argv = [sys.executable, "-m", "playground"]
    for path in sources.tools or []:
        argv += ["--tools", str(Path(path).resolve())]
    for flag, values in (
        ("--mcp", sources.mcp),
        ("--mcp-url", sources.mcp_url),
        ("--mcp-header", sources.mcp_header),
    ):
        for value in values or []:
            argv += [flag, value]
    for path in sources.mcp_config or []:
        argv += ["--mcp-config", str(Path(path).resolve())]
    for name in sources.mcp_server or []:
        argv += ["--mcp-server", name]
    if sources.in_process:
        argv.append("--in-process")
    if history is not None:
        argv += ["--history", str(Path(history).resolve())]
    if no_history:
        argv.append("--no-history")
    return "exec " + shlex.join(argv)


@tool_source_options("tools", *MCP_SERVER_OPTIONS, "in_process")
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on. Another than 127.0.0.1/::1/localhost requires the "
            "token printed in the URL.",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")
    ] = 8000,
    sources: ToolSourceOptions = NO_SOURCES,
    history: HistoryOption = None,
    no_history: NoHistoryOption = False,
) -> None:
    """Serve the TUI in a browser: each tab its own session on the same tools; ctrl+c ends
    every session and its worker (exit 130; SIGTERM: 143)."""
    with boundary():
        sources.mcp_specs()  # bad options: exit 2 now
        for path in sources.tools or []:
            if not Path(path).exists():
                fail(f"--tools {path}: no such file or folder")
        command = tui_command(sources, history, no_history)
        from playground.tui.web import serve as serve_web

        try:
            stopped_by = serve_web(command, host, port)
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    if stopped_by is not None:  # ctrl+c: 130, SIGTERM: 143, as every command (docs/cli.md)
        if stopped_by == signal.SIGINT:
            fail("interrupted", ExitCode.INTERRUPTED)
        fail(f"terminated ({signal.Signals(stopped_by).name})", 128 + stopped_by)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""
    app.command("serve")(serve)
