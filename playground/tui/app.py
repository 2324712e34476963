"""The Tool Playground TUI: ``PlaygroundApp`` and ``run_tui``.

Modes are tabs: Call (F1), Ask (F2), Steps (F3), Evaluate (F4), History (F5). The app owns the
:class:`~playground.workbench.Playground` (registry + gate + cache) and the router settings and
hands them down to the views; views post messages up. Blocking work (loading tool modules,
gate calls, episodes, evaluations) runs in thread workers.

Only the Call view is built at start; every other view (and its module's imports) is built the
first time its tab opens or a message needs it (:meth:`PlaygroundApp.view`), and is handed the
app's state then (issue 13 item 6: a first screen close to a bare Textual app's).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import os
import sys
import threading
from functools import cached_property
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, TabbedContent, TabPane

from playground.routing import registry
from playground.tui.commands import PlaygroundCommands
from playground.tui.css_files import CALL_CSS, VIEWS_CSS, read_css
from playground.tui.router_pick import RouterPick
from playground.tui.views.call_view import CallView

if TYPE_CHECKING:
    from playground.core.history import HistoryStore
    from playground.tui.views.ask_view import AskView
    from playground.tui.views.eval_view import EvalView
    from playground.tui.views.history_view import HistoryView
    from playground.tui.views.steps_view import StepsView
    from playground.workbench import Playground

MODES = ("call", "ask", "steps", "evaluate", "history")

#: Per tab id: the tab's label and its view (module, class, widget id). The views other than Call
#: are built when first needed (:meth:`PlaygroundApp.view`); their modules are imported then.
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


class PlaygroundApp(App[None]):
    """The workbench. ``tools``: tool module paths (default ``./tools``; not loaded when only
    MCP servers are given); ``mcp``: MCP server specs (``core.mcp_config.McpServerSpec``);
    ``playground``: an already opened Playground (tests), used instead of loading ``tools``."""

    CSS_PATH = "app.tcss"
    TITLE = "Tool Playground"
    COMMANDS = App.COMMANDS | {PlaygroundCommands}
    BINDINGS = [
        Binding("question_mark,f10", "help", "Keys", id="help"),  # first: never cut off
        Binding("ctrl+r", "run", "Run", id="run", priority=True),
        # The mode keys are shown in the tab labels ("Call F1"…) and ctrl+t in the contract
        # pane's title, not in the footer: at 80-100 columns the footer must fit the view's keys.
        Binding("f1", "mode('call')", "Call", id="mode-call", show=False),
        Binding("f2", "mode('ask')", "Ask", id="mode-ask", show=False),
        Binding("f3", "mode('steps')", "Steps", id="mode-steps", show=False),
        Binding("f4", "mode('evaluate')", "Evaluate", id="mode-evaluate", show=False),
        Binding("f5", "mode('history')", "History", id="mode-history", show=False),
        Binding(
            "ctrl+t",
            "focus_contracts",
            "Contracts",
            id="focus-contracts",
            priority=True,
            show=False,
        ),
        # Tab moves the focus as soon as it arrives (as ctrl+r is handled), so the keys typed
        # right behind it go to the next field: as the screen's binding it ran only once the
        # key had bubbled up from the field, after those keys had gone to the old one
        # ("HR1 Tab 500" put 500 into the first field). Not on dialogs (check_action).
        Binding("tab", "focus_next_now", show=False, priority=True),
        Binding("shift+tab", "focus_previous_now", show=False, priority=True),
        Binding("ctrl+l", "reload_tools", "Reload", id="reload-tools"),
        Binding("ctrl+c", "cancel_call", show=False, priority=True),
        Binding("f9", "switch_router", "Router", id="switch-router"),
        Binding("f11", "mcp_log", "MCP log", id="mcp-log", show=False, priority=True),
        Binding("f12", "save_value", "Save value", id="save-value", show=False),
        Binding("ctrl+s", "export", "Export", id="export"),
    ]

    class Loaded(Message):
        """A Playground finished loading (posted from the load worker); ``keep``: a reload, the
        views keep what they show (selection, typed arguments, records)."""

        def __init__(self, pg: Playground, keep: bool = False) -> None:
            super().__init__()
            self.pg = pg
            self.keep = keep

    class HistoryWritten(Message):
        """A run was recorded in the history (posted from the history worker)."""

        def __init__(self, entry_id: int | None) -> None:
            super().__init__()
            self.entry_id = entry_id

    class RerunDone(Message):
        """A history entry ran again: ``old`` and ``new`` entries, or an ``error``."""

        def __init__(self, old: Any, new: Any = None, error: str = "") -> None:
            super().__init__()
            self.old, self.new, self.error = old, new, error

    def __init__(
        self,
        tools: list[str] | None = None,
        playground: Playground | None = None,
        in_process: bool | None = None,
        *,
        history: str | None = None,
        no_history: bool = False,
        mcp: list[Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.tools = list(tools) if tools else None
        self.mcp = list(mcp or [])
        self.pg = playground
        self._main_thread = threading.get_ident()
        #: ``--history`` and ``--no-history``: the store is opened by :attr:`history`.
        self._history_option = (history, no_history)
        if in_process is None:  # the CLI's parser of the variable (1/true/yes/on, 0/false/no/off)
            from playground.core.settings import setting

            in_process = bool(setting("PLAYGROUND_IN_PROCESS", False))
        #: run bodies in this process (palette "Tool source: in-process") instead of a worker
        self.in_process = in_process
        self.router_name = registry.DEFAULT_ROUTER
        #: Per router name: the function-calling mode and the model chosen in the palette
        #: (absent: the router's default — its first mode; ``--model``'s default).
        self.router_modes: dict[str, str] = {}
        self.router_models: dict[str, str] = {}
        #: Per tab id: its view, once built and handed the app's state (see :meth:`view`).
        self._views: dict[str, Widget] = {}
        #: the widgets the focus left since the last ctrl+r by Tab or by a key the contract
        #: list handed to a field: keys typed into them just before may still wait in their
        #: queues (see :meth:`note_focus_left`, :meth:`action_run`)
        self._left_with_keys: list[Widget] = []
        self._building = asyncio.Lock()
        #: The garbage collector is paused from Load to the first screen (see :meth:`on_load`).
        self._gc_paused = False

    @cached_property
    def history(self) -> HistoryStore | None:
        """The history store (``None``: history off), opened on first use: the app opens it
        right after its first screen (importing :mod:`playground.core.history` and ``sqlite3``
        is ~5 ms the first screen does not need)."""
        from playground.core.history import open_history

        option, disabled = self._history_option
        return open_history(option, disabled=disabled, notice=self._history_notice)

    def on_load(self) -> None:
        # The first screen allocates ~70 widgets and their styles on top of ~0.5 M objects the
        # imports left; the collector's full passes over them cost ~40 ms of the first screen
        # (issue 13 item 6). Paused until it is drawn (or the app ends before that).
        if gc.isenabled():
            gc.disable()
            self._gc_paused = True

    def _resume_gc(self) -> None:
        if self._gc_paused:
            self._gc_paused = False
            gc.enable()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's toast, with the rule for untrusted text applied to ``message`` and
        ``title`` (:func:`~playground.core.untrusted.shown`; they often quote a tool's name,
        message or a server's words) and markup off unless a caller asks for it."""
        from playground.core.untrusted import shown

        super().notify(
            shown(message), title=shown(title), severity=severity, timeout=timeout, markup=markup
        )

    def compose(self) -> ComposeResult:
        # The layout classes are set before the first style pass: set after mount, each one
        # restyled every widget again (~0.15 s of the first screen at 80x24).
        narrow = self._fit(self.size.width, self.size.height, update=False)
        yield Header()
        with TabbedContent(initial="call", id="modes"):
            for tab, (label, *_) in TABS.items():
                if tab == "call":
                    with TabPane(label, id=tab):
                        yield CallView(id="call-view")
                else:
                    yield TabPane(label, id=tab)  # its view is built when first needed
        # the docked "^p palette" item overlaps the keys when they overflow (it read
        # "^l Relo▏^p paletter" at 100 columns); the palette stays on ctrl+p and in the help
        yield Footer(compact=narrow, show_command_palette=not narrow)

    def on_mount(self) -> None:
        self._views["call"] = self.query_one(CallView)
        self._update_subtitle()
        # Everything else waits until the first screen is drawn (issue 13 item 6): the rest of
        # the Call view, then the tools (the load worker's imports would compete with it).
        self.call_after_refresh(self.call_later, self._after_first_screen)

    async def _after_first_screen(self) -> None:
        self._resume_gc()
        _ = self.history  # opened here, on the UI thread, before any worker writes to it
        await self.query_one(CallView).complete()
        if self.pg is not None:
            self.post_message(self.Loaded(self.pg))
        else:
            self._load_worker(self.tools)

    # -- views built on first use ----------------------------------------------------------------
    def built(self, tab: str) -> Any:
        """The view of tab ``tab`` (a :data:`TABS` key) if it is built, else ``None``."""
        return self._views.get(tab)

    async def view(self, tab: str) -> Any:
        """The view of tab ``tab`` (a :data:`TABS` key), built, mounted in its pane and handed the
        app's state (playground, router, history store) the first time it is needed.

        Builds are serialised: two callers asking at once get the same view. A ``Loaded`` that
        arrives while a view is being mounted is seen by the hand-down, which reads the app's
        state after the mount."""
        async with self._building:
            view = self._views.get(tab)
            if view is not None:
                return view
            _, module, class_name, widget_id = TABS[tab]
            read_css(self, CALL_CSS, VIEWS_CSS)  # their rules, and the shared classes
            view = getattr(importlib.import_module(module), class_name)(id=widget_id)
            if hasattr(view, "router"):
                view.router = self.router_pick  # composed into its status line
            await self.query_one(f"#{tab}", TabPane).mount(view)
            self._hand_down(tab, view)
            self._views[tab] = view
            return view

    def _hand_down(self, tab: str, view: Any) -> None:
        """Give a newly built view the state the app handed the built views so far."""
        if tab == "history":
            view.set_store(self.history)
            return
        if self.pg is None:
            return
        if tab == "mcp-log-tab":
            view.set_sources(self._mcp_sources())
            return
        view.set_playground(self.pg)
        shown = self.query_one(CallView).shown
        if tab == "evaluate" and shown:
            view.show_lint_for(shown)

    def _mcp_sources(self) -> list[Any]:
        """The registry's MCP sources (none unless ``core.mcp_source`` was ever imported: no
        McpSource can exist without it, and importing it would pull in the ``mcp`` SDK)."""
        module = sys.modules.get("playground.core.mcp_source")
        if module is None or self.pg is None:
            return []
        return [s for s in self.pg.registry.sources if isinstance(s, module.McpSource)]

    # -- loading ---------------------------------------------------------------------------------
    @work(exclusive=True, group="load", exit_on_error=False)
    async def _load_worker(self, tools: list[str] | None, keep: bool = False) -> None:
        # a daemon thread: ctrl+q while a module hangs at import quits at once (a thread
        # worker is waited for at exit); the worker process it started ends at exit
        from playground.tui.daemon_thread import in_daemon_thread

        await in_daemon_thread(self._load_tools, tools, keep, name="playground-load")

    def _load_tools(self, tools: list[str] | None, keep: bool = False) -> None:
        """Load the tools (and MCP servers) and post :class:`Loaded` (on a daemon thread)."""
        from playground.workbench import Playground, open_playground

        registry.get(self.router_name)  # import the router's module here, off the UI thread

        if not self.mcp:
            self.post_message(self.Loaded(open_playground(tools, in_process=self.in_process), keep))
            return
        # a reload (ctrl+l) reconnects the MCP servers too: _loaded closes the old playground
        from playground.core.mcp_source import add_mcp_servers, start_mcp_servers

        pending = start_mcp_servers(self.mcp)
        if tools:
            pg = open_playground(tools, in_process=self.in_process)
        else:
            from playground.core.gate import Gate
            from playground.core.registry import Registry

            contracts = Registry()
            pg = Playground(registry=contracts, gate=Gate(contracts), in_process=self.in_process)
        sources, choices = add_mcp_servers(pg.registry, pending)
        for source in sources:
            source.on_progress = self._progress_from_server
            source.on_tools_changed = lambda source=source: self.call_from_thread(
                self._tools_changed, source
            )
        from playground.tui.mcp_hooks import attach_client_features

        attach_client_features(self, sources)  # the elicitation form, sampling by the router
        for choice in choices:
            self.call_from_thread(self.notify, choice, title="Name clash")
        self.post_message(self.Loaded(pg, keep))

    def _progress_from_server(
        self, tool: str, done: float, total: float | None, message: str | None
    ) -> None:
        """A ``notifications/progress`` from a server (on its loop thread): the progress bar
        of the Call view's record panel."""
        self.call_from_thread(self._show_progress, done, total, message)

    def _show_progress(self, done: float, total: float | None, message: str | None) -> None:
        from playground.tui.views.call_view import CallView

        with contextlib.suppress(Exception):  # the view may be gone (quitting)
            self.query_one(CallView).record_view.show_progress(done, total, message)

    def _tools_changed(self, source: Any) -> None:
        """``notifications/tools/list_changed``: list that server's tools again."""
        self.notify(f"{source.label}: tool list changed; refreshing", title="MCP")
        self._refresh_worker(source)

    @work(thread=True, group="mcp-refresh", exit_on_error=False)
    def _refresh_worker(self, source: Any) -> None:
        if self.pg is None:
            return
        registry = self.pg.registry
        result = source.refresh()
        for name in [n for n, c in registry.contracts.items() if c.source == source.label]:
            del registry.contracts[name]
        for contract in result.contracts:
            contract.tool_source = source
            registry.add(contract)
        registry.problems.extend(result.problems)
        self.post_message(self.Loaded(self.pg, True))

    def on_unmount(self) -> None:
        self._resume_gc()
        if self.pg is not None:
            self.pg.close()  # ends the worker process and the MCP servers

    def action_cancel_call(self) -> None:
        """ctrl+c: cancel the Call view's running call; otherwise what ctrl+c does without
        a call (copy the focused field's selection, or the hint how to quit)."""
        call_view = self.query_one(CallView)
        if call_view.cancel_call():
            self.notify("Call cancelled (ctrl+c).", severity="warning")
            return
        focused = self.focused
        copy = getattr(focused, "action_copy", None)
        if callable(copy):
            copy()
        else:
            self.action_help_quit()

    def action_save_value(self) -> None:
        """Write the Call view's last value (all of it, not the preview) to a file."""
        call_view = self.query_one(CallView)
        try:  # the record panel is mounted right after the first screen
            path = call_view.record_view.save_value() if call_view.completed else None
            media = call_view.record_view.save_media() if path is not None else []
        except OSError as exc:
            self.notify(f"Could not save the value: {exc}", severity="error")
            return
        if path is None:
            self.notify("No value to save yet: run a call first.", severity="warning")
        else:  # an MCP result's images and audio too, as the bytes the server sent
            also = "; " + ", ".join(str(p) for p in media) if media else ""
            self.notify(f"Value saved to {path}{also}")

    def action_toggle_in_process(self) -> None:
        """Switch where bodies run (worker process ⇄ this process) and reload the tools."""
        self.in_process = not self.in_process
        where = "in this process (for a debugger)" if self.in_process else "in a worker process"
        self.notify(f"Tool bodies now run {where}; reloading tools…")
        self._load_worker(self.tools)

    @on(Loaded)
    async def _loaded(self, event: Loaded) -> None:
        old = self.pg
        self.pg = event.pg
        if old is not None and old is not event.pg:
            old.close()
        from textual.widgets import TextArea  # imported by now (the JSON editor is built)

        registry = self.pg.registry
        call_view = self.query_one(CallView)
        await call_view.set_playground(self.pg, keep=event.keep)  # mounts the panes if not yet
        for tab in ("ask", "steps", "evaluate", "mcp-tab"):
            if (view := self.built(tab)) is not None:
                view.set_playground(self.pg)
        if (log_view := self.built("mcp-log-tab")) is not None:
            log_view.set_sources(self._mcp_sources())
        for problem in registry.problems:
            self.notify(str(problem), title="Load problem", severity="error", timeout=10)
        if not registry.contracts:
            self.notify(
                "No contracts loaded; see the Call view for how to add tools.", severity="warning"
            )
        elif (
            not event.keep
            and self.mode_name == "call"
            and not isinstance(self.focused, (Input, TextArea))
        ):
            self.query_one("#contracts").focus()  # keyboard first: start in the contract list
        self._update_subtitle()

    @property
    def router_pick(self) -> RouterPick:
        """The router chosen for Ask and Evaluate, with its mode and model (see
        :class:`~playground.tui.views.ask_view.RouterPick`)."""
        spec = registry.get(self.router_name)
        mode = self.router_modes.get(spec.name) or (
            spec.capabilities.modes[0] if spec.capabilities.modes else None
        )
        return RouterPick(spec.name, mode, self.router_models.get(spec.name))

    def _update_subtitle(self) -> None:
        count = len(self.pg.registry) if self.pg is not None else 0
        source = "in-process" if self.in_process else "worker"
        # Until the tools are loaded the router's module is not imported (the offline router's
        # imports are ~100 ms of the first screen; the load worker imports it): its name and
        # the mode and model chosen, without the default mode a router with modes shows later.
        router = (
            self.router_pick
            if self.pg is not None
            else RouterPick(
                self.router_name,
                self.router_modes.get(self.router_name),
                self.router_models.get(self.router_name),
            )
        )
        self.sub_title = (
            f"{count} contract{'' if count == 1 else 's'} · router {router} · bodies: {source}"
        )

    # -- actions ---------------------------------------------------------------------------------
    @property
    def mode_name(self) -> str:
        """The active mode tab: ``call``, ``ask``, ``steps`` or ``evaluate``."""
        return self.query_one("#modes", TabbedContent).active

    async def action_mode(self, mode: str) -> None:
        """Show the mode tab ``mode`` (building its view the first time) and focus its first
        widget (``FOCUS_ON_OPEN``)."""
        if mode not in MODES:
            return
        await self.view(mode)
        self.show_mode(mode)

    async def action_mcp_log(self) -> None:
        """Open the MCP log tab: each server's stderr, log messages, progress, notices."""
        view = await self.view("mcp-log-tab")
        if view is not None:
            self.query_one("#modes", TabbedContent).active = "mcp-log-tab"
            # the focus goes along: one left in another tab would switch the tabs back
            self.set_focus(view.query_one("#mcp-log"))

    def show_mode(self, mode: str) -> None:
        """Show the mode tab ``mode``, whose view is built, and focus its first widget at once.

        At once, not after a refresh: a ``TabPane.Focused`` message still queued from the
        previous tab's focus would otherwise switch the tabs back (``ctrl+t`` from Ask used to
        land back in Ask under load); the focus posted now is handled after it."""
        view = self.built(mode)
        if view is None:
            return
        self.query_one("#modes", TabbedContent).active = mode
        target = self.FOCUS_ON_OPEN.get(mode)
        widgets = list(view.query(target)) if target else []
        if widgets and widgets[0].display:
            self.set_focus(widgets[0])

    def action_focus_contracts(self) -> None:
        """Open the Call view and focus the contract list (keyboard first: from anywhere)."""
        if self.mode_name != "call":
            self.show_mode("call")  # focuses the list
            return
        self.query_one("#contracts").focus()

    #: Below this many columns the panes stack (see ``.-narrow`` in app.tcss).
    NARROW_BELOW = 120

    #: Below this many rows the contract description box is hidden (``.-short``).
    SHORT_BELOW = 28

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int, update: bool = True) -> bool:
        """Set the screen's ``-narrow`` / ``-short`` classes and the compact footer for a
        ``width`` x ``height`` terminal (one restyle, only when a class changes; ``update``
        false: no restyle, before the widgets are styled). Returns whether it is narrow."""
        narrow = width < self.NARROW_BELOW
        self.screen.update_classes(
            {"-narrow": narrow, "-short": height < self.SHORT_BELOW}, update=update
        )
        for footer in self.query(Footer):
            footer.compact = narrow
            footer.show_command_palette = not narrow
        return narrow

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The app's own Tab (:meth:`action_focus_next_now`) only on the main screen: a dialog
        (help, export, the palette) keeps Textual's."""
        if action in ("focus_next_now", "focus_previous_now"):
            return self.screen is self.screen_stack[0]
        return True

    def action_focus_next_now(self) -> None:
        """Focus the next widget now (see the ``tab`` binding)."""
        self._note_left()
        self.screen.focus_next()

    def action_focus_previous_now(self) -> None:
        """Focus the previous widget now (see the ``tab`` binding)."""
        self._note_left()
        self.screen.focus_previous()

    def _note_left(self) -> None:
        if self.focused is not None:
            self.note_focus_left(self.focused)

    def note_focus_left(self, widget: Widget) -> None:
        """``widget`` loses the focus while keys typed into it may still wait in its queue (Tab,
        or a key the contract list hands to a field): the next ctrl+r waits for them first."""
        self._left_with_keys = [w for w in self._left_with_keys if w is not widget][-7:]
        self._left_with_keys.append(widget)

    def action_run(self) -> None:
        """Run the active view's main action, after every key already sent to the focused widget.

        ``ctrl+r`` is a priority binding: the app handles it as soon as it arrives, while the
        keys typed just before it may still wait in the focused field's message queue. Reading
        the fields now would send what was there before those keys (seen as ``missing:order_id``
        with the id on screen). So the read is queued behind them, in the focused widget's own
        queue: what is sent is what the fields show once the keys before ctrl+r are in. The
        widgets the focus left since the last run are waited for first, in the order left
        ("HR1 Tab 500 ctrl+r": the first field's keys, then the second's, then the run)."""
        chain = [w for w in self._left_with_keys if w is not self.focused]
        if self.focused is not None:
            chain.append(self.focused)
        self._left_with_keys = []

        def after(index: int) -> None:
            if index == len(chain):
                self._run_active_view()
            elif not chain[index].is_attached or not chain[index].call_later(after, index + 1):
                after(index + 1)

        after(0)

    def _run_active_view(self) -> None:
        mode = self.mode_name
        view = self.built(mode)
        if view is None:  # its tab was clicked and the view is still being built
            return
        if mode == "call":
            view.run_call()
        elif mode == "ask":
            view.run_question()
        elif mode == "steps":
            view.action_to_end()
        elif mode == "evaluate":
            view.run_evaluation()

    def action_run_repair(self) -> None:
        """Run the Call view's arguments as a manual episode (opens Steps)."""
        self.show_mode("call")
        self.query_one(CallView).request_repair()

    def action_clear_cache(self) -> None:
        """Forget every cached result of the gate."""
        if self.pg is None:
            return
        count = len(self.pg.gate.cache)
        self.pg.gate.cache.clear()
        self.notify(f"Cache cleared ({count} entries).")

    def action_reload_tools(self) -> None:
        """Import the tool modules again and reconnect the MCP servers: a new registry, gate
        and cache. The Call view keeps the selected contract, the typed arguments and the
        records."""
        self.notify("Reloading tools…")
        self._load_worker(self.tools, keep=True)

    def current_view(self) -> Any:
        """The open mode's view widget (CallView, AskView, StepsView, EvalView, HistoryView or
        McpLogView); ``None`` while a clicked tab's view is still being built."""
        return self.built(self.mode_name)

    def action_help(self) -> None:
        """Open the help screen: the keys of the current view."""
        from playground.tui.help_screen import HelpScreen, key_rows

        if self.screen is not self.screen_stack[0]:  # a dialog is open: it has its own keys
            return
        view = self.current_view()
        self.push_screen(HelpScreen(self.mode_name.capitalize(), key_rows(self, view)))

    def action_export(self) -> None:
        """Open the copy / save dialog for what the current view shows."""
        from playground.tui.export_screen import ExportScreen

        if self.screen is not self.screen_stack[0]:  # a dialog is open
            return
        exportables = getattr(self.current_view(), "exportables", None)
        items = exportables() if exportables is not None else {}
        if not items:
            self.notify("Nothing to copy or save in this view yet.", severity="warning")
            return
        self.push_screen(ExportScreen(items))

    def action_switch_router(self) -> None:
        """Switch Ask and Evaluate to the next registered router (in registry order, wrapping),
        skipping routers whose key is missing (the app says how to set it)."""
        names = registry.names()
        start = names.index(self.router_name) if self.router_name in names else -1
        for step in range(1, len(names)):
            name = names[(start + step) % len(names)]
            if self._usable(name):
                self.set_router(name)
                return

    def _usable(self, name: str) -> bool:
        """Whether router ``name`` can run here; notifies the backend's key hint when not."""
        from playground.routing.factory import missing_setting

        missing = missing_setting(name)
        if not missing:
            return True
        spec = registry.get(name)
        self.notify(
            f"{missing}. Staying with the {self.router_name} router.",
            title=spec.name,
            severity="warning",
            timeout=12,
        )
        return False

    def set_router(self, name: str) -> None:
        """Use router ``name`` (a registered name) for Ask and Evaluate. A router whose key is
        missing is not chosen: the app says how to set the key and keeps the current router."""
        try:
            spec = registry.get(name)
        except Exception as exc:  # UsageError: an unknown name from the palette
            self.notify(str(exc), severity="error")
            return
        if not self._usable(spec.name):
            return
        self.router_name = spec.name
        self._router_changed()
        self.notify(f"Router: {self.router_pick}")

    async def set_compare_router(self, name: str | None) -> None:
        """Ask's compare mode: also run each question on router ``name`` and show both side by
        side (``None``: off). A router that cannot run here is refused with the reason."""
        if name is not None and not self._usable(name):
            return
        view: AskView = await self.view("ask")
        view.set_compare(name)
        self.notify(f"Compare with: {name}" if name else "Compare: off")

    def _router_changed(self) -> None:
        for tab in ("ask", "evaluate"):
            if (view := self.built(tab)) is not None:
                view.router_changed(self.router_pick)
        self._update_subtitle()

    def set_router_mode(self, mode: str) -> None:
        """Use function-calling ``mode`` for the current router (one of its
        ``capabilities.modes``; Gemini: AUTO, ANY, NONE, VALIDATED)."""
        spec = registry.get(self.router_name)
        if mode not in spec.capabilities.modes:
            self.notify(f"the {spec.name} router has no mode {mode!r}", severity="error")
            return
        self.router_modes[spec.name] = mode
        self._router_changed()
        self.notify(f"{spec.name} mode: {mode}")

    def set_router_model(self, model: str) -> None:
        """Use ``model`` for the current router (one with models: Gemini). Blank: back to the
        default (``PLAYGROUND_GEMINI_MODEL`` or the built-in default)."""
        spec = registry.get(self.router_name)
        if spec.default_model is None:
            self.notify(f"the {spec.name} router has no models", severity="error")
            return
        model = model.strip()
        if model:
            self.router_models[spec.name] = model
        else:
            self.router_models.pop(spec.name, None)
        self._router_changed()
        shown = model or f"{spec.model_for(None, os.environ)} (default)"
        self.notify(f"{spec.name} model: {shown}")

    #: The widget focused when a mode tab opens (keyboard first).
    FOCUS_ON_OPEN = {
        "call": "#contracts",
        "ask": "#question",
        "steps": "#steps-table",
        "evaluate": "#eval-path",
        "history": "#history-table",
    }

    @on(TabbedContent.TabActivated, "#modes")
    async def _mode_opened(self, event: TabbedContent.TabActivated) -> None:
        mode = event.pane.id or ""
        if mode not in TABS or not self.is_running:
            return
        view = await self.view(mode)  # a tab opened by a click or the tab keys: build it now
        call_view = self.built("call")
        if mode == "evaluate" and call_view is not None and call_view.shown:
            view.show_lint_for(call_view.shown)
        target = self.FOCUS_ON_OPEN.get(mode)
        widgets = list(view.query(target)) if target else []
        if widgets:
            # Focus after the switch has been drawn, and only if the mode is still shown: a late
            # focus inside another tab would make TabbedContent switch back to that tab.
            def focus_if_still_open(widget: Widget = widgets[0]) -> None:
                if self.mode_name == mode:
                    widget.focus()

            self.call_after_refresh(focus_if_still_open)

    # -- messages between views (handlers named for the message: the views' modules are imported
    # only when the view is built) ------------------------------------------------------------------
    @on(CallView.RepairRequested)
    async def _repair(self, event: CallView.RepairRequested) -> None:
        steps: StepsView = await self.view("steps")
        self.show_mode("steps")
        steps.run_manual(event.tool, event.args)

    async def on_eval_view_open_question(self, event: EvalView.OpenQuestion) -> None:
        """A failing case was chosen in Evaluate: run its question in Ask."""
        ask: AskView = await self.view("ask")
        self.show_mode("ask")
        ask.run_question(event.question)

    async def on_ask_view_episode_ready(self, event: AskView.EpisodeReady) -> None:
        """An Ask episode finished: keep it in the step-through and the history."""
        steps: StepsView = await self.view("steps")
        steps.add_episode(event.episode)
        self.record_history("episode", event.episode.to_json())

    # -- history ---------------------------------------------------------------------------------
    def _history_notice(self, text: str) -> None:
        if threading.get_ident() == self._main_thread:
            self.notify(text, title="History", severity="warning", timeout=10)
        else:
            self.call_from_thread(
                self.notify, text, title="History", severity="warning", timeout=10
            )

    def _source(self) -> str:
        """The tool source as the history stores it: the module paths (none for an MCP-only
        session), then ``MCP server NAME`` for each server (as the CLI stores it)."""
        import os

        from playground.core.history import source_text

        sources = self.pg.registry.sources if self.pg is not None else []
        loaded = [s.label[4:] for s in sources if s.label.startswith("mcp:")]
        names = loaded or [spec.name for spec in self.mcp]
        servers = [f"MCP server {name}" for name in names]
        paths = source_text(self.tools or ([] if servers else ["tools"]))
        return os.pathsep.join(part for part in (paths, *servers) if part)

    def record_history(self, kind: str, data: Any) -> None:
        """Record a call record or episode JSON of a hand test (in a worker; never fails)."""
        if self.history is not None and self.pg is not None:
            self._history_worker(self.pg.registry, kind, data)

    @work(thread=True, group="history-write", exit_on_error=False)
    def _history_worker(self, registry: Any, kind: str, data: Any) -> None:
        from playground.core.history import mcp_sources, record_run

        entry_id = record_run(
            self.history,
            registry,
            kind,
            data,
            source=self._source(),
            origin="tui",
            mcp=mcp_sources(registry.sources),  # for `playground history rerun` to reconnect
        )
        self.post_message(self.HistoryWritten(entry_id))

    @on(CallView.CallDone)
    def _call_done(self, event: CallView.CallDone) -> None:
        self.record_history("call", event.record.to_json())

    def on_steps_view_episode_done(self, event: StepsView.EpisodeDone) -> None:
        """A manual episode or a fork finished: record it in the history."""
        if event.episode is not None:
            self.record_history("episode", event.episode.to_json())

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
            self.show_mode("call")
            call_view = self.query_one(CallView)
            if self.pg is not None and entry.tool in self.pg.registry:
                await call_view.select_contract(entry.tool)
            call_view.record_view.show_record(record_from_json(entry.data))
        else:
            label = f"history #{entry.id}: {entry.question or entry.tool}"
            steps: StepsView = await self.view("steps")
            steps.add_episode(episode_from_json(entry.data), label)
            self.show_mode("steps")

    def on_history_view_rerun(self, event: HistoryView.Rerun) -> None:
        """``r`` on a history entry: run it again (in a worker)."""
        if self.pg is None:
            self.notify("The tools are still loading.", severity="warning")
            return
        self.notify(f"Rerunning #{event.entry.id}…")
        self._rerun_worker(self.pg, event.entry)

    @work(thread=True, group="history-rerun", exit_on_error=False)
    def _rerun_worker(self, pg: Any, entry: Any) -> None:
        import os

        from playground.batch.replay import rerun
        from playground.core.history import call_entry, episode_entry, mcp_sources, record_run

        try:
            router = None
            if entry.type == "episode" and entry.question is not None:
                from playground.routing import registry as router_registry
                from playground.routing.factory import choose_router

                name = (
                    entry.router
                    if entry.router in router_registry.names()
                    else router_registry.DEFAULT_ROUTER
                )
                router = choose_router(name, None, None, os.environ, fallback=True).router
            result = rerun(pg, entry.type, entry.data, entry.hashes, router)
        except Exception as exc:  # a rerun must never take the app down
            self.post_message(self.RerunDone(entry, error=f"{type(exc).__name__}: {exc}"))
            return
        new_id = record_run(
            self.history,
            pg.registry,
            entry.type,
            result.new,
            source=self._source(),
            origin="rerun",
            rerun_of=entry.id,
            mcp=mcp_sources(pg.registry.sources),
        )
        build = call_entry if entry.type == "call" else episode_entry
        new = build(result.new, result.hashes, origin="rerun", rerun_of=entry.id)
        new.id = new_id or 0
        self.post_message(self.RerunDone(entry, new))

    @on(RerunDone)
    def _rerun_done(self, event: RerunDone) -> None:
        if event.error:
            self.notify(event.error, title="Rerun", severity="error")
            return
        view = self.built("history")  # a rerun is asked for from the History view
        if view is None:
            return
        view.show_diff(event.old, event.new)
        view.refresh_entries(select=event.new.id or None)


def run_tui(
    tools: list[str] | None = None,
    in_process: bool | None = None,
    history: str | None = None,
    no_history: bool = False,
    mcp: list[Any] | None = None,
) -> None:
    """Open the TUI on ``tools`` (files or folders of tool modules; default ``./tools``).
    ``in_process``: run bodies in this process (default: a worker process, or
    ``PLAYGROUND_IN_PROCESS=1``); ``history``: the history file (default:
    ``PLAYGROUND_HISTORY``, else ``.playground/history.db``); ``no_history``: record nothing;
    ``mcp``: MCP server specs (``core.mcp_config.McpServerSpec``), each a tool source."""
    PlaygroundApp(
        tools=tools, in_process=in_process, history=history, no_history=no_history, mcp=mcp
    ).run()
    # What the app held (records with their values, wire JSON) is garbage now; the collector's
    # passes over it at interpreter exit made ctrl+q take over a second after a 30 MB result.
    # Frozen, it is left to the OS; atexit handlers and thread joins still run.
    gc.disable()
    gc.freeze()
