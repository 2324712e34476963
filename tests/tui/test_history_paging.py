"""The History view on a large history: it reads a page at a time (the next one when the
cursor nears the end) and its filter box searches the whole file, not just what was read.
Waits on state, never on sleeps."""

from __future__ import annotations

import time

from playground.history.entries import call_entry, episode_entry
from playground.history.store import HistoryStore
from playground.tui.app import PlaygroundApp
from playground.tui.views.history_view import PAGE, HistoryView
from tests.tui.helpers import SIZE, settle, until_idle


async def test_a_long_history_is_read_a_page_at_a_time_and_filtered_in_full(tools_dir, tmp_path):
    db = tmp_path / "h.db"
    store = HistoryStore(db)
    now = time.time()
    first = episode_entry(
        {"question": "오래된 텀블러 질문", "router": "offline", "end": "answered"}
    )
    first.created = now - 10_000
    store.add(first)  # the oldest entry, far past the first page
    for n in range(2 * PAGE + 10):
        entry = call_entry(
            {"tool": "get_order_status", "args": {"order_id": f"HR{n}"}, "kind": "ok"}
        )
        entry.created = now - 5_000 + n
        store.add(entry)
    total = 2 * PAGE + 11
    store.close()
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f5")
        view = app.query_one(HistoryView)
        await until_idle(app, pilot, lambda: view.loads >= 1)
        table = view.query_one("#history-table")
        assert len(view.entries) == PAGE and table.row_count == PAGE and view.more
        assert view.entries[0].id == total  # newest first
        status = str(view.query_one("#history-status").render())
        assert f"{PAGE} of {total} entries (more as you scroll)" in status
        table.move_cursor(row=PAGE - 1)  # near the end: the next page is read
        await until_idle(app, pilot, lambda: len(view.entries) == 2 * PAGE)
        assert table.row_count == 2 * PAGE and view.entries[PAGE].id == total - PAGE
        assert len(view.shown) == 2 * PAGE and view.selected.id == total - PAGE + 1
        assert f"{2 * PAGE} of {total} entries" in str(view.query_one("#history-status").render())
        table.move_cursor(row=PAGE)  # far from the end of what is read: nothing more is read
        await until_idle(app, pilot, lambda: view.loads >= 2)
        assert len(view.entries) == 2 * PAGE
        table.move_cursor(row=2 * PAGE - 1)
        await until_idle(app, pilot, lambda: len(view.entries) == total and not view.more)
        assert view.entries[-1].id == 1 and table.row_count == total
        # the filter box searches every entry in the file
        view.query_one("#history-filter").value = "텀블러"
        await until_idle(app, pilot, lambda: [e.id for e in view.shown] == [1])
        view.query_one("#history-filter").value = "kind:episode"
        await until_idle(app, pilot, lambda: [e.id for e in view.shown] == [1])
        view.query_one("#history-filter").value = "HR3"  # HR3, HR30-39, HR300-399
        await until_idle(app, pilot, lambda: len(view.shown) == 111)
        assert not view.more and view.shown[0].what == 'get_order_status({"order_id": "HR399"})'
        # a page read for a list that was read again meanwhile is dropped, and paging goes on
        view.query_one("#history-filter").value = ""
        await until_idle(app, pilot, lambda: len(view.entries) == PAGE and view.more)
        stale = call_entry({"tool": "t", "args": {}, "kind": "ok"})
        view._paging = True
        view.post_message(HistoryView.Loaded([stale], None, view._query((now, 99999)), None))
        await until_idle(app, pilot, lambda: not view._paging)
        assert len(view.entries) == PAGE and stale not in view.entries
        table.move_cursor(row=PAGE - 1)
        await until_idle(app, pilot, lambda: len(view.entries) == 2 * PAGE)
