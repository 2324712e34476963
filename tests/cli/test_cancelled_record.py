"""A call stopped by ctrl+c keeps one consistent record (the tester's ``slow_write`` case: the
history showed ``body ran (body_runs 0)``, no call id and ``side_effects: {}``): the call id,
the declared effects, ``body_ran`` with ``body_runs`` counting that run, in the JSON and in
``history show``. A real ``playground call`` process, a real SQLite history."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.signals import sigint_as_in_a_terminal

REPO = Path(__file__).resolve().parents[2]
SLOW = REPO / "tests" / "fixtures" / "slow_writer.py"


def wait_for(predicate, what: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.02)


def test_ctrl_c_keeps_the_call_id_the_effects_and_one_body_run(tmp_path):
    db, log = tmp_path / "h.db", tmp_path / "slow.log"
    env = {**os.environ, "SLOW_LOG": str(log), "COLUMNS": "120"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "playground",
            "call",
            "slow_write",
            "seconds:=30",
            "tag=cc",
            "--tools",
            SLOW,
            "--history",
            db,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )
    try:
        wait_for(lambda: log.exists() and "start cc" in log.read_text(), "the body started")
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "playground",
            "history",
            "show",
            "1",
            "--history",
            db,
            "-f",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    record = json.loads(shown.stdout)["data"]
    assert record["kind"] == "cancelled" and record["call_id"] == "call_1"
    assert record["body_ran"] is True and record["body_runs"] == 1
    effects = record["side_effects"]
    assert effects["effects"] == "write" and effects["basis"] == "declared"
    assert effects["evidence"] == "side_effects: True"
    assert record["timeout_s"] == 120 and record["message"].startswith(
        "the call was cancelled (ctrl+c) after "
    )
    assert set(record["wire"]) >= {"gemini", "anthropic", "openai"}
    table = subprocess.run(
        [sys.executable, "-m", "playground", "history", "show", "1", "--history", db],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert table.returncode == 0, table.stderr
    assert "call_1" in table.stdout.splitlines()[2]  # the record's header: its call id
    assert "write (declared: side_effects: True)" in table.stdout
    assert "body_runs 1" in table.stdout and "body_runs 0" not in table.stdout
