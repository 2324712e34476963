"""Rich tables of ``playground eval`` with several routers or ``--repeat``: one row per router
(:class:`playground.batch.sidebyside.RouterRow`), the flaky questions, and the questions the
routers disagree on. A blank cell is a value that is not known (no price, no token count),
never a guess."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playground.batch.sidebyside import Disagreement, RouterRow
from playground.core.cells import cell


def _pct(value: float | None) -> str:
    return "" if value is None else f"{value:.1%}"


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:,.0f}ms" if value >= 10 else f"{value:.1f}ms"


def _int(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def _cost(value: float | None) -> str:
    return "" if value is None else f"${value:.4f}"


def side_by_side_tables(
    reports: list[Any], rows: list[RouterRow], disagreements: list[Disagreement]
) -> None:
    """Print the comparison to stdout (:func:`playground.cli.render.console`)."""
    from rich.text import Text

    from playground.cli.render import console as make_console

    console = make_console()
    base = reports[0]
    m = base.metrics
    cases = len({r.case.line for r in base.results})
    runs = max((row.repeat for row in rows), default=1)
    console.print(
        Text(
            f"eval {Path(base.source).name or 'cases'} · {len(rows)} router(s) · "
            f"{len(base.tools)} tools · {cases} cases"
            + (f" × {runs} runs" if runs > 1 else "")
            + f" ({m.should_use} should-use, {m.should_not_use} should-not-use runs)",
            style="bold",
        )
    )
    console.print(routers_table(rows))
    for row in rows:
        if row.repeat_note:
            console.print(Text(f"{row.label}: {row.repeat_note}", style="dim"))
        if row.errors:
            console.print(Text(f"{row.label}: {row.errors} router error(s)", style="yellow"))
        if row.flaky:
            console.print(flaky_table(row))
        elif row.repeat > 1:
            console.print(Text(f"{row.label}: every question made the same call on every run"))
    if len(rows) > 1:
        if disagreements:
            console.print(disagreements_table(rows, disagreements))
        else:
            console.print(Text("the routers agree on every question", style="dim"))


def routers_table(rows: list[RouterRow]) -> Any:
    """One row per router: its rates, latency, tokens, cost and consistency."""
    from playground.cli.eval_tables import eval_table

    table = eval_table(
        "routers side by side",
        "sel. = selection rate, false = false-selection rate, asked = asked rate, "
        "args = right tool with the expected arguments (end to end), p50/p95 = latency, "
        "tok = tokens the provider counted, cost = from the price file (blank: no price), "
        "same = share of runs per question that made the same call",
    )
    table.caption_justify = "left"
    columns = (
        "router", "model", "runs", "sel.", "false", "asked", "args",
        "p50", "p95", "tok in", "tok out", "cost", "same",
    )  # fmt: skip
    for column in columns:
        left = column in ("router", "model")
        table.add_column(
            column,
            justify="left" if left else "right",
            no_wrap=column != "model",
            min_width=12 if column == "model" else None,
        )
    for row in rows:
        num, den = row.args_end_to_end
        table.add_row(
            row.label,
            row.model or "-",
            str(row.runs),
            _pct(row.selection_rate),
            _pct(row.false_selection_rate),
            _pct(row.asked_rate),
            f"{num}/{den}" if den else "",
            _ms(row.latency_p50_ms),
            _ms(row.latency_p95_ms),
            _int(row.input_tokens),
            _int(row.output_tokens),
            _cost(row.cost_usd),
            _pct(row.consistency) if row.repeat > 1 or row.repeat_note else "",
        )
    return table


def flaky_table(row: RouterRow) -> Any:
    """The questions ``row``'s router answered differently across ``--repeat`` runs."""
    from playground.cli.eval_tables import eval_table
    from playground.core.untrusted import shown as visible

    flaky = eval_table(f"flaky questions ({row.label}): {len(row.flaky)}")
    flaky.add_column("line", justify="right", style="dim")
    flaky.add_column("question", ratio=2, overflow="fold")
    flaky.add_column("same", justify="right")
    flaky.add_column("answers", ratio=2, overflow="fold")
    for item in row.flaky:
        answers = "; ".join(f"{n}× {a}" for a, n in item.answers.items())
        flaky.add_row(
            str(item.line), visible(cell(item.question)), f"{item.same}/{item.runs}", answers
        )
    return flaky


def disagreements_table(rows: list[RouterRow], disagreements: list[Disagreement]) -> Any:
    """The questions the routers answered differently: one column per router."""
    from playground.cli.eval_tables import eval_table
    from playground.core.untrusted import shown as visible

    table = eval_table(f"questions the routers disagree on: {len(disagreements)}")
    table.add_column("line", justify="right", style="dim")
    table.add_column("question", ratio=2, overflow="fold")
    table.add_column("expected")
    labels = [row.label for row in rows]
    for label in labels:
        table.add_column(label, overflow="fold")
    for disagreement in disagreements:
        table.add_row(
            str(disagreement.line),
            visible(cell(disagreement.question)),
            disagreement.expected,
            *(disagreement.answers.get(label, "") for label in labels),
        )
    return table
