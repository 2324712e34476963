"""``playground resources [URI]`` and ``playground prompts [NAME] [k=v ...]``: what MCP servers
offer besides tools (issue 21, item 6), so that a ``resource_link`` in a result can be opened.

``resources`` lists every server's resources and resource templates; with a URI it reads that
resource (``resources/read``) from the server that lists it (else from each server until one
answers). ``prompts`` lists the prompts; with a NAME it gets that prompt (``prompts/get``) with
the ``k=v`` arguments. Output is the servers' JSON (``--format json``) or a short table.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from playground.cli.common import (
    FormatOption,
    OutputFormat,
    boundary,
    emit_json,
    fail,
    finish,
    open_workbench,
)
from playground.cli.source_options import (
    MCP_SERVER_OPTIONS,
    NO_SOURCES,
    ToolSourceOptions,
    tool_source_options,
)
from playground.errors import UsageError


def _servers(sources: ToolSourceOptions) -> Any:
    specs = sources.mcp_specs()
    if not specs:
        raise UsageError("give an MCP server: --mcp, --mcp-url or --mcp-config")
    pg = open_workbench([], wire=False, mcp=specs)
    return pg, [s for s in pg.registry.sources if hasattr(s, "request")]


def _print(data: Any, fmt: OutputFormat) -> None:
    if fmt is OutputFormat.table:
        from playground.cli import render

        render.console().print_json(data=data)
    else:
        emit_json(data, fmt)


@tool_source_options(*MCP_SERVER_OPTIONS)
def resources(
    uri: Annotated[str | None, typer.Argument(help="A resource URI to read.")] = None,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """List the MCP servers' resources and templates, or read the resource at URI."""
    with boundary():
        pg, servers = _servers(sources)
        if uri is None:
            data: Any = {s.label: s.request("resources/list") for s in servers}
        else:
            errors, data = [], None
            for source in servers:
                try:
                    data = {source.label: source.request("resources/read", uri=uri)}
                    break
                except Exception as exc:
                    errors.append(str(exc))
            if data is None:
                fail("; ".join(errors) or f"no server could read {uri}")
        _print(data, fmt)
    finish(pg)


@tool_source_options(*MCP_SERVER_OPTIONS)
def prompts(
    name: Annotated[str | None, typer.Argument(help="A prompt to get.")] = None,
    items: Annotated[
        list[str] | None, typer.Argument(help="The prompt's arguments as k=v.", show_default=False)
    ] = None,
    sources: ToolSourceOptions = NO_SOURCES,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """List the MCP servers' prompts, or get prompt NAME with k=v arguments."""
    with boundary():
        arguments = {}
        for item in items or []:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise UsageError(f"prompt argument {item!r}: expected k=v")
            arguments[key] = value
        pg, servers = _servers(sources)
        listed = {s.label: s.request("prompts/list") for s in servers}
        if name is None:
            data: Any = listed
        else:
            owner = next(
                (s for s in servers if any(p["name"] == name for p in listed[s.label]["prompts"])),
                None,
            )
            if owner is None:
                names = [p["name"] for v in listed.values() for p in v["prompts"]]
                fail(f"no prompt named {name!r}; the servers list: {', '.join(names) or '(none)'}")
            data = {owner.label: owner.request("prompts/get", name=name, arguments=arguments)}
        _print(data, fmt)
    finish(pg)


def register(app: typer.Typer) -> None:
    """Add ``resources`` and ``prompts`` to ``app``."""
    app.command("resources")(resources)
    app.command("prompts")(prompts)
