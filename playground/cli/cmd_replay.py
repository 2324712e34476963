"""``playground replay FILES...``: run golden episodes again and report drift field by field.

A golden file is written by ``ask ... --save FILE.json`` or ``call ... [--repair] --save
FILE.json`` (format: :mod:`playground.batch.replay`). Exit codes: 0 nothing drifted (or
``--update`` accepted it); 1 a file drifted; 2 a file could not be read or a tool module did not
load. ``--format junit`` prints JUnit XML for CI. Replays are not recorded in the history.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from playground.cli.common import (
    CiFormat,
    CiFormatOption,
    ExitCode,
    boundary,
    dump_json,
    emit_json_lines,
    error_line,
    finish,
    note_line,
    open_workbench,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.cli.write_consent import AllowWritesOption
from playground.core.untrusted import shown


@tool_source_options("tools", "in_process")
def replay(
    files: Annotated[
        list[Path], typer.Argument(help="Golden files (ask/call ... --save FILE.json).")
    ],
    update: Annotated[
        bool,
        typer.Option("--update", help="Accept today's behaviour: rewrite the files that drifted."),
    ] = False,
    allow_writes: AllowWritesOption = False,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: CiFormatOption = CiFormat.table,
    html: HtmlOption = None,
) -> None:
    """Replay golden episodes: same question or call, compared field by field (router choice,
    arguments, verdicts, kinds, values, reply); a changed declaration is named as the cause.
    Exit 1 on drift.

    A file that calls a tool that may write (effects write or unknown) is replayed only with
    --allow-writes, or after a yes on a terminal; else it is skipped (not a failure) naming the
    tool. A tool that may write and that the router picks only this time is not run."""
    from playground.batch.replay import replay_file, to_junit
    from playground.cli.write_consent import consent
    from playground.routing.factory import choose_router

    def make_router(name: str) -> tuple[Any, list[str]]:
        # without the router's key: UsageError, the file's error (never replayed on another)
        choice = choose_router(name, None, None, os.environ)
        return choice.router, list(choice.notes)

    with boundary():
        check_html_target(html)
        pg = open_workbench(sources.tools, in_process=sources.in_process)
        results = []
        for path in files:
            writes_allowed = None if allow_writes else consent(pg.registry, str(path), False)
            result = replay_file(
                pg, path, make_router, update=update, writes_allowed=writes_allowed
            )
            results.append(result)
            for text in result.notes:
                note_line(f"{path}: {text}")
            if result.error:
                error_line(result.error)
            if result.skipped:
                note_line(f"{path}: {result.skipped}")
            if fmt is CiFormat.jsonl:
                emit_json_lines([result.to_json()])
        if fmt is CiFormat.json:
            typer.echo(dump_json([r.to_json() for r in results]))
        elif fmt is CiFormat.junit:
            typer.echo(shown(to_junit(results)), nl=False)  # XML 1.0 cannot carry C0 controls
        elif fmt is CiFormat.table:
            _print_table(results)
        from playground.batch.html_report import replay_page

        save_html(html, lambda: replay_page([r.to_json() for r in results]))
    code = ExitCode.OK
    if any(r.drifts and not r.updated for r in results):
        code = ExitCode.FAILED
    if any(r.error for r in results):
        code = ExitCode.USAGE
    finish(pg, code)


def _print_table(results: list[Any]) -> None:
    from rich.text import Text

    from playground.cli import render

    out = render.console()
    for r in results:
        if r.error:  # the reason on the line itself, not only on stderr
            why = r.error if r.error.startswith(f"{r.file}:") else f"{r.file}: {r.error}"
            out.print(Text.assemble(("ERROR ", "bold red"), shown(why)))
            continue
        if r.skipped:
            out.print(Text.assemble(("SKIPPED ", "bold yellow"), shown(f"{r.file}: {r.skipped}")))
            continue
        if not r.drifts:
            out.print(Text.assemble(("same  ", "green"), shown(f"{r.file}: {r.label}")))
            continue
        head = ("updated ", "yellow") if r.updated else ("DRIFT ", "bold red")
        out.print(Text.assemble(head, shown(f"{r.file}: {r.label}")))
        for drift in r.drifts:
            out.print(Text("  " + shown(drift.text()), style="yellow"))
        for cause in r.causes:
            out.print(Text("  likely cause: " + cause, style="bold"))
    drifted = sum(1 for r in results if r.drifts and not r.updated)
    updated = sum(1 for r in results if r.updated)
    failed = sum(1 for r in results if r.error)
    skipped = sum(1 for r in results if r.skipped)
    style = "bold red" if drifted or failed else "green"
    text = f"{len(results) - failed - skipped} replayed, {drifted} drifted"
    text += f", {skipped} skipped (may write: --allow-writes replays them)" if skipped else ""
    text += f", {updated} updated" if updated else ""
    text += f", {failed} could not be replayed" if failed else ""
    out.print(Text(text, style=style))


def register(app: typer.Typer) -> None:
    """Add ``replay`` to ``app``."""
    app.command("replay")(replay)
