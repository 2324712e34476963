"""The in-process runner: bodies run in a thread of the playground's own process.

It stays in core because the gate needs it for a contract built by hand (a ``Contract`` with
``fn`` and no tool source: library use and tests), and it depends only on core. The
``--in-process`` tool source (:class:`playground.sources.in_process.InProcessSource`, docs/design.md
"tool source") is this runner plus the loading of tool modules; it is kept for stepping through a
body with a debugger: ``breakpoint()`` in a body stops in pdb on the terminal (the time limit
is suspended while the debugger is active and the body's output is not captured then). It
cannot protect the playground: a body stuck in one C call, ``os._exit``, a changed working
directory or environment all reach the playground. The worker-process source
(:mod:`playground.sources.worker`) is the default for the CLI and the TUI.

Bodies run one at a time on one reused daemon thread (starting a thread per call cost more than
the body of a cheap tool); a body that passes its time limit is abandoned (Python cannot stop a
thread) and a fresh thread serves the next call. What a body writes to ``sys.stdout`` /
``sys.stderr`` is captured per thread by one routing stream installed while the source is in
use; an abandoned body's later writes are dropped (they must not land in ``--format json``
output or on the TUI's screen).
"""

from __future__ import annotations

import _thread
import inspect
import io
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playground.core.convert import ArgConversionError, call_args
from playground.core.toolsource import (
    BodyRun,
    LoadResult,
    bounded_output,
    conversion_error,
    raised_error,
)

if TYPE_CHECKING:
    from playground.core.contracts import Contract


class _RoutedStream(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr`` while an in-process source is in use: a write from a
    thread listed in ``routes`` goes to that thread's buffer (or nowhere when its entry is
    ``None``: an abandoned body); every other thread writes to ``fallback``."""

    def __init__(self, fallback: Any, routes: dict[threading.Thread, io.StringIO | None]) -> None:
        self.fallback = fallback
        self._routes = routes

    def write(self, text: str) -> int:
        thread = threading.current_thread()
        if thread not in self._routes:
            written = self.fallback.write(text)  # Textual's print capture returns None
            return len(text) if written is None else int(written)
        route = self._routes.get(thread)
        if route is None:
            return len(text)
        return route.write(text)

    def flush(self) -> None:
        if threading.current_thread() not in self._routes:
            self.fallback.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return bool(getattr(self.fallback, "isatty", lambda: False)())

    def fileno(self) -> int:
        return int(self.fallback.fileno())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.fallback, "encoding", None) or "utf-8"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.fallback, name)


#: The longest a caller waits for a body without letting a signal's handler run (seconds).
WAIT_SLICE_S = 0.1


class _Job:
    """One body run handed to the body thread; ``done`` is a plain lock held until the run
    ends (cheaper to make and to wait on than a ``threading.Event``)."""

    __slots__ = ("args", "debugging", "done", "exception", "fn", "value")

    def __init__(self, fn: Callable[..., Any], args: dict[str, Any]) -> None:
        self.fn = fn
        self.args = args
        self.done = _thread.allocate_lock()
        self.done.acquire()
        self.value: Any = None
        self.exception: BaseException | None = None
        self.debugging = False

    def run(self) -> None:
        try:
            value = self.fn(**self.args)
            if inspect.isawaitable(value):  # an ``async def`` tool: run it to completion here
                import asyncio

                value = asyncio.run(_awaited(value))
            self.value = value
        except BaseException as exc:  # the body may raise anything, SystemExit included
            self.exception = exc
        finally:
            self.done.release()

    def wait(self, timeout_s: float) -> bool:
        """Wait at most ``timeout_s`` s for the run to end; ``True`` when it did. The wait is
        cut into slices of :data:`WAIT_SLICE_S`: a signal the kernel hands to the body's thread
        (SIGTERM, SIGHUP, ctrl+c) leaves the waiting thread asleep until its wait ends, and
        Python runs the handler only then -- ``ask`` stopped by SIGHUP during a 30 s body
        exited after the body, not at once. After each slice the handler runs if one came."""
        deadline = time.monotonic() + max(timeout_s, 0.0)
        while True:
            remaining = deadline - time.monotonic()
            if self.done.acquire(timeout=min(max(remaining, 0.0), WAIT_SLICE_S)):
                self.done.release()
                return True
            if remaining <= WAIT_SLICE_S:
                return False


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _serve(jobs: queue.SimpleQueue[_Job | None]) -> None:
    """The body thread: run the queued jobs until ``None`` arrives (the source closed, or it
    abandoned this thread and the body finally returned)."""
    while (job := jobs.get()) is not None:
        job.run()


class InProcessRunner:
    """Runs contracts' functions on a reused daemon thread of this process.

    It loads nothing (contracts are handed to it); see the module docstring for what it can and
    cannot protect against. Implements :class:`~playground.core.toolsource.ToolSource`.
    """

    def __init__(self) -> None:
        self.label = "in-process"
        self._lock = threading.Lock()
        self._routes: dict[threading.Thread, io.StringIO | None] = {}
        self._jobs: queue.SimpleQueue[_Job | None] | None = None
        self._thread: threading.Thread | None = None
        self._out: _RoutedStream | None = None
        self._err: _RoutedStream | None = None

    def load(self) -> LoadResult:
        """Nothing to load: the contracts come from whoever built them."""
        return LoadResult()

    def reload(self) -> LoadResult:
        """Nothing to load again."""
        return self.load()

    def close(self) -> None:
        """End the body thread (a thread left waiting for jobs would keep this source, and
        everything ``sys.stderr`` referred to when it started, alive for the life of the
        process) and put ``sys.stdout`` / ``sys.stderr`` back unless an abandoned body still
        runs (then its writes keep being dropped). Safe to call twice; a later call starts a
        new body thread."""
        if self._jobs is not None:
            self._jobs.put(None)
        self._jobs = self._thread = None
        for ended in [t for t, r in list(self._routes.items()) if r is None and not t.is_alive()]:
            self._routes.pop(ended, None)  # an abandoned body that has returned since
        if any(route is None for route in self._routes.values()):
            return
        if self._out is not None and sys.stdout is self._out:
            sys.stdout = self._out.fallback
        if self._err is not None and sys.stderr is self._err:
            sys.stderr = self._err.fallback
        self._out = self._err = None

    def call(self, contract: Contract, args: dict[str, Any], timeout_s: float) -> BodyRun:
        """Run ``contract.fn(**args)`` on the body thread and wait at most ``timeout_s`` s
        (unlimited while ``breakpoint()`` has a debugger active). Never raises."""
        fn = contract.fn
        if fn is None:  # pragma: no cover - contracts of this source always carry fn
            raise ValueError(f"{contract.name} has no function to run in this process")
        try:  # the annotated types, in the body's own copy (issue 11 items 1 and 12)
            args = call_args(fn, args)
        except ArgConversionError as exc:
            return BodyRun(error=conversion_error(exc))
        with self._lock:
            return self._call(fn, args, timeout_s)

    def _call(self, fn: Callable[..., Any], args: dict[str, Any], timeout_s: float) -> BodyRun:
        if self._thread is None or not self._thread.is_alive() or self._jobs is None:
            self._jobs = queue.SimpleQueue()
            self._thread = threading.Thread(
                target=_serve, args=(self._jobs,), name="tool-body", daemon=True
            )
            self._thread.start()
        thread = self._thread
        buffer = io.StringIO()
        self._routes[thread] = buffer
        saved_out, saved_err, saved_hook = sys.stdout, sys.stderr, sys.breakpointhook
        ours = self._install()
        job = _Job(fn, args)

        def debugger_hook(*a: Any, **kw: Any) -> Any:
            # breakpoint() in the body: show the debugger on the terminal, wait without limit
            if threading.current_thread() is thread:
                job.debugging = True
                self._routes.pop(thread, None)
            if saved_hook is sys.__breakpointhook__ and not os.environ.get("PYTHONBREAKPOINT"):
                import pdb

                # stop in the body's frame, not in this hook
                return pdb.Pdb().set_trace(sys._getframe(1))
            return saved_hook(*a, **kw)

        sys.breakpointhook = debugger_hook
        started = time.perf_counter()
        self._jobs.put(job)
        finished = job.wait(timeout_s)
        while not finished and job.debugging:
            finished = job.wait(0.5)
        duration_ms = (time.perf_counter() - started) * 1000
        sys.breakpointhook = saved_hook
        if finished:
            self._routes.pop(thread, None)
            # the streams of before the call come back (a body that replaced sys.stdout or
            # sys.stderr does not keep its own)
            sys.stdout, sys.stderr = saved_out, saved_err
        else:
            self._routes[thread] = None  # abandoned: drop what it prints from now on
            self._jobs.put(None)  # the thread ends if the body ever returns
            self._thread = self._jobs = None
            sys.stdout, sys.stderr = ours  # stay installed to drop it
        run = BodyRun(
            timed_out=not finished,
            output=bounded_output(buffer.getvalue()),
            duration_ms=duration_ms,
        )
        if not finished:
            run.stopped = f"abandoned after {duration_ms / 1000:.1f} s"
        elif job.exception is not None:
            run.error = raised_error(job.exception)
        else:
            run.value = job.value
        return run

    def _install(self) -> tuple[_RoutedStream, _RoutedStream]:
        # the routing streams of the last call are put back when the streams they wrap are
        # still the current ones (a new wrapper per call cost more than a cheap body)
        out, err = self._out, self._err
        if out is None or (sys.stdout is not out and sys.stdout is not out.fallback):
            out = self._out = _RoutedStream(sys.stdout, self._routes)
        if err is None or (sys.stderr is not err and sys.stderr is not err.fallback):
            err = self._err = _RoutedStream(sys.stderr, self._routes)
        sys.stdout, sys.stderr = out, err
        return out, err
