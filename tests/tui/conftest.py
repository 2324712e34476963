"""Shared fixtures for the TUI tests: the app on the real ./tools, or on a temp module."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.worker import WorkerState

ACTIVE = (WorkerState.PENDING, WorkerState.RUNNING)

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
SIZE = (160, 48)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "worker_process: the test is about tool bodies running in a worker process"
    )


@pytest.fixture(autouse=True)
def bodies_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tool bodies run in the test's process (``PLAYGROUND_IN_PROCESS=1``), as the palette's
    "Tool source: in-process" does: starting a worker process for each app cost about a second
    a test. A test about isolation (a body that outlives its time limit, a crash) is marked
    ``worker_process``; a test may still set the variable itself."""
    if request.node.get_closest_marker("worker_process") is None:
        monkeypatch.setenv("PLAYGROUND_IN_PROCESS", "1")


@pytest.fixture(autouse=True)
def state_home(tmp_path: Path, monkeypatch) -> Path:
    """Keep the TUI's last-used state (``playground.tui.last_used``) out of the real home."""
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


@pytest.fixture
def tools_dir() -> Path:
    return TOOLS


@pytest.fixture
def tmp_tool(tmp_path: Path):
    """Write a tool module into a temp folder; returns a function ``(source) -> folder``."""

    def write(source: str, name: str = "mytools.py") -> Path:
        (tmp_path / name).write_text(textwrap.dedent(source), encoding="utf-8")
        return tmp_path

    return write


async def settle(app, pilot) -> None:
    """Let messages flow and wait for the workers until two pauses in a row find none running (a
    worker's message may start another worker: Evaluate → Ask, a call → the history write).
    The tools count as not settled until they are loaded (``app.pg``): the app starts loading
    them only after its first screen."""
    idle = 0
    for _ in range(100):
        await pilot.pause()
        if getattr(app, "pg", True) is None:
            idle = 0
        elif any(w.state in ACTIVE for w in app.workers):
            idle = 0
            await app.workers.wait_for_complete()
        else:
            idle += 1
            if idle == 2:
                return
    raise AssertionError("the workers never settled")


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
