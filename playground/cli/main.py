"""The ``playground`` command: a Typer app, its root callback (no subcommand → the TUI), and
the list of command modules that register subcommands on it.

``app`` is defined before the command modules are imported, so a module may either expose
``register(app)`` (preferred) or do ``from playground.cli.main import app`` at import. See
``playground/cli/common.py`` for the helpers a command uses.

Only typer (and the light ``common`` module) are imported here: textual, google-genai and the
core load inside the command that needs them, so ``playground --help`` starts fast.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from playground.cli.common import (
    ExitCode,
    McpConfigOption,
    McpHeaderOption,
    McpOption,
    McpServerOption,
    McpUrlOption,
    ToolsOption,
    boundary,
    error_line,
    fail,
    guard_stdout,
    mcp_specs,
    one_line,
    tools_paths,
)

PACKAGE = "playground.cli"

# Command modules, in the order their commands appear in --help. A module that does not exist
# (yet) is skipped; any other import error inside it propagates (it is a bug to see).
COMMAND_MODULES: tuple[str, ...] = (
    "cmd_call",  # list, show, call
    "cmd_ask",
    "cmd_check",  # check
    "cmd_eval",
    "cmd_lint",
    "cmd_probe",
    "cmd_report",
    "cmd_tui",
)

app = typer.Typer(
    name="playground",
    help=(
        "Tool Playground: hand-test the tools an LLM calls. With no command, opens the TUI on "
        "./tools. Exit codes: 0 ok, 1 a check failed, 2 usage or load error, 130 interrupted."
    ),
    invoke_without_command=True,
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from playground import __version__

        typer.echo(f"playground {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    tools: ToolsOption = None,
    mcp: McpOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    mcp_config: McpConfigOption = None,
    mcp_server: McpServerOption = None,
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = None,
) -> None:
    """Tool Playground. Run without a command to open the TUI."""
    if ctx.invoked_subcommand is not None:
        if tools:
            fail(
                f"--tools goes after the command: playground {ctx.invoked_subcommand} --tools PATH"
            )
        if mcp or mcp_url or mcp_header or mcp_config or mcp_server:
            fail(
                f"the --mcp options go after the command: playground "
                f'{ctx.invoked_subcommand} --mcp "COMMAND ARG..."'
            )
        guard_stdout()  # stdout carries only the command's data (not the TUI: it owns the terminal)
        return
    with boundary():
        specs = mcp_specs(mcp, mcp_url, mcp_header, mcp_config, mcp_server)
    open_tui(tools, specs)


def open_tui(tools: Sequence[Any] | None, mcp: Sequence[Any] = ()) -> None:
    """Start the Textual app (``playground.tui.app.run_tui(tools=[str, ...])``), imported here.

    Exits 2 with one line when the TUI module (or textual) is missing.
    """
    try:
        from playground.tui.app import run_tui
    except ModuleNotFoundError as exc:
        if exc.name in ("playground.tui.app", "playground.tui"):
            fail(
                "the TUI is not available (playground/tui/app.py is missing); see playground --help"
            )
        fail(f"the TUI cannot start: {exc}")
    except ImportError as exc:
        fail(f"the TUI cannot start: {exc}")
    with boundary():
        if mcp:  # MCP servers: ./tools only when --tools is given too
            paths = [str(p) for p in tools] if tools else None
            result = run_tui(tools=paths, mcp=list(mcp))
        else:
            result = run_tui(tools=[str(p) for p in tools_paths(tools)])
    if isinstance(result, int) and not isinstance(result, bool) and result:
        raise typer.Exit(result)


def load_command_modules(target: typer.Typer, names: Sequence[str] = COMMAND_MODULES) -> list[str]:
    """Import ``playground.cli.<name>`` for each name and call its ``register(target)`` if any.

    Returns the names that loaded. Skips a module only when the module itself is missing
    (``ModuleNotFoundError`` for exactly that name); other errors propagate.
    """
    loaded: list[str] = []
    for name in names:
        full = f"{PACKAGE}.{name}"
        try:
            module = importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name == full:
                continue
            raise
        register = getattr(module, "register", None)
        if callable(register):
            register(target)
        loaded.append(name)
    return loaded


LOADED_COMMANDS: tuple[str, ...] = tuple(load_command_modules(app))


def run(argv: Sequence[str] | None = None) -> None:
    """Console entry point (``playground`` and ``python -m playground``).

    Runs ``app`` with click's non-standalone mode so that usage errors print as one plain line
    (``error: No such option: --x (see 'playground call --help')``) with exit 2, ^C exits 130,
    and an unexpected exception prints one line (set ``PLAYGROUND_DEBUG=1`` for the traceback).
    """
    try:  # recent typer vendors click as typer._click; older versions use click itself
        from typer._click.exceptions import ClickException
    except ImportError:  # pragma: no cover
        from click.exceptions import ClickException

    command = typer.main.get_command(app)
    try:
        rv = command.main(
            args=list(argv) if argv is not None else None,
            prog_name="playground",
            standalone_mode=False,
        )
    except ClickException as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if getattr(exc, "ctx", None) else ""
        error_line(f"{one_line(exc.format_message())}{hint}")
        sys.exit(exc.exit_code if exc.exit_code else int(ExitCode.USAGE))
    except (KeyboardInterrupt, typer.Abort):
        error_line("interrupted")
        sys.exit(int(ExitCode.INTERRUPTED))
    except Exception as exc:  # a bug: one line unless debugging
        if os.environ.get("PLAYGROUND_DEBUG"):
            raise
        error_line(
            f"internal error: {type(exc).__name__}: {exc} (set PLAYGROUND_DEBUG=1 for the traceback)"
        )
        sys.exit(int(ExitCode.USAGE))
    sys.exit(rv if isinstance(rv, int) and not isinstance(rv, bool) else 0)
