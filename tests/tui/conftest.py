"""Shared fixtures for the TUI tests: the app on the real ./tools, or on a temp module."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
SIZE = (160, 48)


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
    """Let messages flow, wait for every worker, then let their messages flow (twice: a worker's
    message may start another worker, e.g. Evaluate → Ask)."""
    for _ in range(2):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()


def capture_notifications(app) -> list[str]:
    """Record every notification message of ``app`` (toasts expire; a slow run must not lose them)."""
    seen: list[str] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        seen.append(str(message))
        return original(message, *args, **kwargs)

    app.notify = notify
    return seen
