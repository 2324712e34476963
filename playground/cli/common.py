"""Shared options, exit codes and helpers for every ``playground`` subcommand.

Importing this module is cheap (typer only; no rich, textual, google-genai or core): the
playground core is imported inside :func:`open_workbench`, at command run time, so that
``playground --help`` stays fast.

How to write a command module (``playground/cli/cmd_<name>.py``)
================================================================

1. Add each command name with the module to ``COMMAND_MODULES`` in ``playground/cli/main.py``
   (the order of ``--help``).
2. Define the command functions at module level and a ``register(app: typer.Typer) -> None``
   that adds them (``app.command("eval")(eval_cases)``).
3. Inside the command::

       @tool_source_options()                     # --tools, --mcp*, --in-process, ...
       def eval_cases(cases: Annotated[Path, typer.Argument(...)],
                      sources: ToolSourceOptions = NO_SOURCES,
                      fmt: FormatOption = OutputFormat.table) -> None:
           with boundary():                       # PlaygroundError -> exit 2, ^C -> 130
               pg = sources.open()                # prints load problems on stderr
               ...                                # the work; data to stdout
               if fmt is OutputFormat.table:
                   from playground.cli import render   # rich, imported lazily
                   render.console().print(...)
               else:
                   emit_json(data, fmt)
           finish(pg, ExitCode.FAILED if some_failed else ExitCode.OK)

   ``fail(message)`` prints one ``error: ...`` line on stderr and exits 2 (or the code given).
   ``finish(pg, code)`` exits with ``code``, raised to 2 when the registry had load problems.

Output format choice: ``table`` is the default whether or not stdout is a terminal (the same
command prints the same thing in a pipe; scripts ask for ``--format json``/``jsonl``
explicitly). Rich drops colours by itself when stdout is not a terminal.

Exit codes (docs/design.md, "Command line"): see :class:`ExitCode`. A tool's failure (an invalid
argument verdict, a bad result) is data, not an exit code: ``call`` exits 0 when it printed
the record. When several apply, the largest wins (load problems 2 beat a failed check 1).
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum, IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TextIO

import typer

from playground.core.untrusted import dumps, shown
from playground.errors import PlaygroundError

if TYPE_CHECKING:  # pragma: no cover
    from playground.workbench import Playground

DEFAULT_TOOLS: tuple[str, ...] = ("tools",)


class ExitCode(IntEnum):
    """Process exit codes of every subcommand (docs/design.md, "Command line")."""

    OK = 0  # success (a tool's failure shown as data is still success)
    FAILED = 1  # a check or threshold failed
    USAGE = 2  # usage error, load error (bad --tools, a tool module that does not import)
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)


class OutputFormat(str, Enum):
    """``--format``: ``table`` (Rich, for people), ``json`` (one document, indent 2) or
    ``jsonl`` (one compact JSON object a line). JSON keeps Hangul as is (``ensure_ascii=False``)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"


FormatOption = Annotated[
    OutputFormat,
    typer.Option(
        "--format",
        "-f",
        help="Output: table (for people), json (one document) or jsonl (one JSON object a line).",
        case_sensitive=False,
    ),
]


class CiFormat(str, Enum):
    """``--format`` of the commands a CI job runs (``eval``, ``replay``): the
    :class:`OutputFormat` ones plus ``junit`` (JUnit XML)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"


CiFormatOption = Annotated[
    CiFormat,
    typer.Option(
        "--format", "-f", help="table, json, jsonl or junit (JUnit XML).", case_sensitive=False
    ),
]


HistoryOption = Annotated[
    Path | None,
    typer.Option(
        "--history",
        help="The history file (default .playground/history.db, or $PLAYGROUND_HISTORY).",
        show_default=False,
    ),
]

NoHistoryOption = Annotated[
    bool,
    typer.Option("--no-history", help="Do not record this run in the history."),
]

ForceOption = Annotated[
    bool,
    typer.Option(
        "--force", help="Overwrite the --save file when it exists (never a folder or device)."
    ),
]


def check_save_target(path: Path | None, force: bool) -> None:
    """Refuse ``--save PATH`` before anything runs: an existing file without ``--force``, or a
    folder, device, FIFO or socket at all (:func:`playground.batch.outfiles.refuse_existing`).
    Raises :class:`UsageError` (exit 2)."""
    if path is not None:
        from playground.batch.outfiles import refuse_existing

        refuse_existing(path, force=force)


def warning_line(message: str) -> None:
    """Print ``warning: <message>`` as ONE line on stderr: a fault that does not fail the
    command (a tool source that works despite it)."""
    typer.echo(f"warning: {one_line(message)}", err=True)


def note_line(message: str) -> None:
    """Print ``note: <message>`` as ONE line on stderr."""
    typer.echo(f"note: {one_line(message)}", err=True)


def open_history_store(path: Path | None, disabled: bool = False, *, quiet: bool = False) -> Any:
    """The :class:`~playground.history.store.HistoryStore` chosen by ``--history`` /
    ``--no-history`` / ``PLAYGROUND_HISTORY`` (``None`` when off); its notices (a file refused
    or moved aside, history off because the folder is read-only) print as ``note:`` lines on
    stderr, unless ``quiet`` (they stay in the store's ``notices``)."""
    from playground.history.store import open_history

    return open_history(path, disabled=disabled, notice=None if quiet else note_line)


def record_history(
    store: Any, pg: Playground, kind: str, data: Any, tools: Iterable[Path | str] | None
) -> int | None:
    """Record one call record or episode of a hand test (never fails the command).

    The stored source is the tool module paths, then ``MCP server NAME`` for each MCP server;
    an MCP-only run stores no module path. The servers are kept apart for ``history rerun`` to
    reconnect them (``history.runs.mcp_sources``: the command, URL or config file, never a
    header value, an env value or a key)."""
    if store is None:
        return None
    from playground.history.runs import mcp_sources, record_run, source_text

    servers = [  # no ":" in them: the parts are joined with os.pathsep
        f"MCP server {s.label[4:]}" for s in pg.registry.sources if s.label.startswith("mcp:")
    ]
    paths = tools_paths(tools) if (tools or not servers) else []
    source = os.pathsep.join(part for part in (source_text(paths), *servers) if part)
    return record_run(
        store,
        pg.registry,
        kind,
        data,
        source=source,
        origin="cli",
        mcp=mcp_sources(pg.registry.sources),
    )


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of spaces collapsed to single spaces, shown by
    the rule for untrusted text (:func:`playground.core.untrusted.shown`: control characters as
    ``\\x1b``-style escapes, bidi and invisible characters as ``<U+202E>`` marks)."""
    return " ".join(shown(text).split())


#: how many ``error: interrupted…`` lines this process has printed (see :func:`interrupt_lines`)
_interrupt_lines = 0


def error_line(message: str) -> None:
    """Print ``error: <message>`` as ONE line on stderr."""
    global _interrupt_lines
    if message.startswith("interrupted"):
        _interrupt_lines += 1
    typer.echo(f"error: {one_line(message)}", err=True)


def interrupt_lines() -> int:
    """How many ``error: interrupted…`` lines this process has printed so far. Typer turns a
    ctrl+c outside a command's :func:`boundary` (while the arguments are parsed, say) into a
    silent exit code 130; :func:`playground.cli.main.run` compares the count before and after
    a command and prints the line when none came."""
    return _interrupt_lines


def fail(message: str, code: int = ExitCode.USAGE) -> NoReturn:
    """Print ``error: <message>`` on stderr and exit with ``code`` (default 2)."""
    error_line(message)
    raise typer.Exit(int(code))


@contextmanager
def boundary() -> Iterator[None]:
    """The command boundary: domain errors become one stderr line and an exit code.

    :class:`~playground.errors.PlaygroundError` (LoadError, UsageError, RouterError) → exit 2;
    ``KeyboardInterrupt`` → ``error: interrupted``, exit 130. ``typer.Exit`` passes through.
    A broken pipe (``playground list | head``) ends quietly with exit 0.
    """
    try:
        yield
    except PlaygroundError as exc:
        fail(str(exc) or type(exc).__name__, ExitCode.USAGE)
    except KeyboardInterrupt:
        fail("interrupted", ExitCode.INTERRUPTED)
    except BrokenPipeError:  # pragma: no cover - needs a real pipe
        stdout_to_devnull()
        raise typer.Exit(int(ExitCode.OK)) from None


def stdout_to_devnull() -> None:
    """The reader of stdout went away (``playground list | head -1``): point stdout's file
    descriptor at ``/dev/null``, so what is still buffered (and the flush at exit) goes nowhere
    instead of raising ``BrokenPipeError`` again ("Exception ignored …" on stderr)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        pass  # not a file (a test runner's capture): nothing is flushed to a pipe
    finally:
        os.close(devnull)


def tools_paths(tools: Iterable[Path | str] | None) -> list[Path]:
    """The ``--tools`` values, or ``[Path("tools")]`` when none were given."""
    given = [Path(p) for p in (tools or [])]
    return given or [Path(p) for p in DEFAULT_TOOLS]


def wants_in_process(flag: bool = False) -> bool:
    """``--in-process`` given, or ``PLAYGROUND_IN_PROCESS`` set to ``1``/``true``/``yes``/``on``
    (a value that is not a switch raises :class:`~playground.errors.UsageError`)."""
    from playground.core.settings import setting

    return flag or bool(setting("PLAYGROUND_IN_PROCESS", False))


def check_settings() -> None:
    """Check the ``PLAYGROUND_*`` environment variables before a command or the TUI runs
    (:func:`playground.core.settings.check_environment`): a bad value is one error line and
    exit 2; a name that is not a setting is a ``note:`` line."""
    from playground.core.settings import check_environment

    with boundary():
        for text in check_environment():
            note_line(text)


def open_workbench(
    tools: Iterable[Path | str] | None,
    *,
    wire: bool = True,
    in_process: bool = False,
    mcp: Sequence[Any] = (),
) -> Playground:
    """Load the tool modules and the MCP servers and build a
    :class:`~playground.workbench.Playground`.

    Bodies run in a worker process unless ``in_process`` (``--in-process``) or
    ``PLAYGROUND_IN_PROCESS=1``. ``mcp``: :class:`~playground.sources.mcp_config.McpServerSpec`
    values (:meth:`~playground.cli.source_options.ToolSourceOptions.mcp_specs`); each server
    is a tool source of the registry; with servers and no ``--tools``, ./tools is not loaded. Each load problem is printed at once on stderr as
    ``error: <where>: <message>``, each load warning (a server that logged to stdout) as
    ``warning: <where>: <message>``, each renamed clash as ``note: ...``; the command goes on
    with what loaded, and :func:`finish` turns the exit code into 2 at the end (and ends the
    worker and the servers).
    """
    pending = None
    if mcp:  # the servers boot while the rest of the playground is imported and loaded
        from playground.sources.mcp_source import start_mcp_servers

        pending = start_mcp_servers(mcp)
    in_process = wants_in_process(in_process)
    if tools or not mcp:
        paths = tools_paths(tools)
        source = None
        if not in_process:  # the worker boots and imports the tools while the gate imports here
            from playground.sources.worker import WorkerSource

            source = WorkerSource(paths)
        from playground.workbench import open_playground

        pg = open_playground(paths, wire=wire, in_process=in_process, source=source)
    else:  # only MCP servers: no ./tools
        from playground.core.gate import Gate
        from playground.core.registry import Registry
        from playground.workbench import Playground

        registry = Registry()
        pg = Playground(registry=registry, gate=Gate(registry, wire=wire), in_process=in_process)
    if pending is not None:
        from playground.sources.mcp_source import add_mcp_servers

        _, choices = add_mcp_servers(pg.registry, pending)
        for choice in choices:
            note_line(choice)
    for problem in pg.registry.problems:
        error_line(f"{problem.where}: {problem.message}")
    for warning in pg.registry.warnings:  # said, but the command still succeeds (exit 0)
        warning_line(f"{warning.where}: {warning.message}")
    return pg


def nothing_loaded(pg: Playground) -> str:
    """The line printed when no contract loaded and no load problem says why."""
    sources = [s.label for s in pg.registry.sources]
    return f"no tool loaded: {', '.join(sources) or 'no tool source'} declared none"


def stop_if_nothing_loaded(pg: Playground, what: str) -> None:
    """End the command with exit 2 before it runs anything when no contract loaded.

    ``what`` says what was not done (``"the call was not run"``, ...). A call or a
    question over an empty registry would only produce ``unknown_tool`` records and history
    entries that hide the real cause (the load problems printed above, or a source that
    declared no tool). Returns normally when at least one contract is registered; else raises
    ``typer.Exit(2)`` after one ``error:`` line.
    """
    if pg.registry.contracts:
        return
    said = "no tool loaded (see the errors above)" if pg.registry.problems else nothing_loaded(pg)
    error_line(f"{said}; {what}")
    finish(pg, ExitCode.USAGE)


def exit_code(pg: Playground | None, code: int = ExitCode.OK, *, load_problems: bool = True) -> int:
    """``code``, raised to 2 when ``pg`` had load problems (the larger code wins) and
    ``load_problems`` says they count."""
    if load_problems and pg is not None and pg.registry.problems:
        return max(int(code), int(ExitCode.USAGE))
    return int(code)


def finish(pg: Playground | None, code: int = ExitCode.OK, *, load_problems: bool = True) -> None:
    """End a command: print a ``warning:`` line for each non-protocol text an MCP server wrote
    to stdout during the command (``McpSource.unsaid_noise``), close ``pg``'s tool sources
    (ends the worker process), then return normally for 0, else raise ``typer.Exit`` with
    :func:`exit_code`. ``load_problems=False``: a module or server that did not load (its
    ``error:`` line printed at load) does not make the exit code 2 — a ``call`` of a tool that
    loaded, ran and was recorded succeeded (docs/cli.md, "Exit codes")."""
    final = exit_code(pg, code, load_problems=load_problems)
    if pg is not None:
        for source in pg.registry.sources:  # an MCP server's stdout noise during the calls
            unsaid = getattr(source, "unsaid_noise", None)
            for line in unsaid() if unsaid is not None else []:
                warning_line(line)
        pg.close()
    if final:
        raise typer.Exit(final)


def dump_json(data: Any, *, compact: bool = False) -> str:
    """JSON text of ``data``, Hangul as is; ``compact``: one line. Non-JSON objects via ``repr``.
    Control, bidi and invisible characters inside strings are JSON ``\\uXXXX`` escapes
    (:func:`playground.core.untrusted.json_shown`): the same values, and nothing a terminal acts on.

    Always strict JSON (RFC 8259): a NaN or ±Infinity that reached here (the playground
    refuses them on input and in results, so only a value built by hand) is written as the
    string ``"NaN"`` / ``"Infinity"`` / ``"-Infinity"`` rather than as the bare token
    ``json.dumps`` would emit and no strict parser reads.
    """
    options: dict[str, Any] = {"separators": (", ", ": ")} if compact else {"indent": 2}
    try:
        return dumps(data, default=repr, allow_nan=False, **options)
    except ValueError:  # a non-finite float somewhere
        return dumps(_finite(data), default=repr, allow_nan=False, **options)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def guard_stdout() -> None:
    """Keep the process's stdout for the command's data, whatever a tool body does.

    Called once per process by the root callback before a subcommand runs, only when
    ``sys.stdout`` is the real file descriptor 1 (never under a test runner's capture):
    file descriptor 1 is pointed at stderr, so output written below Python's ``sys.stdout``
    (``os.write(1, ...)``, a child process a tool starts) lands on stderr instead of in the
    middle of ``--format json``; the data goes to a duplicate of the original descriptor.
    Both streams write UTF-8 with ``backslashreplace``, so a string that is not valid Unicode
    prints as ``\\udcff`` (a valid JSON escape) instead of crashing the command. Text that
    threads other than the main one write to ``sys.stdout`` goes to stderr (see
    :class:`_MainThreadOnly`).
    """
    for stream in (sys.stderr,):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="backslashreplace")
    out = sys.stdout
    real = None
    try:
        if sys.__stdout__ is None or out is not sys.__stdout__ or out.fileno() != 1:
            return
        out.flush()
        real = os.dup(1)
        data = open(  # noqa: SIM115 - lives as long as the process
            real,
            "w",
            encoding="utf-8",
            errors="backslashreplace",
            buffering=1 if os.isatty(real) else -1,
            closefd=True,
        )
        os.dup2(2, 1)
    except (AttributeError, ValueError, OSError):
        if real is not None:
            with contextlib.suppress(OSError):
                os.close(real)
        return
    sys.stdout = _MainThreadOnly(data)


class _MainThreadOnly(io.TextIOBase):
    """The command's stdout: text written by the main thread goes to ``data``; text written by
    any other thread (a thread a tool body started, which the gate's per-call capture does not
    see) goes to ``sys.stderr``, so it cannot split a JSON document in two. Terminal queries
    (``isatty``, ``fileno``, ``encoding``) answer for ``data``, so Rich still sees a terminal."""

    def __init__(self, data: TextIO) -> None:
        self._data = data

    def write(self, text: str) -> int:
        if threading.current_thread() is threading.main_thread():
            return self._data.write(text)
        return sys.stderr.write(text)

    def flush(self) -> None:
        self._data.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._data.isatty()

    def fileno(self) -> int:
        return self._data.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._data.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self._data.errors

    def close(self) -> None:
        self._data.close()
        super().close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._data, name)


def emit_json(data: Any, fmt: OutputFormat) -> None:
    """Print ``data`` on stdout: indented for ``json``, one line for ``jsonl``."""
    typer.echo(dump_json(data, compact=fmt is OutputFormat.jsonl))


def emit_json_lines(items: Iterable[Any]) -> None:
    """Print each item as one compact JSON line on stdout."""
    for item in items:
        typer.echo(dump_json(item, compact=True))
