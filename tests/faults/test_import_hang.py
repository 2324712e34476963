"""One tool module that never finishes importing delays the others by nothing: the worker
imports the modules concurrently, each within the import time limit; the stuck one becomes a
load problem naming it and the limit, the others load (and run) at once, and a clean worker
without the stuck module replaces the one whose import thread is still running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from playground.sources.worker import WorkerSource

REPO = Path(__file__).resolve().parents[2]

GOOD = '''
import os
import pathlib
import time

with pathlib.Path(os.environ["GOOD_MARK"]).open("a") as mark:  # when each import started
    mark.write(repr(time.time()) + "\\n")
time.sleep(0.3)  # a slow but healthy import


def ping() -> dict:
    """Answer pong.

    Returns:
        {"pong": true}
    """
    return {"pong": True}


__tools__ = [ping]
'''

SLEEPS = """
import os
import pathlib
import time

with pathlib.Path(os.environ["SLEEPS_MARK"]).open("a") as mark:
    mark.write(repr(time.time()) + "\\n")
time.sleep(3600)
"""
SPINS = "while True:\n    pass\n"


def folder_with_stuck_modules(tmp_path: Path, monkeypatch) -> tuple[Path, Path, Path]:
    """The modules' text never changes (their declarations come from the cache after the
    first run); where they write when their import started comes from the environment."""
    folder = tmp_path / "tools"
    folder.mkdir()
    mark = tmp_path / "good_started"
    stuck_mark = tmp_path / "sleeps_started"
    monkeypatch.setenv("GOOD_MARK", str(mark))
    monkeypatch.setenv("SLEEPS_MARK", str(stuck_mark))
    # the stuck modules sort first: imported one after the other, they would hold up good.py
    (folder / "a_sleeps.py").write_text(SLEEPS, encoding="utf-8")
    (folder / "b_spins.py").write_text(SPINS, encoding="utf-8")
    (folder / "good.py").write_text(GOOD, encoding="utf-8")
    return folder, mark, stuck_mark


def test_the_cli_lists_the_good_module_and_names_each_stuck_one(tmp_path, monkeypatch):
    folder, mark, stuck_mark = folder_with_stuck_modules(tmp_path, monkeypatch)
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PLAYGROUND_IMPORT_TIMEOUT_S": "2",
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "playground",
            "call",
            "ping",
            "--tools",
            folder,
            "--format",
            "json",
            "--no-history",
        ],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr  # the call ran: the stuck modules are named
    assert json.loads(proc.stdout)["value"] == {"pong": True}
    assert proc.stderr.decode().splitlines() == [
        f"error: {folder / name}: import did not finish within 2 s (an endless loop or a "
        "sleep at import time?); the module was not loaded"
        for name in ("a_sleeps.py", "b_spins.py")
    ]
    # good.py's import began with a_sleeps.py's, not after the stuck modules' 2 s each
    assert float(mark.read_text().split()[0]) - float(stuck_mark.read_text().split()[0]) < 1


def test_a_clean_worker_replaces_the_one_with_a_stuck_import(tmp_path, monkeypatch):
    folder, _, _ = folder_with_stuck_modules(tmp_path, monkeypatch)
    source = WorkerSource([folder], import_timeout_s=1.5)
    try:
        loaded = source.load()
        assert [c.name for c in loaded.contracts] == ["ping"]
        assert [Path(p.where).name for p in loaded.problems] == ["a_sleeps.py", "b_spins.py"]
        tainted = source.pid
        contract = loaded.contracts[0]
        assert source.call(contract, {}, 2.0).value == {"pong": True}  # served meanwhile
        deadline = time.monotonic() + 30
        while source.pid == tainted and time.monotonic() < deadline:
            time.sleep(0.05)
        assert source.pid != tainted  # swapped in once loaded without the stuck modules
        assert source.call(contract, {}, 2.0).value == {"pong": True}
        deadline = time.monotonic() + 5
        while _alive(tainted) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(tainted)  # the spinning import thread ended with its process
    finally:
        source.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False
