"""The Tool Playground TUI: ``PlaygroundApp`` and ``run_tui``.

Modes are tabs: Call (F1), Ask (F2), Steps (F3), Evaluate (F4). The app owns the
:class:`~playground.workbench.Playground` (registry + gate + cache) and the router settings and
hands them down to the views; views post messages up. Blocking work (loading tool modules,
gate calls, episodes, evaluations) runs in thread workers.
"""

from __future__ import annotations

from typing import Any

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Footer, Header, Input, TabbedContent, TabPane, TextArea

from playground.tui.commands import GEMINI_MODES, PlaygroundCommands
from playground.tui.views.ask_view import AskView, gemini_key_present
from playground.tui.views.call_view import CallView
from playground.tui.views.eval_view import EvalView
from playground.tui.views.mcp_log_view import McpLogView
from playground.tui.views.steps_view import StepsView

MODES = ("call", "ask", "steps", "evaluate")


class PlaygroundApp(App):
    """The workbench. ``tools``: tool module paths (default ``./tools``; not loaded when only
    MCP servers are given); ``mcp``: MCP server specs (``core.mcp_config.McpServerSpec``);
    ``playground``: an already opened Playground (tests), used instead of loading ``tools``."""

    CSS_PATH = "app.tcss"
    TITLE = "Tool Playground"
    COMMANDS = App.COMMANDS | {PlaygroundCommands}
    BINDINGS = [
        Binding("ctrl+r,f5", "run", "Run", id="run", priority=True),
        Binding("f1", "mode('call')", "Call", id="mode-call"),
        Binding("f2", "mode('ask')", "Ask", id="mode-ask"),
        Binding("f3", "mode('steps')", "Steps", id="mode-steps"),
        Binding("f4", "mode('evaluate')", "Evaluate", id="mode-evaluate"),
        Binding("ctrl+t", "focus_contracts", "Contracts", id="focus-contracts", priority=True),
        Binding("ctrl+l", "reload_tools", "Reload", id="reload-tools"),
        Binding("f9", "switch_router", "Router", id="switch-router"),
    ]

    class Loaded(Message):
        """A Playground finished loading (posted from the load worker)."""

        def __init__(self, pg: Any) -> None:
            super().__init__()
            self.pg = pg

    def __init__(
        self,
        tools: list[str] | None = None,
        playground: Any = None,
        mcp: list[Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.tools = list(tools) if tools else None
        self.mcp = list(mcp or [])
        self.pg = playground
        self.router_name = "offline"
        self.gemini_mode = "AUTO"

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial="call", id="modes"):
            with TabPane("Call F1", id="call"):
                yield CallView(id="call-view")
            with TabPane("Ask F2", id="ask"):
                yield AskView(id="ask-view")
            with TabPane("Steps F3", id="steps"):
                yield StepsView(id="steps-view")
            with TabPane("Evaluate F4", id="evaluate"):
                yield EvalView(id="eval-view")
            with TabPane("MCP log", id="mcp-log-tab"):
                yield McpLogView(id="mcp-log-view")
        yield Footer()

    def on_mount(self) -> None:
        self._fit(self.size.width, self.size.height)
        self._update_subtitle()
        if self.pg is not None:
            self.post_message(self.Loaded(self.pg))
        else:
            self.query_one(CallView).query_one("#contract-head").update("loading tools…")
            self._load_worker(self.tools)

    # -- loading ---------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load_worker(self, tools: list[str] | None) -> None:
        from playground.workbench import Playground, open_playground

        if self.pg is not None:  # a reload (ctrl+l): reconnect the MCP servers too
            for source in self.pg.settings.pop("mcp_sources", []):
                source.close()
        if not self.mcp:
            self.post_message(self.Loaded(open_playground(tools)))
            return
        from playground.core.mcp_source import add_mcp_servers, start_mcp_servers

        pending = start_mcp_servers(self.mcp)
        if tools:
            pg = open_playground(tools)
        else:
            from playground.core.gate import Gate
            from playground.core.registry import Registry

            registry = Registry()
            pg = Playground(registry=registry, gate=Gate(registry))
        sources, choices = add_mcp_servers(pg.registry, pending)
        pg.settings["mcp_sources"] = sources
        for source in sources:
            source.on_progress = self._progress_from_server
            source.on_tools_changed = lambda source=source: self.call_from_thread(
                self._tools_changed, source
            )
        for choice in choices:
            self.call_from_thread(self.notify, choice, title="Name clash")
        self.post_message(self.Loaded(pg))

    def _progress_from_server(
        self, tool: str, done: float, total: float | None, message: str | None
    ) -> None:
        """A ``notifications/progress`` from a server (on its loop thread): a toast."""
        shown = f"{done:g}/{total:g}" if total else f"{done:g}"
        self.call_from_thread(
            self.notify, f"{tool}: {shown} {message or ''}".rstrip(), title="Progress", timeout=3
        )

    def _tools_changed(self, source: Any) -> None:
        """``notifications/tools/list_changed``: list that server's tools again."""
        self.notify(f"{source.label}: tool list changed; refreshing", title="MCP")
        self._refresh_worker(source)

    @work(thread=True, group="mcp-refresh", exit_on_error=False)
    def _refresh_worker(self, source: Any) -> None:
        from playground.core.mcp_source import attach

        if self.pg is None:
            return
        registry = self.pg.registry
        result = source.refresh()
        for name in [n for n, c in registry.contracts.items() if c.source == source.label]:
            del registry.contracts[name]
        for contract in result.contracts:
            attach(contract, source)
            registry.add(contract)
        registry.problems.extend(result.problems)
        self.post_message(self.Loaded(self.pg))

    @on(Loaded)
    async def _loaded(self, event: Loaded) -> None:
        self.pg = event.pg
        registry = self.pg.registry
        await self.query_one(CallView).set_playground(self.pg)
        self.query_one(AskView).set_playground(self.pg)
        self.query_one(StepsView).set_playground(self.pg)
        self.query_one(EvalView).set_playground(self.pg)
        self.query_one(McpLogView).set_sources(self.pg.settings.get("mcp_sources", []))
        for problem in registry.problems:
            self.notify(str(problem), title="Load problem", severity="error", timeout=10)
        if not registry.contracts:
            self.notify(
                "No contracts loaded; see the Call view for how to add tools.", severity="warning"
            )
        elif self.mode_name == "call" and not isinstance(self.focused, (Input, TextArea)):
            self.query_one("#contracts").focus()  # keyboard first: start in the contract list
        self._update_subtitle()

    def _update_subtitle(self) -> None:
        count = len(self.pg.registry) if self.pg is not None else 0
        router = self.router_name + (
            f" ({self.gemini_mode})" if self.router_name == "gemini" else ""
        )
        self.sub_title = f"{count} contract{'' if count == 1 else 's'} · router {router}"

    # -- actions ---------------------------------------------------------------------------------
    @property
    def mode_name(self) -> str:
        """The active mode tab: ``call``, ``ask``, ``steps`` or ``evaluate``."""
        return self.query_one("#modes", TabbedContent).active

    def action_mode(self, mode: str) -> None:
        """Show the mode tab ``mode``."""
        if mode in MODES:
            self.query_one("#modes", TabbedContent).active = mode

    def action_focus_contracts(self) -> None:
        """Open the Call view and focus the contract list (keyboard first: from anywhere)."""
        if self.mode_name != "call":
            self.action_mode("call")  # the Call tab focuses the list when it opens
            return
        self.query_one("#contracts").focus()

    #: Below this many columns the panes stack (see ``.-narrow`` in app.tcss).
    NARROW_BELOW = 120

    #: Below this many rows the contract description box is hidden (``.-short``).
    SHORT_BELOW = 28

    def on_resize(self, event) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Set the screen's ``-narrow`` / ``-short`` classes and the compact footer for a
        ``width`` x ``height`` terminal."""
        narrow = width < self.NARROW_BELOW
        self.screen.set_class(narrow, "-narrow")
        self.screen.set_class(height < self.SHORT_BELOW, "-short")
        for footer in self.query(Footer):
            footer.compact = narrow

    def action_run(self) -> None:
        """Run the active view's main action."""
        mode = self.mode_name
        if mode == "call":
            self.query_one(CallView).run_call()
        elif mode == "ask":
            self.query_one(AskView).run_question()
        elif mode == "steps":
            self.query_one(StepsView).action_to_end()
        elif mode == "evaluate":
            self.query_one(EvalView).run_evaluation()

    def action_run_repair(self) -> None:
        """Run the Call view's arguments as a manual episode (opens Steps)."""
        self.action_mode("call")
        self.query_one(CallView).request_repair()

    def action_clear_cache(self) -> None:
        """Forget every cached result of the gate."""
        if self.pg is None:
            return
        count = len(self.pg.gate.cache)
        self.pg.gate.cache.clear()
        self.notify(f"Cache cleared ({count} entries).")

    def on_unmount(self) -> None:
        if self.pg is not None:
            for source in self.pg.settings.pop("mcp_sources", []):
                source.close()

    def action_reload_tools(self) -> None:
        """Import the tool modules again and reconnect the MCP servers: a new registry, gate
        and cache."""
        self.notify("Reloading tools…")
        self._load_worker(self.tools)

    def action_switch_router(self) -> None:
        """Toggle the Ask router between offline and gemini."""
        self.set_router("gemini" if self.router_name == "offline" else "offline")

    def set_router(self, name: str) -> None:
        """Use router ``name`` (``offline`` or ``gemini``) for Ask. Without a Gemini key the app
        says how to set one and stays offline."""
        if name == "gemini" and not gemini_key_present():
            from playground.routing.factory import NO_KEY_HINT

            self.notify(
                f"{NO_KEY_HINT}. Staying with the offline router.",
                title="Gemini",
                severity="warning",
                timeout=12,
            )
            name = "offline"
        self.router_name = name
        self.query_one(AskView).router_changed(name, self.gemini_mode)
        self.query_one(EvalView).router_changed(name)
        self._update_subtitle()
        self.notify(f"Router: {name}")

    def set_gemini_mode(self, mode: str) -> None:
        """Use Gemini function-calling ``mode`` (AUTO, ANY, NONE, VALIDATED)."""
        if mode not in GEMINI_MODES:
            self.notify(f"unknown Gemini mode {mode!r}", severity="error")
            return
        self.gemini_mode = mode
        self.query_one(AskView).router_changed(self.router_name, mode)
        self._update_subtitle()
        self.notify(f"Gemini mode: {mode}")

    #: The widget focused when a mode tab opens (keyboard first).
    FOCUS_ON_OPEN = {
        "call": "#contracts",
        "ask": "#question",
        "steps": "#steps-table",
        "evaluate": "#eval-path",
    }

    @on(TabbedContent.TabActivated, "#modes")
    def _mode_opened(self, event: TabbedContent.TabActivated) -> None:
        call_views, eval_views = list(self.query(CallView)), list(self.query(EvalView))
        if not call_views or not eval_views:  # tearing down
            return
        if event.pane.id == "evaluate" and call_views[0].shown:
            eval_views[0].show_lint_for(call_views[0].shown)
        mode = event.pane.id or ""
        target = self.FOCUS_ON_OPEN.get(mode)
        widgets = list(self.query(target)) if target else []
        if widgets:
            # Focus after the switch has been drawn, and only if the mode is still shown: a late
            # focus inside another tab would make TabbedContent switch back to that tab.
            def focus_if_still_open(widget=widgets[0]) -> None:
                if self.mode_name == mode:
                    widget.focus()

            self.call_after_refresh(focus_if_still_open)

    # -- messages between views ------------------------------------------------------------------
    @on(CallView.RepairRequested)
    def _repair(self, event: CallView.RepairRequested) -> None:
        self.action_mode("steps")
        self.query_one(StepsView).run_manual(event.tool, event.args)

    @on(EvalView.OpenQuestion)
    def _open_question(self, event: EvalView.OpenQuestion) -> None:
        self.action_mode("ask")
        self.query_one(AskView).run_question(event.question)

    @on(AskView.EpisodeReady)
    def _episode_ready(self, event: AskView.EpisodeReady) -> None:
        self.query_one(StepsView).add_episode(event.episode)


def run_tui(tools: list[str] | None = None, mcp: list[Any] | None = None) -> None:
    """Open the TUI on ``tools`` (files or folders of tool modules; default ``./tools``) and
    the MCP servers ``mcp`` (``core.mcp_config.McpServerSpec``)."""
    PlaygroundApp(tools=tools, mcp=mcp).run()
