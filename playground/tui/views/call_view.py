"""The call view: pick a contract, fill its arguments (form or JSON), run it through the gate.

The gate call runs in a thread worker (exclusive, group ``call``) so a slow body never freezes
the UI; the worker posts :class:`CallView.CallDone` with the record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Static

from playground.core.record import CallRecord
from playground.tui.formatting import contract_badges
from playground.tui.widgets.args_editor import ArgsEditor
from playground.tui.widgets.contract_list import ContractList
from playground.tui.widgets.record_view import RecordView

if TYPE_CHECKING:
    from playground.core.gate import Gate
    from playground.workbench import Playground

NO_CALL_YET = "No call yet: fill in the arguments and press ctrl+r."

EMPTY_REGISTRY_HELP = (
    "No contracts loaded.\n\n"
    "Put tool modules in ./tools (list functions in __tools__ = [...], or define a seed-003 "
    "TOOLS table), or start with `playground --tools PATH`. Then reload the tools "
    "(ctrl+l, or 'reload tools' in the command palette, ctrl+p)."
)


class CallView(Horizontal):
    """Contracts | arguments | the last call's record."""

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
        self.running = False
        self.last_record: CallRecord | None = None
        self.records: list[CallRecord] = []
        self.shown: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="contracts-col", classes="pane") as col:
            col.border_title = "Contracts  ctrl+t"
            yield ContractList(id="contracts")
            yield Static("", id="empty-help", classes="help")
            yield Static("", id="problems", classes="problems", markup=False)
        # Wide: arguments | record side by side; narrow (the app's ``-narrow`` class): stacked.
        with Horizontal(id="work"):
            with Vertical(id="args-col", classes="pane") as col:
                col.border_title = "Arguments  enter"
                yield Static("", id="contract-head")
                doc = VerticalScroll(id="contract-doc")
                doc.can_focus = False  # read-only: scrolls with the mouse, never a tab stop
                with doc:
                    yield Static("", id="contract-desc", markup=False)
                yield ArgsEditor(id="args-editor")
                with Horizontal(id="run-bar"):
                    yield Button("Run  ctrl+r", id="run", variant="primary")
                    yield Button("Run with repair", id="run-repair")
            yield RecordView(id="record", classes="pane", empty_text=NO_CALL_YET)

    # -- state down ------------------------------------------------------------------------------
    async def set_playground(self, pg: Playground) -> None:
        """Show ``pg``'s registry: the contracts, the load problems, or the empty-registry help."""
        self.pg = pg
        registry = pg.registry
        contracts = self.query_one(ContractList)
        contracts.show_registry(registry)
        contracts.display = bool(registry.contracts)
        help_box = self.query_one("#empty-help", Static)
        help_box.update(EMPTY_REGISTRY_HELP if not registry.contracts else "")
        help_box.display = not registry.contracts
        problems = self.query_one("#problems", Static)
        problems.update("\n".join(f"⚠ {p}" for p in registry.problems))
        problems.display = bool(registry.problems)
        self.query_one(RecordView).clear(NO_CALL_YET)
        self.shown = None
        await self.show_contract(contracts.chosen if registry.contracts else None, force=True)

    @property
    def contract_name(self) -> str | None:
        return (
            self.query_one(ContractList).chosen if self.pg and self.pg.registry.contracts else None
        )

    async def show_contract(self, name: str | None, force: bool = False) -> None:
        """Show the contract ``name`` (header, docstring, a fresh form); a no-op when it is
        already shown, unless ``force``."""
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
            text = Text(contract.name, style="bold")
            for label, style in contract_badges(contract):
                text.append("  ")
                text.append(f" {label} ", style=style)
            # one line, never wrapped: the facts first, the (possibly long) path last, cut with …
            text.append(
                f"\nlimit {contract.timeout_s:g} s · {'cached' if contract.caches else 'not cached'}"
                f" · {contract.location.relative()}",
                style="dim",
            )
            head.update(text)
            desc.update(contract.description or "(no description)")
        await self.query_one(ArgsEditor).show_contract(contract)

    async def select_contract(self, name: str) -> bool:
        """Highlight ``name`` in the list and show it; ``False`` when not registered."""
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
        ok, args, problem = self.query_one(ArgsEditor).current_args()
        if not ok:
            self.notify(problem, title="Not sent", severity="error")
            # blank the previous record: its fields must not read as this attempt's result
            self.query_one(RecordView).clear(f"not sent: {problem}")
            return
        self.running = True
        contract = self.pg.registry.get(name)
        self.query_one(RecordView).show_running(name, contract.timeout_s if contract else None)
        self.query_one("#run", Button).disabled = True
        self._call_worker(self.pg.gate, name, args)

    @work(thread=True, exclusive=True, group="call", exit_on_error=False)
    def _call_worker(self, gate: Gate, name: str, args: Any) -> None:
        self.post_message(self.CallDone(gate.call(name, args)))

    def request_repair(self) -> None:
        """Post :class:`RepairRequested` for the selected contract and current arguments."""
        name = self.contract_name
        if not name:
            self.notify("No contract selected.", severity="warning")
            return
        ok, args, problem = self.query_one(ArgsEditor).current_args()
        if not ok:
            self.notify(problem, title="Not sent", severity="error")
            return
        self.post_message(self.RepairRequested(name, args))

    # -- messages up -----------------------------------------------------------------------------
    @on(CallDone)
    def _done(self, event: CallDone) -> None:
        # not stopped: the app records the call in the history
        self.running = False
        self.query_one("#run", Button).disabled = False
        self.last_record = event.record
        self.records.append(event.record)
        self.query_one(RecordView).show_record(event.record)

    @on(ContractList.Chosen)
    async def _chosen(self, event: ContractList.Chosen) -> None:
        event.stop()
        await self.show_contract(event.name)

    @on(ContractList.Entered)
    async def _entered(self, event: ContractList.Entered) -> None:
        event.stop()
        await self.show_contract(event.name)
        self.focus_first_field()

    def focus_first_field(self) -> None:
        """Focus the first argument field (the Run button when the contract takes none)."""
        fields = self.query_one(ArgsEditor).form.fields
        (fields[0] if fields else self.query_one("#run", Button)).focus()

    @on(ArgsEditor.Problem)
    def _problem(self, event: ArgsEditor.Problem) -> None:
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
