"""The ``playground`` command: a Typer app, its root callback (no subcommand → the TUI), and
the command modules that register subcommands on it (each has ``register(app)``). See
``playground/cli/common.py`` for the helpers a command uses.

Only typer (and the light ``common`` module) are imported here: textual, google-genai and the
core load inside the command that needs them, so ``playground --help`` starts fast. The
command modules are imported when the app is built (:func:`build_app`): :func:`run` builds it
with only the module of the command named on the command line (``playground call ...`` never
imports the router options of ``ask`` nor builds the other commands), with none when no
command is named (the TUI: ``playground --tools DIR``), and with every module for anything else
(``--help``, a misspelt command, arguments click cannot read); see :func:`command_named`.
``app`` -- every command -- is built on first use.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from playground.cli.common import (
    ExitCode,
    HistoryOption,
    NoHistoryOption,
    boundary,
    check_settings,
    error_line,
    fail,
    guard_stdout,
    interrupt_lines,
    one_line,
    tools_paths,
    wants_in_process,
)
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options

#: Each command name and the module (in ``playground.cli``) that registers it, in the order
#: of ``--help``.
COMMAND_MODULES: dict[str, str] = {
    "list": "cmd_call",
    "show": "cmd_call",
    "call": "cmd_call",
    "ask": "cmd_ask",
    "check": "cmd_check",
    "eval": "cmd_eval",
    "lint": "cmd_lint",
    "probe": "cmd_probe",
    "report": "cmd_report",
    "history": "cmd_history",
    "replay": "cmd_replay",
    "resources": "cmd_mcp",
    "prompts": "cmd_mcp",
    "serve": "cmd_serve",
}


def _version(ctx: typer.Context, value: bool) -> None:
    if value and not ctx.resilient_parsing:  # not while :func:`command_named` reads the line
        from playground import __version__

        typer.echo(f"playground {__version__}")
        raise typer.Exit()


@tool_source_options()
def root(
    ctx: typer.Context,
    sources: ToolSourceOptions = NO_SOURCES,
    history: HistoryOption = None,
    no_history: NoHistoryOption = False,
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = None,
) -> None:
    """Tool Playground. Run without a command to open the TUI."""
    check_settings()  # a bad PLAYGROUND_* value: exit 2 naming it
    if ctx.invoked_subcommand is not None:
        if sources.tools:
            fail(
                f"--tools goes after the command: playground {ctx.invoked_subcommand} --tools PATH"
            )
        if sources.names_servers:
            fail(
                f"the --mcp options go after the command: playground "
                f'{ctx.invoked_subcommand} --mcp "COMMAND ARG..."'
            )
        if history is not None or no_history:
            fail(
                "--history/--no-history go after the command: "
                f"playground {ctx.invoked_subcommand} --history PATH"
            )
        if (
            sources.in_process
        ):  # ``playground --in-process call ...``: the same as after the command
            os.environ["PLAYGROUND_IN_PROCESS"] = "1"
        guard_stdout()  # stdout carries only the command's data (not the TUI: it owns the terminal)
        from playground.cli.router_notes import show_router_notes

        show_router_notes()  # a model router's retries on stderr as they happen
        return
    with boundary():
        specs = sources.mcp_specs()
    open_tui(
        sources.tools,
        in_process=wants_in_process(sources.in_process),
        history=history,
        no_history=no_history,
        mcp=specs,
    )


def open_tui(
    tools: Sequence[Any] | None,
    in_process: bool = False,
    *,
    history: Any = None,
    no_history: bool = False,
    mcp: Sequence[Any] = (),
) -> None:
    """Start the Textual app (``playground.tui.app.run_tui``), imported here so that the
    subcommands never load textual. ``in_process``: run tool bodies in this process instead of a
    worker process; ``history`` / ``no_history``: the history file, or none; ``mcp``: MCP server
    specs (``--mcp*``; with servers, ./tools is loaded only when ``--tools`` is given). A
    non-zero int the app returns is the exit code."""
    with boundary():
        # The TUI's imports (Textual's alone ~0.1 s) allocate few reference cycles: the
        # collector is off while they run; PlaygroundApp pauses it again from its Load event
        # until the first form (playground.tui.collector).
        gc.disable()
        try:
            run_tui, extra, paths = _tui_started(tools, in_process, history, no_history, mcp)
        finally:
            gc.enable()
        run_tui(tools=paths, in_process=in_process, **extra)


def _tui_started(
    tools: Sequence[Any] | None,
    in_process: bool,
    history: Any,
    no_history: bool,
    mcp: Sequence[Any],
) -> tuple[Any, dict[str, Any], list[str] | None]:
    """:func:`open_tui`'s start: the worker process started (unless bodies run in-process or
    only MCP servers are given) and the TUI's module imported; returns ``(run_tui, its keyword
    arguments, the tool paths)``."""
    extra: dict[str, Any] = {}
    if history is not None:
        extra["history"] = str(history)
    if no_history:
        extra["no_history"] = True
    if mcp:  # MCP servers: ./tools only when --tools is given too
        paths = [str(p) for p in tools] if tools else None
        extra["mcp"] = list(mcp)
    else:
        paths = [str(p) for p in tools_paths(tools)]
        if not wants_in_process(in_process):
            # the worker starts now and imports the tools while Textual is imported and
            # the first screen is built (in parallel on a second core); the app collects
            # its answer when it loads the tools
            from playground.sources.worker import WorkerSource

            extra["source"] = WorkerSource(paths)
    from playground.tui.app import run_tui

    return run_tui, extra, paths


#: :func:`command_named`'s answer when the arguments name no command (the TUI opens).
NO_COMMAND = ""


def build_app(command: str | None = None) -> typer.Typer:
    """The ``playground`` Typer app with the root callback and the commands of every module
    (``command`` ``None`` or not a command name), only those of the module that registers
    ``command`` (see :data:`COMMAND_MODULES`), or none (:data:`NO_COMMAND`). Its options coerce
    without pydantic where typer's result is known (:mod:`playground.cli.quick_params`)."""
    built = _root_app()
    if command == NO_COMMAND:
        return built
    if command in COMMAND_MODULES:
        modules = [COMMAND_MODULES[command]]
    else:
        modules = list(dict.fromkeys(COMMAND_MODULES.values()))
    for name in modules:
        importlib.import_module(f"playground.cli.{name}").register(built)
    from playground.cli.help_text import reflow_help

    reflow_help(built)  # each help paragraph one line: Rich wraps it to the terminal
    return built


def command_named(args: Sequence[str]) -> str | None:
    """Which commands :func:`run` builds for ``args``, read by click against the root's own
    options (so ``--tools call`` is a folder, not the command): the command name when the first
    argument after the root's options is one; :data:`NO_COMMAND` when there is none and no help
    is asked for (``playground --tools DIR``, the TUI: ~40 ms of CPU less than building every
    command); ``None`` -- every command -- for help, a word that names no command (click then
    suggests the nearest) and arguments click cannot read (it then says why, the same way).
    Nothing is run: click's resilient parsing calls no option's callback."""
    if args and args[0] in COMMAND_MODULES:  # the usual line: nothing to read
        return args[0]
    from typer._click.exceptions import ClickException

    try:
        group = typer.main.get_command(_root_app())
        with group.make_context("playground", list(args), resilient_parsing=True) as ctx:
            rest = [*getattr(ctx, "_protected_args", ()), *ctx.args]
    except (ClickException, typer.Exit):
        return None
    if rest:
        return rest[0] if rest[0] in COMMAND_MODULES else None
    return None if {"-h", "--help"} & set(args) else NO_COMMAND


def _root_app() -> typer.Typer:
    """The Typer app with only the root callback (no command registered yet); its options
    coerce without pydantic where typer's result is known (:mod:`playground.cli.quick_params`,
    installed first)."""
    from playground.cli.quick_params import install

    install()
    built = typer.Typer(
        name="playground",
        help=(
            "Tool Playground: hand-test the tools an LLM calls. With no command, opens the TUI "
            "on ./tools. Exit codes: 0 ok, 1 a check failed, 2 usage or load error, 130 "
            "interrupted."
        ),
        invoke_without_command=True,
        no_args_is_help=False,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(root)
    return built


def __getattr__(name: str) -> Any:
    """``app``: every command (built on first use, for typer's ``CliRunner`` and tests)."""
    if name == "app":
        built = build_app()
        globals()["app"] = built
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _stdout_closed() -> bool:
    """Whether typer met a closed stdout (``playground probe X | head -1``): on ``EPIPE``
    outside a command's :func:`~playground.cli.common.boundary` (its last lines, ``finish``) it
    wraps stdout in click's ``PacifyFlushWrapper`` and exits 1 without a word. Every command
    ends a closed pipe the same way: quietly, exit 0 (docs/cli.md, "Exit codes")."""
    from typer._click.utils import PacifyFlushWrapper

    return isinstance(sys.stdout, PacifyFlushWrapper)


def run(argv: Sequence[str] | None = None) -> None:
    """The command line (called by :func:`playground.__main__.main`, the console entry point
    of ``playground`` and ``python -m playground``).

    Runs ``app`` with click's non-standalone mode so that usage errors print as one plain line
    (``error: No such option: --x (see 'playground call --help')``) with exit 2, ^C exits 130,
    and an unexpected exception prints one line (set ``PLAYGROUND_DEBUG=1`` for the traceback).
    Without ``argv`` (the process's entry point) the process then ends without the interpreter's
    teardown (:func:`playground.cli.fast_exit.leave`); with ``argv``, ``SystemExit`` is raised.
    """
    if argv is None:
        from playground.cli.fast_exit import leave

        code: Any = 0
        try:
            run(sys.argv[1:])
        except SystemExit as done:
            code = done.code
        leave(code)  # outside the except clause: the command's frames are freed by now
    from typer._click.exceptions import ClickException  # typer vendors click (typer>=0.29)

    args = list(argv) if argv is not None else sys.argv[1:]
    said = interrupt_lines()
    try:
        command = typer.main.get_command(build_app(command_named(args)))
        rv = command.main(
            args=args,
            prog_name="playground",
            standalone_mode=False,
        )
    except ClickException as exc:
        ctx = getattr(exc, "ctx", None)  # only UsageError and its subclasses carry one
        hint = f" (see '{ctx.command_path} --help')" if ctx else ""
        error_line(f"{one_line(exc.format_message())}{hint}")
        sys.exit(exc.exit_code if exc.exit_code else int(ExitCode.USAGE))
    except (KeyboardInterrupt, typer.Abort):
        error_line("interrupted")
        sys.exit(int(ExitCode.INTERRUPTED))
    except SystemExit:
        if _stdout_closed():  # typer's own broken-pipe exit (1, silent): as boundary() does
            from playground.cli.common import stdout_to_devnull

            stdout_to_devnull()
            sys.exit(int(ExitCode.OK))
        raise
    except Exception as exc:  # a bug: one line unless debugging
        if os.environ.get("PLAYGROUND_DEBUG"):
            raise
        error_line(
            f"internal error: {type(exc).__name__}: {exc} (set PLAYGROUND_DEBUG=1 for the traceback)"
        )
        sys.exit(int(ExitCode.USAGE))
    if rv == ExitCode.INTERRUPTED and interrupt_lines() == said:
        error_line("interrupted")  # a ctrl+c typer caught before any command's boundary
    sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)
