"""Two tricks of the TUI's first screen, each in docs/performance.md's register: the garbage
collector is paused until the contract list and the first form are drawn (then start-up is
frozen, and unfrozen when the app ends), and the Call view's and the other views'
TCSS files are read only after it (the first screen parses ``app.tcss`` alone)."""

from __future__ import annotations

import gc
from pathlib import Path

import playground.tui.app as app_module
from playground.tui.app import PlaygroundApp
from playground.tui.css_files import CALL_CSS, VIEWS_CSS
from tests.tui.helpers import SIZE, settle


class FirstScreen(PlaygroundApp):
    """Notes the collector's state and the stylesheet's sources at mount and at the first
    refresh after it."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # a subclass's own folder

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.at_mount: dict[str, bool] = {}
        self.at_first_screen: dict[str, bool] = {}
        self.at_first_form: dict[str, int] = {}

    def note(self) -> dict[str, bool]:
        return {
            "gc": gc.isenabled(),
            "call.tcss": self.stylesheet.has_source(str(CALL_CSS)),
            "views.tcss": self.stylesheet.has_source(str(VIEWS_CSS)),
        }

    def on_mount(self) -> None:
        self.at_mount = self.note()
        super().on_mount()
        self.call_after_refresh(lambda: self.at_first_screen.update(self.note()))

    def watch_workbench(self, old, loaded) -> None:
        super().watch_workbench(old, loaded)
        # the Call view shows the list and the form, then ends the pause after their refresh
        self.at_first_form = {"gc": gc.isenabled(), "frozen": gc.get_freeze_count()}


async def test_the_collector_pauses_and_the_later_css_waits_until_the_first_screen(tools_dir):
    assert gc.isenabled()
    app = FirstScreen(tools=[str(tools_dir)], no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        expected = {"gc": False, "call.tcss": False, "views.tcss": False}
        assert app.at_mount == expected, "the GC pause / phase-split CSS trick is gone"
        assert app.at_first_screen == expected, "the GC pause / phase-split CSS trick is gone"
        # after the list and the first form: the collector runs again, on what was allocated
        # since (start-up frozen); the Call view's rules are in
        assert app.at_first_form == {"gc": False, "frozen": 0}, "the collector pause is gone"
        assert gc.isenabled()
        assert gc.get_freeze_count() > 100_000, "start-up is not frozen after the first form"
        assert app.stylesheet.has_source(str(CALL_CSS))
        await app.view("ask")  # the other views' rules come with the first of them
        assert app.stylesheet.has_source(str(VIEWS_CSS))
    # the app ended: the collector runs and sees everything again
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_after_the_tui_the_collector_is_frozen_and_off(monkeypatch) -> None:
    """``run_tui`` leaves what the app held to the OS: after ``App.run`` returns the collector
    is off and every object frozen, so the interpreter's exit does not walk them (the register's
    "GC freeze at exit"). The app's ``run`` is replaced: only what follows it is under test."""
    monkeypatch.setattr(PlaygroundApp, "run", lambda self, *a, **k: None)
    assert gc.isenabled()
    try:
        app_module.run_tui(tools=[], no_history=True)
        assert not gc.isenabled(), "the GC freeze at the TUI's exit is gone"
        assert gc.get_freeze_count() > 0, "the GC freeze at the TUI's exit is gone"
    finally:
        gc.unfreeze()
        gc.enable()


def test_the_collector_pause_owns_only_what_it_did() -> None:
    """``CollectorPause``: ``end`` freezes and resumes only a pause it started; ``release``
    unfreezes; with the collector already off (someone else's), nothing is touched."""
    from playground.tui.collector import CollectorPause

    pause = CollectorPause()
    try:
        pause.start()
        assert not gc.isenabled() and pause.paused
        pause.end()
        assert gc.isenabled() and gc.get_freeze_count() > 0
        pause.end()  # twice: nothing more
        pause.release()
        assert gc.isenabled() and gc.get_freeze_count() == 0
        gc.disable()
        other = CollectorPause()
        other.start()
        other.end()
        other.release()
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        gc.enable()


def test_the_cli_imports_the_tui_with_the_collector_off(monkeypatch) -> None:
    """``playground`` (the TUI): the collector is off while the worker starts and the TUI's
    modules are imported, and on again when the app runs (which pauses it itself)."""
    import playground.cli.main as cli_main

    seen: dict[str, bool] = {}
    started = cli_main._tui_started

    def noted_start(*args):
        seen["starting"] = gc.isenabled()
        return started(*args)

    def run_tui(**kwargs) -> None:
        seen["running"] = gc.isenabled()

    monkeypatch.setattr(cli_main, "_tui_started", noted_start)
    monkeypatch.setattr(app_module, "run_tui", run_tui)
    assert gc.isenabled()
    cli_main.open_tui([], in_process=True, no_history=True)
    assert seen == {"starting": False, "running": True}, "the collector trick of the CLI is gone"
    assert gc.isenabled()
