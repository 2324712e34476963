"""``playground ask "QUESTION"``: route a question, run the calls through the gate, print the episode.

Routers: any registered in :mod:`playground.routing.registry` (``offline``, the default, is
deterministic and explains its choice; ``gemini`` needs ``GEMINI_API_KEY`` or
``GOOGLE_API_KEY``, ``openai`` ``OPENAI_API_KEY``, ``anthropic`` ``ANTHROPIC_API_KEY``;
``openai-compatible`` needs ``--base-url``). The notes a router puts on its moves (retries, a
server's quirks) are printed as ``note:`` lines. A router whose key is missing is an error: one line naming the variable,
exit 2, before any tool is loaded (never a silent run of another router). ``--dry-run``: run nothing — for a router with a dry run
(Gemini) print the exact request it would send (no key needed), for others the first move it
would make. A router error mid-episode ends the episode with a clear reply (exit 0: the episode
printed).
"""

from __future__ import annotations

import functools
import os
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
    fail,
    finish,
    one_line,
    open_history_store,
    record_history,
    stop_if_nothing_loaded,
    tools_paths,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.cli.interrupted import run_episode_kept
from playground.cli.router_options import (
    ApiOption,
    BaseUrlOption,
    ModelOption,
    ModeOption,
    RoutersOption,
    split_router,
)
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.core.canonical import shorten
from playground.core.untrusted import dumps, shown
from playground.routing import registry

if TYPE_CHECKING:
    from playground.workbench import Playground


def note(message: str) -> None:
    """Print ``note: <message>`` as one line on stderr."""
    typer.echo(f"note: {one_line(message)}", err=True)


def _top_scores(explanation: Any, n: int = 3) -> str:
    rows = (explanation or {}).get("tools") if isinstance(explanation, dict) else None
    if not isinstance(rows, list):
        return ""
    scored = [
        r
        for r in rows
        if isinstance(r, dict) and isinstance(r.get("score"), (int, float)) and r["score"] > 0
    ]
    return (
        ", ".join(f"{r.get('name')} {r['score']:.2f}" for r in scored[:n])
        or "no tool scored above 0"
    )


def _args_text(args: Any) -> str:
    return dumps(args, default=repr)


def _moves_table(moves: list[dict[str, Any]]) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(title="moves", box=box.SIMPLE_HEAD, title_justify="left")
    for col in ("#", "move", "chosen", "top scores", "why"):
        table.add_column(col, overflow="fold")
    for i, move in enumerate(moves, start=1):
        explanation = move.get("explanation")
        exp: dict[str, Any] = explanation if isinstance(explanation, dict) else {}
        calls = move.get("calls") or []
        what = (
            "; ".join(f"call {c['name']}({_args_text(c['args'])})" for c in calls)
            or f"text: {shorten(one_line(move.get('text') or ''), 120)}"
        )
        table.add_row(
            str(i),
            shown(what),
            shown(str(exp.get("chosen") or "-")),
            shown(_top_scores(exp)),
            one_line(str(exp.get("reason", ""))),
        )
    return table


def _table_view(data: dict[str, Any]) -> Any:
    from rich.console import Group
    from rich.text import Text

    from playground.cli import render

    trimmed = dict(data)
    trimmed["steps"] = [
        {k: v for k, v in s.items() if v not in (None, [], "") and k not in ("explanation",)}
        for s in data.get("steps") or []
    ]
    parts: list[Any] = []
    if data.get("question") is not None:
        parts.append(Text.assemble(("question ", "bold"), shown(str(data["question"]))))
    if data.get("moves"):
        parts.append(_moves_table(data["moves"]))
    parts.append(render.episode_view(trimmed))
    return Group(*parts)


@tool_source_options()
def ask(
    question: Annotated[str, typer.Argument(help="The customer's question, in any language.")],
    router: RoutersOption = None,
    model: ModelOption = None,
    mode: ModeOption = None,
    base_url: BaseUrlOption = None,
    api: ApiOption = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Show what would be sent (gemini: the exact request) and run nothing."
        ),
    ] = False,
    max_steps: Annotated[
        int, typer.Option("--max-steps", min=1, help="Router moves allowed in the episode.")
    ] = 8,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Write the episode as a golden file (replay it with playground replay FILE).",
            show_default=False,
        ),
    ] = None,
    force: ForceOption = False,
    history: HistoryOption = None,
    no_history: NoHistoryOption = False,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
    html: HtmlOption = None,
) -> None:
    """Ask a question: the router picks tools, the gate runs them, the loop repairs or gives up.

    Prints each router move (table: the chosen tool, top scores and why), each call record and
    the reply; --format json prints the episode (docs/records.md). Exit 2 when the router could
    not answer (the episode is still printed and recorded).
    """
    from playground.routing.synonyms import apply_synonyms

    with boundary():
        _check_question(question)
        check_save_target(save, force)
        check_html_target(html, force=force)
        routers = list(router or [registry.DEFAULT_ROUTER])
        if save is not None and len(routers) > 1:
            fail("--save writes one episode: give one --router")
        # no key for a --router: exit 2 before loading anything (an MCP server, a worker)
        choices = _chosen_routers(routers, model, mode, base_url, api, dry_run)
        pg = sources.open(wire=not dry_run)
        stop_if_nothing_loaded(pg, "the question was not routed")
        from playground.routing.sampling import answer_sampling_with

        answer_sampling_with(pg.registry.sources, lambda: pg.router or choices[0].router)
        episodes: list[tuple[str, dict[str, Any]]] = []
        for choice in choices:
            for text in choice.notes:
                note(text)
            apply_synonyms(choice.router, tools_paths(sources.tools))  # synonyms.json beside them
            pg.router = choice.router
            if dry_run:
                _dry_run(pg, question, fmt)
                continue
            if episodes:  # each router's calls run their tools: no answer from the last one's
                pg.gate.cache.clear()
            episodes.append(
                (
                    choice.router.name,
                    _episode(
                        pg, question, max_steps, save, force, sources.tools, history, no_history
                    ),
                )
            )
        if dry_run:
            finish(pg)
            return
        save_html(html, functools.partial(_html_page, question, episodes), force=force)
        _print_episodes(question, episodes, fmt)
    finish(pg, _exit_code(episodes))


def _exit_code(episodes: list[tuple[str, dict[str, Any]]]) -> ExitCode:
    """2 when a router could not answer (refused, not its API, no answer in time; docs/cli.md
    "Exit codes"), else 0: a tool's failure or a give-up after repairs is data."""
    unanswered = any(data.get("end") == "router_error" for _, data in episodes)
    return ExitCode.USAGE if unanswered else ExitCode.OK


def _check_question(question: str) -> None:
    """Fail (exit 2, one line) on an empty question or text no JSON can carry."""
    from playground.core.canonical import JsonInputError, check_text

    if not question.strip():
        fail("the question is empty")
    try:
        check_text(question, "the question")
    except JsonInputError as exc:
        fail(str(exc))


def _chosen_routers(
    routers: list[str],
    model: str | None,
    mode: str | None,
    base_url: str | None,
    api: Any,
    dry_run: bool,
) -> list[Any]:
    """The router choice of each ``--router`` value (``NAME`` or ``NAME:MODEL``); a router
    without its key or URL fails here (exit 2), before anything is loaded."""
    from playground.routing.factory import choose_router

    choices = []
    for value in routers:
        name, own_model = split_router(value)
        url = base_url if len(routers) == 1 or registry.get(name).needs_base_url else None
        choices.append(
            choose_router(
                name, own_model or model, mode, os.environ, dry_run=dry_run, base_url=url, api=api
            )
        )
    return choices


def _html_page(question: str, episodes: list[tuple[str, dict[str, Any]]]) -> str:
    """The ``--html`` page: the episode, or each router's in turn."""
    from playground.batch.html_report import episode_page, episode_sections, render_page

    if len(episodes) == 1:
        return episode_page(episodes[0][1])
    return render_page(
        f"ask: {question}",
        [s for _, d in episodes for s in episode_sections(d)],
        subtitle=", ".join(f"router {n}" for n, _ in episodes),
    )


def _print_episodes(
    question: str, episodes: list[tuple[str, dict[str, Any]]], fmt: OutputFormat
) -> None:
    """The episodes on stdout: a table view each (under a rule per router when several), or
    the JSON (one episode, or ``{"question", "episodes": [{"router", ...}]}``)."""
    from playground.cli import render

    if len(episodes) == 1:
        data = episodes[0][1]
        if fmt is OutputFormat.table:
            render.console().print(_table_view(data))
        else:
            emit_json(data, fmt)
    elif fmt is OutputFormat.table:
        from rich.rule import Rule

        out = render.console()
        for name, data in episodes:
            out.print(Rule(f"router {name}", align="left"))
            out.print(_table_view(data))
    else:
        emit_json(
            {"question": question, "episodes": [{"router": n, **d} for n, d in episodes]}, fmt
        )


def _episode(
    pg: Playground,
    question: str,
    max_steps: int,
    save: Path | None,
    force: bool,
    tools: Any,
    history: Any,
    no_history: bool,
) -> dict[str, Any]:
    """Run one question episode with ``pg.router``, record it in the history (and ``save`` it),
    print the router's notes; returns the episode JSON."""
    from playground.loop.episode import run_question_episode

    router = pg.router
    assert router is not None  # set by ask() before the episode
    store = open_history_store(history, no_history)
    episode = run_episode_kept(  # ctrl+c, SIGTERM, SIGHUP: the calls so far are kept
        lambda running: run_question_episode(
            pg, question, router, max_steps=max_steps, running=running
        ),
        lambda data: record_history(store, pg, "episode", data, tools),
    )
    data = episode.to_json()
    record_history(store, pg, "episode", data, tools)
    if save is not None:
        from playground.batch.replay import save_golden

        save_golden(save, pg.registry, "episode", data, force=force)
    for move in data.get("moves") or []:  # what the provider did against the request
        for text in move.get("notes") or []:
            note(f"{router.name}: {text}")
    if episode.end == "router_error":
        note(episode.reply)
    return data


def _dry_run(pg: Playground, question: str, fmt: OutputFormat) -> None:
    from playground.routing.base import DryRunRouter, Turn

    conversation = [Turn(role="user", text=question)]
    declarations = pg.registry.declarations()
    router = pg.router
    assert router is not None  # set by ask() before the dry run
    data: dict[str, Any]
    if isinstance(router, DryRunRouter) and router.capabilities.dry_run:
        data = {"router": router.name, "dry_run": router.dry_run(conversation, declarations)}
    else:
        move = router.next_move(conversation, declarations)
        data = {
            "router": router.name,
            "dry_run": None,
            "first_move": move.to_json(),
            "note": "no tool was called; this is the move the router would make first",
        }
    if fmt is OutputFormat.table:
        from playground.cli import render

        title = f"{router.name}: {'the exact request' if data['dry_run'] is not None else 'first move (nothing run)'}"
        render.console().print(
            render.json_block(data["dry_run"] or data["first_move"], title=title)
        )
    else:
        emit_json(data, fmt)


def register(app: typer.Typer) -> None:
    """Add ``ask`` to ``app``."""
    app.command("ask")(ask)
