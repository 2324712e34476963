"""Shared fixtures for the TUI tests: the app on the real ./tools, or on a temp module. The
helpers the tests import (sizes, paths, waits on state) are in :mod:`tests.tui.helpers`."""

from __future__ import annotations

import textwrap
import threading
from pathlib import Path

import pytest

from tests.tui.helpers import TOOLS


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


@pytest.fixture(autouse=True)
def no_animations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps built in a TUI test run with ``animation_level = "none"`` (what
    ``TEXTUAL_ANIMATIONS=none`` sets; Textual reads that variable once, at import). An animated
    tab underline moves 20 ms after a tab is activated, on a timer that no wait on the app's
    state sees: under load a snapshot caught the Form/JSON underline half-way
    (``╸╺━━━`` for ``╸━━━━╺``). Nothing in these tests is about animation."""
    import textual.constants

    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture
def held_load(monkeypatch: pytest.MonkeyPatch):
    """The tools' load waits (on its daemon thread) until the test sets the event."""
    release = threading.Event()
    import playground.tui.loading as loading

    original = loading._open

    def held(app, keep):
        release.wait(30)
        original(app, keep)

    monkeypatch.setattr(loading, "_open", held)
    yield release
    release.set()
