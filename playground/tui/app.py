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
from playground.tui.views.steps_view import StepsView

MODES = ("call", "ask", "steps", "evaluate")


class PlaygroundApp(App):
    """The workbench. ``tools``: tool module paths (default ``./tools``); ``playground``: an
    already opened Playground (tests), used instead of loading ``tools``."""

    CSS_PATH = "app.tcss"
    TITLE = "Tool Playground"
    COMMANDS = App.COMMANDS | {PlaygroundCommands}
    BINDINGS = [
        Binding("question_mark,f10", "help", "Keys", id="help"),  # first: never cut off
        Binding("ctrl+r,f5", "run", "Run", id="run", priority=True),
        # The mode keys are shown in the tab labels ("Call F1"…) and ctrl+t in the contract
        # pane's title, not in the footer: at 80-100 columns the footer must fit the view's keys.
        Binding("f1", "mode('call')", "Call", id="mode-call", show=False),
        Binding("f2", "mode('ask')", "Ask", id="mode-ask", show=False),
        Binding("f3", "mode('steps')", "Steps", id="mode-steps", show=False),
        Binding("f4", "mode('evaluate')", "Evaluate", id="mode-evaluate", show=False),
        Binding(
            "ctrl+t",
            "focus_contracts",
            "Contracts",
            id="focus-contracts",
            priority=True,
            show=False,
        ),
        Binding("ctrl+l", "reload_tools", "Reload", id="reload-tools"),
        Binding("f9", "switch_router", "Router", id="switch-router"),
        Binding("ctrl+s", "export", "Export", id="export"),
    ]

    class Loaded(Message):
        """A Playground finished loading (posted from the load worker); ``keep``: a reload, the
        views keep what they show (selection, typed arguments, records)."""

        def __init__(self, pg: Any, keep: bool = False) -> None:
            super().__init__()
            self.pg = pg
            self.keep = keep

    def __init__(
        self, tools: list[str] | None = None, playground: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.tools = list(tools) if tools else None
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
    def _load_worker(self, tools: list[str] | None, keep: bool = False) -> None:
        from playground.workbench import open_playground

        self.post_message(self.Loaded(open_playground(tools), keep))

    @on(Loaded)
    async def _loaded(self, event: Loaded) -> None:
        self.pg = event.pg
        registry = self.pg.registry
        await self.query_one(CallView).set_playground(self.pg, keep=event.keep)
        self.query_one(AskView).set_playground(self.pg)
        self.query_one(StepsView).set_playground(self.pg)
        self.query_one(EvalView).set_playground(self.pg)
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
        """Show the mode tab ``mode`` and focus its first widget (``FOCUS_ON_OPEN``) at once.

        At once, not after a refresh: a ``TabPane.Focused`` message still queued from the
        previous tab's focus would otherwise switch the tabs back (``ctrl+t`` from Ask used to
        land back in Ask under load); the focus posted now is handled after it."""
        if mode not in MODES:
            return
        self.query_one("#modes", TabbedContent).active = mode
        target = self.FOCUS_ON_OPEN.get(mode)
        widgets = list(self.query(target)) if target else []
        if widgets and widgets[0].display:
            self.set_focus(widgets[0])

    def action_focus_contracts(self) -> None:
        """Open the Call view and focus the contract list (keyboard first: from anywhere)."""
        if self.mode_name != "call":
            self.action_mode("call")  # focuses the list
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
            # the docked "^p palette" item overlaps the keys when they overflow (it read
            # "^l Relo▏^p paletter" at 100 columns); the palette stays on ctrl+p and in the help
            footer.show_command_palette = not narrow

    def action_run(self) -> None:
        """Run the active view's main action, after every key already sent to the focused widget.

        ``ctrl+r`` is a priority binding: the app handles it as soon as it arrives, while the
        keys typed just before it may still wait in the focused field's message queue. Reading
        the fields now would send what was there before those keys (seen as ``missing:order_id``
        with the id on screen). So the read is queued behind them, in the focused widget's own
        queue: what is sent is what the fields show once the keys before ctrl+r are in."""
        focused = self.focused
        if focused is None or not focused.call_later(self._run_active_view):
            self._run_active_view()

    def _run_active_view(self) -> None:
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

    def action_reload_tools(self) -> None:
        """Import the tool modules again: a new registry, gate and cache. The Call view keeps
        the selected contract, the typed arguments and the records."""
        self.notify("Reloading tools…")
        self._load_worker(self.tools, keep=True)

    def current_view(self) -> Any:
        """The open mode's view widget (CallView, AskView, StepsView or EvalView)."""
        view_type = {"call": CallView, "ask": AskView, "steps": StepsView}.get(
            self.mode_name, EvalView
        )
        return self.query_one(view_type)

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


def run_tui(tools: list[str] | None = None) -> None:
    """Open the TUI on ``tools`` (files or folders of tool modules; default ``./tools``)."""
    PlaygroundApp(tools=tools).run()
