"""The History tab on a history holding a few big records (the tester's: a 4 MB value, a 5.5 MB
pasted argument, a 51 MB stdout flood took 16.3 s and 157 MB to list; here smaller ones over
the same limits, to stay quick): the list reads only the
columns it shows, never a stored record; the detail line reads a record only when it is small;
a big record is read when its entry is opened. Asserts on the SQL the store runs (a trace of
the real SQLite connection), not on time: ``bench/bench_history_big_records.py`` measures."""

from __future__ import annotations

from playground.history.entries import WHAT_MAX, call_entry
from playground.history.store import GLANCE_BYTES, HistoryStore
from playground.tui.app import PlaygroundApp
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, settle, until_idle


async def test_the_list_reads_no_record_and_a_big_one_is_read_when_opened(tools_dir, tmp_path):
    db = tmp_path / "h.db"
    store = HistoryStore(db)
    for i in range(20):
        store.add(
            call_entry({"tool": "get_order_status", "args": {"order_id": f"HR{i}"}, "kind": "ok"})
        )
    store.add(call_entry({"tool": "echo", "args": {"text": "x" * 5000}, "kind": "ok", "value": 1}))
    flood = {"tool": "get_order_status", "args": {"order_id": "HR1"}, "kind": "ok", "value": 1}
    store.add(call_entry({**flood, "printed": "y" * (GLANCE_BYTES + 64 * 1024)}))
    store.close()
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        view = await app.view("history")
        await settle(app, pilot)
        assert view.store is not None
        statements: list[str] = []
        conn = view.store.connection()
        assert conn is not None
        conn.set_trace_callback(statements.append)
        await pilot.press("f5")
        view.refresh_entries()
        await until_idle(app, pilot, lambda: view.loads >= 2 and len(view.entries) == 22)
        # the list: its columns from the entries table; no stored record in memory
        assert all(e.data is None for e in view.entries)
        reads = [s for s in statements if "bodies" in s]
        assert reads and all(s.startswith("SELECT hashes FROM bodies") for s in reads), reads
        assert not any("b.data" in s for s in statements)
        what = [str(c) for c in view.query_one("#history-table").get_row_at(1)][5]
        assert what.startswith('echo({"text": "xxx') and len(what) <= WHAT_MAX
        # the newest entry is selected: its record is too big for the detail line
        detail = str(view.query_one("#history-detail").render())
        assert "record 0.3 MB: enter opens it" in detail
        view.query_one("#history-table").focus()
        await pilot.press("down", "down")  # a small record: its fields are shown
        await until_idle(
            app, pilot, lambda: "verdict" in str(view.query_one("#history-detail").render())
        )
        # enter opens the big one: now (and only now) its record is read
        await pilot.press("up", "up", "enter")
        await until_idle(app, pilot, lambda: app.mode_name == "call")
        assert any("b.data" in s for s in statements)
        record_view = app.query_one(RecordView)
        assert record_view.fields["tool"] == "get_order_status"
        conn.set_trace_callback(None)
