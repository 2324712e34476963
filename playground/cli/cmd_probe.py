"""``playground probe NAME``: invalid and boundary inputs derived from a contract's schema, each
run through ONE gate (generation rules in :mod:`playground.batch.probe`).

Exit codes: 0 every invalid input was refused before the body ran and every valid one was
accepted; 1 otherwise; 2 an unknown NAME or a tool module that did not load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from playground.cli.common import (
    ExitCode,
    FormatOption,
    OutputFormat,
    boundary,
    dump_json,
    emit_json,
    emit_json_lines,
    error_line,
    fail,
    finish,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.cli.interrupted import interrupted_after
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.core.record import VALID
from playground.core.registry import unknown_tool_message

if TYPE_CHECKING:
    from playground.batch.probe import ProbeReport


@tool_source_options()
def probe(
    name: Annotated[str, typer.Argument(help="The tool to probe.", show_default=False)],
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
    against_server: Annotated[
        bool,
        typer.Option(
            "--against-server",
            help="Also send every case straight to the tool's MCP server (past the gate) and "
            "report where the server and the schema disagree (read-only tools only).",
        ),
    ] = False,
    html: HtmlOption = None,
) -> None:
    """Send every derived input (missing, wrong types, true for an integer, bounds, enum and pattern
    misses, a bad date, an unknown argument, the arguments as a JSON string) through the gate and
    confirm the body never ran for an invalid one."""
    from playground.batch.probe import probe_contract

    with boundary():
        check_html_target(html)
        pg = sources.open(wire=False)
        if name not in pg.registry:
            fail(unknown_tool_message(name, pg.registry.names()))
        stream = fmt is OutputFormat.jsonl and not against_server
        report = probe_contract(
            pg, name, on_case=(lambda case: emit_json_lines([case.to_json()])) if stream else None
        )
        if against_server and not report.interrupted:
            from playground.batch.probe import probe_against_server

            probe_against_server(pg, report)
        if fmt is OutputFormat.json:
            emit_json(report.to_json(), fmt)
        elif fmt is OutputFormat.jsonl:
            if not stream:
                emit_json_lines(c.to_json() for c in report.cases)
        else:
            _print_table(report)
        from playground.batch.html_report import probe_page

        save_html(html, lambda: probe_page(report.to_json()))
    if report.interrupted:  # ctrl+c: what ran is above
        error_line(interrupted_after(len(report.cases), report.planned))
        finish(pg, ExitCode.INTERRUPTED)
    finish(pg, ExitCode.OK if report.ok else ExitCode.FAILED)


def _print_table(report: ProbeReport) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from playground.cli.render import console as make_console

    console = make_console()  # markup off; 120 columns when piped
    table = Table(
        title=f"probe {report.tool}", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1)
    )
    table.add_column("case / args", overflow="fold", ratio=1, min_width=20)
    table.add_column("expected", no_wrap=True)
    table.add_column("verdict / kind", overflow="fold")
    table.add_column("ran", no_wrap=True)
    table.add_column("body runs", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for c in report.cases:
        case = Text(c.name, style="bold")
        case.append("\n" + dump_json(c.args, compact=True), style="dim")
        verdict = Text(c.verdict, style="green" if c.verdict == VALID else "yellow")
        for reason in c.reasons[1:]:  # the other violations the gate found
            verdict.append("\n" + str(reason.get("code", "")), style="yellow")
        verdict.append("\n" + (c.kind or ("validated only" if not c.ran else "-")), style="dim")
        status = Text("ok", style="green") if c.ok else Text("FAIL", style="bold red")
        ran = "yes" if c.body_ran else "no"
        runs = Text(
            str(c.body_runs), style="bold red" if c.expected == "invalid" and c.body_runs else ""
        )
        table.add_row(case, c.expected, verdict, ran, runs, status)
    console.print(table)
    for c in report.problems:
        console.print(
            Text(
                f"FAIL {c.name}: {c.problem} (verdict {c.verdict}, body runs {c.body_runs})",
                style="bold red",
            )
        )
    for c in report.cases:
        if c.disagrees:
            console.print(
                Text(f"DISAGREE {c.name}: {c.disagrees} (server: {c.server})", style="bold yellow")
            )
    for warning in sorted({w for c in report.cases for w in c.warnings}):
        console.print(Text(f"warning: {warning}", style="yellow"))
    invalid = [c for c in report.cases if c.expected == "invalid"]
    leaked = [c for c in invalid if c.body_runs or c.body_ran]
    summary = (
        f"{len(report.cases)} cases: {len(invalid)} invalid (body ran for {len(leaked)}), "
        f"{len(report.cases) - len(invalid)} valid; {len(report.problems)} problem(s)"
    )
    console.print(Text(summary, style="green" if report.ok else "bold red"))


def register(app: typer.Typer) -> None:
    """Add ``probe`` to ``app``."""
    app.command("probe")(probe)
