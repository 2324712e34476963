"""Helpers the TUI tests import (``from tests.tui.helpers import settle``): the app's sizes and
paths, and waits on the app's state (never on time). A module with its own name, not
``conftest``: several conftest modules exist and importing ``conftest`` got whichever was
imported last (``pytest tests/tui tests/mcp`` failed to collect)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.worker import WorkerState

ACTIVE = (WorkerState.PENDING, WorkerState.RUNNING)

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
#: The terminal most TUI tests run in: the smallest that still has the wide, full-height layout
#: (``NARROW_BELOW`` 120 columns, ``SHORT_BELOW`` 28 rows in ``playground.tui.app``). Every frame
#: is composed cell by cell, so 120x30 (3,600 cells) costs less than half the CPU of 160x48.
SIZE = (120, 30)
#: A roomy terminal, for the tests about the wide layout's geometry or that click far down.
WIDE = (160, 48)


#: A tool module whose one tool, ``nap(seconds)``, sleeps (time limit 60 s, never cached): the
#: call a test cancels, or ends the TUI during.
NAPPING = '''
import time


def nap(seconds: float) -> dict:
    """Sleeps.

    Args:
        seconds: how long.
    """
    time.sleep(seconds)
    return {"slept": seconds}


__tools__ = [nap]
__contracts__ = {"nap": {"timeout_s": 60, "cacheable": False}}
'''


async def settle(app, pilot) -> None:
    """Let messages flow and wait for the workers until two pauses in a row find none running (a
    worker's message may start another worker: Evaluate → Ask, a call → the history write).
    The tools count as not settled until they are loaded (``app.pg``): the app starts loading
    them only after its first screen; while they load (a worker waiting on the load thread),
    this waits for that worker rather than pausing again and again: a module or server slow to
    load under load ran out of rounds ("the workers never settled"), and each round costs CPU."""
    idle = 0
    for _ in range(100):
        await pilot.pause()
        if any(w.state in ACTIVE for w in app.workers):
            idle = 0
            await app.workers.wait_for_complete()
        elif getattr(app, "pg", True) is None:
            idle = 0
        else:
            idle += 1
            if idle == 2:
                return
    raise AssertionError("the workers never settled")


async def open_contract(app, pilot, name: str):
    """Wait for the tools (:func:`settle`), show contract ``name`` in the Call view and let
    its form be built; returns the Call view."""
    from playground.tui.views.call_view import CallView

    await settle(app, pilot)
    view = app.query_one(CallView)
    assert await view.select_contract(name)
    await pilot.pause()
    return view


async def until(pilot, condition: Callable[[], bool], what: str) -> None:
    """Let messages flow until ``condition()`` holds (state, not time); fail saying ``what``.
    Each round is one ``pilot.pause()`` (every queued message handled, then CPU idle)."""
    for _ in range(500):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"never reached: {what}")


async def until_idle(app, pilot, predicate: Callable[[], bool], rounds: int = 50) -> None:
    """Like :func:`until`, but each round also waits for the app's workers (a history page, a
    rerun): state, not time."""
    for _ in range(rounds):
        if predicate():
            return
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert predicate(), "state not reached"


def capture_notifications(app) -> list[str]:
    """Record every notification message of ``app`` (toasts expire; a slow run must not lose them)."""
    seen: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        seen.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify
    return seen
