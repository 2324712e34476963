"""Each call starts clean (issue 28 items 6 and 2): the worker restores the working directory
and the environment after every body; the child processes a body leaves are ended when the
call ends and the record says how many; output written after a body returned is dropped with
a note, never attributed to a later call."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from playground.workbench import open_playground

TOOLS = '''
import os
import pathlib
import subprocess
import sys
import threading
import time

_MARK = pathlib.Path(os.environ["CLEAN_TICK_MARK"])


def _tick() -> None:  # a module-level thread of the import that prints later
    while not _MARK.with_suffix(".go").exists():
        time.sleep(0.01)
    os.write(1, b"LATE TICK FROM AN OLD THREAD\\n")
    _MARK.write_text("written")


threading.Thread(target=_tick, daemon=True).start()


def wander(folder: str) -> dict:
    """Moves into a folder and changes the environment.

    Args:
        folder: where to go.
    """
    os.chdir(folder)
    os.environ["CLEAN_LEAK"] = "leaked"
    os.environ.pop("CLEAN_KEEP", None)
    return {"cwd": os.getcwd()}


def shout(word: str) -> dict:
    """Prints a word, then returns it.

    Args:
        word: what to print.
    """
    print(f"shouting {word}")
    return {"word": word}


def look() -> dict:
    """Says what the body sees."""
    return {
        "cwd": os.getcwd(),
        "leak": os.environ.get("CLEAN_LEAK"),
        "keep": os.environ.get("CLEAN_KEEP"),
    }


def spawn(n: int) -> dict:
    """Starts n sleeping child processes and returns at once.

    Args:
        n: how many.
    """
    pids = [subprocess.Popen(["sleep", "60"]).pid for _ in range(n)]
    return {"pids": pids}


def daemonize() -> dict:
    """Starts a grandchild in its own session whose parent exits at once."""
    out = subprocess.run(
        [sys.executable, "-c",
         "import os, subprocess; p = subprocess.Popen(['sleep', '60'], start_new_session=True, "
         "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
         "print(p.pid)"],
        capture_output=True, text=True, check=True,
    )
    return {"pids": [int(out.stdout)]}


def thread_left() -> dict:
    """Leaves a thread running."""
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    return {"ok": True}


__tools__ = [wander, look, shout, spawn, daemonize, thread_left]
__contracts__ = {n: {"side_effects": True} for n in
                 ("wander", "look", "spawn", "daemonize", "thread_left")}
'''


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


@pytest.fixture(scope="module")
def pg(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clean")
    (folder / "clean_tools.py").write_text(TOOLS, encoding="utf-8")
    old = {k: os.environ.get(k) for k in ("CLEAN_TICK_MARK", "CLEAN_KEEP")}
    os.environ["CLEAN_TICK_MARK"] = str(folder / "tick.mark")
    os.environ["CLEAN_KEEP"] = "original"
    playground = open_playground([folder / "clean_tools.py"], wire=False, in_process=False)
    yield playground, folder
    playground.close()
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def test_the_next_call_sees_the_original_cwd_and_environment(pg):
    playground, folder = pg
    before = playground.gate.call("look", {})
    moved = playground.gate.call("wander", {"folder": str(folder)})
    assert moved.value == {"cwd": str(folder)}
    assert moved.warnings == [
        "the body changed the working directory; it was restored",
        "the body changed the environment; it was restored",
    ]
    after = playground.gate.call("look", {})
    assert after.value == before.value
    assert after.value["cwd"] != str(folder) and after.value["leak"] is None
    assert after.value["keep"] == "original"
    assert after.warnings == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_children_a_body_leaves_are_ended_and_counted(pg):
    playground, _ = pg
    record = playground.gate.call("spawn", {"n": 40})
    pids = record.value["pids"]
    assert len(pids) == 40
    assert record.warnings == [
        "the body left 40 child processes running; the playground ended them when the call ended"
    ]
    assert [p for p in pids if alive(p)] == []
    escaped = playground.gate.call("daemonize", {})
    assert not alive(escaped.value["pids"][0])  # re-parented to the runner, then ended
    assert escaped.warnings == [
        "the body left 1 child process running; the playground ended them when the call ended"
    ]


def test_a_thread_left_running_gets_the_next_call_a_fresh_process(pg):
    playground, _ = pg
    record = playground.gate.call("thread_left", {})
    assert record.warnings == [
        "the body left 1 thread running; the next call runs in a fresh process"
    ]
    assert playground.gate.call("look", {}).warnings == []


def test_output_written_after_a_body_returned_is_dropped_with_a_note(pg):
    playground, folder = pg
    assert playground.gate.call("look", {}).printed == ""
    (folder / "tick.go").write_text("go")  # the import's thread prints now, between calls
    deadline = time.monotonic() + 30
    while not (folder / "tick.mark").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    record = playground.gate.call("look", {})
    assert "LATE TICK" not in record.printed
    assert record.warnings == [
        "29 bytes of output written after an earlier call's body returned were dropped "
        "(not this call's)"
    ]
    assert playground.gate.call("look", {}).warnings == []


def test_what_a_body_printed_is_its_own_and_never_a_later_calls_warning(pg):
    """A body that prints, called again and again: each call's record has its own printed
    text, and the next call no note of 'dropped' output (it was the earlier call's, shown)."""
    playground, _ = pg
    records = [playground.gate.call("shout", {"word": word}) for word in ("하나", "two", "셋")]
    assert [r.printed for r in records] == ["shouting 하나\n", "shouting two\n", "shouting 셋\n"]
    assert [r.warnings for r in records] == [[], [], []]
    assert playground.gate.call("look", {}).warnings == []
