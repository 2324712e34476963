"""A FIFO (or a device) where the playground reads a file never hangs the command: the history
(``--history``, ``PLAYGROUND_HISTORY``) is turned off with one note, and an ``--mcp-config``,
``replay`` or ``eval --resume`` FIFO that nobody writes to reads as empty, so it is refused or
taken as empty in one line. Each of these waited forever before. Run in this process (the
reads are what is tested); a pytest timeout would be the failure."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.in_process_cli import run_in_process

REPO = Path(__file__).resolve().parents[2]
SHOP = str(REPO / "tools" / "shop.py")


@pytest.fixture
def fifo(tmp_path: Path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    yield path
    # a read still waiting on the FIFO (the failure) is let go by a writer
    with os.fdopen(os.open(path, os.O_RDWR | os.O_NONBLOCK), "wb") as unblock:
        unblock.write(b"")


def _within(seconds: float, *args: object, env: dict[str, str | None] | None = None):
    """``run_in_process(*args)`` on a thread; fails when it has not ended after ``seconds``."""
    done: list = []
    thread = threading.Thread(target=lambda: done.append(run_in_process(*args, env=env)))
    thread.daemon = True
    thread.start()
    thread.join(seconds)
    assert done, f"playground {' '.join(map(str, args))} did not end within {seconds} s"
    return done[0]


def test_a_fifo_history_is_off_with_one_note(fifo: Path) -> None:
    called = _within(
        30, "call", "get_order_status", "order_id=HR20260604", "--tools", SHOP, "--in-process",
        "--history", fifo,
    )  # fmt: skip
    assert called.returncode == 0
    assert f"note: history is off for this run: cannot use {fifo}: not a regular file" in (
        called.stderr
    )
    listed = _within(30, "history", env={"PLAYGROUND_HISTORY": str(fifo)})
    assert listed.returncode == 2
    assert "not a regular file (a FIFO, a device or a socket)" in listed.stderr


def test_a_fifo_mcp_config_replay_and_resume_read_as_empty(fifo: Path) -> None:
    config = _within(30, "call", "get_order_status", "--mcp-config", fifo)
    assert config.returncode == 2
    assert f"--mcp-config {fifo}: not valid JSON" in config.stderr
    replayed = _within(30, "replay", fifo, "--tools", SHOP, "--in-process")
    assert replayed.returncode != 0 and f"{fifo}: not JSON" in replayed.stdout + replayed.stderr
    resumed = _within(
        60, "eval", REPO / "fixtures" / "routing_cases.jsonl", "--tools", SHOP, "--in-process",
        "--resume", fifo, "--format", "json",
    )  # fmt: skip
    assert resumed.returncode in (0, 1), resumed.stderr
    assert '"selection_rate"' in resumed.stdout
