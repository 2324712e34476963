"""No orphans (issue 28 item 2): whatever ends the playground — SIGTERM, SIGHUP, SIGKILL during a
hanging import, ctrl+c during a body, a normal exit after a body that started 40 children — no
process it started is left. Processes are counted by a marker in their environment (every
process the playground starts inherits it), read from ``/proc``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.signals import sigint_as_in_a_terminal

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

REPO = Path(__file__).resolve().parents[2]

HANGS = "import time\ntime.sleep(3600)\n"
SPINS = "while True:\n    pass\n"
TOOLS = '''
import subprocess
import time


def spawn(n: int) -> dict:
    """Starts n sleeping child processes.

    Args:
        n: how many.
    """
    return {"pids": [subprocess.Popen(["sleep", "60"]).pid for _ in range(n)]}


def slow() -> dict:
    """Starts a child, then sleeps 25 s."""
    subprocess.Popen(["sleep", "60"])
    time.sleep(25)
    return {"ok": True}


__tools__ = [spawn, slow]
__contracts__ = {"slow": {"timeout_s": 60}}
'''


def marked(marker: str) -> list[int]:
    """The live processes whose environment holds ``marker`` (zombies left out)."""
    found = []
    needle = f"ORPHAN_MARK={marker}".encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as fh:
                if needle not in fh.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
        except OSError:
            continue
        found.append(int(name))
    return found


def start(args: list[str], marker: str, cwd: Path, hang_s: float | None = None) -> subprocess.Popen:
    """``playground ARGS`` in ``cwd``, its processes marked; ``hang_s``: the import time
    limit (``PLAYGROUND_IMPORT_TIMEOUT_S``)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "ORPHAN_MARK": marker}
    env.pop("PLAYGROUND_IN_PROCESS", None)
    if hang_s is not None:
        env["PLAYGROUND_IMPORT_TIMEOUT_S"] = str(hang_s)
    return subprocess.Popen(
        [sys.executable, "-m", "playground", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )


def wait_until(predicate, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_signal_during_a_hanging_import_leaves_no_process(tmp_path, sig):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "hangs.py").write_text(HANGS, encoding="utf-8")
    (tmp_path / "tools" / "spins.py").write_text(SPINS, encoding="utf-8")
    marker = uuid.uuid4().hex
    # the imports must still hang when the signal comes: a run at load 20 ended on the 10 s
    # import limit first (exit 2, the hang reported as a load problem)
    proc = start(["list", "--tools", str(tmp_path / "tools")], marker, tmp_path, hang_s=600)
    # the worker (and its watchdog) started and are importing
    assert wait_until(lambda: len(marked(marker)) >= 3), marked(marker)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    if sig != signal.SIGKILL:
        assert proc.returncode == 128 + sig, err
        assert err.strip().splitlines()[-1] == f"error: terminated ({sig.name})"
    assert wait_until(lambda: not marked(marker), 5.0), marked(marker)


FORKS_AT_IMPORT = '''
import os
import subprocess
import time

for _ in range(3):
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
subprocess.Popen(["sleep", "601"])


def noop() -> dict:
    """Does nothing."""
    return {}


__tools__ = [noop]
'''


def test_children_a_module_started_at_import_are_gone_when_the_command_ends(tmp_path):
    """A module that forks (and starts a process) as it is imported: the worker's loader ended
    only its runners and its watchdog died with it, so the three forks and the ``sleep`` were
    left running with parent 1 after ``playground list``."""
    (tmp_path / "forks.py").write_text(FORKS_AT_IMPORT, encoding="utf-8")
    marker = uuid.uuid4().hex
    proc = start(["list", "--tools", str(tmp_path / "forks.py")], marker, tmp_path)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert wait_until(lambda: not marked(marker), 5.0), marked(marker)


def test_children_of_a_body_are_gone_when_the_command_ends(tmp_path):
    (tmp_path / "spawner.py").write_text(TOOLS, encoding="utf-8")
    marker = uuid.uuid4().hex
    proc = start(
        ["call", "spawn", "n:=40", "--tools", str(tmp_path / "spawner.py"), "--no-history",
         "--format", "json"],
        marker,
        tmp_path,
    )  # fmt: skip
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "the body left 40 child processes running" in out
    assert wait_until(lambda: not marked(marker), 5.0), marked(marker)


def _slow_call_running(tmp_path: Path) -> tuple[subprocess.Popen, str, Path]:
    """``playground call slow`` (a body that starts a child, then sleeps 25 s) with a history
    file, once its body runs (its ``sleep`` child is there: the worker, its watchdog, the
    runner, the spare runner and the sleep); returns the process, its marker and the history
    path."""
    (tmp_path / "spawner.py").write_text(TOOLS, encoding="utf-8")
    marker = uuid.uuid4().hex
    history = tmp_path / "h.db"
    proc = start(
        ["call", "slow", "--tools", str(tmp_path / "spawner.py"), "--history", str(history)],
        marker,
        tmp_path,
    )
    assert wait_until(lambda: any(_is_sleep(p) for p in marked(marker)), 60.0)
    return proc, marker, history


def test_ctrl_c_during_a_body_answers_at_once_and_keeps_the_record_as_cancelled(tmp_path):
    proc, marker, history = _slow_call_running(tmp_path)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=30)
    # at once: far short of the body's 25 s sleep (a bound with room for a loaded machine)
    assert time.monotonic() - sent < 10.0
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "error: interrupted"
    assert wait_until(lambda: not marked(marker), 5.0), marked(marker)
    import sqlite3

    rows = sqlite3.connect(history).execute("SELECT tool, outcome FROM entries").fetchall()
    assert rows == [("slow", "cancelled")]
    listed = subprocess.run(
        [sys.executable, "-m", "playground", "history", "--kind", "cancelled",
         "--history", str(history), "--format", "jsonl"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    (line,) = listed.stdout.splitlines()
    assert '"kind": "cancelled"' in line or '"kind":"cancelled"' in line


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_body_keeps_the_record_as_cancelled(tmp_path, sig):
    """SIGTERM / SIGHUP while a body ran ended the command (143 / 129) with no history entry,
    though the body had started (a tool that writes may have acted): the call is kept as
    ``cancelled``, saying which signal ended the playground."""
    import sqlite3

    proc, marker, history = _slow_call_running(tmp_path)
    proc.send_signal(sig)
    proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig
    assert wait_until(lambda: not marked(marker), 5.0), marked(marker)
    rows = (
        sqlite3.connect(history)
        .execute("SELECT tool, outcome, data FROM entries JOIN bodies USING (id)")
        .fetchall()
    )
    assert [(tool, outcome) for tool, outcome, _ in rows] == [("slow", "cancelled")]
    assert f"the call was cancelled (the playground was ended ({sig.name}))" in rows[0][2]


def _is_sleep(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().startswith(b"sleep\0")
    except OSError:
        return False
