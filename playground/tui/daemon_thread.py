"""Run blocking engine work (a gate call, an episode, an evaluation) in a daemon thread and
await it from an async Textual worker.

Textual's thread workers run in the event loop's default executor, and ``asyncio.run`` waits
for that executor's threads when the app ends: quitting while a call was still building the
wire JSON of a 30 MB result waited for it (seconds). A daemon thread is not waited for at exit;
the app ends the tool sources (worker process, MCP servers) on unmount, so nothing is left
running. Work that must finish (a history write) stays in thread workers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def in_daemon_thread(fn: Callable[..., T], *args: Any, name: str = "playground-work") -> T:
    """``fn(*args)`` run in a new daemon thread named ``name``; returns its result or raises
    its exception. Cancelling the awaiting task does not stop the thread (a thread cannot be
    stopped); its result is then dropped."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():  # the awaiting worker was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def run() -> None:
        result: Any = None
        error: BaseException | None = None
        try:
            result = fn(*args)
        except BaseException as exc:  # handed to the awaiting task
            error = exc
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the app's loop is closed: nobody waits for this any more
            pass

    threading.Thread(target=run, name=name, daemon=True).start()
    return await future
