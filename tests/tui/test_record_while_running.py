"""The record panel while a call runs, and long words in it (issue 25, item 7): the previous
record is cleared when a call starts (its outcome and cache key read as the running call's
before), and a cache key longer than its line breaks after its punctuation, never inside a
name or a value when a break fits."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordGrid, RecordView, break_long_words
from tests.tui.helpers import SIZE, settle, until

LONG_KEY = 'search_products:{"keyword":"stainless-vacuum-tumbler-500ml-black"}'


def grid_lines(grid: RecordGrid) -> list[str]:
    """The grid as the terminal shows it: one string per line, trailing blanks cut."""
    console = Console(width=grid.size.width, color_system=None, legacy_windows=False)
    return [
        "".join(seg.text for seg in line).rstrip()
        for line in console.render_lines(grid.render(), pad=False)
    ]


def test_a_long_word_breaks_after_its_punctuation() -> None:
    broken = break_long_words(Text('get_order_status:{"order_id":"HR20260604"}'), 30)
    assert broken.plain == 'get_order_status:{"order_id":\n"HR20260604"}'
    assert break_long_words(Text(LONG_KEY), 46).plain == (
        'search_products:{"keyword":\n"stainless-vacuum-tumbler-500ml-black"}'
    )
    assert break_long_words(Text("a b c"), 1).plain == "a b c"  # short words: untouched
    # no break that fits: left to the fold, nothing added
    assert break_long_words(Text("HR2026060420260604"), 8).plain == "HR2026060420260604"
    # no JSON punctuation in the second half of the line: a name's own - or _ is used
    assert break_long_words(Text('{"k":"stainless-vacuum-tumbler-500ml"}'), 24).plain == (
        '{"k":"stainless-vacuum-\ntumbler-500ml"}'
    )


async def test_a_running_call_clears_the_last_record_and_a_long_key_breaks_at_punctuation(
    tools_dir,
) -> None:
    app = PlaygroundApp(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        rv = app.query_one(RecordView)
        assert await view.select_contract("search_products")
        app.query_one("#arg-form").set_field("keyword", "stainless-vacuum-tumbler-500ml-black")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: rv.fields.get("cache_key") == LONG_KEY, "the search answers")
        assert rv.fields["kind"] == "empty"
        grid = rv.query_one(RecordGrid)
        lines = grid_lines(grid)
        at = next(i for i, line in enumerate(lines) if line.startswith("Cache key"))
        end = next(i for i, line in enumerate(lines) if line.startswith("Outcome"))
        shown = [line[12:] for line in lines[at:end]]
        assert len(shown) > 1 and "".join(shown) == LONG_KEY  # every character, in order
        # each line ends after punctuation: never inside "search", "keyword" or "tumbler"
        assert all(line[-1] in ":{,-" for line in shown[:-1]), shown
        assert shown[0] == "search_products:{"
        assert await view.select_contract("slow_lookup")  # hangs past its 1 s limit
        app.query_one("#arg-form").set_field("item_id", "A-1")
        await pilot.press("ctrl+r")
        # seen in the same step as the call running: a pause in between let the 1 s limit
        # pass on a loaded machine (load ~14), and the record showed the ended call instead
        await until(
            pilot,
            lambda: view.running and rv.fields.get("status", "").startswith("running "),
            "the slow call runs",
        )
        assert rv.fields["status"] == "running slow_lookup… (time limit 1 s)"
        assert {rv.fields[k] for k in ("verdict", "kind", "cache", "cache_key", "body")} == {"-"}
        assert rv.value_text == ""
        await until(pilot, lambda: not view.running, "the slow call ends")
        assert rv.fields["kind"] == "transient"
