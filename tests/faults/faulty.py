"""Deliberately broken tools (issue 9): each body misbehaves in one way a real tool might.

Plain Python, importable without the playground. Time limits are short so the tests are fast.
Used by ``tests/faults/test_faults.py`` through the CLI, ``check`` and the TUI.
"""

import ctypes
import os
import re
import signal
import subprocess
import sys
import threading
import time

SHORT = {"timeout_s": 0.5}


def healthy(n: int = 1) -> dict:
    """Returns {"ok": true, "n": n}: the call after each fault must still work."""
    return {"ok": True, "n": n}


def raise_value() -> dict:
    """Raises ValueError."""
    raise ValueError("bad value in the body")


def system_exit() -> dict:
    """Raises SystemExit(3)."""
    raise SystemExit(3)


def keyboard_interrupt() -> dict:
    """Raises KeyboardInterrupt."""
    raise KeyboardInterrupt


def hard_exit() -> dict:
    """Ends its process with os._exit(3)."""
    os._exit(3)


def segfault() -> dict:
    """Reads an address that faults (a non-canonical one); SIGSEGV by hand if it did not."""
    ctypes.string_at(0xFFFF_FFFF_FFFF_F000, 16)
    os.kill(os.getpid(), signal.SIGSEGV)
    return {"survived": True}


def catastrophic_regex() -> dict:
    """Backtracks for ages inside one C call (the GIL is never released)."""
    return {"match": bool(re.match(r"(a+)+$", "a" * 40 + "b"))}


def endless_loop() -> dict:
    """A Python loop that never ends."""
    while True:
        pass


def sleep_forever() -> dict:
    """Sleeps for ever."""
    time.sleep(10**6)
    return {}


def non_daemon_thread() -> dict:
    """Leaves a non-daemon thread sleeping for an hour, and returns."""
    threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()
    return {"ok": True}


def noisy() -> dict:
    """Writes to fd 1 and 2, starts a child that prints, then prints 1 MB to stdout."""
    os.write(1, b"FD1 WRITE\n")
    os.write(2, b"FD2 WRITE\n")
    sys.stderr.write("STDERR WRITE\n")
    subprocess.run([sys.executable, "-c", "print('CHILD PRINT')"], check=True)
    sys.stdout.write("x" * 1_048_576 + "\n")
    return {"ok": True}


def huge_result() -> str:
    """Returns a 50 MB string."""
    return "y" * 50_000_000


def big_result() -> str:
    """Returns a 200 kB string: under the result cap, too big to draw whole."""
    return "z" * 200_000


def wanderer() -> dict:
    """Changes the working directory and the environment."""
    os.chdir("/")
    os.environ["GEMINI_API_KEY"] = "set-by-a-tool"
    os.environ["PLAYGROUND_FAULT_MARK"] = "1"
    return {"cwd": os.getcwd()}


def deep_recursion(n: int = 0) -> dict:
    """Recurses without end."""
    return deep_recursion(n + 1)


def generator() -> object:
    """Returns a generator, not JSON data."""
    yield 1


def tick() -> dict:
    """Sleeps past its tiny time limit (for the 1,100-time-outs check)."""
    time.sleep(0.2)
    return {}


__tools__ = [
    healthy,
    raise_value,
    system_exit,
    keyboard_interrupt,
    hard_exit,
    segfault,
    catastrophic_regex,
    endless_loop,
    sleep_forever,
    non_daemon_thread,
    noisy,
    huge_result,
    big_result,
    wanderer,
    deep_recursion,
    generator,
    tick,
]
__contracts__ = {
    "healthy": {"cacheable": True},
    "catastrophic_regex": SHORT,
    "endless_loop": SHORT,
    "sleep_forever": SHORT,
    "tick": {"timeout_s": 0.002, "cacheable": False},
    "wanderer": {"cacheable": False},
}


def stops_in_debugger() -> dict:
    """Calls breakpoint(): pdb with --in-process, a no-op in the worker."""
    marker = "before"
    breakpoint()
    marker = "after"
    return {"marker": marker}


__tools__.append(stops_in_debugger)

# Every fault here is in the body's behaviour, not in what it changes: each tool only reads
# (declared, so its effects are not guessed from a name like 'hard_exit' and an undeclared
# tool's run never empties the cache between the faults).
__contracts__ = {
    fn.__name__: {**__contracts__.get(fn.__name__, {}), "side_effects": False} for fn in __tools__
}
