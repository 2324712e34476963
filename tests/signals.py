"""Signal dispositions for tests that start a playground child and press ctrl+c on it, and
helpers for the tests that end a child with a signal and read what it kept."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import subprocess
from pathlib import Path
from typing import Any


def sigint_as_in_a_terminal() -> None:
    """In the child, before exec: ctrl+c's default disposition. A shell starts a background
    job (``cmd &`` without job control, as CI scripts and ``nohup`` do) with SIGINT ignored,
    and an ignored signal stays ignored across ``fork``/``exec`` (POSIX), so a playground
    started from such a test process would ignore the test's SIGINT, as it should there; these
    tests are about the foreground command of a terminal, where SIGINT is not ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signalled_once_running(
    argv: list[str], sig: int, *, env: dict[str, str], cwd: Path
) -> tuple[int, str, str]:
    """Start ``argv``, wait for its first stdout line, ``running`` (the child says so once
    what the test is about runs), send it ``sig``; returns its exit code, the rest of its
    stdout and its stderr. The child is killed if it outlives the test."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "running\n"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


def kept_entries(history: Path) -> list[tuple[str, str, str, Any]]:
    """The history file's entries as ``(type, tool, outcome, data)``, ``data`` the stored
    JSON read back."""
    with contextlib.closing(sqlite3.connect(history)) as db:
        rows = db.execute(
            "SELECT type, tool, outcome, data FROM entries JOIN bodies USING (id)"
        ).fetchall()
    return [(kind, tool, outcome, json.loads(data)) for kind, tool, outcome, data in rows]
