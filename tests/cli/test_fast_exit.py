"""``playground.cli.fast_exit.leave``: the process ends without the interpreter's teardown but
with everything a normal exit does that matters — output flushed, atexit handlers (and so
``weakref.finalize`` callbacks) run, the exit code kept; a normal exit when a thread is still
running; and the CLI's history file closed (no ``-wal`` file left)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from playground.cli.fast_exit import exit_code_of, leave

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import atexit, sys, weakref
from playground.cli.fast_exit import leave

class Held:
    pass

held = Held()
weakref.finalize(held, print, "finalizer ran", file=sys.stderr)
atexit.register(print, "atexit ran", file=sys.stderr)
sys.stdout.write("data without a newline")  # still in the buffer
leave(sys.argv[1] if sys.argv[1] == "boom" else int(sys.argv[1]))
"""


def run_script(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, code], env=env, capture_output=True, text=True, timeout=60
    )


def test_leave_flushes_runs_the_exit_handlers_and_keeps_the_code() -> None:
    done = run_script("3")
    assert done.returncode == 3
    assert done.stdout == "data without a newline"
    assert done.stderr.splitlines() == ["atexit ran", "finalizer ran"]


def test_a_message_code_is_printed_and_exits_1() -> None:
    done = run_script("boom")
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == "boom"


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (2, 2), ("x", 1), (True, 1)])
def test_exit_code_of(code: object, status: int) -> None:
    assert exit_code_of(code) == status


def test_a_running_non_daemon_thread_gets_a_normal_exit() -> None:
    release = threading.Event()
    worker = threading.Thread(target=release.wait, daemon=False)
    worker.start()
    try:
        with pytest.raises(SystemExit) as exc:
            leave(4)
        assert exc.value.code == 4
    finally:
        release.set()
        worker.join()


def test_the_cli_closes_its_history_file(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    db = tmp_path / "h.db"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "playground",
            "call",
            "get_order_status",
            "order_id=HR99999999",
            "--in-process",
            "--format",
            "json",
            "--history",
            str(db),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"]["found"] is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.db"]  # the WAL was checkpointed
    import sqlite3

    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM entries").fetchone()[0] == 1
