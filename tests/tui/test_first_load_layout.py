"""Tricks of the TUI's first useful screen, in docs/performance.md's register: the first
load's Call view, contract list and form are laid out once (one ``App.batch_update``), the
footer is rebuilt only when the keys it shows change (``playground.tui.footer.KeysFooter``), and
the contract list has the focus from the first frame (``MainScreen.AUTO_FOCUS``)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button, Static
from textual.widgets._footer import FooterKey

import playground.tui.app as app_module
from playground.tui.app import PlaygroundApp
from playground.tui.footer import KeysFooter
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.contract_list import ContractList
from tests.tui.helpers import SIZE, settle


class Noted(PlaygroundApp):
    """Notes, at each layout of the screen, whether the Call view's later panes, the contract
    list's entries and the first form's fields were there."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # a subclass's own folder

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.layouts: list[tuple[bool, bool, bool]] = []

    def on_mount(self) -> None:
        super().on_mount()
        screen = self.screen
        layout = screen._refresh_layout

        def noted(*args, **kwargs):
            view = self.query_one(CallView)
            forms = self.query(ArgForm)
            self.layouts.append(
                (
                    view.completed,
                    bool(self.query_one(ContractList).root.children),
                    bool(forms and forms.first().fields),
                )
            )
            return layout(*args, **kwargs)

        screen._refresh_layout = noted  # type: ignore[method-assign]


async def test_the_first_load_is_laid_out_once_with_the_list_and_the_form(tools_dir):
    app = Noted(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.query_one(CallView).shown == "stock_lookup"
        # the first screen (nothing of the later panes), then the view with the list and the
        # form: never a layout of the view's later panes without them
        assert (False, False, False) in app.layouts
        assert (True, True, True) in app.layouts
        partial = [state for state in app.layouts if state[0] and state != (True, True, True)]
        assert partial == [], f"an intermediate state was laid out: {app.layouts}"
        # the focus is on the list, as before the batch
        assert isinstance(app.focused, ContractList)


class Panel(Static, can_focus=True):
    """A focusable widget with a key of its own, shown in the footer while it has the focus."""

    BINDINGS = [Binding("f3", "app.noop", "Three")]


class Keys(App[None]):
    BINDINGS = [Binding("f2", "noop", "Two")]

    def compose(self) -> ComposeResult:
        yield Button("plain")
        yield Panel("panel")
        yield KeysFooter()

    def action_noop(self) -> None:
        pass


async def test_the_footer_is_rebuilt_only_when_its_keys_change():
    app = Keys()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        footer = app.query_one(KeysFooter)
        composed = []
        original = footer.compose

        def counted():
            composed.append(True)
            return original()

        footer.compose = counted  # type: ignore[method-assign]
        keys_before = [key.key for key in footer.query(FooterKey)]
        assert "f2" in keys_before
        screen: Screen[None] = app.screen
        for _ in range(3):  # the same keys: Textual's footer rebuilt itself each time
            screen.refresh_bindings()
            await pilot.pause()
        assert composed == [], "the footer was rebuilt with the same keys"
        assert "f3" not in keys_before
        app.query_one(Panel).focus()  # a key of its own: rebuilt, the new key shown
        await pilot.pause()
        await pilot.pause()
        assert composed, "the footer kept old keys"
        assert "f3" in [key.key for key in footer.query(FooterKey)]
        assert footer.shown_keys == footer.keys_to_show()


async def test_the_list_has_the_focus_from_the_first_frame_and_one_footer_of_keys(
    tools_dir, monkeypatch
):
    """The contract list is the screen's first focus (``MainScreen.AUTO_FOCUS``): the footer
    is composed with no keys (before the bindings are ready) and then once with the list's
    keys, never first with the mode tabs' (one rebuild and one frame fewer before the first
    screen)."""
    composed: list[tuple[str, ...]] = []
    original = KeysFooter.compose

    def noted(self: KeysFooter):
        result = original(self)
        shown = self.shown_keys
        composed.append(tuple(key[0] for key in shown[0]) if shown else ())
        return result

    monkeypatch.setattr(KeysFooter, "compose", noted)
    app = PlaygroundApp(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.focused, ContractList)  # before the tools are loaded
        await settle(app, pilot)
        assert isinstance(app.focused, ContractList)
        assert composed[0] == ()
        assert "f6" in composed[1] and "f8" in composed[1]  # the Call view's keys, at once
        assert len(composed) == 2, composed


async def test_the_later_panes_modules_are_imported_on_the_load_thread(tools_dir, monkeypatch):
    """The first load imports what ``CallView.complete`` mounts on the load thread, before it
    waits for the tools (the imports overlap the load); a reload does not again."""
    import threading

    import playground.tui.loading as loading

    threads: list[str] = []
    original = loading.import_later_panes

    def noted() -> None:
        threads.append(threading.current_thread().name)
        original()

    monkeypatch.setattr(loading, "import_later_panes", noted)
    app = PlaygroundApp(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert threads == ["playground-load"]
        app.action_reload_tools()
        await settle(app, pilot)
        assert threads == ["playground-load"]


async def test_a_contract_asked_for_once_the_tools_are_loaded_waits_for_the_view(tools_dir):
    """``app.pg`` is set before the Call view has built its panes, list and form (one batch
    after it): a contract selected right then (in the app's own watcher of the load) is shown
    once they are built, never a ``NoMatches`` or ``False``."""
    import asyncio

    asked: dict[str, object] = {}

    class Eager(PlaygroundApp):
        CSS_PATH = Noted.CSS_PATH

        def watch_workbench(self, old, loaded) -> None:
            super().watch_workbench(old, loaded)
            view = self.query_one(CallView)
            asked["completed"] = view.completed
            asked["task"] = asyncio.ensure_future(view.select_contract("get_order_status"))

    app = Eager(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        task = asked["task"]
        assert isinstance(task, asyncio.Future)
        await task
        assert asked["completed"] is False  # asked inside the window this test is about
        assert task.result() is True
        view = app.query_one(CallView)
        assert view.shown == "get_order_status"
        await settle(app, pilot)
        assert view.shown == "get_order_status"
        assert app.query_one(ArgForm).fields


async def test_the_footer_keys_are_laid_out_with_the_first_loaded_screen(
    tools_dir, monkeypatch, held_load
):
    """The footer is held (``KeysFooter(hold=True)``): its keys are composed in the first load's
    batch, never in a frame of their own while the tools load (Textual's footer rebuilt itself
    for the first "bindings updated" signal: one more layout and paint of the screen)."""
    monkeypatch.setattr(app_module, "HOLD_LIMIT_S", 60.0)  # not the fallback: the load
    layouts: list[tuple[bool, bool]] = []

    class Counted(PlaygroundApp):
        CSS_PATH = Noted.CSS_PATH

        def on_mount(self) -> None:
            super().on_mount()
            layout = self.screen._refresh_layout

            def noted(*args, **kwargs):
                keys = bool(self.query_one(KeysFooter).query(FooterKey))
                layouts.append((keys, self.query_one(CallView).completed))
                return layout(*args, **kwargs)

            self.screen._refresh_layout = noted  # type: ignore[method-assign]

    app = Counted(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert app.pg is None and not app.query_one(KeysFooter).query(FooterKey)
        held_load.set()
        await settle(app, pilot)
        keys = [key.key for key in app.query_one(KeysFooter).query(FooterKey)]
        assert {"f6", "question_mark", "ctrl+r"} <= set(keys), keys
        assert (True, False) not in layouts, layouts  # no layout of keys before the load
        assert (True, True) in layouts


async def test_the_footer_keys_show_while_a_slow_load_goes_on(tools_dir, monkeypatch, held_load):
    """A module slow to import: the footer's keys are shown after ``HOLD_LIMIT_S`` anyway
    (ctrl+q, ? and the rest must be on screen while the user waits)."""
    import asyncio

    monkeypatch.setattr(app_module, "HOLD_LIMIT_S", 0.05)
    shown = asyncio.Event()
    show_keys = KeysFooter.show_keys

    async def noted(self: KeysFooter) -> None:
        await show_keys(self)
        shown.set()

    monkeypatch.setattr(KeysFooter, "show_keys", noted)
    app = PlaygroundApp(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await asyncio.wait_for(shown.wait(), 30)
        await pilot.pause()
        assert app.pg is None  # still loading
        keys = [key.key for key in app.query_one(KeysFooter).query(FooterKey)]
        assert {"question_mark", "ctrl+r"} <= set(keys), keys
        held_load.set()
        await settle(app, pilot)
        assert app.query_one(CallView).shown == "stock_lookup"
