"""``playground history``: list, show, rerun, save and clear what the hand tests did.

The store is :mod:`playground.history` (``.playground/history.db`` by default;
``--history PATH`` or ``PLAYGROUND_HISTORY`` for another file). ``call``, ``call --repair``,
``ask`` and the TUI record into it; the batch commands (check, eval, probe, lint, report,
replay) do not. Exit codes: 0, 2 for an unknown id, a bad date or an unwritable case file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from playground.cli.common import (
    ExitCode,
    FormatOption,
    HistoryOption,
    NoHistoryOption,
    OutputFormat,
    boundary,
    dump_json,
    emit_json,
    error_line,
    fail,
    finish,
    note_line,
    one_line,
    open_history_store,
    open_workbench,
    stop_if_nothing_loaded,
)
from playground.cli.html_option import HtmlOption
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.cli.write_consent import AllowWritesOption
from playground.core.untrusted import shown
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
    int,
    typer.Option(
        "--limit", "-n", min=0, help="At most this many entries, newest first (0: every entry)."
    ),
]
IdArgument = Annotated[int, typer.Argument(help="The entry id (see playground history).")]


def _store(history: Path | None) -> Any:
    """The history store to read or change; exit 2 with one line when history is off or the
    file is not a playground history (refused, left as it is)."""
    store = open_history_store(history, quiet=True)
    if store is None:
        fail("history is off (PLAYGROUND_HISTORY is off); give a file with --history PATH")
    if os.path.lexists(store.path) and store.connection() is None:
        fail(store.notices[-1] if store.notices else f"cannot open {store.path}")
    store.add_kept()  # records kept beside it while it was busy: listed like the others
    for text in store.notices:
        note_line(text)
    return store


def _entry(store: Any, entry_id: int) -> Any:
    """The entry with its record; exit 2 with one line when there is none or its record is
    on a damaged page of the file (then what is readable of it is printed first)."""
    entry = store.get(entry_id)
    if entry is None:
        if store.damaged:
            fail(f"{store.path} is damaged where #{entry_id} is kept: {store.damaged}")
        if not store.enabled:
            fail(f"no history to read at {store.path}")
        fail(f"no history entry #{entry_id} in {store.path} (see playground history)")
    if entry.unreadable:
        typer.echo(
            shown(
                f"#{entry.id}  {entry.time_text}  {entry.type}  {entry.outcome or '-'}"
                f"  {entry.what}"
            )
        )
        fail(
            f"#{entry.id}'s record cannot be read: {store.path} is damaged "
            f"({entry.unreadable}); the line above is what is readable of it"
        )
    return entry


def _kind(kind: str | None) -> str | None:
    """``--kind`` checked: an outcome kind (docs/design.md, "Outcome kinds"), ``cancelled`` (a call
    stopped by ctrl+c) or an entry type (``call``, ``episode``). Raises :class:`UsageError` listing them for anything else."""
    if kind is None:
        return None
    from playground.core.outcome import OutcomeKind

    known = list(dict.fromkeys([k.value for k in OutcomeKind] + ["cancelled", "call", "episode"]))
    if kind not in known:
        raise UsageError(f"--kind: unknown kind {kind!r}; use one of {', '.join(known)}")
    return kind


def _when(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    from playground.history.queries import parse_when

    try:
        return parse_when(text)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


#: The list's columns: (title, justify).
LIST_COLUMNS = (
    ("id", "right"),
    ("time", "left"),
    ("type", "left"),
    ("outcome", "left"),
    ("router", "left"),
    ("what", "left"),
)
#: Lines written to stdout at once.
CHUNK = 2000


def write_blocks(blocks: Iterable[str], out: TextIO | None = None) -> None:
    """Write each of ``blocks`` (lines joined by newlines, without the last one) to ``out``
    (default stdout) as it comes, one ``write`` per block."""
    out = out or sys.stdout
    for block in blocks:
        out.write(block + "\n")
    out.flush()


def write_lines(lines: Iterable[str], out: TextIO | None = None) -> None:
    """Write ``lines`` (each without its newline) to ``out`` (default stdout) in chunks of
    :data:`CHUNK` lines, one ``write`` per chunk."""
    out = out or sys.stdout
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= CHUNK:
            out.write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        out.write("\n".join(chunk) + "\n")
    out.flush()


def _table_blocks(
    pages: Iterable[list[tuple[Any, ...]]],
    shape: tuple[int, set[tuple[str, str, str]]],
    console: Any,
) -> Iterator[str]:
    """Pages of list rows (``HistoryStore.summary_pages``: id, created, type, outcome, router,
    what, rerun_of) as aligned text, as they arrive: a header, a rule, then one line per entry
    (``what`` cut to the terminal's width with ``…``; in full into a pipe or file). Each item
    yielded is a block of lines joined by newlines (no final newline): the header and rule,
    then one block per page, so a page is formatted by one comprehension. ``shape``:
    ``HistoryStore.summary_shape`` (the largest id and the distinct type/outcome/router),
    which sizes the columns before the first row. Outcome kinds are coloured as
    ``render.kind_text`` colours them when the console has colour; each distinct styled value
    is rendered once, not once per row."""
    from rich.cells import cell_len, set_cell_size

    from playground.cli.render import kind_text
    from playground.history.queries import LocalTimes

    top, kinds = shape  # kinds: (type, outcome, router), a handful
    widths = [
        max(2, len(str(top))),
        19,
        max([4, *(len(t) for t, _, _ in kinds)]),
        max([7, *(len(o or "-") for _, o, _ in kinds)]),
        max([6, *(len(r or "-") for _, _, r in kinds)]),
    ]

    def styled(text: Any, plain: str, width: int) -> str:
        if console.no_color or console.color_system is None:
            return plain.ljust(width)
        with console.capture() as capture:
            console.print(text, end="")
        return str(capture.get()) + " " * (width - len(plain))

    id_w, _, type_w, outcome_w, router_w = widths
    middle = {  # "type  outcome  router  ", styled once per distinct value
        (t, o, r): f"{t.ljust(type_w)}  "
        + styled(kind_text(o) if t == "call" else o or "-", o or "-", outcome_w)
        + f"  {(r or '-').ljust(router_w)}  "
        for t, o, r in kinds
    }
    from rich.text import Text

    head = "  ".join(
        title.rjust(w) if justify == "right" else title.ljust(w)
        for (title, justify), w in zip(LIST_COLUMNS, [*widths, 0])
    ).rstrip()
    left = sum(widths) + 2 * len(widths)
    room = console.width - left if console.is_terminal else 0
    rule = "─" * (left + max(room, 4) if room > 0 else left + 4)
    yield styled(Text(head, style="bold"), head, 0) + "\n" + rule
    time_text = LocalTimes().text

    def fitted(what: str, rerun_of: Any) -> str:
        """``what`` and its rerun mark, cut to the room left on a terminal."""
        tail = f"  (rerun of #{rerun_of})" if rerun_of else ""
        if room > 0 and cell_len(what) + len(tail) > room:  # cut the text, keep the tail
            what = set_cell_size(what, max(room - len(tail) - 1, 1)) + "…"
        return what + tail

    for page in pages:
        yield "\n".join(
            [
                f"{entry_id:>{id_w}}  {time_text(created)}  {middle[type_, outcome, router]}"
                + (fitted(what, rerun_of) if room > 0 or rerun_of else what)
                for entry_id, created, type_, outcome, router, what, rerun_of in page
            ]
        )


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
    """List the history, newest first (json/jsonl: each entry with its record or episode;
    --limit 0 lists every entry)."""
    if ctx.invoked_subcommand is not None:
        return
    from playground.history.queries import Query

    with boundary():
        store = _store(history)
        query = Query(
            tool=tool,
            kind=_kind(kind),
            question=question,
            since=_when(since, "--since"),
            limit=limit or None,
        )
        if fmt is OutputFormat.table:
            from playground.cli import render

            shape = store.summary_shape(query)
            pages: Iterable[list[tuple[Any, ...]]] = ()
            if store.damaged:  # sized from the rows that can be read, before the damage
                pages = [list(store.summary_rows(query))]
                shape = _shape_of(pages[0])
            if not shape[1]:
                if store.enabled and not store.damaged:
                    typer.echo(f"no history entries in {store.path}", err=True)
            else:
                pages = pages or store.summary_pages(query)
                write_blocks(_table_blocks(pages, shape, render.console()))
        elif fmt is OutputFormat.jsonl:
            write_lines(store.json_lines(query))
        else:  # one JSON array, an entry a line
            write_lines(_json_array(store.json_lines(query)))
        if store.damaged:  # the rows printed were read; the rest is on a damaged page
            fail(
                f"{store.path} is damaged ({store.damaged}): only the entries listed above "
                "could be read"
            )
        if not store.enabled:  # the file could not be read (a note said why): not "empty"
            fail(f"no history to read at {store.path}")


def _shape_of(rows: list[tuple[Any, ...]]) -> tuple[int, set[tuple[str, str, str]]]:
    """``HistoryStore.summary_shape`` of list rows already read."""
    return max((r[0] for r in rows), default=0), {(r[2], r[3], r[4]) for r in rows}


def _json_array(lines: Iterator[str]) -> Iterator[str]:
    """JSON texts as the lines of one JSON array: ``[``, each item a line (commas between),
    ``]``; ``[]`` when there are none."""
    previous = next(lines, None)
    if previous is None:
        yield "[]"
        return
    yield "["
    for line in lines:
        yield previous + ","
        previous = line
    yield previous
    yield "]"


def show(
    entry_id: IdArgument,
    history: HistoryOption = None,
    fmt: FormatOption = OutputFormat.table,
    html: HtmlOption = None,
) -> None:
    """Show one entry: its record (a call) or episode, the router and the declaration hashes."""
    from playground.cli.html_option import check_html_target, save_html

    with boundary():
        check_html_target(html)
        entry = _entry(_store(history), entry_id)
        from playground.batch.html_report import history_page

        save_html(html, lambda: history_page(entry.to_json()))
        if fmt is OutputFormat.table:
            from rich.console import Group
            from rich.text import Text

            from playground.cli import render

            head = Text.assemble(
                (f"#{entry.id} ", "bold"),
                f"{entry.time_text} · {entry.type}",
                f" · router {entry.router}" if entry.router else "",
                f" · rerun of #{entry.rerun_of}" if entry.rerun_of else "",
                f"\nsource {shown(entry.source)}" if entry.source else "",
                *(f"\n{shown(_server_line(m))}" for m in entry.mcp),
            )
            body = (
                render.record_view(entry.data)
                if entry.type == "call"
                else render.episode_view(entry.data)
            )
            render.console().print(Group(head, body))
        else:
            emit_json(entry.to_json(), fmt)


def _server_line(stored: dict[str, Any]) -> str:
    """How ``history rerun`` reconnects one stored MCP server (``Entry.mcp`` item)."""
    name = stored.get("name", "?")
    if "mcp_config" in stored:
        return f"MCP server {name}: {stored.get('server')} in {stored['mcp_config']}"
    if "mcp_url" in stored:
        headers = ", ".join(stored.get("header_names") or [])
        return f"MCP server {name}: {stored['mcp_url']}" + (
            f" (headers {headers}: values not stored)" if headers else ""
        )
    return f"MCP server {name}: {stored.get('mcp')} (in {stored.get('cwd')})"


def _tools_for(entry: Any, tools: list[Path] | None) -> list[Path] | None:
    """``--tools`` when given, else the entry's own tool modules when they all still exist
    (its ``MCP server NAME`` parts are not paths: the servers come from ``entry.mcp``)."""
    import os

    if tools:
        return tools
    paths = [
        Path(p)
        for p in (entry.source or "").split(os.pathsep)
        if p and not p.startswith("MCP server ")
    ]
    return paths if paths and all(p.exists() for p in paths) else None


@tool_source_options("tools", "mcp_header", "in_process")
def rerun(
    entry_id: IdArgument,
    router: Annotated[
        str | None,
        typer.Option("--router", "-r", help="Router for a question (default: the one it used)."),
    ] = None,
    history: HistoryOption = None,
    no_history: NoHistoryOption = False,
    allow_writes: AllowWritesOption = False,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Run an entry again (same arguments or question), record the new run and compare the two.

    Uses the entry's tool modules unless --tools is given, and reconnects the MCP servers it
    used (the same command, URL or config entry; header values are never stored: give
    --mcp-header again). Prints the fields that changed, where the calls ran when that
    changed, and any changed declaration; exit 0 either way.

    An entry that called a tool that may write (effects write or unknown) is run again only
    with --allow-writes, or after a yes on a terminal; else nothing runs and it exits 2 naming
    the tool. A tool that may write and that the router picks only this time is not run.
    """
    from playground.batch.replay import mcp_specs_for, ran_on
    from playground.batch.replay import rerun as run_again
    from playground.batch.write_guard import run_notes

    with boundary():
        _check_router(router)
        store = _store(history)
        entry = _entry(store, entry_id)
        paths = _tools_for(entry, sources.tools)
        specs, notes = mcp_specs_for(entry.mcp, sources.mcp_header)
        if not entry.mcp and "MCP server " in (entry.source or ""):
            notes.append(
                f"#{entry.id} ran on an MCP server but was recorded before the history kept "
                "how to reconnect it: it runs on the tool modules instead"
            )
        for text in notes:
            note_line(text)
        pg = open_workbench(paths, in_process=sources.in_process, mcp=specs)
        stop_if_nothing_loaded(pg, f"#{entry.id} was not rerun")
        writes = _writes_or_stop(pg, entry, allow_writes)
        chosen = _rerun_router(entry, router)
        result = run_again(
            pg,
            entry.type,
            entry.data,
            entry.hashes,
            chosen,
            hold_writes=not (writes or allow_writes),
        )
        for text in run_notes(entry.type, result.new):
            note_line(text)
        new_id = None
        if not no_history:
            new_id = _record_rerun(store, pg, entry, result.new, paths, specs)
        data = {
            "entry": entry.id,
            "new_entry": new_id,
            "same": not result.drifts,
            "ran_on": {
                "old": ran_on(entry.type, entry.data),
                "new": ran_on(entry.type, result.new),
            },
            "drift": [d.to_json() for d in result.drifts],
            "causes": result.causes,
            "new": result.new,
        }
        if fmt is OutputFormat.table:
            _print_comparison(entry.id, new_id, result, data["ran_on"]["new"])
        else:
            emit_json(data, fmt)
    finish(pg)


def _writes_or_stop(pg: Any, entry: Any, allow_writes: bool) -> list[str]:
    """The tools ``entry`` called that may write (:mod:`playground.batch.write_guard`), when the
    user allows them to run again (``--allow-writes``, a yes on a terminal); else one error line
    naming them and exit 2, nothing run."""
    from playground.batch.write_guard import described, stored_writes
    from playground.cli.write_consent import consent

    writes = stored_writes(pg.registry, entry.type, entry.data)
    if writes and not consent(pg.registry, f"#{entry.id}", allow_writes)(writes):
        error_line(
            f"#{entry.id} was not rerun: it calls {described(pg.registry, writes)}; "
            "pass --allow-writes to run it again"
        )
        finish(pg, ExitCode.USAGE)
    return writes


def _check_router(router: str | None) -> None:
    """Raise :class:`UsageError` naming the routers when ``--router`` names none of them."""
    if router is None:
        return
    from playground.routing import registry as router_registry

    if router not in router_registry.names():
        raise UsageError(
            f"unknown router {router!r}; use one of {', '.join(router_registry.names())}"
        )


def _rerun_router(entry: Any, router: str | None) -> Any:
    """The router an episode is run again with (``--router``, else the one it ran with when
    it is still known, else the default); ``None`` for a call."""
    if entry.type != "episode" or entry.question is None:
        return None
    import os

    from playground.routing import registry as router_registry
    from playground.routing.factory import choose_router

    name = router or (
        entry.router if entry.router in router_registry.names() else router_registry.DEFAULT_ROUTER
    )
    choice = choose_router(name, None, None, os.environ)
    for text in choice.notes:
        note_line(text)
    return choice.router


def _record_rerun(
    store: Any,
    pg: Any,
    entry: Any,
    new: dict[str, Any],
    paths: list[Path] | None,
    specs: list[Any],
) -> int | None:
    """Record the rerun in the history (``origin`` rerun, ``rerun_of`` the entry) with where it
    ran: its tool modules and the servers by the names they gave once connected."""
    import os

    from playground.history.runs import mcp_sources, record_run, source_text

    servers = [
        f"MCP server {s.label[4:]}" for s in pg.registry.sources if s.label.startswith("mcp:")
    ] or [f"MCP server {s.name}" for s in specs]
    module_paths = paths or ([] if specs else [Path("tools")])
    return record_run(
        store,
        pg.registry,
        entry.type,
        new,
        source=os.pathsep.join(p for p in (source_text(module_paths), *servers) if p),
        origin="rerun",
        rerun_of=entry.id,
        mcp=mcp_sources(pg.registry.sources),
    )


def _print_comparison(old_id: int, new_id: int | None, result: Any, ran_on: list[str]) -> None:
    from rich.text import Text

    from playground.cli import render

    out = render.console()
    label = f"#{old_id} → {'#' + str(new_id) if new_id else 'rerun (not recorded)'}"
    if any(s.startswith("mcp:") for s in ran_on):  # where it ran, when that was a server
        label += f" on {', '.join(ran_on)}"
    if not result.drifts:
        out.print(Text.assemble((label, "bold"), ": the same ", ("(no field changed)", "green")))
        return
    out.print(Text.assemble((label, "bold"), f": {len(result.drifts)} field(s) changed"))
    for drift in result.drifts:
        out.print(Text("  " + shown(drift.text()), style="yellow"))
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
        kind = "a check" if entry.type == "call" else "an eval"
        typer.echo(f"saved #{entry.id} as {kind} case: {to} line {line}", err=True)
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
        seen = len(store.notices)
        count = store.clear(when)
        for text in store.notices[seen:]:  # a damaged file moved aside while clearing
            note_line(text)
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
