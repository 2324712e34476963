"""The History view (F5) driven with the pilot: runs are recorded, listed, filtered, opened,
rerun with a key, diffed side by side and saved as cases. Waits on state, never on sleeps."""

from __future__ import annotations

import json

from playground.history.entries import call_entry, episode_entry
from playground.history.store import HistoryStore
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.views.history_view import HistoryView, episode_from_json, matches
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, capture_notifications, settle, until_idle


def table_rows(view: HistoryView) -> list[list[str]]:
    table = view.query_one("#history-table")
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_a_call_is_recorded_listed_and_rerun_with_a_key(tools_dir, tmp_path):
    db = tmp_path / "h.db"
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await app.query_one(CallView).select_contract("get_order_status")
        app.query_one("#arg-form").set_field("order_id", "HR20260604")
        await pilot.press("ctrl+r")
        view = await app.view("history")
        await until_idle(app, pilot, lambda: len(view.entries) == 1)
        await pilot.press("f5")
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-filter"))
        await pilot.press("down")  # from the filter box to the list
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-table"))
        [row] = table_rows(view)
        assert row[2:5] == ["call", "ok", "-"]
        assert row[5] == 'get_order_status({"order_id": "HR20260604"})'
        detail = str(view.query_one("#history-detail").render())
        assert "verdict valid · body ran · cache stored" in detail
        await pilot.press("r")
        await until_idle(app, pilot, lambda: len(view.entries) == 2 and view.diffed is not None)
        assert view.diffed == (1, 2)
        assert view.changed_fields == []  # the same behaviour (timings and call ids left out)
        assert view.entries[0].rerun_of == 1 and view.entries[0].origin == "rerun"
        assert "(rerun of #1)" in table_rows(view)[0][5]
        diff = view.query_one("#history-diff")
        assert diff.display and diff.row_count > 5
    store = HistoryStore(db)
    assert [e.origin for e in store.entries()] == ["rerun", "tui"]


async def test_diff_highlights_changed_fields_and_save_as_case(tools_dir, tmp_path, monkeypatch):
    db = tmp_path / "h.db"
    store = HistoryStore(db)
    base = {
        "tool": "get_order_status",
        "args": {"order_id": "HR1"},
        "verdict": "",
        "kind": "ok",
        "body_ran": True,
        "cache": "stored",
        "value": {"status": "배송중"},
    }
    store.add(call_entry(base, {"get_order_status": "a" * 64}))
    store.add(call_entry({**base, "value": {"status": "배송완료"}}, {"get_order_status": "b" * 64}))
    store.add(
        episode_entry(
            {
                "question": "텀블러 어디쯤?",
                "router": "offline",
                "end": "answered",
                "calls": [],
                "moves": [{"calls": [{"name": "track_shipping", "args": {"order_id": "HR1"}}]}],
                "steps": [],
                "reply": "배송중",
            }
        )
    )
    store.close()
    monkeypatch.chdir(tmp_path)
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(db))
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        view = await app.view("history")
        await settle(app, pilot)
        await pilot.press("f5")
        await until_idle(app, pilot, lambda: len(view.entries) == 3)
        # the tab focuses its filter box once shown: what is typed filters
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-filter"))
        await pilot.press(*"kind:call")
        await until_idle(app, pilot, lambda: len(view.shown) == 2)
        await pilot.press("enter")  # back to the list
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-table"))
        # mark #2 (the newest call), select #1, diff
        await pilot.press("m", "down", "d")
        await until_idle(app, pilot, lambda: view.diffed is not None)
        assert view.diffed == (2, 1)
        assert view.changed_fields == ["value.status"]
        diff = view.query_one("#history-diff")
        changed = [diff.get_row_at(i) for i in range(diff.row_count)]
        status = next(r for r in changed if r[0].plain == "value.status")
        assert status[1].plain == "배송완료" and status[2].plain == "배송중"
        assert "yellow" in str(status[0].style)
        same = next(r for r in changed if r[0].plain == "tool")
        assert same[0].style == "dim"
        # save the selected call as a check case
        await pilot.press("s")
        await until_idle(app, pilot, lambda: (tmp_path / "saved_cases.jsonl").exists())
        case = json.loads((tmp_path / "saved_cases.jsonl").read_text(encoding="utf-8"))
        assert case["tool"] == "get_order_status" and case["expect"]["value"] == {
            "status": "배송중"
        }
        assert case["declaration_hash"] == "a" * 64
        assert any("saved_cases.jsonl line 1" in m for m in seen)
        # the question: an eval line; opened in Steps
        view.query_one("#history-filter").value = ""
        await until_idle(app, pilot, lambda: len(view.shown) == 3)
        view.query_one("#history-table").move_cursor(row=0)
        await pilot.press("s")
        await until_idle(
            app, pilot, lambda: len((tmp_path / "saved_cases.jsonl").read_text().splitlines()) == 2
        )
        line = json.loads(
            (tmp_path / "saved_cases.jsonl").read_text(encoding="utf-8").splitlines()[1]
        )
        assert line["expect_tool"] == "track_shipping" and line["expect_args"] == {
            "order_id": "HR1"
        }
        await pilot.press("enter")
        await until_idle(app, pilot, lambda: app.mode_name == "steps")
        steps = await app.view("steps")
        assert steps.episode.question == "텀블러 어디쯤?" and "history #3" in steps.labels[-1]


async def test_opening_a_call_shows_its_record_in_the_call_view(tools_dir, tmp_path):
    db = tmp_path / "h.db"
    store = HistoryStore(db)
    store.add(
        call_entry(
            {
                "tool": "get_order_status",
                "args": {"order_id": "HR9"},
                "verdict": "",
                "kind": "empty",
                "body_ran": True,
                "cache": "stored",
                "value": None,
            }
        )
    )
    store.close()
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        view = await app.view("history")
        await settle(app, pilot)  # the tools are loaded (loading clears the record view)
        await pilot.press("f5")
        await until_idle(app, pilot, lambda: len(view.entries) == 1)
        view.query_one("#history-table").focus()
        await pilot.press("enter")
        await until_idle(app, pilot, lambda: app.mode_name == "call")
        fields = app.query_one(RecordView).fields
        assert fields["tool"] == "get_order_status" and fields["kind"] == "empty"
        assert app.query_one(CallView).contract_name == "get_order_status"


async def test_no_history_says_so(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f5")
        await pilot.pause()
        assert "History is off" in str(app.query_one("#history-status").render())


def test_filter_words_and_rebuilt_episode():
    entry = call_entry({"tool": "check_stock", "args": {}, "kind": "invalid_args"})
    assert matches(entry, "tool:check_stock kind:invalid_args")
    assert matches(entry, "check")
    assert not matches(entry, "kind:ok")
    episode = episode_from_json(
        {
            "question": "q",
            "router": "offline",
            "calls": [
                {
                    "tool": "t",
                    "args": {},
                    "kind": "ok",
                    "retries": [{"attempt": 1, "reason": "x", "delay_ms": 5}],
                    "printed": "future field",
                }
            ],
            "steps": [],
            "end": "answered",
        }
    )
    assert episode.calls[0].retries[0].delay_ms == 5 and episode.end == "answered"


async def test_questions_and_manual_episodes_are_recorded_and_saved_as_golden(
    tools_dir, tmp_path, monkeypatch
):
    from playground.batch.replay import read_golden

    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "h.db"
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(db))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        view = await app.view("history")
        (await app.view("ask")).run_question("HR20260601 택배 어디쯤인가요?")
        await until_idle(app, pilot, lambda: len(view.entries) == 1)
        (await app.view("steps")).run_manual("get_order_status", {"order_id": "HR20260604"})
        await until_idle(app, pilot, lambda: len(view.entries) == 2)
        manual, asked = view.entries
        assert asked.type == "episode" and asked.router == "offline"
        assert asked.question == "HR20260601 택배 어디쯤인가요?" and asked.tools == [
            "track_shipping"
        ]
        # the list holds what it shows; the hashes are in the record, read when it is opened
        assert asked.hashes == {} and asked.data is None
        hashes = view.entry(asked.id).hashes
        assert "get_order_status" in hashes and "track_shipping" in hashes
        assert manual.router == "manual"
        assert view.entry(manual.id).hashes.keys() == {"get_order_status"}
        await pilot.press("f5")
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-filter"))
        await pilot.press("down", "down", "g")  # to the list, the question: a golden file
        golden = tmp_path / f"golden_{asked.id}.json"
        await until_idle(app, pilot, golden.exists)
        doc = read_golden(golden)
        assert doc["question"] == asked.question and doc["data"]["end"] == asked.outcome


WRITER = """
from pathlib import Path

LOG = Path(__file__).with_name("lent.log")


def lend_book(isbn: str) -> dict:
    \"\"\"Lend a book: writes a loan line.

    Args:
        isbn: the book's ISBN.
    \"\"\"
    with LOG.open("a", encoding="utf-8") as log:
        log.write(isbn + "\\n")
    return {"lent": isbn}


lend_book.side_effects = True
__tools__ = [lend_book]
"""


async def test_typing_on_the_history_tab_filters_and_a_write_reruns_only_when_confirmed(
    tmp_tool, tmp_path
):
    """A tester typed "search" on the History tab: s saved a case and r reran a tool that
    writes. What is typed first now goes to the filter box; a character no key of the list
    acts on goes there too; a rerun of a tool that may write waits for a second r."""
    folder = tmp_tool(WRITER)
    log = folder / "lent.log"
    app = PlaygroundApp(tools=[str(folder)], history=str(tmp_path / "h.db"))
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await app.query_one(CallView).select_contract("lend_book")
        app.query_one("#arg-form").set_field("isbn", "978-0134685991")
        await pilot.press("ctrl+r")
        view = await app.view("history")
        await until_idle(app, pilot, lambda: len(view.entries) == 1)
        assert log.read_text(encoding="utf-8").splitlines() == ["978-0134685991"]
        await pilot.press("f5")
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-filter"))
        await pilot.press(*"search")
        await settle(app, pilot)
        filter_box = view.query_one("#history-filter")
        assert filter_box.value == "search"
        assert len(log.read_text(encoding="utf-8").splitlines()) == 1  # nothing reran
        assert not (tmp_path / "saved_cases.jsonl").exists()
        filter_box.value = ""
        await until_idle(app, pilot, lambda: len(view.shown) == 1)
        await pilot.press("down")
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-table"))
        await pilot.press("question_mark")  # the app's key: the help, not the filter
        await until_idle(app, pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        assert filter_box.value == ""
        await pilot.press("escape")
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-table"))
        await pilot.press("x")  # no key of the list: it starts a filter
        await until_idle(app, pilot, lambda: app.focused is filter_box)
        assert filter_box.value == "x"
        filter_box.value = ""
        await until_idle(app, pilot, lambda: len(view.shown) == 1)
        await pilot.press("down", "r")
        await settle(app, pilot)
        assert any("called lend_book" in m and "Press r again" in m for m in seen), seen
        assert len(log.read_text(encoding="utf-8").splitlines()) == 1
        await pilot.press("r")
        await until_idle(app, pilot, lambda: len(view.entries) == 2 and view.diffed is not None)
        assert log.read_text(encoding="utf-8").splitlines() == ["978-0134685991"] * 2
        assert view.entries[0].rerun_of == 1


READER = '''
def find_book(title: str) -> dict:
    """Find a book by its title.

    Args:
        title: the book's title.
    """
    return {"rows": []}


__tools__ = [find_book]
'''


async def test_a_question_rerun_on_tools_that_may_write_waits_for_a_second_r(tmp_path):
    """An episode asked when only a reader was loaded; the module now has a writer too. The
    rerun asks the router again, which now calls the writer: the confirmation was based on the
    tools the episode called then (a reader), so one ``r`` lent the book. It now names the
    loaded tools that may write and waits for a second ``r``."""
    from tests.in_process_cli import run_in_process

    history = tmp_path / "h.db"
    module = tmp_path / "books.py"
    module.write_text(READER, encoding="utf-8")
    question = "Lend the book with isbn 978-0134685991"
    asked = run_in_process("ask", question, "--tools", module, "--history", history)
    assert asked.returncode == 0, asked.stderr
    both = WRITER.replace("__tools__ = [lend_book]", "") + READER
    module.write_text(both.replace("[find_book]", "[find_book, lend_book]"), encoding="utf-8")
    log = tmp_path / "lent.log"
    app = PlaygroundApp(tools=[str(module)], history=str(history), in_process=True)
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f5")
        view = await app.view("history")
        await until_idle(app, pilot, lambda: len(view.entries) == 1)
        assert view.entries[0].tools == ["find_book"]
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-filter"))
        await pilot.press("down")
        await until_idle(app, pilot, lambda: app.focused is view.query_one("#history-table"))
        await pilot.press("r")
        await settle(app, pilot)
        assert (
            "#1 asks the router again, and it chooses from the tools loaded now, which include "
            "tools that may write: lend_book. Press r again to rerun it."
        ) in seen
        assert not log.exists()
        await pilot.press("r")
        await until_idle(app, pilot, lambda: len(view.entries) == 2 and view.diffed is not None)
        assert log.read_text(encoding="utf-8").splitlines() == ["978-0134685991"]
        assert view.entries[0].tools == ["lend_book"]
