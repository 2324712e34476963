"""The TUI's Call and Ask views on a real stdio MCP server, and its MCP log panel."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Static

from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordView
from tests.mcp.servers import FAULTY_SERVER, SHOP_SERVER
from tests.zygote import forked_line

SIZE = (120, 30)  # the wide layout with the fewest cells to compose (tests.tui.helpers.SIZE)


async def settle(app, pilot) -> None:
    """Let messages flow and wait for every worker (twice: a worker may start another)."""
    for _ in range(2):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()


async def test_call_and_ask_views_over_mcp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    specs = server_specs(commands=[forked_line(SHOP_SERVER), forked_line(FAULTY_SERVER, "noisy")])
    app = PlaygroundApp(mcp=specs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.pg is not None
        names = app.pg.registry.names()
        assert names[:4] == ["get_order_status", "track_shipping", "search_products", "check_stock"]
        assert "shout" in names  # the second server's tools, loaded concurrently
        # Call view: a call through the gate to the server
        view = app.query_one(CallView)
        assert await view.select_contract("get_order_status")
        await pilot.pause()
        app.query_one("#arg-form").set_field("order_id", "HR99999999")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        fields = app.query_one(RecordView).fields
        assert (fields["tool"], fields["kind"], fields["body"]) == ("get_order_status", "ok", "yes")
        # Ask view: the offline router picks track_shipping on the server
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#question")
        await pilot.press(*"텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604")
        await pilot.press("enter")
        await settle(app, pilot)
        ask = await app.view("ask")
        assert ask.episode is not None
        assert ask.texts["choice"].startswith(
            'offline router calls track_shipping({"order_id": "HR20260604"})'
        )
        # the MCP log panel (f11): both servers, the noisy one's stdout line
        await pilot.press("f11")
        await pilot.pause()
        from textual.widgets import TabbedContent

        assert app.query_one("#modes", TabbedContent).active == "mcp-log-tab"
        log = await app.view("mcp-log-tab")
        log.refresh_log()
        text = "\n".join(str(line) for line in log.query_one("#mcp-log").lines)
        assert "== mcp:haru-shop (stdio) ==" in text
        assert "wrote non-protocol text to stdout" in text
        sources = [s for s in app.pg.registry.sources if isinstance(s, McpSource)]
        assert len(sources) == 2
    assert all(s.closed for s in sources)  # closed on exit


async def test_tools_list_changed_refreshes_the_contract_list() -> None:
    app = PlaygroundApp(mcp=server_specs(commands=[forked_line(FAULTY_SERVER, "serve")]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "extra" not in app.pg.registry.names()
        loop = asyncio.get_running_loop()
        record = await loop.run_in_executor(None, app.pg.gate.call, "add_tool", {})
        assert record.value == "added"
        for _ in range(100):  # the notification arrives on the server's loop thread
            await settle(app, pilot)
            if "extra" in app.pg.registry.names():
                break
            await pilot.pause(0.05)
        assert "extra" in app.pg.registry.names()
        assert "extra" in app.query_one(CallView).query_one("#contracts").names


async def _ticking_with_progress(app, pilot):
    """Run the protocol server's ``ticking`` tool (8 s, progress every 0.1 s) from the Call
    view and wait on state until its record panel's bar shows progress 2; returns the view,
    the record panel and its bar."""
    from textual.widgets import ProgressBar

    await settle(app, pilot)
    view = app.query_one(CallView)
    assert await view.select_contract("ticking")
    await pilot.pause()
    form = app.query_one("#arg-form")
    form.set_field("seconds", "8")
    form.set_field("every", "0.1")
    await pilot.press("ctrl+r")
    record = app.query_one(RecordView)
    bar = record.query_one(ProgressBar)
    for _ in range(400):  # wait on state: the bar shows the server's progress
        await asyncio.sleep(0.02)
        if bar.display and (bar.progress or 0) >= 2:
            break
    return view, record, bar


async def _until_logged(log: Path, entry: dict) -> None:
    """Wait (on the server's own log, at most ~4 s) until it holds ``entry``."""
    from tests.mcp.servers import read_log

    for _ in range(200):
        if entry in read_log(log):
            return
        await asyncio.sleep(0.02)


async def test_progress_moves_a_bar_in_the_record_panel_and_ctrl_x_cancels(tmp_path) -> None:
    from tests.mcp.servers import PROTOCOL_SERVER, read_log

    log = tmp_path / "calls.jsonl"
    specs = server_specs(commands=[forked_line(PROTOCOL_SERVER, "--log", str(log))])
    app = PlaygroundApp(mcp=specs)
    async with app.run_test(size=SIZE) as pilot:
        _, record, bar = await _ticking_with_progress(app, pilot)
        assert bar.display and bar.total == 80 and bar.progress >= 2
        assert "progress" in record.fields["status"]
        await pilot.press("ctrl+x")
        await settle(app, pilot)
        assert record.fields["kind"] == "cancelled"
        assert not bar.display
    await _until_logged(log, {"cancelled": "ticking"})
    assert {"cancelled": "ticking"} in read_log(log)


async def test_ctrl_c_cancels_on_the_server_and_no_late_progress_shows(tmp_path) -> None:
    """ctrl+c on a running MCP call: the TUI's cancelled record, and the server is told
    (``notifications/cancelled``); the call's progress stops showing, and the next call's
    record is its own (ctrl+c only abandoned the request, whose progress kept running over
    the next records)."""
    from tests.mcp.servers import PROTOCOL_SERVER, read_log

    log = tmp_path / "calls.jsonl"
    specs = server_specs(commands=[forked_line(PROTOCOL_SERVER, "--log", str(log))])
    app = PlaygroundApp(mcp=specs)
    async with app.run_test(size=SIZE) as pilot:
        view, record, bar = await _ticking_with_progress(app, pilot)
        assert bar.display
        await pilot.press("ctrl+c")
        await _until_logged(log, {"cancelled": "ticking"})
        assert {"cancelled": "ticking"} in read_log(log)
        await settle(app, pilot)
        assert record.fields["kind"] == "cancelled" and not bar.display
        assert "progress" not in record.fields["status"]
        assert await view.select_contract("wait")
        await pilot.pause()
        app.query_one("#arg-form").set_field("seconds", "0")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert record.fields["kind"] == "ok" and not bar.display
        assert (
            record.fields["status"].startswith("call_") and "running" not in record.fields["status"]
        )


async def test_an_image_result_is_named_and_saved_as_the_bytes_sent(tmp_path, monkeypatch) -> None:
    import base64

    from fixtures.mcp_protocol_server import PICTURE
    from tests.mcp.servers import PROTOCOL_SERVER

    monkeypatch.chdir(tmp_path)
    app = PlaygroundApp(mcp=server_specs(commands=[forked_line(PROTOCOL_SERVER)]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await app.query_one(CallView).select_contract("picture")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        record_view = app.query_one(RecordView)
        status = record_view.fields["status"]
        assert "2 media block(s) (image/png 800×600 " in status  # the size, from its header
        assert ", audio/wav 12 B): f12 saves them" in status
        await pilot.press("f12")
        await pilot.pause()
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert saved == [
        "playground-call_1-picture-1.png",
        "playground-call_1-picture-2.wav",
        "playground-call_1-picture.json",
    ]
    assert (tmp_path / saved[0]).read_bytes() == base64.b64decode(PICTURE)


async def test_a_relisting_shows_its_problems_as_the_first_load_does() -> None:
    """``tools/list_changed`` from a server whose listing has entries that are no MCP tool: the
    relisting's problems are shown as the first load's are (a "Load problem" toast each, the
    Call view's problems box), the new malformed entry among them, each once. Before, the TUI
    relisted on its own and added the new listing's problems to the old ones: the box and the
    toasts named every malformed entry twice, and a relisting's warnings were dropped."""
    from tests.tui.helpers import capture_notifications

    app = PlaygroundApp(mcp=server_specs(commands=[forked_line(FAULTY_SERVER, "malformed")]))
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = [str(p) for p in app.pg.registry.problems]
        assert len(first) == 3 and all("was left out" in p for p in first)
        assert seen[-3:] == first
        seen.clear()
        loop = asyncio.get_running_loop()
        record = await loop.run_in_executor(None, app.pg.gate.call, "add_tool", {})
        assert record.value == "added"
        for _ in range(100):  # the notification arrives on the server's loop thread
            await settle(app, pilot)
            if "extra" in app.query_one(CallView).query_one("#contracts").names:
                break
            await pilot.pause(0.05)
        added = (
            "mcp:faulty: tools/list tool 24 ('extra_bad') was left out: inputSchema: Input should "
            "be a valid dictionary or instance of InputSchema; the server sent "
            '{"name": "extra_bad", "inputSchema": ["not", "an", "object"]}'
        )
        now = [*first, added]
        assert [str(p) for p in app.pg.registry.problems] == now
        box = str(app.query_one(CallView).query_one("#problems", Static).render())
        assert box.splitlines() == [f"⚠ {p}" for p in now]
        assert [text for text in seen if text in now] == now  # toasted once each
