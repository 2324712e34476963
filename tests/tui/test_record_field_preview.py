"""The record panel draws at most ``FIELD_CHARS`` characters of a field and counts the rest: a
tester's 51 MB of printed output hung the TUI when its record was opened (Textual laid out and
wrapped the whole text)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from playground.core.record import CallRecord
from playground.tui.formatting import FIELD_CHARS, field_preview
from playground.tui.widgets.record_view import RecordView


def test_a_long_field_is_cut_with_its_size_and_how_to_save_it() -> None:
    text = "가" * (FIELD_CHARS + 5)
    preview = field_preview(text)
    assert preview.startswith("가" * FIELD_CHARS + "\n… the first 8,000 of 8,005 characters")
    assert preview.endswith("(24,015 bytes); ctrl+s saves the whole record")
    assert field_preview("short") == "short"


async def test_the_panel_draws_a_preview_of_three_megabytes_of_printed_output() -> None:
    class Panel(App[None]):
        def compose(self) -> ComposeResult:
            yield RecordView(id="record")

    record = CallRecord(tool="chatty", args={}, ok=True, kind="ok", printed="x" * 3_000_000)
    app = Panel()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(RecordView)
        view.show_record(record)
        await pilot.pause()
        printed = view.fields["printed"]
        assert len(printed) < FIELD_CHARS + 200
        assert printed.endswith(
            "3,000,000 characters (3,000,000 bytes); ctrl+s saves the whole record"
        )
