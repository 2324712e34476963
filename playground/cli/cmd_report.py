"""``playground report [--tools PATH] [--out DIR]``: seed 003's tool report, measured for real.

Loads the tool modules (default ``tools/inventory.py``) into a fresh registry and gate, runs
the measurements of :mod:`playground.batch.report`, writes ``DIR/tool_report.json`` and
``DIR/tool_report.md`` (default: the current folder) and prints the figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from playground.cli.common import (
    FormatOption,
    OutputFormat,
    boundary,
    emit_json,
    wants_in_process,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options


@tool_source_options()
def report(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Folder for tool_report.json and tool_report.md. Default: ."
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Overwrite existing report files (never through a link out of --out)."
        ),
    ] = False,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
    html: HtmlOption = None,
) -> None:
    """Measure the tools by running them (calls blocked before the body, result checks, the
    cache, repair and give-up) and write tool_report.json and tool_report.md.

    Probes every tool whose 'returns' declares max_rows or max_bytes."""
    from playground.batch.report import DEFAULT_TOOLS, measure, write_report

    with boundary():
        check_html_target(html, force=force)
        specs = sources.mcp_specs()
        data = measure(
            [str(t) for t in sources.tools]
            if sources.tools
            else ([] if specs else list(DEFAULT_TOOLS)),
            in_process=wants_in_process(sources.in_process),
            mcp=specs,
        )
        json_path, md_path = write_report(data, out or Path("."), force=force)
        from playground.batch.html_report import report_page

        save_html(html, lambda: report_page(data), force=force)
        if fmt is OutputFormat.table:
            from rich.table import Table

            from playground.cli import render

            table = Table(title="tool report", title_justify="left", show_header=True)
            table.add_column("figure", style="bold")
            table.add_column("value", overflow="fold")
            for key in (
                "tools",
                "blocked_before_call",
                "bad_result_reasons",
                "memo_second_call_runs",
                "repaired",
                "attempts",
                "gave_up",
                "max_attempts",
                "real_result_reasons",
            ):
                value = data[key]
                label = (
                    "blocked_before_call (body runs after invalid calls)"
                    if key == "blocked_before_call"
                    else key
                )
                if isinstance(value, dict):
                    shown = ", ".join(f"{k}: {v or 'valid'}" for k, v in value.items())
                elif isinstance(value, list):
                    shown = ", ".join(map(str, value))
                else:
                    shown = str(value)
                table.add_row(label, shown)
            render.console().print(table)
            typer.echo(f"wrote {json_path} and {md_path}")
        else:
            emit_json({**data, "files": [str(json_path), str(md_path)]}, fmt)


def register(app: typer.Typer) -> None:
    """Add ``report`` to ``app``."""
    app.command("report")(report)
