"""The call view driven with the pilot against the real ./tools (and temp modules)."""

from __future__ import annotations

import json

import pytest
from textual.command import CommandList

from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.args_editor import ArgsEditor
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, WIDE, open_contract, settle, until


async def type_into(pilot, app, arg: str, text: str) -> None:
    """Focus the form field for ``arg`` by clicking it, then type ``text`` key by key."""
    form = app.query_one("#arg-form")
    index = [s.name for s in form.specs].index(arg)
    await pilot.click(f"#arg-{index}")
    await pilot.press(*list(text))


async def test_bad_integer_is_sent_as_typed_and_body_does_not_run(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=WIDE) as pilot:  # the click on the limit field lands on it
        await open_contract(app, pilot, "stock_lookup")
        form = app.query_one("#arg-form")
        form.set_field("sku", "KB-101")
        form._inputs[1].value = "seoul"  # the region Select
        await type_into(pilot, app, "limit", "abc")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        fields = app.query_one(RecordView).fields
        assert fields["verdict"] == "type:limit"
        assert fields["body"] == "no"
        assert fields["kind"] == "invalid_args"
        assert fields["error"] == "args:type:limit"
        wire = app.query_one(RecordView).wire.texts
        assert '"is_error": true' in wire["anthropic"]
        assert "function_response" in wire["gemini"]


async def test_call_view_json_tab_palette_form_sync_korean_and_cache(tools_dir):
    """Five checks of the Call view on the real ./tools, in one app (they were five tests, each
    an app start; each works on its own contract or says what it expects of the one before):
    the JSON tab is sent and invalid JSON is a message; the palette clears the cache; the form
    and JSON tabs stay in sync; Korean typed in the form reaches the body; a call is stored in
    the cache, then hit."""
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        # the JSON tab is sent, and invalid JSON is a message, not a crash
        await open_contract(app, pilot, "get_order_status")
        editor = app.query_one(ArgsEditor)
        editor.set_mode("json")
        await pilot.pause()
        editor.editor.load_text('{"order_id": ')
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        rv = app.query_one(RecordView)
        assert rv.fields["status"].startswith("not sent: invalid JSON")
        assert rv.fields.get("verdict") in (None, "-")
        assert app.query_one(CallView).records == []
        # a JSON string holding an object is sent as is: the gate says shape
        editor.editor.load_text('"{\\"order_id\\": \\"HR20260601\\"}"')
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert rv.fields["verdict"] == "shape"
        # back to the form: invalid JSON there is a warning, the app keeps running
        editor.editor.load_text("[1,")
        editor.set_mode("form")
        await settle(app, pilot)
        assert app.is_running

        # the command palette clears the cache (nothing was stored before: no body ran)
        await open_contract(app, pilot, "get_order_status")
        editor.set_mode("form")
        await pilot.pause()
        app.query_one("#arg-form").set_field("order_id", "HR20260601")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert rv.fields["verdict"] == "valid"
        assert len(app.pg.gate.cache) == 1
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"clear cache")
        palette = app.screen.query_one(CommandList)
        await until(  # the palette searches its providers in a worker
            pilot,
            lambda: (
                palette.option_count > 0 and "Clear" in str(palette.get_option_at_index(0).prompt)
            ),
            "the palette offers 'Clear cache'",
        )
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(app.pg.gate.cache) == 0

        # the form and JSON tabs stay in sync
        await open_contract(app, pilot, "track_shipping")
        editor = app.query_one(ArgsEditor)
        app.query_one("#arg-form").set_field("order_id", "HR20260601")
        editor.set_mode("json")
        await pilot.pause()
        assert json.loads(editor.editor.text) == {"order_id": "HR20260601"}
        editor.editor.load_text('{"order_id": "HR20260602"}')
        editor.set_mode("form")
        await pilot.pause()
        assert app.query_one("#arg-form").args() == {"order_id": "HR20260602"}

        # Korean typed in the form reaches the body
        await open_contract(app, pilot, "search_products")
        await type_into(pilot, app, "keyword", "키보드")
        assert app.query_one("#arg-form").args() == {"keyword": "키보드"}
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        rv = app.query_one(RecordView)
        assert rv.fields["body"] == "yes"
        assert json.loads(rv.value_text)["keyword"] == "키보드"
        assert "키보드" in rv.wire.texts["gemini"]

        # a call is stored in the cache, then hit (the body ran once); Korean kept in the value
        await open_contract(app, pilot, "stock_lookup")
        form = app.query_one("#arg-form")
        form.set_field("sku", "KB-101")
        form._inputs[1].value = "seoul"
        form.set_field("limit", "2")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        rv = app.query_one(RecordView)
        assert rv.fields["verdict"] == "valid"
        assert rv.fields["body"] == "yes" and rv.fields["runs"] == "1"
        assert rv.fields["cache"] == "stored" and rv.fields["kind"] == "ok"
        assert "강남점" in rv.value_text  # Korean kept as is
        assert json.loads(rv.value_text)["region"] == "seoul"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert (
            rv.fields["cache"] == "hit" and rv.fields["body"] == "no" and rv.fields["runs"] == "1"
        )
        tabs = rv.wire.query_one("TabbedContent")
        assert "tok" in str(tabs.get_tab("rv-wire-gemini").label)


@pytest.mark.worker_process  # the body outlives its time limit: the worker process is ended
async def test_slow_tool_runs_in_a_worker_and_shows_running(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await open_contract(app, pilot, "slow_lookup")
        app.query_one("#arg-form").set_field("item_id", "A-100")
        await pilot.press("ctrl+r")
        await pilot.pause()
        rv = app.query_one(RecordView)
        assert rv.fields["status"].startswith("running slow_lookup")
        assert app.query_one(CallView).running
        await settle(app, pilot)
        assert rv.fields["kind"] == "transient" and rv.fields["error"] == "transient:timeout"
        assert rv.fields["body"] == "yes"


async def test_load_problems_shown_and_empty_registry_helps(tmp_tool):
    folder = tmp_tool("def f(:\n    pass\n", name="broken.py")
    app = PlaygroundApp(tools=[str(folder)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        problems = str(app.query_one("#problems").render())
        assert "broken.py" in problems and "SyntaxError" in problems
        shown = str(app.query_one("#empty-help").render())
        assert f"No contracts loaded from {folder}" in shown  # the folder given, not ./tools
        assert "./tools" not in shown
        assert app.query_one("#problems").display and app.query_one("#empty-help").display
        await pilot.press("ctrl+r")  # nothing to run: a message, no crash
        await settle(app, pilot)
        assert app.is_running


async def test_no_empty_problem_or_help_box_before_the_tools_are_shown():
    """The load-problem box (a red border) and the empty-registry help stay hidden until the
    tools are loaded: empty, they read as a load problem without text while the tools load."""
    from textual.app import App

    class Bare(App):
        def compose(self):
            yield CallView()

    app = Bare()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(CallView)
        assert view.pg is None  # nothing loaded: set_playground never ran
        assert not [w for w in app.query("#problems, #empty-help") if w.display]
        await view.complete()  # the boxes are mounted after the first screen, still hidden
        assert not app.query_one("#problems").display
        assert not app.query_one("#empty-help").display


async def test_temp_module_boolean_and_side_effect_badge(tmp_tool):
    folder = tmp_tool(
        '''
        def set_flag(name: str, on: bool = False) -> dict:
            """Set a flag.

            Args:
                name: flag name. e.g. beta
                on: the new value
            """
            return {"name": name, "on": on}

        __tools__ = [set_flag]
        __contracts__ = {"set_flag": {"side_effects": True}}
        '''
    )
    app = PlaygroundApp(tools=[str(folder)])
    async with app.run_test(size=SIZE) as pilot:
        await open_contract(app, pilot, "set_flag")
        assert "writes" in str(app.query_one("#contract-head").render())
        await type_into(pilot, app, "name", "beta")
        await pilot.click("#arg-1")  # the Switch
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        rv = app.query_one(RecordView)
        assert json.loads(rv.value_text) == {"name": "beta", "on": True}
        assert rv.fields["cache"] == (
            "skip (it writes (declared: side_effects: True); a write is never served from the cache)"
        )


async def test_a_switch_is_never_flipped_by_a_json_value_it_cannot_show(tmp_tool):
    """JSON → Form: ``"예"`` for a boolean left the switch showing ``false`` and the next call
    sent ``false``, an argument changed silently. Now the switch stays as it was (and is not
    sent), the value is named as kept only in JSON; a left-out boolean goes back to its
    default, not sent; ``true``/``false`` are shown and sent."""
    folder = tmp_tool(
        '''
        def get_book(isbn: str, with_copies: bool = True) -> dict:
            """Get a book.

            Args:
                isbn: its ISBN. e.g. 978-0131103627
                with_copies: count the copies too
            """
            return {"isbn": isbn, "with_copies": with_copies}

        __tools__ = [get_book]
        '''
    )
    app = PlaygroundApp(tools=[str(folder)], in_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_contract(app, pilot, "get_book")
        form = app.query_one(ArgForm)
        switch = app.query_one("#arg-1")
        assert switch.value is True and form.args() == {}
        assert form.set_args({"isbn": "x", "with_copies": "예"}) == ["with_copies"]
        assert switch.value is True and form.args() == {"isbn": "x"}
        assert form.set_args({"isbn": "x", "with_copies": False}) == []
        assert switch.value is False and form.args() == {"isbn": "x", "with_copies": False}
        assert form.set_args({"isbn": "y"}) == []
        assert switch.value is True and form.args() == {"isbn": "y"}


@pytest.mark.parametrize(("value", "expected"), [("on", True), ("yes", True), ("off", False)])
def test_the_tui_reads_playground_in_process_as_the_cli_does(monkeypatch, value, expected):
    """One parser for the variable (core.settings): the TUI took "on" as off while the CLI took
    it as on."""
    monkeypatch.setenv("PLAYGROUND_IN_PROCESS", value)
    assert PlaygroundApp().in_process is expected
