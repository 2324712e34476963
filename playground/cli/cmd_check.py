"""``playground check CASES.jsonl``: run a case file through one gate and compare expectations.

The runner is :mod:`playground.batch.check` (format documented there). Exit codes: 0 every
case passed; 1 a case failed — including a malformed line, which is reported as a failed case
``line N: ...`` while the other lines still run; 2 the file is missing/unreadable or a tool
module did not load (load problems win over failures).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from playground.cli.common import (
    ExitCode,
    FormatOption,
    InProcessOption,
    McpConfigOption,
    McpElicitOption,
    McpHeaderOption,
    McpLogLevelOption,
    McpMaxTotalOption,
    McpOption,
    McpRootOption,
    McpServerOption,
    McpTimeoutOption,
    McpToolTimeoutOption,
    McpUrlOption,
    OutputFormat,
    ToolsOption,
    boundary,
    emit_json,
    emit_json_lines,
    finish,
    mcp_specs,
    note_line,
    open_workbench,
    stop_if_nothing_loaded,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.errors import UsageError


def check(
    cases: Annotated[
        Path,
        typer.Argument(
            help='A case file (JSON Lines): {"tool", "args", "expect"} a line.', show_default=False
        ),
    ],
    tools: ToolsOption = None,
    mcp: McpOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    mcp_config: McpConfigOption = None,
    mcp_server: McpServerOption = None,
    mcp_timeout: McpTimeoutOption = None,
    mcp_max_total: McpMaxTotalOption = None,
    mcp_tool_timeout: McpToolTimeoutOption = None,
    root: McpRootOption = None,
    elicit: McpElicitOption = None,
    mcp_log_level: McpLogLevelOption = None,
    in_process: InProcessOption = False,
    fmt: FormatOption = OutputFormat.table,
    html: HtmlOption = None,
) -> None:
    """Run every case of a file through one gate (the cache carries across lines); exit 1 if any fails.

    jsonl prints one object a line (the record fields plus line, passed, mismatches); json prints
    {"file", "cases": [...], "passed", "failed"}; table prints a table and a summary.
    """
    from playground.batch.check import read_cases, run_cases

    with boundary():
        check_html_target(html)
        parsed = read_cases(cases)  # a missing file is a UsageError: exit 2 before loading tools
        if not parsed:  # passing zero cases proves nothing: say so, as eval does
            raise UsageError(
                f'{cases}: no case to run (write one JSON object a line: {{"tool": ..., '
                '"args": {...}, "expect": {...}})'
            )
        pg = open_workbench(
            tools,
            in_process=in_process,
            mcp=mcp_specs(
                mcp,
                mcp_url,
                mcp_header,
                mcp_config,
                mcp_server,
                mcp_timeout,
                mcp_max_total,
                mcp_tool_timeout,
                root,
                elicit,
                mcp_log_level,
            ),
        )
        stop_if_nothing_loaded(pg, "no case was run")
        if fmt is OutputFormat.jsonl:
            report = run_cases(
                pg.gate,
                parsed,
                source=str(cases),
                on_result=lambda result: emit_json_lines([result.to_json()]),
            )
        else:
            report = run_cases(pg.gate, parsed, source=str(cases))
            if fmt is OutputFormat.json:
                emit_json(report.to_json(), fmt)
            else:
                from playground.cli import render

                render.console().print(render.check_table(report.to_json()))
        from playground.batch.html_report import check_page

        save_html(html, lambda: check_page(report.to_json()))
    for result in report.results:
        for text in result.notes:  # a declaration changed since the line was written
            note_line(f"{cases}: line {result.case.line}: {text}")
    from playground.cli.mcp_notes import note_list_changes

    note_list_changes(pg.registry.sources)
    finish(pg, ExitCode.OK if report.ok else ExitCode.FAILED)


def register(app: typer.Typer) -> None:
    """Add ``check`` to ``app``."""
    app.command("check")(check)
