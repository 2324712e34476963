"""A call made in the TUI on an MCP server is recorded with its server, and `playground history
rerun` reconnects that server (real stdio server: fixtures/mcp_shop_server.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from playground.cli.main import app as cli
from playground.history.store import HistoryStore
from playground.sources.mcp_config import server_specs
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from tests.mcp.servers import SHOP_SERVER, read_log
from tests.mcp.test_mcp_tui import SIZE, settle
from tests.zygote import forked_line


async def test_a_tui_call_on_a_server_is_rerun_on_that_server(tmp_path) -> None:
    db, log = tmp_path / "h.db", tmp_path / "calls.jsonl"
    line = forked_line(SHOP_SERVER, "--log", str(log))
    app = PlaygroundApp(mcp=server_specs(commands=[line]), history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await app.query_one(CallView).select_contract("track_shipping")
        await pilot.pause()
        app.query_one("#arg-form").set_field("order_id", "HR20260604")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
    entry = HistoryStore(db).get(1)
    assert entry is not None and entry.origin == "tui"
    assert entry.source == "MCP server haru-shop"  # not ./tools: none was loaded
    assert [m["mcp"] for m in entry.mcp] == [line]
    rerun = CliRunner().invoke(cli, ["history", "rerun", "1", "--history", str(db), "-f", "json"])
    assert rerun.exit_code == 0, rerun.stderr
    result = json.loads(rerun.stdout)
    assert result["ran_on"] == {"old": ["mcp:haru-shop"], "new": ["mcp:haru-shop"]}
    assert result["same"] is True
    assert [c["tool"] for c in read_log(log)] == ["track_shipping", "track_shipping"]
