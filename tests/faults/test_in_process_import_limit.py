"""``--in-process`` loads honour the import time limit as the worker does (issue 26 item 3): a
module stuck at import is a load problem naming the limit while the others load, a reload does
not import it again, and a SIGTERM during an import ends the command as a termination (exit
143), never as the module's ``SystemExit``. Real ``playground`` subprocesses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from playground.sources.in_process import InProcessSource

GOOD = '''
def ping() -> dict:
    """Answer pong."""
    return {"pong": True}


__tools__ = [ping]
'''
# blocks on a FIFO until the test opens it for writing: stuck without burning a core
HELD = """
import os
import pathlib

pathlib.Path(os.environ["HELD_MARK"]).open("a").close()  # the import has started
with open(os.environ["HELD_FIFO"]) as fifo:
    fifo.read()
"""


def tools(tmp_path: Path) -> tuple[Path, Path, Path, dict[str, str]]:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "a_held.py").write_text(HELD, encoding="utf-8")
    (folder / "good.py").write_text(GOOD, encoding="utf-8")
    fifo, mark = tmp_path / "fifo", tmp_path / "started"
    os.mkfifo(fifo)
    env = {**os.environ, "HELD_FIFO": str(fifo), "HELD_MARK": str(mark)}
    return folder, fifo, mark, env


def release(fifo: Path) -> None:
    """Let a held import finish: a writer opens the FIFO and closes it, so its read ends (no
    reader left: nothing to release)."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def playground(*args: object, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "playground", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def test_a_stuck_import_is_a_problem_within_the_limit_and_the_rest_loads(tmp_path):
    folder, _fifo, _mark, env = tools(tmp_path)
    env["PLAYGROUND_IMPORT_TIMEOUT_S"] = "1"
    with playground("list", "--tools", folder, "--in-process", "-f", "json", env=env) as proc:
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.splitlines() == [
        f"error: {folder / 'a_held.py'}: import did not finish within 1 s (an endless loop or a "
        "sleep at import time?); the module was not loaded"
    ]
    assert '"name": "ping"' in out


def test_a_sigterm_during_an_in_process_import_is_reported_as_a_termination(tmp_path):
    folder, _fifo, mark, env = tools(tmp_path)
    env["PLAYGROUND_IMPORT_TIMEOUT_S"] = "60"
    with playground("list", "--tools", folder, "--in-process", env=env) as proc:
        while not mark.exists() and proc.poll() is None:  # wait for the import to start
            os.sched_yield()
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert err.strip() == "error: terminated (SIGTERM)"
    assert "import failed" not in err and "SystemExit" not in err


def test_a_stuck_module_is_not_imported_again_on_reload(tmp_path, monkeypatch):
    folder, fifo, _mark, env = tools(tmp_path)
    monkeypatch.setenv("HELD_FIFO", env["HELD_FIFO"])
    monkeypatch.setenv("HELD_MARK", env["HELD_MARK"])
    source = InProcessSource([folder], import_timeout_s=0.3)
    try:
        first = source.load()
        again = source.reload()
    finally:
        release(fifo)
    assert [c.name for c in first.contracts] == [c.name for c in again.contracts] == ["ping"]
    assert [p.message for p in first.problems] == [
        "import did not finish within 0.3 s (an endless loop or a sleep at import time?); "
        "the module was not loaded"
    ]
    assert again.problems[0].where == str((folder / "a_held.py").resolve())
    assert "its import never finished" in again.problems[0].message
    assert len(again.problems) == 1
