"""Bounded loading (issue 28 items 1, 3 and 7): three import-fault modules loaded together (one
sleeps at import, one has a syntax error, one runs a catastrophic regular expression at import,
holding the GIL) plus a good one → the command ends, naming the three, and the good tool runs;
ctrl+c while the tools load ends the command at once with exit 130 and runs nothing; a
``KeyboardInterrupt`` raised by a module at import is named as such, not as a time-out."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.signals import sigint_as_in_a_terminal

REPO = Path(__file__).resolve().parents[2]

MODULES = {
    "sleeper.py": "import time\ntime.sleep(3600)\n",
    "broken.py": "def f(:\n    pass\n",
    "regex.py": 'import re\nre.match(r"(a+)+$", "a" * 40 + "b")\n',
    "interrupts.py": "raise KeyboardInterrupt\n",
    "good.py": (
        "import os, pathlib\n\n\n"
        "def ping() -> dict:\n"
        '    """Answer pong."""\n'
        '    pathlib.Path(os.environ["PING_MARK"]).write_text("ran")\n'
        '    return {"pong": True}\n\n\n'
        "__tools__ = [ping]\n"
    ),
}


@pytest.fixture
def faults(tmp_path: Path) -> Path:
    folder = tmp_path / "tools"
    folder.mkdir()
    for name, text in MODULES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def start(folder: Path, *args: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PLAYGROUND_IMPORT_TIMEOUT_S": "1",
        "PING_MARK": str(folder.parent / "ping.mark"),
    }
    env.pop("PLAYGROUND_IN_PROCESS", None)
    return subprocess.Popen(
        [sys.executable, "-m", "playground", *args, "--tools", str(folder)],
        cwd=folder.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )


def test_faults_together_end_loading_naming_each_and_the_good_tool_runs(faults):
    started = time.monotonic()
    proc = start(faults, "call", "ping", "--no-history", "--format", "json")
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - started < 40
    assert proc.returncode == 0, err  # the call ran; the load problems are named, not its exit
    assert json.loads(out)["value"] == {"pong": True}
    assert (faults.parent / "ping.mark").read_text() == "ran"
    errors = sorted(line for line in err.splitlines() if line.startswith("error: "))
    assert errors == [
        f"error: {faults}/broken.py:1: import failed: SyntaxError: invalid syntax (broken.py, line 1)",
        f"error: {faults}/interrupts.py: import failed: KeyboardInterrupt raised at import time "
        "by the module",
        f"error: {faults}/regex.py: import did not finish within 1 s (an endless loop or a sleep "
        "at import time?); the module was not loaded",
        f"error: {faults}/sleeper.py: import did not finish within 1 s (an endless loop or a "
        "sleep at import time?); the module was not loaded",
    ]


def test_ctrl_c_while_loading_exits_130_at_once_and_runs_nothing(faults):
    proc = start(faults, "call", "ping", "--no-history")
    # loading: the worker process is there (the sleeper and the regex take their time limit)
    deadline = time.monotonic() + 30
    while not _children(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _children(proc.pid), "the worker never started"
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=30)
    # at once: the loading was not waited for (each hanging import has a 1 s limit, and none is
    # reported), with room for a loaded machine in the bound
    assert time.monotonic() - sent < 3.0
    assert "did not finish within" not in err
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "error: interrupted"
    assert not (faults.parent / "ping.mark").exists()


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (``/proc``; ``[]`` where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []
