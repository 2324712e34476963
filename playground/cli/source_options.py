"""The tool-source options, declared once and shared by every command that loads tools.

``--tools``, the ``--mcp*`` options, ``--root``, ``--elicit`` and ``--in-process`` say where the
tool bodies run (:mod:`playground.sources`). Each is declared here once, as an ``Annotated``
alias; a command takes them all (or the few it uses) through :func:`tool_source_options`,
which puts the options into the command's signature where its ``sources`` parameter stands
(so ``--help`` lists them there) and hands the command one :class:`ToolSourceOptions`::

    @tool_source_options()
    def check(cases: ..., sources: ToolSourceOptions = NO_SOURCES, fmt: FormatOption = ...):
        pg = open_workbench(sources.tools, mcp=sources.mcp_specs(), in_process=sources.in_process)

Typer has no option groups; this is the group. Importing this module is cheap (typer only).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:  # pragma: no cover
    from playground.workbench import Playground

ToolsOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--tools",
        "-t",
        help="A tool module (.py) or a folder of them. Repeat to load several. Default: ./tools",
        show_default=False,
    ),
]
McpOption = Annotated[
    list[str] | None,
    typer.Option(
        "--mcp",
        help='An MCP server to start over stdio: "COMMAND ARG..." (repeatable; combines with '
        "--tools). Without --tools, ./tools is then not loaded.",
        show_default=False,
    ),
]
McpUrlOption = Annotated[
    list[str] | None,
    typer.Option(
        "--mcp-url", help="An MCP server over Streamable HTTP (repeatable).", show_default=False
    ),
]
McpHeaderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--mcp-header",
        help='An HTTP header for the --mcp-url servers: "Name: value" (repeatable; never printed).',
        show_default=False,
    ),
]
McpConfigOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--mcp-config",
        help="A JSON file in the mcpServers shape of Claude Desktop, Cursor or VS Code "
        '({"mcpServers": {name: {command, args, env} | {url, headers}}}).',
        show_default=False,
    ),
]
McpServerOption = Annotated[
    list[str] | None,
    typer.Option(
        "--mcp-server",
        help="Use only this entry of the --mcp-config file(s) (repeatable).",
        show_default=False,
    ),
]
McpTimeoutOption = Annotated[
    float | None,
    typer.Option(
        "--mcp-timeout",
        help="Time limit of each MCP tool call in milliseconds (as mcpServers files write "
        "'timeout'); each progress notification starts it again. Default 10000.",
        show_default=False,
    ),
]
McpMaxTotalOption = Annotated[
    float | None,
    typer.Option(
        "--mcp-max-total",
        help="Longest an MCP call may run while progress keeps resetting its limit, in "
        "milliseconds. Default 60000.",
        show_default=False,
    ),
]
McpToolTimeoutOption = Annotated[
    list[str] | None,
    typer.Option(
        "--mcp-tool-timeout",
        help="TOOL=MS: the time limit of one MCP tool's calls (repeatable).",
        show_default=False,
    ),
]
McpRootOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--root",
        help="A folder offered to the MCP servers as a root (repeatable; without it no roots are "
        "offered, so a server keeps the folders it was started with).",
        show_default=False,
    ),
]
McpElicitOption = Annotated[
    Path | None,
    typer.Option(
        "--elicit",
        help='A JSON file answering the servers\' elicitation requests: {"action": "accept", '
        '"content": {...}} or just the content object. Without it requests are declined.',
        show_default=False,
    ),
]
McpLogLevelOption = Annotated[
    str | None,
    typer.Option(
        "--mcp-log-level",
        help="Ask each MCP server that offers logging for messages from this level up "
        "(logging/setLevel: debug, info, notice, warning, error, ...); they show in the MCP log.",
        show_default=False,
    ),
]
McpProtocolOption = Annotated[
    str | None,
    typer.Option(
        "--mcp-protocol",
        help="The MCP protocol era: 'handshake' (the 2025 initialize handshake) or 'auto' "
        "(server/discover first: the 2026-07-28 stateless era when the server speaks it, else "
        "the handshake). Default: PLAYGROUND_MCP_PROTOCOL, else handshake. The version spoken "
        "shows in list and in records.",
        show_default=False,
    ),
]
InProcessOption = Annotated[
    bool,
    typer.Option(
        "--in-process",
        help="Run tool bodies in this process instead of an isolated worker process (for a "
        "debugger: breakpoint() in a body stops in pdb). A crashing or hung body can then take "
        "the playground down. Also set by PLAYGROUND_IN_PROCESS=1.",
    ),
]


@dataclass(frozen=True)
class ToolSourceOptions:
    """The tool-source options of one command line, as given (``None`` / ``False``: not given).

    ``tools``: the ``--tools`` paths. ``mcp`` / ``mcp_url`` / ``mcp_header`` / ``mcp_config`` /
    ``mcp_server``: the MCP servers and how to reach them. ``mcp_timeout`` / ``mcp_max_total``:
    milliseconds; ``mcp_tool_timeout``: ``TOOL=MS`` items. ``root``: folders offered as MCP
    roots. ``elicit``: the elicitation answers file. ``mcp_log_level``: the
    ``logging/setLevel`` level. ``mcp_protocol``: the protocol era (``handshake`` / ``auto``).
    ``in_process``: ``--in-process`` (see
    :func:`playground.cli.common.wants_in_process` for the environment variable).
    """

    tools: ToolsOption = None
    mcp: McpOption = None
    mcp_url: McpUrlOption = None
    mcp_header: McpHeaderOption = None
    mcp_config: McpConfigOption = None
    mcp_server: McpServerOption = None
    mcp_timeout: McpTimeoutOption = None
    mcp_max_total: McpMaxTotalOption = None
    mcp_tool_timeout: McpToolTimeoutOption = None
    root: McpRootOption = None
    elicit: McpElicitOption = None
    mcp_log_level: McpLogLevelOption = None
    mcp_protocol: McpProtocolOption = None
    in_process: InProcessOption = False

    @property
    def names_servers(self) -> bool:
        """Whether any option names an MCP server (``--mcp``, ``--mcp-url``, ``--mcp-header``,
        ``--mcp-config`` or ``--mcp-server``)."""
        return bool(
            self.mcp or self.mcp_url or self.mcp_header or self.mcp_config or self.mcp_server
        )

    def mcp_specs(self) -> list[Any]:
        """The MCP servers the ``--mcp*`` options name
        (:func:`playground.sources.mcp_config.server_specs`), ``[]`` when none. A malformed
        option or config file, or a time limit given without a server, raises
        :class:`~playground.errors.UsageError` (exit 2)."""
        if not self.names_servers:
            if (
                self.mcp_timeout is not None
                or self.mcp_max_total is not None
                or self.mcp_tool_timeout
            ):
                from playground.errors import UsageError

                raise UsageError(
                    "--mcp-timeout and --mcp-tool-timeout apply to MCP servers; none given"
                )
            return []
        from playground.sources.mcp_config import server_specs

        return server_specs(
            commands=self.mcp or (),
            urls=self.mcp_url or (),
            headers=self.mcp_header or (),
            configs=self.mcp_config or (),
            only=self.mcp_server or (),
            timeout_ms=self.mcp_timeout,
            max_total_ms=self.mcp_max_total,
            tool_timeouts=self.mcp_tool_timeout or (),
            roots=self.root or (),
            elicit_file=self.elicit,
            log_level=self.mcp_log_level,
            protocol=self.mcp_protocol,
        )

    def open(self, *, wire: bool = True) -> Playground:
        """Load the ``--tools`` modules and start the MCP servers these options name
        (:func:`playground.cli.common.open_workbench`: load problems printed on stderr).
        ``wire``: build provider views for every record."""
        from playground.cli.common import open_workbench

        return open_workbench(
            self.tools, wire=wire, in_process=self.in_process, mcp=self.mcp_specs()
        )


#: The options that name MCP servers (the subset ``resources`` and ``prompts`` take).
MCP_SERVER_OPTIONS = ("mcp", "mcp_url", "mcp_header", "mcp_config", "mcp_server")
#: Every tool-source option, in the order ``--help`` lists them.
ALL_OPTIONS = tuple(f.name for f in dataclasses.fields(ToolSourceOptions))
#: The default of a command's ``sources`` parameter (replaced by the options it stands for).
NO_SOURCES = ToolSourceOptions()
#: The name of the parameter :func:`tool_source_options` replaces.
PARAMETER = "sources"

_Command = TypeVar("_Command", bound=Callable[..., Any])
_HINTS = typing.get_type_hints(ToolSourceOptions, include_extras=True)


def tool_source_options(*names: str) -> Callable[[_Command], _Command]:
    """A decorator for a Typer command taking ``sources: ToolSourceOptions``: the command's
    signature (what Typer reads) gets the options ``names`` (default: all of them, in
    :data:`ALL_OPTIONS` order) in place of ``sources``; when Typer calls it, they are gathered
    into one :class:`ToolSourceOptions` (options not in ``names`` keep their defaults).
    Raises :class:`TypeError` at import time when the command has no ``sources`` parameter or
    a name is not an option."""
    chosen = names or ALL_OPTIONS
    unknown = sorted(set(chosen) - set(ALL_OPTIONS))
    if unknown:
        raise TypeError(f"not tool-source options: {', '.join(unknown)}")
    defaults = {f.name: f.default for f in dataclasses.fields(ToolSourceOptions)}

    def decorate(command: _Command) -> _Command:
        signature = inspect.signature(command)
        if PARAMETER not in signature.parameters:
            raise TypeError(f"{command.__name__} has no {PARAMETER!r} parameter")
        hints = typing.get_type_hints(command, include_extras=True)
        params: list[inspect.Parameter] = []
        for param in signature.parameters.values():
            if param.name != PARAMETER:
                params.append(
                    param.replace(
                        kind=inspect.Parameter.KEYWORD_ONLY,
                        annotation=hints.get(param.name, param.annotation),
                    )
                )
                continue
            for name in chosen:
                params.append(
                    inspect.Parameter(
                        name,
                        inspect.Parameter.KEYWORD_ONLY,
                        default=defaults[name],
                        annotation=_HINTS[name],
                    )
                )

        @functools.wraps(command)
        def run(**given: Any) -> Any:
            options = ToolSourceOptions(**{name: given.pop(name) for name in chosen})
            return command(**given, **{PARAMETER: options})

        run.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=params, return_annotation=hints.get("return", signature.return_annotation)
        )
        run.__annotations__ = {p.name: p.annotation for p in params}
        if "return" in hints:
            run.__annotations__["return"] = hints["return"]
        del run.__wrapped__  # Typer must read the signature above, not the command's
        return typing.cast(_Command, run)

    return decorate
