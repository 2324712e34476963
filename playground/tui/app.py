"""The Tool Playground TUI: ``PlaygroundApp`` and ``run_tui``.

Modes are tabs: Call (F1), Ask (F2), Steps (F3), Evaluate (F4), History (F5)
(:class:`~playground.tui.modes.ModeTabs`). The app holds the state
(:class:`~playground.tui.state.PlaygroundState`): the loaded workbench
(:class:`~playground.workbench.Playground`: registry + gate + cache) and the router choice are
reactives the views are bound to; views post messages up. Blocking work (loading tool modules,
gate calls, episodes, evaluations) runs in workers: the loading in :mod:`playground.tui.loading`,
the palette's commands in :mod:`playground.tui.commands`, the router choice in
:mod:`playground.tui.router_choice`, the history in :mod:`playground.tui.history_link`.

Only the Call view is built at start; every other view (and its module's imports) is built the
first time its tab opens or a message needs it (:meth:`PlaygroundApp.view`), and is bound to the
app's state then (a first screen close to a bare Textual app's).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Header

from playground.tui.collector import PAUSE_LIMIT_S, CollectorPause
from playground.tui.commands import PlaygroundCommands, save_value
from playground.tui.css_cache import keep_parsed_css
from playground.tui.footer import HOLD_LIMIT_S, KeysFooter
from playground.tui.history_link import open_store
from playground.tui.loading import load_tools
from playground.tui.main_screen import MainScreen, fit
from playground.tui.modes import MODES, ModeTabs, mode_panes
from playground.tui.router_choice import switch_router
from playground.tui.router_pick import RouterPick
from playground.tui.signal_exit import keep_call_on_signal, keep_what_runs
from playground.tui.state import Loaded, PlaygroundState
from playground.tui.views.call_view import CallView

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from playground.workbench import Playground


def subtitle(app: PlaygroundState) -> str:
    """The app's subtitle: the contracts loaded ("loading tools…" until the first load ends;
    never "0 contracts" for tools not yet read), the router choice, where bodies run."""
    source = "in-process" if app.in_process else "worker"
    if app.workbench is None:
        return f"loading tools… · router {app.router} · bodies: {source}"
    count = len(app.workbench.pg.registry)
    return f"{count} contract{'' if count == 1 else 's'} · router {app.router} · bodies: {source}"


class PlaygroundApp(PlaygroundState):
    """The workbench. ``tools``: tool module paths (default ``./tools``; not loaded when only
    MCP servers are given); ``mcp``: MCP server specs (``sources.mcp_config.McpServerSpec``);
    ``playground``: an already opened Playground (tests), used instead of loading ``tools``."""

    CSS_PATH = "app.tcss"
    TITLE = "Tool Playground"
    COMMANDS = PlaygroundState.COMMANDS | {PlaygroundCommands}
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
        Binding("ctrl+l", "reload_tools", "Reload", id="reload-tools"),
        Binding("ctrl+c", "cancel_call", show=False, priority=True),
        Binding("f9", "switch_router", "Router", id="switch-router"),
        Binding("f11", "mcp_log", "MCP log", id="mcp-log", show=False, priority=True),
        Binding("ctrl+s", "export", "Export", id="export"),
        Binding("f12", "save_value", "Save value", id="save-value", show=False),
    ]

    def __init__(
        self,
        tools: list[str] | None = None,
        playground: Playground | None = None,
        in_process: bool | None = None,
        *,
        history: str | None = None,
        no_history: bool = False,
        mcp: list[Any] | None = None,
        source: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        keep_parsed_css(self.stylesheet)  # parsed TCSS kept between apps and runs
        self.tools = list(tools) if tools else None
        self.mcp = list(mcp or [])
        #: an already opened playground (tests), shown instead of loading ``tools``
        self._given = playground
        #: a worker source already loading ``tools`` (started by the CLI before Textual was
        #: imported); the first load collects it (:func:`playground.tui.loading.load_tools`)
        self.started_source = source
        #: ``--history`` and ``--no-history``: the store is opened after the first screen.
        self._history_option = (history, no_history)
        if in_process is None:  # the CLI's parser of the variable (1/true/yes/on, 0/false/no/off)
            from playground.core.settings import setting

            in_process = bool(setting("PLAYGROUND_IN_PROCESS", False))
        self.in_process = in_process
        self.router_modes = {}
        self.router_models = {}
        #: The garbage collector is paused from Load until the contract list and the first form
        #: are drawn (:mod:`playground.tui.collector`).
        self.collector = CollectorPause()
        #: :meth:`_after_first_screen` is scheduled (once per app)
        self._first_screen_pending = False
        self._restore_signals: Callable[[], None] = lambda: None

    @property
    def pg(self) -> Playground | None:
        """The loaded playground (``None`` until the tools are loaded)."""
        return self.workbench.pg if self.workbench is not None else None

    def on_load(self) -> None:
        # The first screen allocates ~110 widgets and their styles on top of ~0.5 M objects the
        # imports left; the collector's full passes over them cost ~0.2 s until the first form.
        # Paused until it is drawn (or the app ends before that), then start-up is frozen.
        self.collector.start()
        self.set_timer(PAUSE_LIMIT_S, self.collector.end)

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

    def get_default_screen(self) -> Screen[Any]:
        return MainScreen(id="_default")

    def compose(self) -> ComposeResult:
        # The layout classes are set before the first style pass: set after mount, each one
        # restyled every widget again (~0.15 s of the first screen at 80x24).
        narrow = fit(self, self.size.width, self.size.height, update=False)
        yield Header()
        with ModeTabs(initial="call", id="modes"):
            yield from mode_panes(CallView(id="call-view").data_bind(PlaygroundState.workbench))
        # the docked "^p palette" item overlaps the keys when they overflow (it read
        # "^l Relo▏^p paletter" at 100 columns); the palette stays on ctrl+p and in the help
        yield KeysFooter(compact=narrow, show_command_palette=not narrow, hold=True)

    def on_mount(self) -> None:
        self.sub_title = subtitle(self)
        # Everything else waits until the first screen is drawn: the tools (the load worker's
        # imports would compete with it), then the rest of the Call view with the loaded
        # contracts in one batch (CallView.set_playground). Once: Textual also runs this
        # handler for a subclass whose own on_mount calls it (tests, benches).
        if not self._first_screen_pending:
            self._first_screen_pending = True
            if threading.current_thread() is threading.main_thread():  # signal.signal's rule
                # SIGTERM / SIGHUP during a call or an episode keep it (tui/signal_exit)
                self._restore_signals = keep_call_on_signal(
                    self, lambda name: keep_what_runs(self, name)
                )
            self.call_after_refresh(self.call_later, self._after_first_screen)
            for footer in self.query(KeysFooter):  # the keys, if the first load is slow
                self.set_timer(HOLD_LIMIT_S, footer.show_keys)

    async def _after_first_screen(self) -> None:
        # opened here, on the UI thread, before any worker writes to it
        self.store = open_store(self, *self._history_option)
        if self._given is not None:
            self.workbench = Loaded(self._given)
        else:
            load_tools(self)

    async def action_quit(self) -> None:
        """ctrl+q: a call or an Ask / Steps episode still running is stopped and kept in the
        history first, as on SIGTERM (:func:`~playground.tui.signal_exit.keep_what_runs`:
        ``the playground was ended (quit)``), then Textual's quit."""
        keep_what_runs(self, "quit")
        await super().action_quit()

    def on_unmount(self) -> None:
        self._restore_signals()
        self.collector.release()
        if self.pg is not None:
            self.pg.close()  # ends the worker process and the MCP servers

    def watch_workbench(self, old: Loaded | None, loaded: Loaded | None) -> None:
        """A workbench was loaded: close the one it replaces, say what did not load."""
        if old is not None and loaded is not None and old.pg is not loaded.pg:
            old.pg.close()
        if loaded is None:
            return
        registry = loaded.pg.registry
        for problem in registry.problems:
            self.notify(str(problem), title="Load problem", severity="error", timeout=10)
        for warning in registry.warnings:
            self.notify(str(warning), title="Load warning", severity="warning", timeout=10)
        if not registry.contracts:
            self.notify(
                "No contracts loaded; see the Call view for how to add tools.", severity="warning"
            )
        self.sub_title = subtitle(self)

    def watch_router(self, pick: RouterPick) -> None:
        self.sub_title = subtitle(self)

    def on_resize(self, event: events.Resize) -> None:
        fit(self, event.size.width, event.size.height)

    # -- views -----------------------------------------------------------------------------------
    async def view(self, tab: str) -> Any:
        """The view of tab ``tab`` (a :data:`~playground.tui.modes.TABS` key), built the first
        time it is needed (:meth:`ModeTabs.view <playground.tui.modes.ModeTabs.view>`)."""
        return await self.query_one(ModeTabs).view(tab)

    @property
    def mode_name(self) -> str:
        """The active mode tab: ``call``, ``ask``, ``steps``, ``evaluate``, ``history`` or
        ``mcp-log-tab``."""
        return self.query_one(ModeTabs).active

    # -- actions ---------------------------------------------------------------------------------
    async def action_mode(self, mode: str) -> None:
        """Show the mode tab ``mode`` (building its view the first time) and focus its first
        widget (the view's ``FIRST_FOCUS``)."""
        if mode not in MODES:
            return
        modes = self.query_one(ModeTabs)
        await modes.view(mode)
        modes.show(mode)

    def action_focus_contracts(self) -> None:
        """Open the Call view and focus the contract list (keyboard first: from anywhere)."""
        modes = self.query_one(ModeTabs)
        if modes.active != "call":
            modes.show("call")  # focuses the list
            return
        modes.call_view.focus_contracts()

    async def action_mcp_log(self) -> None:
        """Open the MCP log tab: each server's stderr, log messages, progress, notices."""
        modes = self.query_one(ModeTabs)
        view = await modes.view("mcp-log-tab")
        modes.active = "mcp-log-tab"
        # the focus goes along: one left in another tab would switch the tabs back
        self.set_focus(view.log_panel)

    def action_run(self) -> None:
        """Run the active view's main action after every key already sent to the fields
        (:meth:`MainScreen.after_typed_keys <playground.tui.main_screen.MainScreen.after_typed_keys>`)."""
        screen = cast(MainScreen, self.screen_stack[0])
        screen.after_typed_keys(self.query_one(ModeTabs).run_active)

    def action_cancel_call(self) -> None:
        """ctrl+c: cancel the Call view's running call, or the open Ask or Steps view's running
        episode; otherwise what ctrl+c does without one (copy the focused field's selection,
        or the hint how to quit)."""
        if self.query_one(CallView).cancel_call():
            self.notify("Call cancelled (ctrl+c).", severity="warning")
            return
        cancel_episode = getattr(self.query_one(ModeTabs).current, "cancel_episode", None)
        if callable(cancel_episode) and cancel_episode():
            self.notify("Episode cancelled (ctrl+c).", severity="warning")
            return
        copy = getattr(self.focused, "action_copy", None)
        if callable(copy):
            copy()
        else:
            self.action_help_quit()

    def action_reload_tools(self) -> None:
        """Import the tool modules again and reconnect the MCP servers: a new registry, gate
        and cache. The Call view keeps the selected contract, the typed arguments and the
        records."""
        self.notify("Reloading tools…")
        load_tools(self, keep=True)

    def action_switch_router(self) -> None:
        """F9: Ask and Evaluate use the next registered router that can run here
        (:func:`~playground.tui.router_choice.switch_router`)."""
        switch_router(self)

    def action_help(self) -> None:
        """Open the help screen: the keys of the current view."""
        from playground.tui.help_screen import HelpScreen, key_rows

        if self.screen is not self.screen_stack[0]:  # a dialog is open: it has its own keys
            return
        view = self.query_one(ModeTabs).current
        self.push_screen(HelpScreen(self.mode_name.capitalize(), key_rows(self, view)))

    def action_save_value(self) -> None:
        """Save the last call's whole value, and an MCP result's media, to files (f12)."""
        save_value(self)

    def action_export(self) -> None:
        """Open the copy / save dialog for what the current view shows."""
        from playground.tui.export_screen import ExportScreen

        if self.screen is not self.screen_stack[0]:  # a dialog is open
            return
        exportables = getattr(self.query_one(ModeTabs).current, "exportables", None)
        items = exportables() if exportables is not None else {}
        if not items:
            self.notify("Nothing to copy or save in this view yet.", severity="warning")
            return
        self.push_screen(ExportScreen(items))


def run_tui(
    tools: list[str] | None = None,
    in_process: bool | None = None,
    history: str | None = None,
    no_history: bool = False,
    mcp: list[Any] | None = None,
    source: Any = None,
) -> None:
    """Open the TUI on ``tools`` (files or folders of tool modules; default ``./tools``).
    ``in_process``: run bodies in this process (default: a worker process, or
    ``PLAYGROUND_IN_PROCESS=1``); ``history``: the history file (default:
    ``PLAYGROUND_HISTORY``, else ``.playground/history.db``); ``no_history``: record nothing;
    ``mcp``: MCP server specs (``sources.mcp_config.McpServerSpec``), each a tool source;
    ``source``: a :class:`~playground.sources.worker.WorkerSource` already loading ``tools``."""
    PlaygroundApp(
        tools=tools,
        in_process=in_process,
        history=history,
        no_history=no_history,
        mcp=mcp,
        source=source,
    ).run()
    # What the app held (records with their values, wire JSON) is garbage now; the collector's
    # passes over it at interpreter exit made ctrl+q take over a second after a 30 MB result.
    # Frozen, it is left to the OS; atexit handlers and thread joins still run.
    gc.disable()
    gc.freeze()
