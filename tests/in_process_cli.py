"""Run a ``playground`` command in the test's own process (typer's ``CliRunner``), with the
fields of a finished subprocess, for tests about what a command prints, exits with and stores.

A ``python -m playground`` subprocess costs a Python start and the package's imports (about
0.3 s of CPU, ~1 s with the ``mcp`` SDK) before the command's own work; here the imports are
already done. The tool sources a command starts (worker processes, MCP servers) are still real
processes. Tests about the process itself (file descriptor 1, signals, exit without teardown,
orphans, concurrent processes) keep running it as a subprocess."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping

from typer.testing import CliRunner

from playground.cli.main import app


def run_in_process(
    *args: object, env: Mapping[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``playground ARGS…`` here; ``env`` entries are set (``None``: removed) for the
    command only. Returns ``CompletedProcess(args, exit code, stdout, stderr)``; an exception
    other than ``SystemExit`` escaping the command fails the test (a traceback is never an
    answer)."""
    argv = [str(a) for a in args]
    result = CliRunner().invoke(app, argv, env={"NO_COLOR": "1", **(env or {})})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return subprocess.CompletedProcess(argv, result.exit_code, result.stdout, result.stderr)
