"""The Evaluate view: run a routing case file (``playground.batch.evaluate.evaluate``) in a
worker and show the rates as a chart (textual-plotext; before/after when the same case file
was evaluated before in this session, e.g. after editing a docstring and ctrl+l) and as bars,
per-tool precision/recall, the confusion matrix and the failing questions (Enter on one opens
it in Ask mode); plus the schema lint of one contract (``playground.batch.lint.lint_contract``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.progress_bar import ProgressBar as RichBar
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.widgets import Button, DataTable, Input, Label, ProgressBar, Select, Static
from textual_plotext import PlotextPlot

from playground.core.cells import REASON_CHARS, cell
from playground.core.untrusted import shown
from playground.routing import registry
from playground.tui.daemon_thread import in_daemon_thread
from playground.tui.formatting import plain
from playground.tui.router_pick import RouterPick
from playground.tui.widgets.fields import FieldInput

if TYPE_CHECKING:
    from playground.workbench import Playground

DEFAULT_CASES = "fixtures/routing_cases.jsonl"
RATE_LABELS = (
    ("selection_rate", "selection rate", False),
    ("false_selection_rate", "false-selection rate", True),
    ("wrong_tool_rate", "wrong-tool rate", True),
    ("asked_rate", "asked rate", True),
    ("argument_accuracy", "argument accuracy", False),
)
SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "info": "dim"}
#: The rates' short names under the chart's bars, in the order of :data:`RATE_LABELS`.
CHART_LABELS = ("select", "false-sel", "wrong", "asked", "args")


def pct(rate: float | None) -> str:
    """``96.0%`` or ``n/a`` (no cases in the denominator)."""
    return "n/a" if rate is None else f"{rate * 100:.1f}%"


def rate_lines(metrics: dict[str, Any]) -> list[str]:
    """Plain lines for the rates and the per-tool scores of ``Metrics.to_json()``."""
    lines = [f"{label} {pct(metrics.get(key))}" for key, label, _ in RATE_LABELS]
    for tool in metrics.get("per_tool") or []:
        if tool.get("tp") or tool.get("fp") or tool.get("fn"):
            lines.append(
                f"{tool['tool']} precision {pct(tool.get('precision'))} recall {pct(tool.get('recall'))}"
            )
    return lines


def _bar(rate: float | None, bad_is_high: bool) -> Any:
    if rate is None:
        return Text("n/a", style="dim")
    good = rate <= 0.1 if bad_is_high else rate >= 0.9
    style = (
        "green" if good else ("yellow" if (rate <= 0.3 if bad_is_high else rate >= 0.7) else "red")
    )
    return RichBar(
        total=100, completed=rate * 100, width=28, complete_style=style, finished_style=style
    )


def rates_renderable(metrics: dict[str, Any]) -> Table:
    """The rates and per-tool precision/recall as Rich bars."""
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_column(justify="right")
    for key, label, bad_high in RATE_LABELS:
        table.add_row(label, _bar(metrics.get(key), bad_high), pct(metrics.get(key)))
    table.add_row("", "", "")
    for tool in metrics.get("per_tool") or []:
        if not (tool.get("tp") or tool.get("fp") or tool.get("fn")):
            continue
        table.add_row(
            plain(tool["tool"], style="bold"),
            "",
            f"tp {tool['tp']} fp {tool['fp']} fn {tool['fn']}",
        )
        table.add_row("  precision", _bar(tool.get("precision"), False), pct(tool.get("precision")))
        table.add_row("  recall", _bar(tool.get("recall"), False), pct(tool.get("recall")))
    return table


class EvalView(Vertical):
    """Case file path, run, rates, confusion matrix, failing questions and the lint panel."""

    #: An evaluation is in the worker: the Evaluate button is disabled while it runs.
    running: var[bool] = var(False)

    #: The loaded tools (bound to the app's workbench): the lint list shows its contracts.
    pg: var[Playground | None] = var(None, init=False, always_update=True)
    #: The router chosen in the app (F9, the palette): the next evaluation runs on it.
    router: var[RouterPick] = var(RouterPick(registry.DEFAULT_ROUTER), init=False)

    #: The widget focused when the Evaluate tab opens (keyboard first).
    FIRST_FOCUS = "#eval-path"

    class Progress(Message):
        """``done`` of ``total`` cases judged (posted from the worker)."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    class EvalDone(Message):
        """The worker's result: ``report`` (an ``EvalReport``) or ``error``."""

        def __init__(self, report: Any = None, error: str = "") -> None:
            super().__init__()
            self.report = report
            self.error = error

    class OpenQuestion(Message):
        """Open ``question`` in Ask mode (a failing case was chosen)."""

        def __init__(self, question: str) -> None:
            super().__init__()
            self.question = question

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report: Any = None
        self._started = False  # an evaluation was started: the status line says how it went
        self.failing: list[Any] = []
        self.rates_text = ""
        self.lint_text = ""
        #: What the chart draws: ``[(series name, [percent per rate of RATE_LABELS])]`` —
        #: ``[("after" | "rates", ...)]``, or ``[("before", ...), ("after", ...)]`` when the same
        #: case file was evaluated before (None rates drawn as 0).
        self.chart_series: list[tuple[str, list[float]]] = []
        self._last: tuple[str, list[float]] | None = None  # the last run: case file, rates
        self._before: list[float] | None = None  # the run before it on the same file
        self._drawn: Any = None  # the report the chart shows (shown again: same chart)

    def compose(self) -> ComposeResult:
        with Horizontal(id="eval-bar"):
            yield FieldInput(DEFAULT_CASES, placeholder="case file (JSON Lines)", id="eval-path")
            yield Button("Evaluate  ctrl+r", id="eval-run", variant="primary")
        with Horizontal(id="eval-progress-row"):
            yield ProgressBar(id="eval-progress", show_eta=False)
            yield Static(self._idle_status(), id="eval-status")
        with Horizontal(id="eval-body"):
            with VerticalScroll(id="eval-left"):
                yield Label("Rates", classes="section")
                yield PlotextPlot(id="eval-chart")
                yield Static("-", id="eval-rates")
                yield Label("Lint for", classes="section")
                yield Select([], id="lint-contract", prompt="(contract)")
                yield Static("-", id="lint-findings")
            with Vertical(id="eval-right"):
                yield Label("Confusion matrix (rows expected, columns chosen)", classes="section")
                yield DataTable(id="confusion", zebra_stripes=True, cursor_type="cell")
                yield Label("Failing questions (Enter opens one in Ask)", classes="section")
                yield DataTable(id="failing", zebra_stripes=True, cursor_type="row")

    def on_mount(self) -> None:
        self.query_one("#failing", DataTable).add_columns(
            "line", "category", "expected", "chosen", "question", "reason"
        )
        # no evaluation yet: no bar (an empty one pulses as if something ran), no chart
        self.query_one("#eval-progress", ProgressBar).display = False
        self.query_one("#eval-chart", PlotextPlot).display = False

    def watch_running(self, running: bool) -> None:
        self.query_one("#eval-run", Button).disabled = running
        if running:  # shown from the first evaluation on; its pulse means "running"
            self.query_one("#eval-progress", ProgressBar).display = True

    def _idle_status(self) -> str:
        return f"Evaluate a routing case file with the {self.router} router (F9 switches)."

    # -- state down ------------------------------------------------------------------------------
    def watch_pg(self, pg: Playground | None) -> None:
        """The lint list shows ``pg``'s contracts."""
        if pg is None or not self.is_mounted:
            return
        select = self.query_one("#lint-contract", Select)
        names = pg.registry.names()
        select.set_options([(plain(n), n) for n in names])
        if names:
            select.value = names[0]

    def watch_router(self) -> None:
        """The app switched router (or its mode or model): the next evaluation runs on it (the
        status line says so until the first evaluation)."""
        if self.is_mounted and not self._started:
            self.query_one("#eval-status", Static).update(self._idle_status())

    def show_lint_for(self, name: str) -> None:
        """Select ``name`` in the lint list (its findings follow through ``Select.Changed``)."""
        select = self.query_one("#lint-contract", Select)
        if self.pg is not None and name in self.pg.registry and select.value != name:
            select.value = name

    def lint(self, name: str) -> None:
        """Show the lint findings of contract ``name``."""
        from playground.batch.lint import lint_contract

        if self.pg is None or name not in self.pg.registry:
            return
        try:
            findings = lint_contract(self.pg.registry, name)
        except Exception as exc:  # a lint bug must not take the app down
            self.query_one("#lint-findings", Static).update(
                plain(f"lint failed: {type(exc).__name__}: {exc}", style="red")
            )
            return
        text = Text()
        lines = []
        for f in findings:
            text.append(f"{f.severity:<8}", style=SEVERITY_STYLES.get(f.severity, ""))
            text.append(f"{f.rule}  ", style="bold")
            text.append(shown(f"{f.location}\n"), style="dim")
            text.append(shown(f"  {f.message}\n"))
            if f.suggestion:
                text.append(shown(f"  → {f.suggestion}\n"), style="italic")
            lines.append(f"{f.severity} {f.rule} {f.location}: {f.message}")
        if not findings:
            text.append("no findings", style="green")
            lines.append("no findings")
        self.lint_text = "\n".join(lines)
        self.query_one("#lint-findings", Static).update(text)

    # -- actions --------------------------------------------------------------------------------
    def run_evaluation(self) -> None:
        """Evaluate the case file in the path field with the app's router (in a worker)."""
        if self.pg is None:
            self.notify("The tools are still loading.", severity="warning")
            return
        if self.running:
            self.notify("An evaluation is still running.", severity="warning")
            return
        path = self.query_one("#eval-path", Input).value.strip() or DEFAULT_CASES
        self.running = True
        self._started = True
        self.query_one("#eval-status", Static).update(
            plain(f"evaluating {path} with the {self.router} router…")
        )
        self.query_one("#eval-progress", ProgressBar).update(total=None, progress=0)
        self._eval_worker(self.pg, path, self.router)

    def _post_progress(self, done: int, total: int, _result: Any) -> None:
        self.post_message(self.Progress(done, total))

    @work(exclusive=True, group="evaluate", exit_on_error=False)
    async def _eval_worker(self, pg: Playground, path: str, pick: RouterPick) -> None:
        # a daemon thread: quitting never waits for an evaluation (playground.tui.daemon_thread)
        await in_daemon_thread(self._evaluate, pg, path, pick)

    def _evaluate(self, pg: Playground, path: str, pick: RouterPick) -> None:
        from playground.batch.evalstream import load_cases
        from playground.batch.evaluate import evaluate
        from playground.routing.factory import choose_router

        try:
            cases = load_cases(path)
            choice = choose_router(pick.name, pick.model, pick.mode, fallback=True)
            rpm = choice.router.capabilities.default_rpm
            report = evaluate(
                pg,
                cases,
                choice.router,
                rpm=rpm,
                progress=self._post_progress,
            )
        except Exception as exc:  # UsageError for a missing file; anything else must not crash
            self.post_message(self.EvalDone(error=str(exc) or type(exc).__name__))
            return
        self.post_message(self.EvalDone(report))

    # -- messages --------------------------------------------------------------------------------
    @on(Progress)
    def _progress(self, event: Progress) -> None:
        event.stop()
        self.query_one("#eval-progress", ProgressBar).update(total=event.total, progress=event.done)

    @on(EvalDone)
    def _done(self, event: EvalDone) -> None:
        event.stop()
        self.running = False
        if event.error:
            self.query_one("#eval-progress", ProgressBar).display = False  # nothing ran
            self.query_one("#eval-status", Static).update(
                plain(f"not evaluated: {event.error}", style="red")
            )
            self.notify(event.error, title="Evaluate", severity="error")
            return
        self.show_report(event.report)

    def show_report(self, report: Any) -> None:
        """Show an ``EvalReport``: bars, confusion matrix, failing questions."""
        self.report = report
        data = report.to_json()
        metrics = data["metrics"]
        counts = metrics.get("counts", {})
        self.rates_text = "\n".join(rate_lines(metrics))
        self.query_one("#eval-rates", Static).update(rates_renderable(metrics))
        self._draw_chart(report, metrics)
        status = (
            f"{report.source}: {counts.get('passed', 0)}/{counts.get('total', 0)} passed · router "
            f"{report.router} · {report.duration_ms / 1000:.1f} s"
        )
        if report.problems:
            status += f" · {len(report.problems)} bad line(s): " + "; ".join(
                str(p) for p in report.problems[:3]
            )
            if len(report.problems) > 3:
                status += f"; +{len(report.problems) - 3} more (playground eval lists them all)"
        if report.warnings:  # one toast: forty cases for tools not loaded hid the table
            more = len(report.warnings) - 1
            self.notify(
                report.warnings[0]
                + (f" (and {more} more warning{'s' * (more > 1)})" if more else ""),
                severity="warning",
            )
        self.query_one("#eval-status", Static).update(plain(status))
        self._show_confusion(metrics.get("confusion") or {})
        self.failing = list(report.failures)
        table = self.query_one("#failing", DataTable)
        table.clear()
        for i, result in enumerate(self.failing):
            table.add_row(
                str(result.case.line),
                plain(result.category),
                plain(result.case.expect_tool or "(none)"),
                plain(result.choice),
                plain(cell(result.case.question)),
                plain(cell(result.reason(), REASON_CHARS)),
                key=str(i),
            )

    def _draw_chart(self, report: Any, metrics: dict[str, Any]) -> None:
        """Draw the rates (percent) as bars; with the previous run of the same case file beside
        them as "before" (a report shown again keeps its chart)."""
        now = [round(100 * (metrics.get(key) or 0.0), 1) for key, _label, _bad in RATE_LABELS]
        source = str(report.source)
        if report is not self._drawn:
            same_file = self._last is not None and self._last[0] == source
            self._before = self._last[1] if same_file and self._last is not None else None
            self._last, self._drawn = (source, now), report
        if self._before is not None:
            self.chart_series = [("before", self._before), ("after", now)]
        else:
            self.chart_series = [("rates", now)]
        chart = self.query_one("#eval-chart", PlotextPlot)
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        if len(self.chart_series) == 2:
            plt.multiple_bar(  # type: ignore[call-arg]  # plotext takes labels=; its stub says label
                list(CHART_LABELS),
                [values for _name, values in self.chart_series],
                labels=[name for name, _values in self.chart_series],
            )
            plt.title("rates % (before / after)")
        else:
            plt.bar(list(CHART_LABELS), now)
            plt.title("rates %")
        plt.ylim(0, 100)
        chart.display = True
        chart.refresh()

    def _show_confusion(self, confusion: dict[str, Any]) -> None:
        labels = list(confusion.get("labels") or [])
        matrix = confusion.get("matrix") or confusion.get("rows") or {}
        rows = self._matrix_rows(labels, matrix)
        used = [
            label
            for label in labels
            if any(rows.get(label, {}).values()) or any(r.get(label) for r in rows.values())
        ]
        table = self.query_one("#confusion", DataTable)
        table.clear(columns=True)
        table.add_column("expected \\ chosen")
        for label in used:
            table.add_column(plain(label))
        for expected in used:
            cells = []
            for chosen in used:
                n = rows.get(expected, {}).get(chosen, 0)
                style = "bold green" if expected == chosen and n else ("bold red" if n else "dim")
                cells.append(Text(str(n), style=style))
            table.add_row(plain(expected), *cells)

    @staticmethod
    def _matrix_rows(labels: list[str], matrix: Any) -> dict[str, dict[str, int]]:
        """``{expected: {chosen: n}}`` from the report's confusion (dict of dicts or list of lists)."""
        if isinstance(matrix, dict):
            return {k: dict(v) for k, v in matrix.items() if isinstance(v, dict)}
        if isinstance(matrix, list):
            return {
                labels[i]: {labels[j]: n for j, n in enumerate(row)} for i, row in enumerate(matrix)
            }
        return {}

    @on(DataTable.RowSelected, "#failing")
    def _failing_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        index = int(event.row_key.value or 0)
        if 0 <= index < len(self.failing):
            self.post_message(self.OpenQuestion(self.failing[index].case.question))

    @on(Select.Changed, "#lint-contract")
    def _lint_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value is not Select.NULL:
            self.lint(str(event.value))

    @on(Button.Pressed, "#eval-run")
    def _run_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.run_evaluation()

    @on(Input.Submitted, "#eval-path")
    def _path_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.run_evaluation()
