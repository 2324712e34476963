"""The TUI's MCP view and client features (issue 21, item 6) with Textual's pilot against the
real protocol server (``fixtures/mcp_protocol_server.py``): resources, prompts, a
``resource_link`` opened, the roots shown, an elicitation answered in the form built from
``requestedSchema``, and a sampling request shown as a step."""

from __future__ import annotations

import asyncio
import json

from textual.widgets import TabbedContent

from playground.sources.mcp_config import server_specs
from playground.tui.app import PlaygroundApp
from playground.tui.elicit_form import ElicitScreen
from playground.tui.views.mcp_view import McpView, open_mcp_view
from tests.mcp.servers import PROTOCOL_SERVER
from tests.mcp.test_mcp_tui import SIZE, settle
from tests.zygote import forked_line


async def wait_until(pilot, check, limit_s: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while not check():
        assert loop.time() < deadline, "timed out waiting"
        await pilot.pause(0.02)


async def test_the_mcp_view_elicitation_form_and_sampling_step(tmp_path) -> None:
    specs = server_specs(commands=[forked_line(PROTOCOL_SERVER)], roots=[tmp_path])
    app = PlaygroundApp(mcp=specs)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.pg is not None
        # the MCP tab's label shows once servers are loaded (hidden in a TUI without them)
        assert app.query_one("#modes", TabbedContent).get_tab("mcp-tab").display is True
        await open_mcp_view(app)
        await settle(app, pilot)
        view = app.query_one(McpView)
        labels = [e.label for e in view.entries]
        assert "mcp:protocol-lab resource memo://receipt" in labels
        assert "mcp:protocol-lab prompt summarise(topic)" in labels
        # read the resource; get the prompt with an argument typed in the field
        view.open_entry(view.entries[labels.index("mcp:protocol-lab resource memo://receipt")])
        await settle(app, pilot)
        assert view.answer["contents"][0]["text"] == "영수증 HR20260604"
        prompt = view.entries[labels.index("mcp:protocol-lab prompt summarise(topic)")]
        view.open_entry(prompt, "topic=배송")
        await settle(app, pilot)
        assert view.answer["messages"][0]["content"]["text"] == "Summarise 배송."
        # a result's resource_link becomes an entry that opens the resource
        gate = app.pg.gate
        assert (await asyncio.to_thread(gate.call, "link", {})).ok
        await wait_until(pilot, lambda: any(e.kind == "link" for e in view.entries))
        (link,) = [e for e in view.entries if e.kind == "link"]
        assert link.label == "mcp:protocol-lab link memo://receipt (from link)"
        view.open_entry(link)
        await settle(app, pilot)
        assert view.answer["contents"][0]["text"] == "영수증 HR20260604"
        # elicitation: the form built from requestedSchema, answered in the TUI
        call = asyncio.ensure_future(asyncio.to_thread(gate.call, "ask_name", {}))
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ElicitScreen) and app.screen.query("#elicit-accept"),
        )
        await pilot.pause()
        assert "Which name should the report use?" in str(
            app.screen.query_one("#elicit-message").render()
        )
        app.screen.query_one("#elicit-name").value = "하루"
        await pilot.click("#elicit-accept")
        await pilot.pause()
        assert not isinstance(app.screen, ElicitScreen)
        record = await call
        assert record.ok, (record.kind, record.message, record.warnings)
        assert json.loads(record.value) == {"action": "accept", "content": {"name": "하루"}}
        # sampling: the TUI's router (offline) refuses, and the view shows the step
        sampled = await asyncio.to_thread(gate.call, "sample", {})
        assert "the offline router cannot write free text" in sampled.message
        view.refresh_steps()
        steps = str(view.query_one("#mcp-steps").render())
        assert f"mcp:protocol-lab: roots offered: {tmp_path.resolve()}" in steps
        assert "sampling 1: asked '영수증을 한 줄로 요약해 줘'" in steps
        assert "sampling/createMessage refused: the offline router cannot write free text" in steps
