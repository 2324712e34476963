"""ctrl+c in the TUI cancels the running call (issue 28 item 3): the body is stopped (its
worker process ended), the record shown is ``cancelled``, and the next call runs."""

from __future__ import annotations

import pytest

from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import NAPPING, SIZE, settle, until


@pytest.mark.worker_process  # ctrl+c ends the worker process that runs the body
async def test_ctrl_c_cancels_a_running_call_and_the_next_call_runs(tmp_tool):
    folder = tmp_tool(NAPPING, name="napping.py")
    app = PlaygroundApp(tools=[str(folder)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        assert await view.select_contract("nap")
        app.query_one("#arg-form").set_field("seconds", "25")
        await pilot.press("ctrl+r")
        rv = app.query_one(RecordView)
        await until(pilot, lambda: view.running, "the call runs")
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not view.running, "the call is cancelled")
        # the call ended without waiting for the body's 25 s sleep (its worker was stopped)
        assert view.last_record.duration_ms < 25_000
        assert rv.fields["kind"] == "cancelled"
        assert view.last_record.error == "cancelled"
        # its call id, as any record has (the header read "  nap: cancelled · …")
        assert view.last_record.call_id == rv.fields["call_id"] == "call_1"
        assert rv.fields["status"].startswith("call_1 nap: cancelled")
        # the body started before the cancel: it ran, and the count says so
        assert view.last_record.body_ran is True and view.last_record.body_runs == 1
        app.query_one("#arg-form").set_field("seconds", "0")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: rv.fields.get("kind") == "ok", "the next call runs")
        assert view.last_record.value == {"slept": 0.0}
        assert view.last_record.call_id == "call_2"
