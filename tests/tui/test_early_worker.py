"""The TUI's worker process starts before Textual is imported and loads the tools while the
first screen is built (issue 25 item 2); the app's first load collects that worker."""

from __future__ import annotations

import pytest

from playground.cli import main as cli_main
from playground.sources.worker import WorkerSource
from playground.tui import app as tui_app
from playground.tui.app import PlaygroundApp
from tests.tui.helpers import TOOLS

pytestmark = pytest.mark.worker_process


async def test_the_worker_started_by_the_cli_is_the_one_the_app_uses(monkeypatch):
    handed: dict = {}
    monkeypatch.setattr(tui_app, "run_tui", lambda **kw: handed.update(kw))
    cli_main.open_tui([TOOLS / "shop.py"], in_process=False, no_history=True)
    source = handed["source"]
    assert isinstance(source, WorkerSource) and source.pid is not None  # already running
    app = PlaygroundApp(tools=handed["tools"], in_process=False, no_history=True, source=source)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            while app.pg is None:
                await pilot.pause()
            assert source in app.pg.registry.sources
            assert source.pid is not None
            assert "get_order_status" in app.pg.registry.names()
    finally:
        source.close()


def test_in_process_and_mcp_start_no_worker(monkeypatch):
    handed: dict = {}
    monkeypatch.setattr(tui_app, "run_tui", lambda **kw: handed.update(kw))
    cli_main.open_tui([TOOLS / "shop.py"], in_process=True, no_history=True)
    assert "source" not in handed
