"""Ending the ``playground`` process without the interpreter's teardown.

After a command has printed its data and closed its tool sources, nothing is left to do; yet
a normal interpreter exit frees every module object one by one — about 0.2–0.3 s of CPU once
the ``mcp`` SDK, pydantic and jsonschema are loaded, longer than many commands' own work
(measured by ``bench/bench_mcp.py``; issue 10, performance). :func:`leave` ends the process
the way a normal exit would, minus that teardown: stdout and stderr flushed, the ``atexit``
handlers run (``weakref.finalize`` callbacks among them, e.g. a tool worker process a failed
command did not close), then ``os._exit``. When a thread that a normal exit would wait for is
still running, it falls back to a normal exit.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from typing import NoReturn


def exit_code_of(code: object) -> int:
    """The process exit code ``sys.exit(code)`` gives: ``None`` → 0, an int as is, anything
    else → 1 (Python prints it on stderr first; :func:`leave` does too)."""
    if code is None:
        return 0
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    return 1


def leave(code: object) -> NoReturn:
    """End the process with ``code`` (a ``SystemExit`` code) now.

    Runs the ``atexit`` handlers (CPython's ``atexit._run_exitfuncs``, the function a normal
    exit calls), flushes ``sys.stdout`` and ``sys.stderr`` (and the original streams), then
    calls ``os._exit``. Raises
    ``SystemExit(code)`` instead — a normal exit — when a non-daemon thread other than this
    one is alive (a normal exit waits for it).
    """
    current = threading.current_thread()
    if any(t is not current and t.is_alive() and not t.daemon for t in threading.enumerate()):
        raise SystemExit(code)
    status = exit_code_of(code)
    if status and not isinstance(code, int):
        print(code, file=sys.stderr)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            if stream is not None:  # the originals too: guard_stdout may have replaced stdout
                stream.flush()
    os._exit(status)
