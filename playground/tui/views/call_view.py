"""The call view: pick a contract, fill its arguments (form or JSON), run it through the gate.

The gate call runs in a thread worker (exclusive, group ``call``) so a slow body never freezes
the UI; the worker posts :class:`CallView.CallDone` with the record. ``f6`` switches Form/JSON,
``f7`` the wire JSON's provider tab. The view is bound to the app's loaded workbench
(``workbench``, :class:`~playground.tui.state.Loaded`): a reload of the tools (``keep``) keeps
the selected contract, the typed arguments and the records.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from typing import TYPE_CHECKING, Any, cast

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Button, Static, TabbedContent

from playground.core.untrusted import shown
from playground.tui.css_files import CALL_CSS, read_css
from playground.tui.daemon_thread import in_daemon_thread
from playground.tui.editor import failing_frame, open_in_editor
from playground.tui.footer import KeysFooter
from playground.tui.formatting import contract_badges, plain, pretty_json
from playground.tui.last_used import last_contract, remember_contract
from playground.tui.tabkeys import cycle_tabs
from playground.tui.widgets.contract_list import ContractList

if TYPE_CHECKING:
    from playground.core.gate import Gate
    from playground.core.record import CallRecord
    from playground.tui.state import Loaded
    from playground.tui.widgets.args_editor import ArgsEditor
    from playground.tui.widgets.record_view import RecordView
    from playground.workbench import Playground

#: The Call view's only line until the tools are loaded (the first screen's loading indicator).
LOADING = "loading tools…"

NO_CALL_YET = "No call yet: fill in the arguments and press ctrl+r."

EMPTY_REGISTRY_HELP = (
    "No contracts loaded.\n\n"
    "Put tool modules in ./tools (list functions in __tools__ = [...], or define a TOOLS "
    "contract table), or start with `playground --tools PATH`. Then reload the tools "
    "(ctrl+l, or 'reload tools' in the command palette, ctrl+p)."
)


def empty_help(tools: list[str] | None) -> str:
    """:data:`EMPTY_REGISTRY_HELP`, naming the ``--tools`` paths that held no contract when the
    user gave some (not ./tools, which was not read then)."""
    if not tools:
        return EMPTY_REGISTRY_HELP
    where = ", ".join(tools)
    return (
        f"No contracts loaded from {where}.\n\n"
        "Put tool modules there (list functions in __tools__ = [...], or define a TOOLS "
        "contract table), or start with `playground --tools PATH`. Then reload the tools "
        "(ctrl+l, or 'reload tools' in the command palette, ctrl+p)."
    )


def import_later_panes() -> None:
    """Import the modules of what :meth:`CallView.complete` mounts (the form, the record
    panel). The app's load thread calls it before it waits for the tools, so these imports
    overlap the tools' load instead of following it. (The JSON editor is built when first
    asked for; its modules are imported after the first screen: ``tui/prewarm.py``.)"""
    from playground.tui.widgets import args_editor, record_view  # noqa: F401


def typing_in(widget: Widget | None) -> bool:
    """Whether ``widget`` is a text field (an ``Input`` or a ``TextArea``); Textual's
    ``TextArea`` is not imported for it (the first screen has none)."""
    from textual.widgets import Input  # the form's fields are inputs: imported by now

    text_area = sys.modules.get("textual.widgets._text_area")
    return isinstance(widget, Input) or (
        text_area is not None and isinstance(widget, text_area.TextArea)
    )


class CallView(Horizontal):
    """Contracts | arguments | the last call's record."""

    BINDINGS = [
        Binding("f6", "args_tab", "Form/JSON", id="args-tab", priority=True),
        Binding("f7", "wire_tab", "Wire", id="call-wire-tab", priority=True),
        Binding("f8", "edit_source", "Edit line", id="call-edit-source"),
        Binding("ctrl+x", "cancel_call", "Cancel call", id="call-cancel", show=False),
    ]

    #: A call is in the worker: the Run button is disabled while it runs.
    running: var[bool] = var(False)

    #: The loaded tools, bound to the app's (``data_bind``): shown by :meth:`set_playground`.
    workbench: var[Loaded | None] = var(None, init=False)

    #: The widget focused when the Call tab opens (keyboard first).
    FIRST_FOCUS = "#contracts"

    class CallDone(Message):
        """The worker's result: ``record`` (posted from the worker thread)."""

        def __init__(self, record: CallRecord) -> None:
            super().__init__()
            self.record = record

    class RepairRequested(Message):
        """The user asked for "Run with repair": a manual episode of ``tool`` with ``args``."""

        def __init__(self, tool: str, args: Any) -> None:
            super().__init__()
            self.tool = tool
            self.args = args

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pg: Playground | None = None
        #: the running call's (tool, args, perf_counter at start), for ctrl+c
        #: the running call: tool, args, its start (perf_counter s) and the gate's body-run count
        #: of that tool before it (what tells a cancel whether the body had started)
        #: the running call: (tool, args, perf_counter start, body runs before, call id)
        self._call_started: tuple[str, Any, float, int, str] | None = None
        self.last_record: CallRecord | None = None
        self.records: list[CallRecord] = []
        self.shown: str | None = None
        self._showing = asyncio.Lock()
        #: Characters typed in the list for a form not yet built (:meth:`_type_ahead`).
        self._pending_keys: list[str] = []
        #: The contract whose form had no text field for a key typed in the list (told once).
        self._told_no_text_field: str | None = None
        #: Per contract shown at a reload (ctrl+l): the arguments typed for it, as
        #: ``(tab, value or the JSON editor's text)``, until a reload shows it again.
        self._kept_args: dict[str, tuple[str, Any]] = {}
        #: The contract shown before a reload that did not register it (its module broke).
        self._lost: str | None = None
        self._completing = asyncio.Lock()
        self._completed = False
        #: Set once the first load is shown (its panes, list and form): what asks for a contract
        #: while that load is being shown waits for it (:meth:`until_loaded_shown`).
        self._first_load_shown = asyncio.Event()

    def watch_running(self, running: bool) -> None:
        for button in self.query("#run").results(Button):
            button.disabled = running

    def compose(self) -> ComposeResult:
        # The first screen says "loading tools…"; the panes are composed (the contract list
        # takes the keys typed while the tools load) but not displayed, and everything that
        # stays empty until the tools load is mounted by complete() with the loaded tools:
        # the panes are laid out and drawn once, with the list and the form (docs/performance.md,
        # "The Call view's panes with the first load").
        yield Static(LOADING, id="call-loading")
        with Vertical(id="contracts-col", classes="pane") as col:
            col.border_title = "Contracts  ctrl+t"
            col.display = False
            yield ContractList(id="contracts")
        # Wide: arguments | record side by side; narrow (the app's ``-narrow`` class): stacked.
        with Horizontal(id="work") as work, Vertical(id="args-col", classes="pane") as col:
            work.display = False
            col.border_title = "Arguments  enter"
            yield Static("", id="contract-head")

    async def watch_workbench(self, loaded: Loaded | None) -> None:
        """Show the loaded tools; on a first load (not a reload) the contract list takes the
        focus while the Call tab is open and no field has it (keyboard first)."""
        if loaded is None:
            return
        # the first load: the rest of the view, the list, the form and the footer's keys for
        # the focus laid out and drawn once (docs/performance.md)
        try:
            with self.app.batch_update() if not self._completed else contextlib.nullcontext():
                await self.set_playground(loaded.pg, keep=loaded.keep)  # mounts the panes
                if not loaded.keep:
                    self._focus_list_on_first_load(loaded)
                    self._replay_early_keys()
                    for footer in self.screen.query(KeysFooter):  # the keys for that focus
                        await footer.show_keys()
        except NoMatches:
            # ctrl+q while the panes were being mounted: the app took them down under us
            if not self._quitting():
                raise
            return
        finally:
            self._first_load_shown.set()
        if not loaded.keep:  # once the list and the form are drawn (tui/prewarm.py)
            from playground.tui.collector import first_form_drawn
            from playground.tui.prewarm import prewarm_router

            self.call_after_refresh(first_form_drawn, self.app)
            self.call_after_refresh(prewarm_router, self.app)

    def _quitting(self) -> bool:
        """Whether the app or this view is being taken down (ctrl+q, an exit)."""
        app = self.app
        return bool(
            getattr(app, "_exit", False) or app._closing or self._closing or not self.is_attached
        )

    def _empty_help(self) -> str:
        tools = getattr(self.app, "tools", None)
        return empty_help([str(t) for t in tools] if tools else None)

    async def until_loaded_shown(self) -> None:
        """Wait while the tools' first load is being shown (the app holds a workbench that the
        view has not finished showing: its panes, list and form are built in one batch after
        ``app.pg`` is set); returns at once otherwise."""
        if self.workbench is not None and not self._first_load_shown.is_set():
            await self._first_load_shown.wait()

    def _focus_list_on_first_load(self, loaded: Loaded) -> None:
        """The contract list takes the focus when there are contracts, the Call tab is open
        and no field has the focus (keyboard first)."""
        pane = self.parent
        if (
            loaded.pg.registry.contracts
            and isinstance(pane, Widget)
            and pane.display
            and not typing_in(self.app.focused)
        ):
            self.focus_contracts()

    def _replay_early_keys(self) -> None:
        """The characters typed in the contract list while the tools loaded go to the first
        contract's first field (as typed once it is shown); a toast names those no field took
        (no contract, or its first field takes no text)."""
        left = self.query_one(ContractList).replay_early_keys()
        if left:
            self.notify(
                f"Typed while the tools loaded, not used (no text field to take them): "
                f"{shown(left)}",
                severity="warning",
                markup=False,
            )

    def focus_contracts(self) -> None:
        """Focus the contract list."""
        self.query_one(ContractList).focus()

    @property
    def completed(self) -> bool:
        """Whether :meth:`complete` has mounted the arguments, the run bar and the record."""
        return self._completed

    async def complete(self) -> None:
        """Mount what the first screen does not show, and show the panes it hides (the
        "loading tools…" line goes): the empty-registry help and the load
        problems (hidden until the tools are loaded: an empty bordered box while they load would
        read as a load problem without text), the contract's description, the arguments (form
        and JSON editor), the run bar and the record panel (with its traceback panel and wire
        JSON tabs). The first load of the tools calls it (:meth:`set_playground`, in the same
        batch as the list and the first form).
        Idempotent; a second caller waits for the first."""
        async with self._completing:
            if self._completed or not self.is_attached:  # built, or the app is closing
                return
            # imported here, after the first screen (the form's widgets and validators)
            from playground.tui.widgets.args_editor import ArgsEditor
            from playground.tui.widgets.record_view import RecordView

            read_css(self.app, CALL_CSS)  # their rules, parsed when they are styled
            help_box = Static("", id="empty-help", classes="help")
            problems = Static("", id="problems", classes="problems", markup=False)
            help_box.display = problems.display = False
            doc = VerticalScroll(Static("", id="contract-desc", markup=False), id="contract-doc")
            doc.can_focus = False  # read-only: scrolls with the mouse, never a tab stop
            run_bar = Horizontal(
                Button("Run  ctrl+r", id="run", variant="primary"),
                Button("Run with repair", id="run-repair"),
                id="run-bar",
            )
            record = RecordView(id="record", classes="pane", empty_text=NO_CALL_YET)
            # laid out and drawn once, with what mounts next (no screen of the parts between)
            with self.app.batch_update():
                await self.query_one("#contracts-col").mount_all([help_box, problems])
                await self.query_one("#args-col").mount_all(
                    [doc, ArgsEditor(id="args-editor"), run_bar]
                )
                await self.query_one("#work").mount(record)
                await self.query_one("#call-loading").remove()
                self.query_one("#contracts-col").display = True
                self.query_one("#work").display = True
            self.query_one(ContractList).type_ahead = self._type_ahead
            self._completed = True
            self.watch_running(self.running)

    @property
    def args_editor(self) -> ArgsEditor:
        """The arguments' Form/JSON editor (mounted by :meth:`complete`; ``NoMatches`` before)."""
        return cast("ArgsEditor", self.query_one("#args-editor"))

    @property
    def record_view(self) -> RecordView:
        """The record panel (mounted by :meth:`complete`; ``NoMatches`` before)."""
        return cast("RecordView", self.query_one("#record"))

    # -- state down ------------------------------------------------------------------------------
    async def set_playground(self, pg: Playground, keep: bool = False) -> None:
        """Show ``pg``'s registry: the contracts, the load problems, or the empty-registry help.

        ``keep`` (a reload of the same tools): the selected contract stays selected when it is
        still registered, the arguments typed for it stay (both tabs), and the records and the
        shown record stay. A reload that does not register it (its module is broken) shows
        another contract and keeps the lost one's arguments: the next reload that registers
        it again selects it with them. Otherwise the list opens on the contract last run or the
        first one that is not a demo of faults (``contract_list.first_choice``)."""
        await self.complete()  # the panes it fills (a no-op once they are mounted)
        if not keep:
            self._kept_args.clear()
            self._lost = None
        elif self.shown is not None:
            editor = self.args_editor
            ok, args, _ = editor.current_args()
            self._kept_args[self.shown] = (editor.mode, args if ok else editor.json_text)
        # a contract a failed reload dropped comes back (with its arguments) on a good one
        wanted = (self._lost or self.shown) if keep else None
        self.pg = pg
        registry = pg.registry
        contracts = self.query_one(ContractList)
        contracts.show_registry(registry, prefer=wanted or last_contract())
        contracts.display = bool(registry.contracts)
        help_box = self.query_one("#empty-help", Static)
        help_box.update(self._empty_help() if not registry.contracts else "")
        help_box.display = not registry.contracts
        problems = self.query_one("#problems", Static)
        problems.update(plain("\n".join(f"⚠ {p}" for p in registry.problems)))
        problems.display = bool(registry.problems)
        if not keep:
            self.record_view.clear(NO_CALL_YET)
        self.shown = None
        await self._show_serialised(contracts.chosen if registry.contracts else None, True)
        self._lost = wanted if wanted is not None and self.shown != wanted else None
        if self._lost is not None:  # say so: the view shows another contract now
            self.notify(
                f"{shown(self._lost)} is not in the reloaded tools (see the load problems); its "
                "arguments are kept, and the reload that brings it back selects it with them.",
                severity="warning",
                markup=False,
            )
        if self.shown is not None and self.shown in self._kept_args:
            self._restore_args(*self._kept_args.pop(self.shown))
        self._kept_args = {k: v for k, v in self._kept_args.items() if k == self._lost}

    def _restore_args(self, mode: str, args: Any) -> None:
        """Put back the arguments kept over a reload: ``args`` (a value, or the editor's text
        when it did not parse) in the ``mode`` tab that was open."""
        editor = self.args_editor
        if isinstance(args, str) and mode == "json":
            editor.load_json(args)
        else:
            editor.set_args(args)
        editor.set_mode(mode)

    @property
    def contract_name(self) -> str | None:
        return (
            self.query_one(ContractList).chosen if self.pg and self.pg.registry.contracts else None
        )

    async def show_contract(self, name: str | None, force: bool = False) -> None:
        """Show the contract ``name`` (header, docstring, a fresh form); a no-op when it is
        already shown, unless ``force``. Calls are serialised: a call made while another
        contract's form is being built waits for it, so ``Enter`` right after a highlight
        focuses the new form's field, never the old one's. While the first load is being shown,
        waits for it (:meth:`until_loaded_shown`)."""
        await self.until_loaded_shown()
        await self._show_serialised(name, force)

    async def _show_serialised(self, name: str | None, force: bool) -> None:
        async with self._showing:
            await self._show_contract(name, force)
        self._flush_pending_keys()

    def _flush_pending_keys(self) -> None:
        """The characters typed in the list while the form of its highlighted contract was
        being built go to that form's first field, in order, once it is shown."""
        if self._pending_keys and self.shown == self._highlighted_contract():
            keys, self._pending_keys = self._pending_keys, []
            for char in keys:
                self._type_ahead(char)

    def _highlighted_contract(self) -> str | None:
        contracts = self.query(ContractList)
        return contracts.first().chosen if contracts else None

    async def _show_contract(self, name: str | None, force: bool) -> None:
        contract = self.pg.registry.get(name) if (self.pg and name) else None
        if not force and contract is not None and name == self.shown:
            return
        self.shown = name if contract is not None else None
        head = self.query_one("#contract-head", Static)
        desc = self.query_one("#contract-desc", Static)
        if contract is None:
            head.update("")
            desc.update("")
        else:
            text = plain(contract.name, style="bold")
            for label, style in contract_badges(contract):
                text.append("  ")
                text.append(f" {label} ", style=style)
            # one line, never wrapped: the facts first, the (possibly long) path last, cut with …
            text.append(
                # "cache on": its results are kept (not "cached", which read as "this result
                # came from the cache"); "no cache", as the contract list says
                f"\nlimit {contract.timeout_s:g} s · {'cache on' if contract.caches else 'no cache'}"
                f" · {shown(contract.location.relative())}",
                style="dim",
            )
            head.update(text)
            desc.update(plain(contract.description or "(no description)"))
        await self.args_editor.show_contract(contract)

    async def select_contract(self, name: str) -> bool:
        """Highlight ``name`` in the list and show it; ``False`` when not registered."""
        await self.until_loaded_shown()
        if not self.query_one(ContractList).select_name(name):
            return False
        await self.show_contract(name)
        return True

    # -- actions --------------------------------------------------------------------------------
    def run_call(self) -> None:
        """Run the selected contract with the current arguments (in a worker)."""
        if self.pg is None:
            self.notify("The tools are still loading.", severity="warning")
            return
        name = self.contract_name
        if not name:
            self.notify("No contract selected: load tool modules first.", severity="warning")
            return
        if self.running:
            self.notify("A call is still running; wait for it to finish.", severity="warning")
            return
        ok, args, problem = self.args_editor.current_args()
        if not ok:
            self.notify(problem, title="Not sent", severity="error")
            # blank the previous record: its fields must not read as this attempt's result
            self.record_view.clear(f"not sent: {problem}")
            return
        self.running = True
        contract = self.pg.registry.get(name)
        self.record_view.show_running(name, contract.timeout_s if contract else None)
        remember_contract(name)
        self._call_worker(self.pg.gate, name, args)

    def action_cancel_call(self) -> None:
        """Cancel the running call on its MCP server (``notifications/cancelled``; the record
        then says ``cancelled``)."""
        sources = self.pg.registry.sources if self.pg is not None else []
        if not self.running or not any(
            getattr(s, "cancel_current", lambda: False)() for s in sources
        ):
            self.notify("No MCP call is running.", severity="warning")

    @work(exclusive=True, group="call", exit_on_error=False)
    async def _call_worker(self, gate: Gate, name: str, args: Any) -> None:
        # a daemon thread: quitting never waits for a call (see playground.tui.daemon_thread)
        call_id = gate.next_call_id()  # a cancelled call's record keeps it too
        self._call_started = (name, args, time.perf_counter(), gate.body_runs[name], call_id)
        self.post_message(self.CallDone(await in_daemon_thread(gate.call, name, args, call_id)))

    def show_progress(
        self, tool: str, done: float, total: float | None, message: str | None
    ) -> None:
        """A server's progress about ``tool`` (its name on the server): shown in the record
        panel while a call of that tool runs here; a late one (a cancelled or finished call's)
        is left out, never shown over another call's record."""
        started = self._call_started
        if not self.running or started is None or self.pg is None:
            return
        contract = self.pg.registry.get(started[0])
        if tool != (getattr(contract, "tool_name", "") or started[0]):
            return
        self.record_view.show_progress(done, total, message)

    def cancel_call(self) -> bool:
        """ctrl+c: cancel the running call (``False`` when none runs). The body is stopped
        where its source can stop it (the worker process is ended, and started again for
        the next call); its result, if it still comes, is dropped. The record shown (and
        kept in the history) has kind ``cancelled``."""
        record = self.stop_running_call("ctrl+c")
        if record is None:
            return False
        self.post_message(self.CallDone(record))
        return True

    def stop_running_call(self, how: str) -> CallRecord | None:
        """Stop the running call (``None`` when none runs) and return its record: kind
        ``cancelled``, message ``the call was cancelled (HOW) after N s; no result`` (``how``:
        ``"ctrl+c"``, or ``"the playground was ended (SIGTERM)"``), whether the body had
        started. The call's worker is cancelled and its source told to stop the body (a
        worker's process group, an MCP request); nothing is posted."""
        if not self.running or self._call_started is None:
            return None
        name, args, started, runs_before, call_id = self._call_started
        self._call_started = None
        self.workers.cancel_group(self, "call")
        contract = self.pg.registry.get(name) if self.pg is not None else None
        source = getattr(contract, "tool_source", None)
        stop = getattr(source, "cancel", None)  # a worker's process group, an MCP request
        if callable(stop):
            stop()
        from playground.core.cancelled import cancelled_record

        if self.pg is None:
            return None
        return cancelled_record(
            self.pg.gate,
            name,
            args,
            call_id=call_id,
            started=started,
            runs_before=runs_before,
            how=how,
        )

    def request_repair(self) -> None:
        """Post :class:`RepairRequested` for the selected contract and current arguments."""
        name = self.contract_name
        if not name:
            self.notify("No contract selected.", severity="warning")
            return
        ok, args, problem = self.args_editor.current_args()
        if not ok:
            self.notify(problem, title="Not sent", severity="error")
            return
        self.post_message(self.RepairRequested(name, args))

    def action_args_tab(self) -> None:
        """``f6``: switch the arguments between the Form and JSON tabs."""
        if not self._completed:  # the keys work once complete() has mounted the arguments
            return
        cycle_tabs(self.query_one("#args-tabs", TabbedContent), focus=True)

    def action_wire_tab(self) -> None:
        """``f7``: show the next provider's wire JSON (Gemini → Anthropic → OpenAI)."""
        if self._completed:
            self.record_view.wire.next_tab()

    def action_edit_source(self) -> None:
        """``f8``: open ``$EDITOR`` at the line the shown ``raised`` record failed on
        (:func:`playground.tui.editor.open_in_editor`); a notification says why not."""
        frames = self.record_view.frames if self._completed else []
        frame = failing_frame(frames)
        if frame is None:
            self.notify("No traceback shown: f8 opens $EDITOR at a raised call's failing line.")
            return
        problem = open_in_editor(self.app, str(frame["file"]), int(frame["line"]))
        if problem:
            self.notify(problem, title="Editor", severity="error")

    def exportables(self) -> dict[str, tuple[str, str]]:
        """What can be copied or saved from this view: ``{label: (text, file name)}`` — the
        shown wire JSON tab, the shown record (``--format json`` shape) and the selected
        contract's declaration. Only what exists is listed."""
        out: dict[str, tuple[str, str]] = {}
        record = self.last_record
        if record is not None:
            wire = self.record_view.wire
            provider = (wire.tabs.active or "").rsplit("-", 1)[-1]
            if provider in wire.texts:
                out[f"wire JSON ({provider})"] = (
                    wire.texts[provider],
                    f"{record.tool}.{provider}.json",
                )
            out["record"] = (pretty_json(record.to_json()), f"{record.tool}.record.json")
        contract = self.pg.registry.get(self.shown) if (self.pg and self.shown) else None
        if contract is not None:
            try:  # what a Gemini request carries (what `playground show` prints)
                from playground.routing.declarations import provider_declaration

                declaration = provider_declaration("gemini", contract.declaration()).body
            except Exception:  # the SDK could not build it: the provider-neutral one
                declaration = contract.declaration()
            out["declaration"] = (
                pretty_json(declaration),
                f"{contract.name}.declaration.json",
            )
        return out

    # -- messages up -----------------------------------------------------------------------------
    @on(CallDone)
    def _done(self, event: CallDone) -> None:
        # not stopped: the app records the call in the history
        self.running = False
        self.last_record = event.record
        self.records.append(event.record)
        self.record_view.show_record(event.record)

    @on(ContractList.Chosen)
    async def _chosen(self, event: ContractList.Chosen) -> None:
        event.stop()
        await self.show_contract(event.name)

    @on(ContractList.Entered)
    async def _entered(self, event: ContractList.Entered) -> None:
        event.stop()
        await self.show_contract(event.name)
        self.focus_first_field()

    def _type_ahead(self, char: str) -> bool:
        """``char``, typed in the contract list, into the shown contract's first field that
        takes text (an enum's select or a checkbox before it is passed over) when the Form tab
        is open; that field gets the focus. ``False`` (the key is left to the list) otherwise;
        when the form has no such field a toast says so, once per contract shown."""
        if self.shown is None or self.args_editor.mode != "form":
            return False
        if self.shown != self._highlighted_contract() or self._showing.locked():
            # the highlighted contract's form is still to be built: its first field takes
            # the character then (the one shown now is about to be replaced)
            self._pending_keys.append(char)
            return True
        field = self._first_text_field()
        if field is None:
            self._say_no_text_field(char)
            return False
        if not field.has_focus:  # keys still queued in the list go in first (ctrl+r waits)
            note = getattr(self.screen, "note_focus_left", None)
            if note is not None:
                note(self.query_one(ContractList))
            field.focus()
        field.insert_text_at_cursor(char)
        return True

    def _first_text_field(self) -> Any:
        """The shown form's first field that takes typed text (``None``: none does)."""
        from textual.widgets import Input

        fields = self.args_editor.form.fields
        return next((f for f in fields if isinstance(f, Input) and f.display), None)

    def _say_no_text_field(self, char: str) -> None:
        """A key typed in the list for a form with no text field: say where it did not go
        (once per contract shown; the key itself stays with the list)."""
        if self._told_no_text_field == self.shown:
            return
        self._told_no_text_field = self.shown
        self.notify(
            f"{shown(char)!s} was not typed anywhere: {shown(self.shown or '')}'s form has no "
            "text field (enter opens its arguments).",
            severity="warning",
            markup=False,
        )

    def focus_first_field(self) -> None:
        """Focus the first argument field (the Run button when the contract takes none)."""
        fields = self.args_editor.form.fields
        (fields[0] if fields else self.query_one("#run", Button)).focus()

    def on_args_editor_problem(self, event: ArgsEditor.Problem) -> None:
        """A problem from the arguments' editor (invalid JSON when switching tabs): a toast."""
        event.stop()
        self.notify(event.text, severity="warning")

    @on(Button.Pressed, "#run")
    def _run_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.run_call()

    @on(Button.Pressed, "#run-repair")
    def _repair_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.request_repair()
