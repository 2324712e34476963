"""Running one tool body safely: a time limit, captured output, and no exception escaping.

The body runs in a daemon thread so that a hung body becomes a ``transient`` timeout and the
playground keeps working (the thread is abandoned; Python cannot kill it). What the body writes
to stdout/stderr is captured per thread, so it neither corrupts ``--format json`` output nor the
TUI's screen.
"""

from __future__ import annotations

import io
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable


class _ThreadRoutedStream(io.TextIOBase):
    """A stream that sends writes from one thread to a buffer and all others to ``fallback``."""

    def __init__(self, fallback: Any, thread: threading.Thread, buffer: io.StringIO) -> None:
        self._fallback = fallback
        self._thread = thread
        self._buffer = buffer

    def write(self, text: str) -> int:  # type: ignore[override]
        if threading.current_thread() is self._thread:
            return self._buffer.write(text)
        return self._fallback.write(text)

    def flush(self) -> None:
        if threading.current_thread() is not self._thread:
            self._fallback.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fallback, name)


@dataclass
class BodyRun:
    """What one run of a body did: ``value`` or ``exception``, ``timed_out``, ``output`` (text the
    body printed, at most 4,000 characters) and ``duration_ms``."""

    value: Any = None
    exception: BaseException | None = None
    timed_out: bool = False
    output: str = ""
    duration_ms: float = 0.0


def run_body(fn: Callable[..., Any], args: dict[str, Any], timeout_s: float) -> BodyRun:
    """Call ``fn(**args)`` in a daemon thread and wait at most ``timeout_s`` seconds.

    Returns a :class:`BodyRun`; never raises (``SystemExit`` and ``KeyboardInterrupt`` raised by
    the body are captured too).
    """
    run = BodyRun()
    buffer = io.StringIO()
    done = threading.Event()

    def target() -> None:
        try:
            run.value = fn(**args)
        except BaseException as exc:  # the body may raise anything, SystemExit included
            run.exception = exc
        finally:
            done.set()

    thread = threading.Thread(target=target, name="tool-body", daemon=True)
    started = time.perf_counter()
    saved_out, saved_err = sys.stdout, sys.stderr
    sys.stdout = _ThreadRoutedStream(saved_out, thread, buffer)
    sys.stderr = _ThreadRoutedStream(saved_err, thread, buffer)
    try:
        thread.start()
        finished = done.wait(timeout_s)
    finally:
        sys.stdout, sys.stderr = saved_out, saved_err
    run.duration_ms = (time.perf_counter() - started) * 1000
    run.timed_out = not finished
    output = buffer.getvalue()
    run.output = output if len(output) <= 4000 else output[:4000] + "…"
    return run
