"""The record panel's wire view asked to show a record before its provider tabs are composed
(the first load's ``record_view.clear()`` on a loaded machine: ``TabbedContent`` composes its
panes after the view is mounted) raised ``NoMatches: '#rv-wire-gemini-json'``. It now shows
the record once the tabs are there."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from playground.tui.widgets.wire_view import WireView
from tests.tui.helpers import SIZE


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("host")


async def test_a_wire_shown_before_the_tabs_exist_is_shown_once_they_do():
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        view = WireView(prefix="early")
        app.mount(view)  # not awaited: the provider tabs are not composed yet
        assert not view.query("#early-gemini-json")
        view.show({"gemini": {"answer": "한글"}, "tokens": {"gemini": 7}})  # no NoMatches
        for _ in range(20):
            await pilot.pause()
            if view.query("#early-gemini-json"):
                break
        await pilot.pause()
        assert "한글" in view.texts["gemini"]
        syntax = view.query_one("#early-gemini-json", Static).content
        assert "한글" in getattr(syntax, "code", str(syntax))  # the JSON shown, highlighted
        assert str(view.tabs.get_tab("early-gemini").label) == "Gemini ~7 tok"
        assert str(view.query_one("#early-openai-json", Static).content) == "(nothing sent)"
