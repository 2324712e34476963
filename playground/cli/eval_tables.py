"""The tables ``playground eval`` prints by default: the rates (or base, compare and Δ beside a
``--compare`` run), per tool, the confusion between tools and the failing questions, all from a
report's running totals (:class:`playground.batch.evaluate.EvalReport`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playground.core.cells import REASON_CHARS, cell
from playground.core.untrusted import shown


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def rates_table(m: Any, comparison: Any) -> Any:
    """The rates table of metrics ``m``: rate and count, or base, compare and Δ beside
    ``comparison``'s other run (a Rich ``Table``)."""
    rates = eval_table("rates")
    rates.add_column("metric")
    names = {
        "selection_rate": "selection rate",
        "false_selection_rate": "false-selection rate",
        "wrong_tool_rate": "wrong-tool rate",
        "asked_rate": "asked rate (right tool, asked for a value)",
        "argument_accuracy": "argument accuracy",
    }
    fractions = {
        "selection_rate": (m.selected, m.should_use),
        "false_selection_rate": (m.false_selected, m.should_not_use),
        "wrong_tool_rate": (m.wrong_tool, m.should_use),
        "asked_rate": (m.asked, m.should_use),
        "argument_accuracy": (m.args_matched, m.args_checked),
    }
    if comparison:
        rates.add_column("base", justify="right")
        rates.add_column("compare", justify="right")
        rates.add_column("Δ", justify="right")
        for row in comparison.rates_side_by_side():
            delta = row["delta"]
            rates.add_row(
                names[row["metric"]],
                _pct(row["base"]),
                _pct(row["other"]),
                "-" if delta is None else f"{delta:+.1%}",
            )
    else:
        rates.add_column("rate", justify="right")
        rates.add_column("count", justify="right")
        for key, value in m.rates().items():
            num, den = fractions[key]
            rates.add_row(names[key], _pct(value), f"{num}/{den}")
    return rates


def print_tables(
    reports: list[Any], comparison: Any, *, streamed_failures: int | None = None
) -> None:
    """The rates, per-tool, confusion and failing-question tables of ``reports``.
    ``streamed_failures``: the run's failing questions were printed as judged (how many): the
    title line was printed first and the failing questions are not listed again."""
    from rich.text import Text

    from playground.cli.render import console as make_console

    console = make_console()  # markup off; 120 columns when piped
    base = reports[0]
    m = base.metrics
    counts = f"{m.total} cases ({m.should_use} should-use, {m.should_not_use} should-not-use)"
    if streamed_failures is None:
        title = f"eval {Path(base.source).name or 'cases'} · router {base.router} · "
        console.print(Text(f"{title}{len(base.tools)} tools · {counts}", style="bold"))
    else:
        console.print(Text(counts, style="bold"))

    console.print(rates_table(m, comparison))
    for report in reports:
        suffix = f" ({report.label})" if comparison else ""
        console.print(per_tool_table(report.metrics, suffix))
        console.print(confusion_table(report.metrics, suffix))
        if streamed_failures:
            console.print(Text(f"failing questions: {streamed_failures} (listed above)"))
        if report.failures:
            console.print(failures_table(report.failures, suffix))
        for warning in report.warnings:
            console.print(Text(f"warning: {warning}", style="yellow"))
    if comparison:
        if comparison.flips:
            console.print(flips_table(comparison.flips))
        else:
            console.print(Text("no case flipped between the two versions", style="dim"))
    if base.problems:
        console.print(problems_table(base.problems))
    summary = f"{m.passed} passed, {m.total - m.passed} failed"
    if m.errors or m.skipped:
        summary += f" ({m.errors} router errors, {m.skipped} skipped)"
    console.print(Text(summary, style="green" if m.passed == m.total else "bold"))


def eval_table(title: str, caption: str | None = None) -> Any:
    """A Rich ``Table`` in the eval tables' style (simple head, title on the left)."""
    from rich import box
    from rich.table import Table

    return Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", caption=caption)


def per_tool_table(metrics: Any, suffix: str) -> Any:
    """Precision, recall, tp, fp and fn of each tool expected or chosen; a caption counts the
    loaded tools that were neither."""
    scores = [sc for sc in metrics.per_tool.values() if sc.tp or sc.fp or sc.fn]
    idle = len(metrics.per_tool) - len(scores)
    table = eval_table(
        f"per tool{suffix}", f"{idle} loaded tool(s) neither expected nor chosen" if idle else None
    )
    for col in ("tool", "precision", "recall", "tp", "fp", "fn"):
        table.add_column(col, justify="left" if col == "tool" else "right")
    for score in scores:
        table.add_row(
            score.tool,
            _pct(score.precision),
            _pct(score.recall),
            str(score.tp),
            str(score.fp),
            str(score.fn),
        )
    return table


def confusion_table(metrics: Any, suffix: str) -> Any:
    """Expected (rows) × chosen first (columns, numbered as the rows), over the labels used."""
    from rich.text import Text

    matrix = metrics.confusion
    used = {r for r, row in matrix.items() if row} | {c for row in matrix.values() for c in row}
    labels = [label for label in metrics.labels if label in used]
    table = eval_table(
        f"confusion: expected (rows) × chosen first (columns, numbered as the rows){suffix}"
    )
    table.add_column("expected")
    for i, _label in enumerate(labels, start=1):
        table.add_column(f"[{i}]", justify="right")
    for i, row_label in enumerate(labels, start=1):
        row = matrix.get(row_label, {})
        cells = []
        for col in labels:
            n = row.get(col, 0)
            style = "green" if col == row_label and n else ("red" if n else "dim")
            cells.append(Text(str(n) if n else "·", style=style))
        table.add_row(f"[{i}] {row_label}", *cells)
    return table


def failures_table(failures: list[Any], suffix: str) -> Any:
    """One row per failing question: its line, the question, expected, chosen and why."""
    table = eval_table(f"failing questions{suffix}: {len(failures)}")
    table.add_column("line", justify="right", style="dim")
    table.add_column("question", ratio=2, overflow="fold")
    table.add_column("expected")
    table.add_column("chosen")
    table.add_column("why", ratio=2, overflow="fold")
    for r in failures:
        table.add_row(
            str(r.case.line),
            shown(cell(r.case.question)),
            r.case.expect_tool or "(none)",
            r.choice,
            shown(cell(r.reason(), REASON_CHARS)),
        )
    return table


def flips_table(flips: list[Any]) -> Any:
    """The cases that flipped between the two versions of ``--compare`` (pass→fail in red)."""
    from rich.text import Text

    table = eval_table(f"flipped cases: {len(flips)}")
    table.add_column("line", justify="right", style="dim")
    table.add_column("question", ratio=2, overflow="fold")
    table.add_column("expected")
    table.add_column("base")
    table.add_column("compare")
    table.add_column("flip")
    for f in flips:
        style = "red" if f.direction == "pass->fail" else "green"
        table.add_row(
            str(f.case.line),
            shown(cell(f.case.question)),
            f.case.expect_tool or "(none)",
            f.before,
            f.after,
            Text(f.direction, style=style),
        )
    return table


def problems_table(problems: list[Any]) -> Any:
    """The malformed case lines: line and problem."""
    table = eval_table("malformed case lines")
    table.add_column("line", justify="right")
    table.add_column("problem", overflow="fold")
    for p in problems:
        table.add_row(str(p.line), cell(p.message, REASON_CHARS))
    return table
