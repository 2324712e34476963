"""What the TUI's first screen composes: the tabs, the Call view's "loading tools…" line and its
panes (the empty contract list has the focus, but the panes are not displayed until the tools
are loaded); the arguments, the run bar, the record panel and the hidden boxes are mounted
after it, with the loaded tools, and the panes are displayed in the same batch.
``bench/bench_tui.py`` times the same moment (the first refresh after mount)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widget import Widget
from textual.widgets import Footer

import playground.tui.app as app_module
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import LOADING, CallView
from tests.tui.helpers import SIZE, settle

#: Mounted by ``CallView.complete`` after the first screen (never part of it).
LATER = ("args-editor", "arg-form", "run", "run-repair", "record", "contract-doc")
LATER += ("problems", "empty-help")
#: Built when first asked for: the JSON tab's editor (f6).
ASKED = ("args-json",)
#: The record panel's grid, value, traceback and wire JSON: mounted with the first record
#: (before it the panel says "No call yet").
WITH_FIRST_RECORD = ("rv-grid", "rv-value", "rv-traceback", "rv-wire-tabs")


class FirstScreen(PlaygroundApp):
    """Notes the widgets on screen at the first refresh after mount."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # a subclass's own folder

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.first: list[Widget] = []
        self.loading_at_first = ""
        self.displayed_at_first: set[str] = set()

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self.note_first_screen)

    def note_first_screen(self) -> None:
        self.first = list(self.screen.walk_children(with_self=True))
        self.loading_at_first = str(self.query_one("#call-loading").render())
        self.displayed_at_first = {
            str(w.id) for w in self.screen._compositor.visible_widgets if w.id is not None
        }


async def test_the_first_screen_shows_the_list_and_loading_and_mounts_the_rest_after(tools_dir):
    app = FirstScreen(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        ids = {w.id for w in app.first}
        assert {"modes", "call-view", "contracts-col", "contracts", "args-col"} <= ids
        assert app.loading_at_first == LOADING == "loading tools…"
        assert "call-loading" in app.displayed_at_first
        # composed, not displayed: nothing of the panes is laid out before the tools are in
        assert not {"contracts-col", "contracts", "args-col", "work"} & app.displayed_at_first
        assert [i for i in LATER if i in ids] == []
        assert len(app.first) <= 40  # 65 when the whole Call view was composed at start
        # once the tools are in: every later widget is there; the list opens on the first
        # module that is not a demo of faults (inventory.py, after flaky.py)
        for widget_id in LATER:
            assert app.query(f"#{widget_id}"), widget_id
        assert [i for i in ASKED if app.query(f"#{i}")] == []
        assert [i for i in WITH_FIRST_RECORD if app.query(f"#{i}")] == []
        assert str(app.query_one("#rv-status").render()).startswith("No call yet")
        assert app.query_one(CallView).shown == "stock_lookup"
        assert "stock_lookup" in str(app.query_one("#contract-head").render())
        assert not app.query("#call-loading")
        shown_now = {str(w.id) for w in app.screen._compositor.visible_widgets}
        assert {"contracts-col", "contracts", "args-col", "work", "record"} <= shown_now
        keys = [key.description for key in app.query_one(Footer).query("FooterKey")]
        assert {"Keys", "Run", "Form/JSON"} <= set(keys), keys
        await pilot.press("f6")  # the JSON tab: its editor is built, with the form's arguments
        await settle(app, pilot)
        editor = app.query_one("#args-json")
        assert app.focused is editor and editor.text == "{}"


async def test_the_view_keys_wait_for_the_widgets_they_drive():
    """f6 (Form/JSON), f7 (wire tab) and f8 (edit the failing line) before ``complete`` has
    mounted the arguments and the record: nothing breaks; f8 says why it does nothing."""

    class Bare(App):
        def compose(self):
            yield CallView()

    app = Bare()
    notes: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(CallView)
        view.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        assert not view.completed
        view.action_args_tab()
        view.action_wire_tab()
        view.action_edit_source()
        await pilot.pause()
        assert notes == ["No traceback shown: f8 opens $EDITOR at a raised call's failing line."]
        await view.complete()
        await view.complete()  # idempotent
        assert view.completed and len(app.query("#args-editor")) == 1
        view.action_args_tab()
        await pilot.pause()
        assert view.args_editor.mode == "json"


def test_the_subtitle_says_loading_until_the_first_load_not_0_contracts() -> None:
    """A tester saw "Tool Playground — 0 contracts" while the tools were still loading."""
    from types import SimpleNamespace

    from playground.tui.app import subtitle

    loading = SimpleNamespace(workbench=None, in_process=False, router="offline")
    assert subtitle(loading) == "loading tools… · router offline · bodies: worker"  # type: ignore[arg-type]


async def test_the_record_panel_builds_its_grid_and_wire_tabs_with_the_first_record(tools_dir):
    """Before a call the record panel is its status line alone; f7 (the wire tabs) builds the
    tabs with "(no call yet)"; a call fills the grid, the value and the wire JSON."""
    app = PlaygroundApp(tools=[str(tools_dir)], no_history=True, in_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        assert not view.record_view.has_body
        await pilot.press("f7")
        await settle(app, pilot)
        assert view.record_view.has_body
        assert str(app.query_one("#rv-wire-gemini-json").render()) == "(no call yet)"
        assert view.record_view.wire.tabs.active == "rv-wire-anthropic"  # f7 moved on
        assert str(app.query_one("#rv-status").render()).startswith("No call yet")
        form = app.query_one("#arg-form")
        form.set_field("sku", "KB-101")
        form.set_field("limit", "2")
        form._inputs[1].value = "seoul"  # the region Select
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        record = view.record_view
        assert record.fields["tool"] == "stock_lookup"
        assert record.fields["kind"] == "ok" and record.fields["verdict"] == "valid"
        assert '"sku": "KB-101"' in record.value_text
        assert '"type": "tool_result"' in record.wire.texts["anthropic"]
        assert '"name": "stock_lookup"' in record.wire.texts["gemini"]
