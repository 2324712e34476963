"""ctrl+c on a running call in the TUI's Call view keeps the same record the command line keeps
(``tests/cli/test_cancelled_record.py``; both are built by ``playground.core.cancelled``): the
call id, the declared effects (the tester's SIGTERM record had ``side_effects: {}``), and
``body_ran`` with ``body_runs`` counting the run; the history holds that record."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.history.store import HistoryStore
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, settle, until

SLOW = Path(__file__).resolve().parents[1] / "fixtures" / "slow_writer.py"


@pytest.mark.worker_process  # ctrl+c ends the worker process that runs the body
async def test_ctrl_c_in_the_call_view_keeps_the_effects_and_one_body_run(tmp_path, monkeypatch):
    log, db = tmp_path / "slow.log", tmp_path / "h.db"
    monkeypatch.setenv("SLOW_LOG", str(log))
    app = PlaygroundApp(tools=[str(SLOW)], history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        assert await view.select_contract("slow_write")
        app.query_one("#arg-form").set_field("seconds", "30")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: log.exists() and "start" in log.read_text(), "the body runs")
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not view.running, "the call is cancelled")
        record = view.last_record
        rv = app.query_one(RecordView)
        assert rv.fields["kind"] == "cancelled" and record.call_id == "call_1"
        assert record.body_ran is True and record.body_runs == 1
        assert record.side_effects["effects"] == "write"
        assert record.side_effects["evidence"] == "side_effects: True"
        assert record.timeout_s == 120
        await settle(app, pilot)  # the history write
    store = HistoryStore(db)
    kept = store.get(1)
    assert kept is not None and kept.data["kind"] == "cancelled"
    assert kept.data["call_id"] == "call_1"
    assert (kept.data["body_ran"], kept.data["body_runs"]) == (True, 1)
    assert kept.data["side_effects"]["basis"] == "declared"
    store.close()
