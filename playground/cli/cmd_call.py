"""``playground list``, ``show NAME`` and ``call NAME [k=v | k:=json ...] [--args JSON]``.

Arguments follow HTTPie (docs/design.md, "Command line"; https://httpie.io/docs/cli/non-string-json-fields):
``name=value`` is the string ``value``; ``name:=json`` is raw JSON (``limit:=3``, ``ok:=true``,
``tags:='["a"]'``). ``--args JSON`` gives the whole arguments value at once, object or not.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from playground.cli.common import (
    ExitCode,
    ForceOption,
    FormatOption,
    HistoryOption,
    NoHistoryOption,
    OutputFormat,
    boundary,
    check_save_target,
    emit_json,
    emit_json_lines,
    error_line,
    fail,
    finish,
    note_line,
    nothing_loaded,
    open_history_store,
    record_history,
    stop_if_nothing_loaded,
)
from playground.cli.interrupted import run_episode_kept, stopped_how
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.core.outcome import OutcomeKind
from playground.core.registry import unknown_tool_message
from playground.errors import UsageError

if TYPE_CHECKING:
    from playground.loop.episode import Episode
    from playground.workbench import Playground

# ---------------------------------------------------------------------------------------------
# argument items (no typer/rich: usable by any front end)


def parse_item(item: str) -> tuple[str, Any]:
    """Parse one HTTPie-style item: ``name=value`` → ``(name, "value")``; ``name:=json`` →
    ``(name, parsed JSON)``. The first ``=`` splits; a ``:`` right before it marks raw JSON.

    Raises :class:`UsageError` naming the item when there is no ``=``, the name is empty, the
    item is not valid UTF-8, or the text after ``:=`` is not JSON as
    :func:`playground.core.canonical.parse_json` reads it (no NaN, no repeated key, at most
    100 levels deep).
    """
    from playground.core.canonical import JsonInputError, check_text

    try:
        check_text(item, f"argument {_shown(item)}")
    except JsonInputError as exc:
        raise UsageError(str(exc)) from None
    name, sep, value = item.partition("=")
    if not sep:
        raise UsageError(f"argument {item!r} is not name=value (a string) or name:=json (raw JSON)")
    raw = name.endswith(":")
    if raw:
        name = name[:-1]
    if not name:
        raise UsageError(f"argument {item!r} has no name before {':=' if raw else '='}")
    if not raw:
        return name, value
    from playground.core.canonical import parse_json

    try:
        return name, parse_json(value)
    except JsonInputError as exc:
        raise UsageError(
            f"argument {_shown(item)}: the text after ':=' is {_reason(exc)}; for a string write {name}=..."
        ) from None


def _shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters (a 10 MB argument must not
    become a 10 MB error line)."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _reason(exc: Exception) -> str:
    text = str(exc)
    if text.startswith("not valid JSON: "):
        return f"not JSON ({text[len('not valid JSON: ') :]})"
    return text if text.startswith("not ") else f"refused: {text}"


def build_call_args(items: Sequence[str] | None, args_json: str | None) -> Any:
    """The arguments value of ``call``: ``--args`` parsed as JSON (any value), with the items
    merged into it (an item replaces the same key of ``--args``); ``{}`` when neither is given.

    Raises :class:`UsageError` when ``--args`` is not JSON, is not an object while items
    are also given, or two items name the same argument (``day=a day=b``).
    """
    from playground.core.canonical import JsonInputError, check_text, parse_json

    base: Any = {}
    if args_json is not None:
        try:
            base = parse_json(check_text(args_json, "--args"))
        except JsonInputError as exc:
            text = str(exc)
            if not text.startswith("--args"):
                text = (
                    f"--args is {text}" if text.startswith("not ") else f"--args is refused: {text}"
                )
            raise UsageError(text) from None
    parsed = [parse_item(item) for item in items or []]
    seen: dict[str, str] = {}
    for item, (name, _) in zip(items or [], parsed):
        if name in seen:  # which one is meant? (a JSON object may not repeat a key either)
            raise UsageError(
                f"argument {name!r} is given twice ({_shown(seen[name], 30)} and "
                f"{_shown(item, 30)}); give it once"
            )
        seen[name] = item
    if parsed:
        if not isinstance(base, dict):
            raise UsageError(
                f"--args is a JSON {type(base).__name__ if base is not None else 'null'}, not an object, "
                "so name=value arguments cannot be merged into it"
            )
        base = dict(base)
        for name, value in parsed:
            base[name] = value
    return base


def contract_summary(contract: Any) -> dict[str, Any]:
    """One ``list`` row: ``{name, origin, side_effects, effects (read|write|unknown),
    effects_basis (declared|annotations|inferred|unknown), effects_evidence, idempotent,
    cacheable, caches, timeout_s (s), description (its first sentence), required [arg], arguments
    [arg], source}``; an MCP tool adds ``protocol_version`` (negotiated with its server) and
    ``transport``."""
    from playground.cli.render import first_line

    params = contract.parameters or {}
    return {
        "name": contract.name,
        "origin": contract.origin,
        "side_effects": bool(contract.side_effects),
        "effects": contract.effects,
        "effects_basis": contract.effects_basis,
        "effects_evidence": contract.effects_evidence,
        "idempotent": bool(contract.idempotent),
        "cacheable": bool(contract.cacheable),
        "caches": bool(contract.caches),
        "timeout_s": contract.timeout_s,
        "description": first_line(contract.description),
        "required": list(params.get("required") or []),
        "arguments": list((params.get("properties") or {}).keys()),
        "source": contract.source,
    } | _mcp_summary(contract)


def _mcp_summary(contract: Any) -> dict[str, Any]:
    source = contract.tool_source
    version = getattr(source, "protocol_version", None)
    if not contract.source.startswith("mcp:") or version is None:
        return {}
    return {"protocol_version": version, "transport": source.spec.transport}


# ---------------------------------------------------------------------------------------------
# commands


@tool_source_options()
def list_tools(
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
    no_history: NoHistoryOption = False,  # as call takes it; a listing records nothing anyway
) -> None:
    """List the loaded tools: name, origin, side effects, caching, time limit, required args."""
    with boundary():
        pg = sources.open(wire=False)
        rows = [contract_summary(c) for c in pg.registry.contracts.values()]
        if not rows:  # an empty table would read as "fine, nothing here": say why, exit 2
            if fmt is OutputFormat.json:
                emit_json([], fmt)
            if not pg.registry.problems:  # else the problem lines above say why
                error_line(nothing_loaded(pg))
            finish(pg, ExitCode.USAGE)
            return
        if fmt is OutputFormat.table:
            from playground.cli import render

            render.console().print(render.contracts_table(rows))
            for server in dict.fromkeys(
                f"{r['source']}: MCP protocol {r['protocol_version'] or '?'} over {r['transport']}"
                for r in rows
                if "protocol_version" in r
            ):
                render.console().print(server, highlight=False, markup=False)
        elif fmt is OutputFormat.jsonl:
            emit_json_lines(rows)
        else:
            emit_json(rows, fmt)
    finish(pg)


class Provider(str, Enum):
    """The providers whose declaration ``show`` can print."""

    gemini = "gemini"
    anthropic = "anthropic"
    openai = "openai"
    openai_compatible = "openai-compatible"


_DECLARATION_TITLES = {
    Provider.gemini: "as a Gemini request carries it: one of tools[].functionDeclarations",
    Provider.anthropic: "the Anthropic tool: name, description, input_schema",
    Provider.openai: "the OpenAI Responses function tool: type, name, description, parameters, strict",
    Provider.openai_compatible: "the Chat Completions function tool (openai-compatible, openai "
    "--api chat): type, function{name, description, parameters}",
}


@tool_source_options()
def show(
    name: Annotated[str, typer.Argument(help="The tool name (see playground list).")],
    provider: Annotated[
        Provider,
        typer.Option(
            "--provider",
            help="Whose declaration to print, exactly as a request to it carries it: gemini "
            "(a functionDeclarations entry), anthropic (name, description, input_schema), "
            "openai (a Responses function tool) or openai-compatible (a Chat Completions "
            "function tool, as openai --api chat sends too).",
        ),
    ] = Provider.gemini,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Show the declaration the model reads, exactly as a request to --provider carries it
    (built by the same function as the request), and what that provider cannot carry.

    json/jsonl print only that declaration (what it cannot carry: note lines on stderr);
    table adds those notes, the returns schema and the flags.
    """
    with boundary():
        pg = sources.open(wire=False)
        contract = pg.registry.get(name)
        if contract is None:
            fail(unknown_tool_message(name, pg.registry.names()))
        from playground.routing.declarations import provider_declaration

        shown = provider_declaration(provider.value, contract.declaration())
        if fmt is OutputFormat.table:
            from playground.cli import render

            render.console().print(
                render.contract_view(
                    contract_summary(contract),
                    shown.body,
                    contract.returns,
                    title=_DECLARATION_TITLES[provider],
                    notes=shown.notes,
                    cache_reason=contract.cache_skip_reason,
                )
            )
        else:
            for text in shown.notes:
                note_line(f"{contract.name}: {text}")
            emit_json(shown.body, fmt)
    finish(pg)


@tool_source_options()
def call(
    name: Annotated[str, typer.Argument(help="The tool name.")],
    items: Annotated[
        list[str] | None,
        typer.Argument(
            help="Arguments: name=value (a string) or name:=json (raw JSON, e.g. limit:=3).",
            show_default=False,
        ),
    ] = None,
    args_json: Annotated[
        str | None,
        typer.Option(
            "--args",
            help="The whole arguments value as JSON (object or not); items are merged into it.",
        ),
    ] = None,
    repair: Annotated[
        bool,
        typer.Option("--repair", help="Run the repair loop on a failure and print the episode."),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Write the record (with --repair: the episode) as a golden file to replay later.",
            show_default=False,
        ),
    ] = None,
    force: ForceOption = False,
    history: HistoryOption = None,
    no_history: NoHistoryOption = False,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Call one tool through the gate and print the record: verdict, body, cache, outcome, wire JSON.

    A failed call is data: the exit code is 0 whenever the record was printed. A name that is
    not registered is a usage error: one line naming the closest registered names, exit 2,
    nothing run or kept in the history (with --repair the loop may re-route it to a registered
    tool: exit 2 only when it could not).
    """
    with boundary():
        args = build_call_args(items, args_json)
        check_save_target(save, force)
        store = open_history_store(history, no_history)
        pg = sources.open()
        stop_if_nothing_loaded(pg, "the call was not run")
        if not repair and name not in pg.registry:  # a typo is no call: nothing to keep
            error_line(unknown_tool_message(name, pg.registry.names()))
            finish(pg, ExitCode.USAGE)
        if repair:
            _call_with_repair(pg, name, args, _Keeping(store, sources.tools, save, force), fmt)
            return
        _call_once(pg, name, args, _Keeping(store, sources.tools, save, force), fmt)
    finish(pg, load_problems=False)  # the call ran: another module's load error is not its


@dataclass(frozen=True)
class _Keeping:
    """Where a run is kept: the history ``store`` (``None``: not recorded), the ``--tools``
    paths it names, and the ``--save`` golden file (overwritten only with ``force``)."""

    store: Any
    tools: Any
    save: Path | None
    force: bool


def _call_with_repair(
    pg: Playground, name: str, args: Any, keeping: _Keeping, fmt: OutputFormat
) -> None:
    """``call --repair``: run the repair loop from this call, keep and print the episode; exit
    2 when ``name`` is not registered and the loop could not re-route it, else end normally."""
    from playground.loop.episode import run_manual_episode

    episode = run_episode_kept(  # ctrl+c, SIGTERM, SIGHUP: the calls so far are kept
        lambda running: run_manual_episode(pg, name, args, running),
        lambda data: record_history(keeping.store, pg, "episode", data, keeping.tools),
    )
    _keep(
        keeping.store, pg, "episode", episode.to_json(), keeping.tools, keeping.save, keeping.force
    )
    _print_episode(episode, fmt)
    if name not in pg.registry and not episode.ok:
        # as without --repair: an unregistered name the loop could not re-route is exit 2
        error_line(unknown_tool_message(name, pg.registry.names()))
        finish(pg, ExitCode.USAGE)
    finish(pg, load_problems=False)


def _call_once(pg: Playground, name: str, args: Any, keeping: _Keeping, fmt: OutputFormat) -> None:
    """One call of a registered tool through the gate (MCP progress shown live), kept and
    printed; exit 130 for a call whose record says ctrl+c cancelled it. A
    ``KeyboardInterrupt`` out of the gate is kept in the history as ``cancelled`` and
    re-raised."""
    from playground.cli.mcp_progress import live_progress

    # what a record of the call stopped mid-body keeps (core.cancelled): its id, the runs before
    started = (pg.gate.next_call_id(), time.perf_counter(), pg.gate.body_runs[name])
    try:
        with live_progress(pg):
            record = pg.gate.call(name, args, started[0])
    except (KeyboardInterrupt, SystemExit) as ending:
        # ctrl+c during the body (exit 130), or SIGTERM / SIGHUP (``__main__``): keep what happened
        _keep_cancelled(keeping.store, pg, name, args, started, keeping.tools, stopped_how(ending))
        raise
    _keep(keeping.store, pg, "call", record.to_json(), keeping.tools, keeping.save, keeping.force)
    if fmt is OutputFormat.table:
        from playground.cli import render

        render.console().print(render.record_view(record))
    else:
        emit_json(record.to_json(), fmt)
    if record.kind == OutcomeKind.CANCELLED:  # ctrl+c: the record is printed, then 130
        finish(pg, ExitCode.INTERRUPTED)


def _keep(
    store: Any, pg: Playground, kind: str, data: Any, tools: Any, save: Path | None, force: bool
) -> None:
    """Record the run in the history and, with ``--save``, write it as a golden file (over an
    existing file only with ``--force``)."""
    record_history(store, pg, kind, data, tools)
    if save is not None:
        from playground.batch.replay import save_golden

        save_golden(save, pg.registry, kind, data, force=force)


def _keep_cancelled(
    store: Any,
    pg: Playground,
    name: str,
    args: Any,
    started: tuple[str, float, int],
    tools: Any,
    how: str,
) -> None:
    """Record a call stopped by ``how`` (``"ctrl+c"``, a signal ending the playground:
    :func:`~playground.cli.interrupted.stopped_how`) in the history as kind ``cancelled``,
    built by :func:`playground.core.cancelled.cancelled_record` from ``started`` (the call id,
    the ``perf_counter`` start, the tool's body runs before it); the worker that ran the body is
    ended as the command exits."""
    from playground.core.cancelled import cancelled_record

    call_id, at, runs_before = started
    record = cancelled_record(
        pg.gate, name, args, call_id=call_id, started=at, runs_before=runs_before, how=how
    )
    with contextlib.suppress(Exception):  # never in the way of the exit
        record_history(store, pg, "call", record.to_json(), tools)


def _print_episode(episode: Episode, fmt: OutputFormat) -> None:
    data = episode.to_json()
    if fmt is OutputFormat.table:
        from playground.cli import render

        render.console().print(render.episode_view(data))
    else:
        emit_json(data, fmt)


def register(app: typer.Typer) -> None:
    """Add ``list``, ``show`` and ``call`` to ``app``."""
    app.command("list")(list_tools)
    app.command("show")(show)
    app.command("call")(call)
