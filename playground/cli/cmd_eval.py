"""``playground eval CASES.jsonl``: run a router on every question and judge its first move.

The engine is :mod:`playground.batch.evaluate` (metrics and case format documented there); the
JUnit writer is :mod:`playground.batch.junit`. ``--compare PATH`` (repeatable: the paths together
are the second version of the tools) runs the same cases against that version and lists the
cases that flipped, with both sets of rates side by side (seed 002: compare every schema edit
on the same questions).

Exit codes: 0 done (failed cases are data); 1 a ``--min-selection`` / ``--max-false-selection``
threshold is not met (by the ``--tools`` run, and by the ``--compare`` run when given), or the
case file has malformed lines (each reported as ``line N: ...``; the other lines still run —
as ``playground check`` does); 2 the case file is missing, a tool module did not load, or
``--router gemini`` has no API key (eval never measures a different router silently).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from playground.cli.common import (
    ExitCode,
    McpConfigOption,
    McpHeaderOption,
    McpOption,
    McpServerOption,
    McpUrlOption,
    ToolsOption,
    boundary,
    dump_json,
    error_line,
    fail,
    finish,
    mcp_specs,
    open_workbench,
)


class EvalFormat(str, Enum):
    """``--format`` for eval: table, json (one document), jsonl (one case a line, then a
    summary line per run), junit (JUnit XML for CI)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _make_router(name: str, model: str | None, mode: str | None) -> Any:
    from playground.routing.factory import choose_router

    choice = choose_router(name, model, mode)
    if choice.fell_back:
        fail(f"--router {name}: " + "; ".join(choice.notes or ["the router is not available"]))
    for note in choice.notes:
        typer.echo(f"note: {note}", err=True)
    return choice.router


def _progress(label: str, total: int) -> tuple[Any, Callable[..., None] | None]:
    """A Rich progress bar on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty() or total == 0:
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task(label, total=total)
    return progress, lambda done, _total, _result: progress.update(task, completed=done)


def eval_cases(
    cases: Annotated[
        Path,
        typer.Argument(
            help='Eval case file (JSON Lines): {"question", "expect_tool" | null, '
            '"expect_args"} a line.',
            show_default=False,
        ),
    ],
    tools: ToolsOption = None,
    mcp: McpOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    mcp_config: McpConfigOption = None,
    mcp_server: McpServerOption = None,
    router: Annotated[
        str, typer.Option("--router", "-r", help="offline (default, no key) or gemini.")
    ] = "offline",
    model: Annotated[
        str | None, typer.Option("--model", help="Gemini model name (gemini router only).")
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            help="Gemini function-calling mode: AUTO, ANY, NONE, VALIDATED (gemini router only).",
        ),
    ] = None,
    compare_with: Annotated[
        list[Path] | None,
        typer.Option(
            "--compare",
            help="A second version of the tools (file or folder; repeatable): run the same cases "
            "against it and list the cases that flipped.",
            show_default=False,
        ),
    ] = None,
    min_selection: Annotated[
        float | None,
        typer.Option(
            "--min-selection",
            min=0.0,
            max=1.0,
            help="Exit 1 if the selection rate is below this (0..1).",
        ),
    ] = None,
    max_false_selection: Annotated[
        float | None,
        typer.Option(
            "--max-false-selection",
            min=0.0,
            max=1.0,
            help="Exit 1 if the false-selection rate is above this (0..1).",
        ),
    ] = None,
    fmt: Annotated[
        EvalFormat,
        typer.Option(
            "--format", "-f", case_sensitive=False, help="table, json, jsonl or junit (JUnit XML)."
        ),
    ] = EvalFormat.table,
    rpm: Annotated[
        float | None,
        typer.Option(
            "--rpm",
            min=0.0,
            help="Requests per minute for a network router (default 10 for gemini; 0 = no limit). "
            "The offline router is never limited unless this is given.",
        ),
    ] = None,
) -> None:
    """Judge a router's FIRST move on every question: selection rate, false-selection rate,
    wrong-tool rate, argument accuracy, per-tool precision/recall and a confusion matrix."""
    from playground.batch.evaluate import (
        DEFAULT_RPM,
        compare,
        evaluate,
        load_cases,
        threshold_failures,
    )

    with boundary():
        case_set = load_cases(cases)  # missing file: UsageError → exit 2 before loading tools
        pg = open_workbench(
            tools, wire=False, mcp=mcp_specs(mcp, mcp_url, mcp_header, mcp_config, mcp_server)
        )
        other_pg = open_workbench(compare_with, wire=False) if compare_with else None
        for label, target in (("--tools", pg), ("--compare", other_pg)):
            # Rates over a partly loaded tool set look plausible and are wrong: measure nothing.
            if target is not None and (target.registry.problems or not target.registry.contracts):
                fail(f"{label}: the tools did not load cleanly (see above); nothing was evaluated")
        chosen = _make_router(router, model, mode)
        limit = rpm if rpm is not None else (DEFAULT_RPM if chosen.capabilities.network else None)
        runs = [("base", pg)] + ([("compare", other_pg)] if other_pg is not None else [])
        reports = []
        for label, target in runs:
            bar, callback = _progress(f"eval {label}", len(case_set.cases))
            if bar is not None:
                with bar:
                    reports.append(
                        evaluate(
                            target, case_set, chosen, progress=callback, rpm=limit, label=label
                        )
                    )
            else:
                reports.append(
                    evaluate(target, case_set, chosen, progress=callback, rpm=limit, label=label)
                )
        comparison = compare(reports[0], reports[1]) if len(reports) == 2 else None
        for problem in case_set.problems:
            error_line(f"{cases}: {problem}")
        misses = {
            r.label: threshold_failures(r, min_selection, max_false_selection) for r in reports
        }
        _emit(fmt, reports, comparison, misses)
    code = ExitCode.FAILED if any(misses.values()) or case_set.problems else ExitCode.OK
    for label, why in misses.items():
        for line in why:
            error_line(f"{label}: {line}" if comparison else line)
    if other_pg is not None and other_pg.registry.problems:
        code = ExitCode.USAGE
    finish(pg, code)


def _emit(
    fmt: EvalFormat, reports: list[Any], comparison: Any, misses: dict[str, list[str]]
) -> None:
    if fmt is EvalFormat.junit:
        from playground.batch.junit import to_junit

        typer.echo(to_junit(*reports), nl=False)
    elif fmt is EvalFormat.json:
        data = comparison.to_json() if comparison else reports[0].to_json()
        data["thresholds"] = misses
        typer.echo(dump_json(data))
    elif fmt is EvalFormat.jsonl:
        for report in reports:
            for result in report.results:
                typer.echo(dump_json({"run": report.label, **result.to_json()}, compact=True))
            for problem in report.problems:
                typer.echo(
                    dump_json({"run": report.label, "problem": problem.to_json()}, compact=True)
                )
            typer.echo(
                dump_json({"run": report.label, "summary": report.metrics.to_json()}, compact=True)
            )
        if comparison:
            for flip in comparison.flips:
                typer.echo(dump_json({"flip": flip.to_json()}, compact=True))
    else:
        _print_tables(reports, comparison)


def _print_tables(reports: list[Any], comparison: Any) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from playground.cli.render import console as make_console

    console = make_console()  # markup off; 120 columns when piped
    base = reports[0]
    m = base.metrics
    console.print(
        Text(
            f"eval {Path(base.source).name or 'cases'} · router {base.router} · "
            f"{len(base.tools)} tools · {m.total} cases ({m.should_use} should-use, "
            f"{m.should_not_use} should-not-use)",
            style="bold",
        )
    )

    rates = Table(title="rates", box=box.SIMPLE_HEAD, title_justify="left")
    rates.add_column("metric")
    names = {
        "selection_rate": "selection rate",
        "false_selection_rate": "false-selection rate",
        "wrong_tool_rate": "wrong-tool rate",
        "argument_accuracy": "argument accuracy",
    }
    fractions = {
        "selection_rate": (m.selected, m.should_use),
        "false_selection_rate": (m.false_selected, m.should_not_use),
        "wrong_tool_rate": (m.wrong_tool, m.should_use),
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
    console.print(rates)

    for report in reports:
        suffix = f" ({report.label})" if comparison else ""
        scores = [sc for sc in report.metrics.per_tool.values() if sc.tp or sc.fp or sc.fn]
        idle = len(report.metrics.per_tool) - len(scores)
        per_tool = Table(
            title=f"per tool{suffix}",
            box=box.SIMPLE_HEAD,
            title_justify="left",
            caption=f"{idle} loaded tool(s) neither expected nor chosen" if idle else None,
        )
        for col in ("tool", "precision", "recall", "tp", "fp", "fn"):
            per_tool.add_column(col, justify="left" if col == "tool" else "right")
        for score in scores:
            per_tool.add_row(
                score.tool,
                _pct(score.precision),
                _pct(score.recall),
                str(score.tp),
                str(score.fp),
                str(score.fn),
            )
        console.print(per_tool)

        matrix = report.metrics.confusion
        used = {r for r, row in matrix.items() if row} | {c for row in matrix.values() for c in row}
        labels = [label for label in report.metrics.labels if label in used]
        confusion = Table(
            title=f"confusion: expected (rows) × chosen first (columns, numbered as the rows){suffix}",
            box=box.SIMPLE_HEAD,
            title_justify="left",
        )
        confusion.add_column("expected")
        for i, _label in enumerate(labels, start=1):
            confusion.add_column(f"[{i}]", justify="right")
        for i, row_label in enumerate(labels, start=1):
            row = matrix.get(row_label, {})
            cells = []
            for col in labels:
                n = row.get(col, 0)
                style = "green" if col == row_label and n else ("red" if n else "dim")
                cells.append(Text(str(n) if n else "·", style=style))
            confusion.add_row(f"[{i}] {row_label}", *cells)
        console.print(confusion)

        failures = report.failures
        if failures:
            table = Table(
                title=f"failing questions{suffix}: {len(failures)}",
                box=box.SIMPLE_HEAD,
                title_justify="left",
            )
            table.add_column("line", justify="right", style="dim")
            table.add_column("question", ratio=2, overflow="fold")
            table.add_column("expected")
            table.add_column("chosen")
            table.add_column("why", ratio=2, overflow="fold")
            for r in failures:
                table.add_row(
                    str(r.case.line),
                    r.case.question,
                    r.case.expect_tool or "(none)",
                    r.choice,
                    r.reason(),
                )
            console.print(table)
        for warning in report.warnings:
            console.print(Text(f"warning: {warning}", style="yellow"))

    if comparison:
        if comparison.flips:
            flips = Table(
                title=f"flipped cases: {len(comparison.flips)}",
                box=box.SIMPLE_HEAD,
                title_justify="left",
            )
            flips.add_column("line", justify="right", style="dim")
            flips.add_column("question", ratio=2, overflow="fold")
            flips.add_column("expected")
            flips.add_column("base")
            flips.add_column("compare")
            flips.add_column("flip")
            for f in comparison.flips:
                style = "red" if f.direction == "pass->fail" else "green"
                flips.add_row(
                    str(f.case.line),
                    f.case.question,
                    f.case.expect_tool or "(none)",
                    f.before,
                    f.after,
                    Text(f.direction, style=style),
                )
            console.print(flips)
        else:
            console.print(Text("no case flipped between the two versions", style="dim"))

    if base.problems:
        problems = Table(title="malformed case lines", box=box.SIMPLE_HEAD, title_justify="left")
        problems.add_column("line", justify="right")
        problems.add_column("problem", overflow="fold")
        for p in base.problems:
            problems.add_row(str(p.line), p.message)
        console.print(problems)
    summary = f"{m.passed} passed, {m.total - m.passed} failed"
    if m.errors or m.skipped:
        summary += f" ({m.errors} router errors, {m.skipped} skipped)"
    console.print(Text(summary, style="green" if m.passed == m.total else "bold"))


def register(app: typer.Typer) -> None:
    """Add ``eval`` to ``app``."""
    app.command("eval")(eval_cases)
