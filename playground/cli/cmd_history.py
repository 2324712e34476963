"""``playground history``: list, show, rerun, save and clear what the hand tests did.

The store is :mod:`playground.core.history` (``.playground/history.db`` by default;
``--history PATH`` or ``PLAYGROUND_HISTORY`` for another file). ``call``, ``call --repair``,
``ask`` and the TUI record into it; the batch commands (check, eval, probe, lint, report,
replay) do not. Exit codes: 0, 2 for an unknown id, a bad date or an unwritable case file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from playground.cli.common import (
    FormatOption,
    HistoryOption,
    NoHistoryOption,
    OutputFormat,
    ToolsOption,
    boundary,
    dump_json,
    emit_json,
    emit_json_lines,
    fail,
    finish,
    note_line,
    one_line,
    open_history_store,
    open_workbench,
    visible,
)
from playground.errors import UsageError

history_app = typer.Typer(
    name="history",
    help=(
        "The calls and questions you ran by hand (call, call --repair, ask, the TUI): list them "
        "(the default), show one, rerun it, save it as a case, clear them."
    ),
    invoke_without_command=True,
    no_args_is_help=False,
)

ToolFilter = Annotated[str | None, typer.Option("--tool", help="Only entries that called TOOL.")]
KindFilter = Annotated[
    str | None,
    typer.Option(
        "--kind",
        help="Only entries with a call of this outcome kind (ok, invalid_args, ...), or of this "
        "type: call or episode.",
    ),
]
QuestionFilter = Annotated[
    str | None, typer.Option("--question", "-q", help="Only questions containing this text.")
]
SinceFilter = Annotated[
    str | None,
    typer.Option("--since", help="Only entries since a date (2026-11-30) or an age (2h, 7d)."),
]
LimitOption = Annotated[
    int, typer.Option("--limit", "-n", min=0, help="At most this many entries, newest first.")
]
IdArgument = Annotated[int, typer.Argument(help="The entry id (see playground history).")]


def _store(history: Path | None) -> Any:
    store = open_history_store(history)
    if store is None:
        fail("history is off (PLAYGROUND_HISTORY is off); give a file with --history PATH")
    return store


def _entry(store: Any, entry_id: int) -> Any:
    entry = store.get(entry_id)
    if entry is None:
        if not store.enabled:
            fail(f"no history to read at {store.path}")
        fail(f"no history entry #{entry_id} in {store.path} (see playground history)")
    return entry


def _when(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    from playground.core.history import parse_when

    try:
        return parse_when(text)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


def _summary(entry: Any) -> str:
    data = entry.data if isinstance(entry.data, dict) else {}
    if entry.type == "call":
        return f"{entry.tool}({dump_json(data.get('args'), compact=True)})" if data else entry.tool
    if entry.question is not None:
        return str(entry.question)
    return f"manual: {entry.tool}"


def _list_table(entries: list[Any]) -> Any:
    from rich import box
    from rich.table import Table

    from playground.cli.render import kind_text

    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
    for column, options in (
        ("id", {"justify": "right", "style": "dim", "no_wrap": True}),
        ("time", {"no_wrap": True}),
        ("type", {"no_wrap": True}),
        ("outcome", {"no_wrap": True}),
        ("router", {"no_wrap": True}),
        ("what", {"overflow": "fold", "ratio": 1}),
    ):
        table.add_column(column, **options)
    for e in entries:
        what = visible(_summary(e)) + (f"  (rerun of #{e.rerun_of})" if e.rerun_of else "")
        table.add_row(
            str(e.id),
            e.time_text,
            e.type,
            kind_text(e.outcome) if e.type == "call" else e.outcome,
            e.router or "-",
            what,
        )
    return table


def list_entries(
    ctx: typer.Context,
    tool: ToolFilter = None,
    kind: KindFilter = None,
    question: QuestionFilter = None,
    since: SinceFilter = None,
    limit: LimitOption = 50,
    history: HistoryOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """List the history, newest first (json/jsonl: each entry with its record or episode)."""
    if ctx.invoked_subcommand is not None:
        return
    from playground.core.history import Query

    with boundary():
        store = _store(history)
        query = Query(
            tool=tool, kind=kind, question=question, since=_when(since, "--since"), limit=limit
        )
        entries = store.entries(query, with_data=True)
        if fmt is OutputFormat.table:
            from playground.cli import render

            if not entries:
                typer.echo(f"no history entries in {store.path}", err=True)
            else:
                render.console().print(_list_table(entries))
        elif fmt is OutputFormat.jsonl:
            emit_json_lines(e.to_json() for e in entries)
        else:
            emit_json([e.to_json() for e in entries], fmt)


def show(
    entry_id: IdArgument, history: HistoryOption = None, fmt: FormatOption = OutputFormat.table
) -> None:
    """Show one entry: its record (a call) or episode, the router and the declaration hashes."""
    with boundary():
        entry = _entry(_store(history), entry_id)
        if fmt is OutputFormat.table:
            from rich.console import Group
            from rich.text import Text

            from playground.cli import render

            head = Text.assemble(
                (f"#{entry.id} ", "bold"),
                f"{entry.time_text} · {entry.type}",
                f" · router {entry.router}" if entry.router else "",
                f" · rerun of #{entry.rerun_of}" if entry.rerun_of else "",
                f"\nsource {visible(entry.source)}" if entry.source else "",
            )
            body = (
                render.record_view(entry.data)
                if entry.type == "call"
                else render.episode_view(entry.data)
            )
            render.console().print(Group(head, body))
        else:
            emit_json(entry.to_json(), fmt)


def _tools_for(entry: Any, tools: list[Path] | None) -> list[Path] | None:
    """``--tools`` when given, else the entry's own tool source when its paths still exist."""
    import os

    if tools:
        return tools
    paths = [Path(p) for p in (entry.source or "").split(os.pathsep) if p]
    return paths if paths and all(p.exists() for p in paths) else None


def rerun(
    entry_id: IdArgument,
    router: Annotated[
        str | None,
        typer.Option("--router", "-r", help="Router for a question (default: the one it used)."),
    ] = None,
    history: HistoryOption = None,
    no_history: NoHistoryOption = False,
    tools: ToolsOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Run an entry again (same arguments or question), record the new run and compare the two.

    Uses the entry's tool modules unless --tools is given. Prints the fields that changed and
    any changed declaration; exit 0 either way.
    """
    import os

    from playground.batch.replay import rerun as run_again
    from playground.core.history import record_run, source_text

    with boundary():
        store = _store(history)
        entry = _entry(store, entry_id)
        paths = _tools_for(entry, tools)
        pg = open_workbench(paths)
        chosen = None
        if entry.type == "episode" and entry.question is not None:
            from playground.routing import registry as router_registry
            from playground.routing.factory import choose_router

            name = router or (
                entry.router
                if entry.router in router_registry.names()
                else router_registry.DEFAULT_ROUTER
            )
            choice = choose_router(name, None, None, os.environ)
            for text in choice.notes:
                note_line(text)
            chosen = choice.router
        result = run_again(pg, entry.type, entry.data, entry.hashes, chosen)
        new_id = None
        if not no_history:
            new_id = record_run(
                store,
                pg.registry,
                entry.type,
                result.new,
                source=source_text(paths or [Path("tools")]),
                origin="rerun",
                rerun_of=entry.id,
            )
        data = {
            "entry": entry.id,
            "new_entry": new_id,
            "same": not result.drifts,
            "drift": [d.to_json() for d in result.drifts],
            "causes": result.causes,
            "new": result.new,
        }
        if fmt is OutputFormat.table:
            _print_comparison(entry.id, new_id, result)
        else:
            emit_json(data, fmt)
    finish(pg)


def _print_comparison(old_id: int, new_id: int | None, result: Any) -> None:
    from rich.text import Text

    from playground.cli import render

    out = render.console()
    label = f"#{old_id} → {'#' + str(new_id) if new_id else 'rerun (not recorded)'}"
    if not result.drifts:
        out.print(Text.assemble((label, "bold"), ": the same ", ("(no field changed)", "green")))
        return
    out.print(Text.assemble((label, "bold"), f": {len(result.drifts)} field(s) changed"))
    for drift in result.drifts:
        out.print(Text("  " + visible(drift.text()), style="yellow"))
    for cause in result.causes:
        out.print(Text("  likely cause: " + cause, style="bold"))


def save(
    entry_id: IdArgument,
    to: Annotated[
        Path,
        typer.Option("--to", help="The case file (JSON Lines) to append to; created when missing."),
    ],
    history: HistoryOption = None,
) -> None:
    """Append an entry to a case file: a call as a check line (expect: verdict, kind,
    body_ran, cache, value), a question as an eval line (the tool and args the router chose)."""
    from playground.batch.savecase import append_line, case_for_entry

    with boundary():
        entry = _entry(_store(history), entry_id)
        case = case_for_entry(entry.type, entry.data, entry.hashes, note=f"history #{entry.id}")
        line = append_line(to, case)
        kind = "check" if entry.type == "call" else "eval"
        typer.echo(f"saved #{entry.id} as a {kind} case: {to} line {line}", err=True)
        typer.echo(dump_json(case, compact=True))


def clear(
    before: Annotated[
        str | None,
        typer.Option(
            "--before", help="Only entries older than a date (2026-11-30) or an age (7d)."
        ),
    ] = None,
    history: HistoryOption = None,
) -> None:
    """Delete history entries (all of them, or those before a date) and free their space."""
    with boundary():
        when = _when(before, "--before")
        store = _store(history)
        count = store.clear(when)
        typer.echo(
            one_line(f"deleted {count} entr{'y' if count == 1 else 'ies'} from {store.path}")
        )


def register(app: typer.Typer) -> None:
    """Add ``history`` (list, show, rerun, save, clear) to ``app``."""
    history_app.callback()(list_entries)
    history_app.command("list")(_plain_list)
    history_app.command("show")(show)
    history_app.command("rerun")(rerun)
    history_app.command("save")(save)
    history_app.command("clear")(clear)
    app.add_typer(history_app, name="history")


def _plain_list(
    tool: ToolFilter = None,
    kind: KindFilter = None,
    question: QuestionFilter = None,
    since: SinceFilter = None,
    limit: LimitOption = 50,
    history: HistoryOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """List the history, newest first (the same as playground history)."""

    class _NoSub:
        invoked_subcommand = None

    list_entries(_NoSub(), tool, kind, question, since, limit, history, fmt)  # type: ignore[arg-type]
