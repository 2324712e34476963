"""The mode tabs: Call (F1), Ask (F2), Steps (F3), Evaluate (F4), History (F5) and the MCP log,
and the messages that go from one view to another.

:class:`ModeTabs` is the app's ``TabbedContent``. Only the Call view is built at start; every
other view (and its module's imports and CSS) is built the first time its tab opens or a
message needs it (:meth:`ModeTabs.view`), and is bound then to the app's reactive state
(:mod:`playground.tui.state`): a view's ``pg``, ``router``, ``compare`` and ``store`` reactives
follow the app's ``workbench``, ``router``, ``compare`` and ``store``. They are bound with
``watch`` rather than ``data_bind``, which binds to whichever message pump is active, and a view
is often built on another view's message. Opening a tab focuses the view's ``FIRST_FOCUS``
widget (keyboard first).
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING, Any, cast

from textual import on
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from playground.tui.css_files import CALL_CSS, VIEWS_CSS, read_css
from playground.tui.history_link import HistoryWritten, record_in_worker
from playground.tui.state import Loaded, PlaygroundState
from playground.tui.views.call_view import CallView

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from playground.tui.views.ask_view import AskView
    from playground.tui.views.eval_view import EvalView
    from playground.tui.views.history_view import HistoryView
    from playground.tui.views.steps_view import StepsView

#: The tabs F1-F5 open (``action_mode``).
MODES = ("call", "ask", "steps", "evaluate", "history")

#: Per tab id: the tab's label and its view (module, class, widget id). The views other than Call
#: are built when first needed (:meth:`ModeTabs.view`); their modules are imported then.
TABS: dict[str, tuple[str, str, str, str]] = {
    "call": ("Call F1", "playground.tui.views.call_view", "CallView", "call-view"),
    "ask": ("Ask F2", "playground.tui.views.ask_view", "AskView", "ask-view"),
    "steps": ("Steps F3", "playground.tui.views.steps_view", "StepsView", "steps-view"),
    "evaluate": ("Evaluate F4", "playground.tui.views.eval_view", "EvalView", "eval-view"),
    "history": ("History F5", "playground.tui.views.history_view", "HistoryView", "history-view"),
    "mcp-tab": ("MCP", "playground.tui.views.mcp_view", "McpView", "mcp-view"),
    "mcp-log-tab": (
        "MCP log",
        "playground.tui.views.mcp_log_view",
        "McpLogView",
        "mcp-log-view",
    ),
}

#: Per mode: the method of its view that ``ctrl+r`` runs.
RUN_METHOD = {
    "call": "run_call",
    "ask": "run_question",
    "steps": "action_to_end",
    "evaluate": "run_evaluation",
}


def mode_panes(call_view: CallView) -> ComposeResult:
    """The tab panes: Call's with ``call_view``, the others empty until their view is built."""
    for tab, (label, *_) in TABS.items():
        yield TabPane(label, call_view, id=tab) if tab == "call" else TabPane(label, id=tab)


def bind_state(view: Widget, app: PlaygroundState) -> None:
    """Bind ``view``'s reactives named ``pg``, ``router``, ``compare`` and ``store`` (those it
    has) to the app's state: set now and on every change of the app's reactive."""

    def follow(target: str, source: str, value_of: Any = None) -> None:
        if not isinstance(getattr(type(view), target, None), Reactive):
            return

        def setter(value: Any) -> None:
            setattr(view, target, value_of(value) if value_of else value)

        view.watch(app, source, setter)

    follow("pg", "workbench", lambda loaded: loaded.pg if isinstance(loaded, Loaded) else None)
    for name in ("router", "compare", "store"):
        follow(name, name)


class ModeTabs(TabbedContent):
    """The mode tabs, their views (built on first use) and the messages between the views."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Per tab id: its view, once built and bound (see :meth:`view`).
        self._views: dict[str, Widget] = {}
        self._building = asyncio.Lock()

    def on_mount(self) -> None:
        # the MCP tab shows once MCP servers are loaded (tui/mcp_hooks.py: show_tab)
        self.hide_tab("mcp-tab")

    @property
    def call_view(self) -> CallView:
        """The Call view (composed with the app)."""
        return self.query_one(CallView)

    @property
    def current(self) -> Any:
        """The open tab's view; ``None`` while a clicked tab's view is still being built."""
        return self.built(self.active)

    def built(self, tab: str) -> Any:
        """The view of tab ``tab`` (a :data:`TABS` key) if it is built, else ``None``."""
        if tab == "call":
            return self.call_view
        return self._views.get(tab)

    async def view(self, tab: str) -> Any:
        """The view of tab ``tab`` (a :data:`TABS` key), built, mounted in its pane and bound to
        the app's state the first time it is needed.

        Builds are serialised: two callers asking at once get the same view."""
        async with self._building:
            view = self.built(tab)
            if view is not None:
                return view
            _, module, class_name, widget_id = TABS[tab]
            read_css(self.app, CALL_CSS, VIEWS_CSS)  # their rules, and the shared classes
            view = getattr(importlib.import_module(module), class_name)(id=widget_id)
            await self.get_pane(tab).mount(view)
            bind_state(view, cast(PlaygroundState, self.app))
            shown = self.call_view.shown
            if tab == "evaluate" and shown:
                view.show_lint_for(shown)
            self._views[tab] = view
            return view

    def show(self, mode: str) -> None:
        """Show the tab ``mode``, whose view is built, and focus its first widget at once.

        At once, not after a refresh: a ``TabPane.Focused`` message still queued from the
        previous tab's focus would otherwise switch the tabs back (``ctrl+t`` from Ask used to
        land back in Ask under load); the focus posted now is handled after it."""
        view = self.built(mode)
        if view is None:
            return
        self.active = mode
        target = getattr(view, "FIRST_FOCUS", None)
        widgets = list(view.query(target)) if target else []
        if widgets and widgets[0].display:
            self.app.set_focus(widgets[0])

    def run_active(self) -> None:
        """``ctrl+r``: run the open view's main action (the call, the question, the episode to
        its end, the evaluation)."""
        view = self.current
        method = RUN_METHOD.get(self.active)
        if view is not None and method is not None:  # a clicked tab's view may still be built
            getattr(view, method)()

    @on(TabbedContent.TabActivated)
    async def _opened(self, event: TabbedContent.TabActivated) -> None:
        mode = event.pane.id or ""
        if event.tabbed_content is not self or mode not in TABS or not self.app.is_running:
            return
        view = await self.view(mode)  # a tab opened by a click or the tab keys: build it now
        call_view = self.call_view
        if mode == "evaluate" and call_view.shown:
            view.show_lint_for(call_view.shown)
        target = getattr(view, "FIRST_FOCUS", None)
        widgets = list(view.query(target)) if target else []
        if widgets:
            # Focus after the switch has been drawn, and only if the mode is still shown: a late
            # focus inside another tab would make TabbedContent switch back to that tab.
            def focus_if_still_open(widget: Widget = widgets[0]) -> None:
                if self.active == mode:
                    widget.focus()

            self.call_after_refresh(focus_if_still_open)

    # -- messages between views (handlers named for the message: the views' modules are imported
    # only when the view is built) ------------------------------------------------------------------
    def _record(self, kind: str, data: Any) -> None:
        record_in_worker(self, cast(PlaygroundState, self.app), kind, data)

    @on(CallView.RepairRequested)
    async def _repair(self, event: CallView.RepairRequested) -> None:
        steps: StepsView = await self.view("steps")
        self.show("steps")
        steps.run_manual(event.tool, event.args)

    @on(CallView.CallDone)
    def _call_done(self, event: CallView.CallDone) -> None:
        self._record("call", event.record.to_json())

    async def on_eval_view_open_question(self, event: EvalView.OpenQuestion) -> None:
        """A failing case was chosen in Evaluate: run its question in Ask."""
        ask: AskView = await self.view("ask")
        self.show("ask")
        ask.run_question(event.question)

    async def on_ask_view_episode_ready(self, event: AskView.EpisodeReady) -> None:
        """An Ask episode finished: keep it in the step-through and the history."""
        steps: StepsView = await self.view("steps")
        steps.add_episode(event.episode)
        self._record("episode", event.episode.to_json())

    def on_steps_view_episode_done(self, event: StepsView.EpisodeDone) -> None:
        """A manual episode or a fork finished: record it in the history."""
        if event.episode is not None:
            self._record("episode", event.episode.to_json())

    @on(HistoryWritten)
    def _history_written(self, event: HistoryWritten) -> None:
        history_view = self.built("history")
        if event.entry_id is not None and history_view is not None:
            history_view.refresh_entries()  # an unbuilt History view reads them when built

    async def on_history_view_open_entry(self, event: HistoryView.OpenEntry) -> None:
        """Enter on a history entry: a call opens in Call, an episode in the step-through."""
        from playground.tui.views.history_view import episode_from_json, record_from_json

        entry = event.entry
        if entry.type == "call":
            self.show("call")
            call_view = self.call_view
            if call_view.pg is not None and entry.tool in call_view.pg.registry:
                await call_view.select_contract(entry.tool)
            call_view.record_view.show_record(record_from_json(entry.data))
        else:
            label = f"history #{entry.id}: {entry.question or entry.tool}"
            steps: StepsView = await self.view("steps")
            steps.add_episode(episode_from_json(entry.data), label)
            self.show("steps")
