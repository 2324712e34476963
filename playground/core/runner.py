"""Running one tool body safely: a time limit, captured output, and no exception escaping.

The body runs in a daemon thread so that a hung body becomes a ``transient`` timeout and the
playground keeps working (the thread is abandoned; Python cannot kill it). What the body writes
to stdout/stderr is captured per thread, so it neither corrupts ``--format json`` output nor the
TUI's screen.
"""

from __future__ import annotations

import inspect
import io
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class _ThreadRoutedStream(io.TextIOBase):
    """A stream that sends writes from one thread to a buffer and all others to ``fallback``.

    States: running (the body's writes are captured), ``finished`` (the body returned; the
    stream only passes writes on and is skipped when unwinding) and ``abandoned`` (the body
    timed out and its thread lives on: the stream stays installed and drops what that thread
    writes from now on, so a late ``print`` cannot land in ``--format json`` output or on the
    TUI's screen).
    """

    def __init__(self, fallback: Any, thread: threading.Thread, buffer: io.StringIO) -> None:
        self._fallback = fallback
        self._thread = thread
        self._buffer = buffer
        self.finished = False
        self.abandoned = False

    def write(self, text: str) -> int:  # type: ignore[override]
        if threading.current_thread() is self._thread:
            if self.abandoned:
                return len(text)
            if not self.finished:
                return self._buffer.write(text)
        return self._fallback.write(text)

    def flush(self) -> None:
        if threading.current_thread() is not self._thread:
            self._fallback.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return bool(getattr(self._fallback, "isatty", lambda: False)())

    def fileno(self) -> int:
        return self._fallback.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._fallback, "encoding", None) or "utf-8"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fallback, name)


def _unwrap(stream: Any) -> Any:
    """Skip routing streams of runs that have finished (left behind by overlapping runs);
    abandoned ones stay (they still filter their thread's writes)."""
    while isinstance(stream, _ThreadRoutedStream) and stream.finished and not stream.abandoned:
        stream = stream._fallback
    return stream


def _install(name: str, stream: _ThreadRoutedStream) -> Any:
    saved = getattr(sys, name)
    setattr(sys, name, stream)
    return saved


def _restore(name: str, ours: _ThreadRoutedStream, saved: Any, abandoned: bool = False) -> None:
    """Put ``saved`` back unless an overlapping run in another thread installed its own routing
    stream meanwhile: then ``ours`` stays in their chain, marked finished, and is skipped.

    ``abandoned`` (the body timed out): ``ours`` stays installed and drops the abandoned
    thread's writes. A body that replaced ``sys.stdout``/``sys.stderr`` with a stream of its own
    (or ``None``) does not keep it: the playground's output must not vanish into a tool's
    ``StringIO``.
    """
    ours.finished = True
    ours.abandoned = abandoned
    current = getattr(sys, name)
    if current is ours or not isinstance(current, _ThreadRoutedStream):
        setattr(sys, name, ours if abandoned else _unwrap(saved))


@dataclass
class BodyRun:
    """What one run of a body did: ``value`` or ``exception``, ``timed_out``, ``output`` (text the
    body printed, at most 4,000 characters) and ``duration_ms``."""

    value: Any = None
    exception: BaseException | None = None
    timed_out: bool = False
    output: str = ""
    duration_ms: float = 0.0


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def run_body(fn: Callable[..., Any], args: dict[str, Any], timeout_s: float) -> BodyRun:
    """Call ``fn(**args)`` in a daemon thread and wait at most ``timeout_s`` seconds.

    Returns a :class:`BodyRun`; never raises (``SystemExit`` and ``KeyboardInterrupt`` raised by
    the body are captured too). An ``async def`` body is awaited in that thread. What the body
    prints after a timeout is dropped (its thread is abandoned; see :class:`_ThreadRoutedStream`).
    """
    run = BodyRun()
    buffer = io.StringIO()
    done = threading.Event()

    def target() -> None:
        try:
            value = fn(**args)
            if inspect.isawaitable(value):  # an ``async def`` tool: run it to completion here
                import asyncio

                value = asyncio.run(_awaited(value))
            run.value = value
        except BaseException as exc:  # the body may raise anything, SystemExit included
            run.exception = exc
        finally:
            done.set()

    thread = threading.Thread(target=target, name="tool-body", daemon=True)
    started = time.perf_counter()
    out = _ThreadRoutedStream(sys.stdout, thread, buffer)
    err = _ThreadRoutedStream(sys.stderr, thread, buffer)
    saved_out, saved_err = _install("stdout", out), _install("stderr", err)
    finished = False
    try:
        thread.start()
        finished = done.wait(timeout_s)
    finally:
        _restore("stdout", out, saved_out, abandoned=not finished)
        _restore("stderr", err, saved_err, abandoned=not finished)
    run.duration_ms = (time.perf_counter() - started) * 1000
    run.timed_out = not finished
    output = buffer.getvalue()
    run.output = output if len(output) <= 4000 else output[:4000] + "…"
    return run
