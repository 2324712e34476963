"""Issue 13: sent = shown, the keyboard (sub-tab keys, help screen, ctrl+a, send as null,
enum "other value"), reload keeps the work, copy / save, the Steps view's start, the list's
first contract."""

from __future__ import annotations

import json

import pytest
from textual import events
from textual.widgets import Input, TabbedContent

from playground.tui.app import PlaygroundApp
from playground.tui.export_screen import ExportScreen, save_text
from playground.tui.help_screen import HelpScreen
from playground.tui.widgets.arg_form import OTHER, ArgForm
from playground.tui.widgets.args_editor import ArgsEditor
from playground.tui.widgets.contract_list import ContractList, first_choice, is_demo_module
from playground.tui.widgets.record_view import RecordGrid
from tests.tui.helpers import SIZE, capture_notifications, open_contract, settle, until


@pytest.mark.slow
async def test_keys_typed_in_the_same_frame_as_ctrl_r_are_all_sent_50_times(tools_dir):
    """The reported ``missing:order_id`` with the id on screen: ctrl+r is a priority binding,
    handled before the keys still queued in the focused field. Every key of one frame is
    posted at once here, then the record must carry exactly what was typed."""
    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")])
    async with app.run_test(size=(80, 24)) as pilot:  # the smallest layout renders fastest
        view = await open_contract(app, pilot, "get_order_status")
        field = app.query_one(ArgForm).fields[0]
        field.focus()
        await pilot.pause()
        typed = []
        for i in range(50):
            field.value = ""
            text = f"HR{20260000 + i}"
            typed.append(text)
            for char in text:
                app.post_message(events.Key(char, char))
            app.post_message(events.Key("ctrl+r", None))
            await pilot.pause()  # the keys, then ctrl+r (starts the call worker)
            await app.workers.wait_for_complete()
            await pilot.pause()  # CallDone
            assert field.value == text and len(view.records) == i + 1
        assert [record.args for record in view.records] == [{"order_id": t} for t in typed]
        assert all(record.verdict == "valid" for record in view.records)


async def test_ctrl_a_typed_in_the_same_frame_as_the_keys_around_it_selects_all_in_order(
    tools_dir,
):
    """In tmux, ``ctrl+a`` then an id, pressed right after other keys, appended the id
    ("HR55555555HR66666666"): a binding runs only once its key has bubbled up to the app, after
    the keys behind it are already in the field. Each editor handles it in its own queue."""
    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")])
    async with app.run_test(size=(80, 24)) as pilot:
        await open_contract(app, pilot, "get_order_status")
        field = app.query_one(ArgForm).fields[0]
        field.focus()
        await pilot.pause()
        for keys in ("HR11111111", "ctrl+a", "HR22222222", "ctrl+a", "HR33333333"):
            for key in [keys] if keys.startswith("ctrl") else keys:
                app.post_message(events.Key(key, None if key.startswith("ctrl") else key))
        await pilot.pause()
        assert field.value == "HR33333333"
        editor = app.query_one(ArgsEditor)
        editor.set_mode("json")
        await pilot.pause()
        editor.editor.focus()
        await pilot.pause()
        for keys in ("ctrl+a", '{"order_id": "HR1"}', "ctrl+a", '{"order_id": "HR2"}'):
            for key in [keys] if keys.startswith("ctrl") else keys:
                app.post_message(events.Key(key, None if key.startswith("ctrl") else key))
        await pilot.pause()
        assert json.loads(editor.editor.text) == {"order_id": "HR2"}


async def test_keys_typed_behind_tab_in_the_same_frame_go_to_the_next_field(tools_dir):
    """ "KB-101 Tab Tab 3 ctrl+r" in one burst (a paste, a script, fast typing) put the 3 into
    the first field: Tab moved the focus only after the keys behind it had gone to the old
    field. Now Tab moves it at once, and ctrl+r waits for every field Tab left."""
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_contract(app, pilot, "stock_lookup")
        sku, _region, limit = app.query_one(ArgForm).fields
        sku.focus()
        await pilot.pause()
        for key in [*"KB-101", "tab", "tab", "3", "ctrl+r"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.focused is limit and (sku.value, limit.value) == ("KB-101", "3")
        assert view.records[-1].args == {"sku": "KB-101", "limit": 3}
        # and back: shift+tab twice, then the sku is typed over
        for key in ["shift+tab", "shift+tab", "ctrl+a", *"KB-202", "ctrl+r"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert view.records[-1].args == {"sku": "KB-202", "limit": 3}


async def test_an_id_typed_in_the_contract_list_goes_into_the_first_field(tools_dir):
    """A newcomer typed a day while the list had the focus (it has at start) and got
    ``missing:day``: the keys went nowhere. They go to the first field now, in order, with
    ctrl+r in the same frame."""
    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")])
    async with app.run_test(size=(80, 24)) as pilot:
        view = await open_contract(app, pilot, "get_order_status")
        app.query_one(ContractList).focus()
        await pilot.pause()
        for key in [*"HR20260601", "ctrl+r"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        field = app.query_one(ArgForm).fields[0]
        assert app.focused is field and field.value == "HR20260601"
        assert view.records[-1].args == {"order_id": "HR20260601"}
        # "?" in the list is still the help screen
        app.query_one(ContractList).focus()
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        from playground.tui.help_screen import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        assert field.value == "HR20260601"


async def test_spaces_and_a_question_mark_typed_behind_the_first_key_follow_it(tools_dir):
    """tmux: '앨리스 Kim' typed in one go while the list had the focus became '앨리스Kim' in the
    field, and each space toggled the module: the keys queued behind the first one reached the
    list before the focus moved, and the list kept its space and ``?``. They follow the first
    key now; once the list has the focus back, space and ``?`` are its own again."""
    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")])
    async with app.run_test(size=(80, 24)) as pilot:
        await open_contract(app, pilot, "get_order_status")
        tree = app.query_one(ContractList)
        tree.focus()
        await pilot.pause()
        names = {" ": "space", "?": "question_mark"}
        for char in "앨리스 Kim ?":
            app.post_message(events.Key(names.get(char, char), char))
        await pilot.pause()
        await pilot.pause()
        field = app.query_one(ArgForm).fields[0]
        assert field.value == "앨리스 Kim ?"
        assert app.focused is field
        assert all(node.is_expanded for node in tree.root.children)
        tree.focus()
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        from playground.tui.help_screen import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        assert field.value == "앨리스 Kim ?"


async def test_reload_keeps_the_contract_the_arguments_and_the_records(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        view = await open_contract(app, pilot, "track_shipping")
        app.query_one(ArgForm).set_field("order_id", "HR20260601")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        app.query_one(ArgForm).set_field("order_id", "HR20260602")
        first_pg = app.pg
        await pilot.press("ctrl+l")
        await settle(app, pilot)
        assert app.pg is not first_pg  # really reloaded
        assert view.shown == "track_shipping" == app.query_one(ContractList).chosen
        assert app.query_one(ArgForm).args() == {"order_id": "HR20260602"}
        assert len(view.records) == 1 and view.records[0].args == {"order_id": "HR20260601"}
        assert app.query_one("#rv-grid", RecordGrid).cells["verdict"].plain == "valid"
        assert view.query_one("RecordView").fields["verdict"] == "valid"
        # the JSON tab is kept too, even when it does not parse
        editor = app.query_one(ArgsEditor)
        editor.set_mode("json")
        await pilot.pause()
        editor.editor.load_text('{"order_id": "HR1"')
        await pilot.press("ctrl+l")
        await settle(app, pilot)
        assert editor.mode == "json" and editor.editor.text == '{"order_id": "HR1"'


TWO_TOOLS = '''
def find_order(order_id: str) -> dict:
    """Find an order. Use it to look an order up.

    Args:
        order_id: order id, e.g. "HR1"
    """
    return {"order_id": order_id}


def ping(host: str) -> dict:
    """Ping a host. Use it to check a host.

    Args:
        host: host name
    """
    return {"host": host}


__tools__ = [find_order, ping]
'''


@pytest.mark.parametrize("tab", ["form", "json"])
async def test_typed_arguments_survive_a_failed_reload_followed_by_a_good_one(tmp_tool, tab):
    folder = tmp_tool(TWO_TOOLS)
    module = folder / "mytools.py"
    app = PlaygroundApp(tools=[str(folder)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_contract(app, pilot, "ping")
        app.query_one(ArgForm).set_field("host", "example.org")
        editor = app.query_one(ArgsEditor)
        if tab == "json":
            editor.set_mode("json")
            await pilot.pause()
            editor.editor.load_text('{"host": "db.local", "port"')  # typed, not yet valid
        typed = editor.editor.text
        module.write_text(TWO_TOOLS + "\ndef broken(:\n", encoding="utf-8")
        await pilot.press("ctrl+l")
        await settle(app, pilot)
        assert "ping" not in app.pg.registry and view.shown is None  # the module was refused
        assert any(m.startswith("ping is not in the reloaded tools") for m in seen)  # said
        module.write_text(TWO_TOOLS, encoding="utf-8")
        await pilot.press("ctrl+l")
        await settle(app, pilot)
        assert view.shown == "ping" == app.query_one(ContractList).chosen
        assert editor.mode == tab
        if tab == "form":
            assert app.query_one(ArgForm).args() == {"host": "example.org"}
        else:
            assert editor.editor.text == typed
        # a third reload (nothing lost) still keeps them
        await pilot.press("ctrl+l")
        await settle(app, pilot)
        assert view.shown == "ping" and editor.mode == tab
        if tab == "form":
            assert app.query_one(ArgForm).args() == {"host": "example.org"}


async def test_list_opens_on_the_first_module_not_a_demo_then_on_the_last_used(tools_dir, tmp_tool):
    assert is_demo_module(f"{tools_dir / 'flaky.py'}:40")
    assert not is_demo_module(f"{tools_dir / 'shop.py'}:95")
    assert not is_demo_module("mcp:stdio:server")  # not a file
    folder = tmp_tool(
        '''
        """Faults on purpose."""
        __demo__ = True

        def boom(x: str) -> dict:
            """Raise. x: anything"""
            raise KeyError(x)

        __tools__ = [boom]
        ''',
        name="a_demo.py",
    )
    tmp_tool(
        '''
        def ping(host: str) -> dict:
            """Ping. host: a host"""
            return {"host": host}

        def pong(host: str) -> dict:
            """Pong. host: a host"""
            return {"host": host}

        __tools__ = [ping, pong]
        ''',
        name="b_real.py",
    )
    app = PlaygroundApp(tools=[str(folder)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert next(iter(app.pg.registry.contracts)) == "boom"  # load order: the demo first
        assert app.query_one(ContractList).chosen == "ping"
        assert first_choice(app.pg.registry, "pong") == "pong"
        view = await open_contract(app, pilot, "pong")
        app.query_one(ArgForm).set_field("host", "h")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert view.records[-1].tool == "pong"
    app = PlaygroundApp(tools=[str(folder)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.query_one(ContractList).chosen == "pong"  # the last one used


async def test_copy_and_save_then_sub_tab_keys_and_the_help_screen(tools_dir, tmp_path):
    """Copy and save from the Call view, then the sub-tab keys and the help screen, on one app
    (two tests before, each an app start on the same contract)."""
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        # copy (OSC 52) and save the record from the export screen
        await open_contract(app, pilot, "get_order_status")
        app.query_one(ArgForm).set_field("order_id", "HR20260601")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        app.query_one(ContractList).focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert screen.labels == ["wire JSON (gemini)", "record", "declaration"]
        await pilot.press("f8")  # copy the wire JSON (OSC 52)
        await pilot.pause()
        assert json.loads(app.clipboard)["function_response"]["name"] == "get_order_status"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("down")  # record
        path = app.screen.query_one("#export-path")
        path.value = str(tmp_path / "record.json")
        path.focus()
        await pilot.press("enter")
        await pilot.pause()
        saved = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
        assert saved["tool"] == "get_order_status" and saved["args"] == {"order_id": "HR20260601"}
        assert not isinstance(app.screen, ExportScreen)

        # every sub-tab has a key in the footer; the help screen lists the view's keys
        app.query_one(ArgForm).set_field("order_id", "")  # the "?" typed below is all it holds
        app.query_one(ContractList).focus()
        footer_keys = {b.binding.key for b in app.screen.active_bindings.values() if b.binding.show}
        assert {"f6", "f7", "question_mark", "ctrl+s"} <= footer_keys
        await pilot.press("f6")
        await pilot.pause()
        assert app.query_one(ArgsEditor).mode == "json"
        await pilot.press("f6")
        await pilot.pause()
        assert app.query_one(ArgsEditor).mode == "form"
        wire_tabs = app.query_one("#rv-wire-tabs", TabbedContent)
        assert wire_tabs.active == "rv-wire-gemini"
        await pilot.press("f7", "f7")
        assert wire_tabs.active == "rv-wire-openai"
        assert app.focused is app.query_one(ArgForm).fields[0]  # f6 focused the form
        await pilot.press("question_mark")  # typed into the field: a text field takes "?"
        assert app.focused.value == "?"
        app.query_one(ContractList).focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text
        assert "f6 — Form/JSON (this view)" in text and "f7 — Wire (this view)" in text
        assert "ctrl+r" in text or "^r" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        # Ask: f6 goes Calls → Moves → Gemini request
        await pilot.press("f2")
        await settle(app, pilot)
        app.query_one("#ask-calls").focus()
        tabs = app.query_one("#ask-tabs", TabbedContent)
        await pilot.press("f6")
        assert tabs.active == "ask-moves-pane"
        await pilot.press("f6")
        assert tabs.active == "ask-request-pane"
        await pilot.press("f10")  # the help key that also works from a text field
        await pilot.pause()
        assert "Calls/Moves/Request (this view)" in app.screen.text


@pytest.mark.slow
async def test_ctrl_a_selects_all_send_as_null_and_enum_other_value(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        view = await open_contract(app, pilot, "stock_lookup")
        form = app.query_one(ArgForm)
        sku, region, limit = form.fields
        sku.focus()
        await pilot.press(*"KB-1")
        await pilot.press("ctrl+a", *"KB-101")  # select all, then type over it
        assert sku.value == "KB-101"
        region.value = OTHER
        await pilot.pause()
        other = app.query_one("#arg-1-other")
        assert other.display
        other.focus()
        await pilot.press(*"jeju")
        limit.focus()
        await pilot.press(*"abc")
        assert not limit.is_valid  # shown red, yet sent as typed
        await pilot.press("ctrl+n")
        assert form.nulls == {"limit"}
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        record = view.records[-1]
        assert record.args == {"sku": "KB-101", "region": "jeju", "limit": None}
        assert record.verdict and record.body_ran is False  # the gate gave its verdict
        # the JSON tab shows the same, and back to the form keeps null and the other value
        editor = app.query_one(ArgsEditor)
        editor.set_mode("json")
        await pilot.pause()
        assert json.loads(editor.editor.text) == record.args
        editor.set_mode("form")
        await pilot.pause()
        assert form.args() == record.args
        # ctrl+a in the JSON editor selects everything
        editor.set_mode("json")
        # the JSON pane is shown before the editor takes the focus: a focus given to a widget
        # not yet displayed is dropped when the screen is laid out (under load it was None)
        await until(
            pilot,
            lambda: all(w.display for w in editor.editor.ancestors_with_self if w is not app),
            "the JSON editor shown",
        )
        editor.editor.focus()
        # the key must reach the editor, not the form
        await until(pilot, lambda: app.focused is editor.editor, "the JSON editor focused")
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert editor.editor.selected_text == editor.editor.text
        # and in the other views' text fields (the Ask question here): select all, type over
        await pilot.press("f2")
        await app.view("ask")
        await pilot.pause()
        question = app.query_one("#question", Input)
        question.focus()
        await pilot.press(*"KB-1 stock", "ctrl+a", *"재고")
        assert question.value == "재고"


def test_save_text_errors_are_one_line_and_nothing_is_overwritten_silently(tmp_path):
    target = tmp_path / "wire.json"
    ok, message = save_text(str(target), '{"a": "한글"}')
    assert ok and target.read_text(encoding="utf-8") == '{"a": "한글"}\n'
    ok, message = save_text(str(target), "{}")
    assert not ok and "exists" in message and target.read_text(encoding="utf-8") != "{}\n"
    assert save_text(str(target), "{}", overwrite=True)[0]
    assert target.read_text(encoding="utf-8") == "{}\n"
    ok, message = save_text(str(tmp_path / "missing" / "x.json"), "{}")
    assert not ok and message.startswith("cannot write") and "\n" not in message
    ok, message = save_text(str(tmp_path), "{}")
    assert not ok and "folder" in message
    assert save_text("  ", "{}") == (False, "type a file path first")


async def test_steps_open_at_step_one_and_show_the_ending_only_at_the_end(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        (await app.view("steps")).run_manual("stock_lookup", {"sku": "KB-101", "region": "jeju"})
        await settle(app, pilot)
        await pilot.press("f3")
        await pilot.pause()
        steps = await app.view("steps")
        summary = steps.query_one("#episode-summary")
        assert steps.cursor == 0 and steps.selected == 0
        assert "end:" not in str(summary.render()) and "reply:" not in str(summary.render())
        assert steps.episode.end not in steps.labels[0]
        assert str(steps.query_one("#steps-status").render()).startswith("step 1/")
        await pilot.press("e")
        await pilot.pause()
        assert f"end: {steps.episode.end}" in str(summary.render())
        assert "episode" in steps.exportables()
