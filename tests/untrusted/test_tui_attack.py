"""The TUI on the escape corpus (issue 27): the hostile tool module and MCP server loaded in the
app (bodies in the worker process, the server a real process), each tool run, each view opened;
every frame the app would write to the terminal holds no raw control, bidi or invisible
character, and the screen shows the visible marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.sources.mcp_config import server_specs
from playground.tui.app import PlaygroundApp
from playground.tui.modes import ModeTabs
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import WIDE, settle
from tests.untrusted.attack import CORPUS_TOOLS, raw_controls, server_line

pytestmark = pytest.mark.worker_process


def _frame(app: PlaygroundApp) -> str:
    """Everything the app would write to the terminal to draw its whole screen now (the
    compositor's full update, as ``App._display`` writes it)."""
    update = app.screen._compositor.render_update(full=True)
    return update.render_segments(app.console)


@pytest.mark.slow
async def test_every_view_shows_the_corpus_as_marks(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PLAYGROUND_IN_PROCESS", raising=False)
    app = PlaygroundApp(
        tools=[str(CORPUS_TOOLS)],
        mcp=server_specs(commands=[server_line()]),
        history=str(tmp_path / "history.sqlite"),
    )
    seen: list[str] = []

    def look(where: str) -> str:
        frame = _frame(app)
        assert raw_controls(frame) == [], where
        seen.append(frame)
        return frame

    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert app.pg is not None
        names = app.pg.registry.names()
        assert {"corpus_echo", "corpus_print", "mcp_corpus_echo"} <= set(names)
        view = app.query_one(CallView)
        frame = look("contract list and description")
        assert "\\x1b]52;c;cHduZWQ=\\x07me" in frame  # the description, as marks
        for name in ("corpus_echo", "corpus_raise", "corpus_print", "mcp_corpus_fail"):
            assert await view.select_contract(name)
            await pilot.pause()
            look(f"form of {name}")
            await pilot.press("ctrl+r")
            await settle(app, pilot)
            fields = app.query_one(RecordView).fields
            assert fields["tool"] == name
            frame = look(f"record of {name}")
            if name == "corpus_echo":
                for tab in ("f7", "f7"):  # the other providers' wire JSON tabs
                    await pilot.press(tab)
                    await pilot.pause()
                    look(f"wire JSON of {name}")
        printed = app.query_one(RecordView).fields
        assert "\x1b" not in "".join(printed.values())
        await pilot.press("f2")  # Ask: the router's explanation quotes the descriptions
        await pilot.pause()
        await pilot.click("#question")
        await pilot.press(*"copy the corpus entry please")
        await pilot.press("enter")
        await settle(app, pilot)
        ask = await app.view("ask")
        assert ask.episode is not None
        look("ask")
        for mode in ("steps", "evaluate", "history", "mcp-log-tab"):
            await app.view(mode)
            app.query_one(ModeTabs).show(mode)
            await settle(app, pilot)
            look(mode)
    everything = "".join(seen)
    for mark in (
        "\\x1b]52;c;",
        "\\x9b31m",
        "<U+202E>",
        "\\u001b]52;c;",
        "[red]red[/red]",
    ):
        assert mark in everything, mark
