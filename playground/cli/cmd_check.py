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
    OutputFormat,
    boundary,
    emit_json,
    emit_json_lines,
    error_line,
    finish,
    note_line,
    stop_if_nothing_loaded,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.cli.interrupted import interrupted_after
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.errors import UsageError


@tool_source_options()
def check(
    cases: Annotated[
        Path,
        typer.Argument(
            help='A case file (JSON Lines): {"tool", "args", "expect"} a line.', show_default=False
        ),
    ],
    sources: ToolSourceOptions = NO_SOURCES,
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
        pg = sources.open()
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
    if report.interrupted:  # ctrl+c: what ran is above, written as it ran
        error_line(interrupted_after(len(report.results), report.planned))
        finish(pg, ExitCode.INTERRUPTED)
    finish(pg, ExitCode.OK if report.ok else ExitCode.FAILED)


def register(app: typer.Typer) -> None:
    """Add ``check`` to ``app``."""
    app.command("check")(check)
